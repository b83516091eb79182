import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, stringify } from '../src/ini.js';

describe('ini', () => {
  describe('parse', () => {
    it('parses root keys and sections', () => {
      const text = 'name = demo\n[server]\nhost = localhost\nport = 8080\n';
      assert.deepEqual(parse(text), { name: 'demo', server: { host: 'localhost', port: 8080 } });
    });

    it('skips blank lines and full line comments', () => {
      const text = '; comment\n# another\n\n  a = 1\n   ; indented comment\n';
      assert.deepEqual(parse(text), { a: 1 });
    });

    it('strips inline comments preceded by a space', () => {
      assert.deepEqual(parse('a = 1 ; note\nb = x # note\nc = x;y\nd = ;all gone'), { a: 1, b: 'x', c: 'x;y', d: '' });
      assert.deepEqual(parse('e=;gone\nf=#gone\ng=12 ;x'), { e: '', f: '', g: 12 });
    });

    it('converts booleans and numbers', () => {
      const out = parse('t = true\ny = YES\non = on\nf = False\nn = no\noff = off\ni = -12\nx = 3.25\nv = 1.2.3');
      assert.deepEqual(out, { t: true, y: true, on: true, f: false, n: false, off: false, i: -12, x: 3.25, v: '1.2.3' });
    });

    it('keeps quoted values as strings with escapes', () => {
      const out = parse('a = "true"\nb = \'42\'\nc = "semi ; colon"\nd = "line\\nbreak"\ne = "say \\"hi\\""\nf = ""');
      assert.deepEqual(out, { a: 'true', b: '42', c: 'semi ; colon', d: 'line\nbreak', e: 'say "hi"', f: '' });
      assert.deepEqual(parse('g = "x" ; note\nh="a;b" # c'), { g: 'x', h: 'a;b' });
    });

    it('does not unquote a single quote character', () => {
      assert.deepEqual(parse('a = "\nb = "x\''), { a: '"', b: '"x\'' });
    });

    it('merges repeated sections and lets later keys win', () => {
      const text = '[s]\na = 1\n[t]\nb = 2\n[s]\na = 3\nc = 4';
      assert.deepEqual(parse(text), { s: { a: 3, c: 4 }, t: { b: 2 } });
    });

    it('handles windows line endings and values containing equals', () => {
      assert.deepEqual(parse('url = a=b\r\n[x]\r\nk=v\r\n'), { url: 'a=b', x: { k: 'v' } });
    });

    it('throws on malformed lines with the line number', () => {
      assert.throws(() => parse('a = 1\njust text'), /line 2/);
      assert.throws(() => parse('= value'), SyntaxError);
      assert.throws(() => parse('[]\na=1'), /section header on line 1/);
      assert.throws(() => parse('[open\na=1'), SyntaxError);
    });

    it('returns an empty object for empty input', () => {
      assert.deepEqual(parse(''), {});
      assert.deepEqual(parse('\n\n; only comments\n'), {});
    });
  });

  describe('stringify', () => {
    it('writes root keys before sections', () => {
      const data = { server: { port: 80 }, name: 'demo' };
      assert.equal(stringify(data), 'name = demo\n\n[server]\nport = 80\n');
    });

    it('does not add a blank line before the first section when there are no root keys', () => {
      assert.equal(stringify({ a: { x: 1 }, b: { y: false } }), '[a]\nx = 1\n\n[b]\ny = false\n');
    });

    it('quotes values that would otherwise change meaning', () => {
      const out = stringify({ a: 'true', b: '42', c: ' pad', d: 'x;y', e: '', f: 'plain text' });
      assert.equal(out, 'a = "true"\nb = "42"\nc = " pad"\nd = "x;y"\ne = ""\nf = plain text\n');
    });

    it('escapes quotes and newlines', () => {
      assert.equal(stringify({ q: 'say "hi"', n: 'a\nb' }), 'q = "say \\"hi\\""\nn = "a\\nb"\n');
    });

    it('returns an empty string for an empty object', () => {
      assert.equal(stringify({}), '');
    });

    it('round trips through parse', () => {
      const data = { title: 'x = y', debug: true, db: { user: 'root', pass: '#secret', port: 5432, ratio: 0.5 } };
      assert.deepEqual(parse(stringify(data)), data);
    });
  });
});
