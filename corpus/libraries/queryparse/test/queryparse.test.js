import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, stringify, getParam } from '../src/queryparse.js';

describe('queryparse', () => {
  describe('parse', () => {
    it('parses simple key value pairs', () => {
      assert.deepEqual(parse('a=1&b=two'), { a: '1', b: 'two' });
    });

    it('strips a leading question mark and a trailing hash', () => {
      assert.deepEqual(parse('?x=1&y=2#section'), { x: '1', y: '2' });
      assert.deepEqual(parse('?'), {});
      assert.deepEqual(parse('?x'), { x: null });
      assert.deepEqual(parse('#frag'), {});
    });

    it('returns an empty object for empty or non string input', () => {
      assert.deepEqual(parse(''), {});
      assert.deepEqual(parse(null), {});
      assert.deepEqual(parse(undefined), {});
    });

    it('decodes percent escapes and plus signs', () => {
      assert.deepEqual(parse('q=hello+world&e=a%26b%3Dc&n=caf%C3%A9'), { q: 'hello world', e: 'a&b=c', n: 'café' });
      assert.deepEqual(parse('a%20b=1'), { 'a b': '1' });
    });

    it('keeps malformed escapes as they are', () => {
      assert.deepEqual(parse('bad=%E0%A4%A'), { bad: '%E0%A4%A' });
    });

    it('distinguishes empty values from missing values', () => {
      assert.deepEqual(parse('flag&empty=&x=1'), { flag: null, empty: '', x: '1' });
    });

    it('collects repeated keys into arrays', () => {
      assert.deepEqual(parse('t=a&t=b&t=c'), { t: ['a', 'b', 'c'] });
      assert.deepEqual(parse('t=a&u=1&t=b'), { t: ['a', 'b'], u: '1' });
    });

    it('treats bracket keys as arrays even with one value', () => {
      assert.deepEqual(parse('ids[]=1'), { ids: ['1'] });
      assert.deepEqual(parse('ids[]=1&ids[]=2'), { ids: ['1', '2'] });
    });

    it('skips empty segments and empty keys', () => {
      assert.deepEqual(parse('&&a=1&&=5&'), { a: '1' });
    });

    it('only splits on the first equals sign', () => {
      assert.deepEqual(parse('expr=a=b'), { expr: 'a=b' });
    });
  });

  describe('stringify', () => {
    it('builds a query string in key order', () => {
      assert.equal(stringify({ a: 1, b: 'two' }), 'a=1&b=two');
      assert.equal(stringify({}), '');
    });

    it('encodes special characters and spaces', () => {
      assert.equal(stringify({ q: 'hello world', 'a&b': 'x=y' }), 'q=hello+world&a%26b=x%3Dy');
    });

    it('repeats array keys by default and supports brackets', () => {
      assert.equal(stringify({ t: ['a', 'b'] }), 't=a&t=b');
      assert.equal(stringify({ t: ['a', 'b'] }, { arrayFormat: 'brackets' }), 't%5B%5D=a&t%5B%5D=b');
    });

    it('writes null as a bare key and skips undefined', () => {
      assert.equal(stringify({ flag: null, skip: undefined, empty: '', z: 0 }), 'flag&empty=&z=0');
      assert.equal(stringify({ list: [1, undefined, 2] }), 'list=1&list=2');
    });

    it('can sort keys', () => {
      assert.equal(stringify({ b: 2, a: 1, c: 3 }, { sort: true }), 'a=1&b=2&c=3');
      assert.equal(stringify({ b: 2, a: 1 }), 'b=2&a=1');
    });

    it('round trips through parse', () => {
      const params = { name: 'Ana Lopez', tags: ['x', 'y z'], empty: '', flag: null };
      assert.deepEqual(parse(stringify(params)), params);
    });
  });

  describe('getParam', () => {
    it('returns the first value or a fallback', () => {
      assert.equal(getParam('?a=1&a=2', 'a'), '1');
      assert.equal(getParam('?a=1', 'b'), null);
      assert.equal(getParam('?a=1', 'b', 'none'), 'none');
      assert.equal(getParam('?a=', 'a', 'none'), '');
    });
  });
});
