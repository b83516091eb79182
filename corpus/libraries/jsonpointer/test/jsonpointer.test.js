import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  PointerError,
  unescapeToken,
  escapeToken,
  parse,
  compile,
  get,
  has,
  set,
  remove,
} from '../src/jsonpointer.js';

function rfcDoc() {
  return {
    foo: ['bar', 'baz'],
    '': 0,
    'a/b': 1,
    'c%d': 2,
    'e^f': 3,
    'g|h': 4,
    'i\\j': 5,
    'k"l': 6,
    ' ': 7,
    'm~n': 8,
  };
}

describe('jsonpointer', () => {
  describe('tokens', () => {
    it('unescapes ~1 before ~0', () => {
      assert.equal(unescapeToken('a~1b'), 'a/b');
      assert.equal(unescapeToken('m~0n'), 'm~n');
      assert.equal(unescapeToken('~01'), '~1');
      assert.equal(unescapeToken('plain'), 'plain');
    });

    it('rejects invalid escapes', () => {
      assert.throws(() => unescapeToken('a~2'), PointerError);
      assert.throws(() => unescapeToken('trailing~'), /Invalid escape/);
      let caught = null;
      try {
        unescapeToken('~9');
      } catch (err) {
        caught = err;
      }
      assert.ok(caught instanceof Error);
      assert.equal(caught.name, 'PointerError');
    });

    it('escapes tilde and slash', () => {
      assert.equal(escapeToken('~1'), '~01');
      assert.equal(escapeToken('a/b~c'), 'a~1b~0c');
      assert.equal(escapeToken(3), '3');
    });
  });

  describe('parse and compile', () => {
    it('parses pointers into tokens', () => {
      assert.deepEqual(parse(''), []);
      assert.deepEqual(parse('/'), ['']);
      assert.deepEqual(parse('/foo/0'), ['foo', '0']);
      assert.deepEqual(parse('/a~1b/m~0n'), ['a/b', 'm~n']);
    });

    it('rejects pointers without a leading slash or non strings', () => {
      assert.throws(() => parse('foo'), /start with/);
      assert.throws(() => parse(5), PointerError);
    });

    it('compile is the inverse of parse', () => {
      assert.equal(compile([]), '');
      assert.equal(compile(['a/b', 'm~n', '']), '/a~1b/m~0n/');
      assert.deepEqual(parse(compile(['x', '~/'])), ['x', '~/']);
    });
  });

  describe('get', () => {
    it('resolves the RFC 6901 examples', () => {
      const doc = rfcDoc();
      assert.deepEqual(get(doc, ''), doc);
      assert.deepEqual(get(doc, '/foo'), ['bar', 'baz']);
      assert.equal(get(doc, '/foo/0'), 'bar');
      assert.equal(get(doc, '/foo/1'), 'baz');
      assert.equal(get(doc, '/'), 0);
      assert.equal(get(doc, '/a~1b'), 1);
      assert.equal(get(doc, '/c%d'), 2);
      assert.equal(get(doc, '/ '), 7);
      assert.equal(get(doc, '/m~0n'), 8);
    });

    it('throws on missing keys and bad array indices', () => {
      const doc = rfcDoc();
      assert.throws(() => get(doc, '/missing'), /not found/);
      assert.throws(() => get(doc, '/foo/2'), /out of bounds/);
      assert.throws(() => get(doc, '/foo/01'), /Invalid array index/);
      assert.throws(() => get(doc, '/foo/-'), PointerError);
      assert.throws(() => get(doc, '/foo/0/x'), PointerError);
    });

    it('does not follow inherited properties', () => {
      assert.throws(() => get({}, '/toString'), PointerError);
      assert.throws(() => get({ a: null }, '/a/b'), PointerError);
      assert.equal(get({ a: null }, '/a'), null);
    });
  });

  describe('has', () => {
    it('reports existence without throwing', () => {
      const doc = rfcDoc();
      assert.equal(has(doc, '/foo/1'), true);
      assert.equal(has(doc, '/foo/2'), false);
      assert.equal(has(doc, '/k"l'), true);
      assert.equal(has(doc, '/nope'), false);
      assert.equal(has(doc, 'bad'), false);
    });
  });

  describe('set', () => {
    it('sets nested object properties', () => {
      const doc = { a: { b: 1 } };
      set(doc, '/a/b', 2);
      set(doc, '/a/c~1d', 3);
      assert.deepEqual(doc, { a: { b: 2, 'c/d': 3 } });
    });

    it('replaces array items and appends with dash', () => {
      const doc = { list: [1, 2] };
      set(doc, '/list/0', 9);
      set(doc, '/list/-', 3);
      set(doc, '/list/3', 4);
      assert.deepEqual(doc.list, [9, 2, 3, 4]);
      assert.throws(() => set(doc, '/list/6', 0), /out of bounds/);
    });

    it('returns the new value for the root pointer', () => {
      assert.equal(set({ a: 1 }, '', 5), 5);
    });

    it('throws when the parent is missing or primitive', () => {
      assert.throws(() => set({}, '/a/b', 1), /not found/);
      assert.throws(() => set({ a: 1 }, '/a/b', 1), /primitive/);
    });
  });

  describe('remove', () => {
    it('removes object keys and array items', () => {
      const doc = { a: 1, list: ['x', 'y', 'z'] };
      assert.equal(remove(doc, '/a'), 1);
      assert.equal(remove(doc, '/list/1'), 'y');
      assert.deepEqual(doc, { list: ['x', 'z'] });
    });

    it('throws for the root and missing paths', () => {
      assert.throws(() => remove({}, ''), /root/);
      assert.throws(() => remove({ a: 1 }, '/b'), PointerError);
      assert.throws(() => remove({ l: [1] }, '/l/1'), /out of bounds/);
      assert.throws(() => remove({ l: [1] }, '/l/-'), /Invalid array index/);
    });
  });
});
