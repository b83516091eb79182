import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Trie } from '../src/trie.js';

describe('trie', () => {
  describe('insert and has', () => {
    it('finds inserted words but not their prefixes', () => {
      const t = new Trie();
      assert.equal(t.insert('car'), true);
      assert.equal(t.has('car'), true);
      assert.equal(t.has('ca'), false);
      assert.equal(t.has('cart'), false);
    });

    it('does not count duplicates twice', () => {
      const t = new Trie(['a', 'a', 'ab']);
      assert.equal(t.size, 2);
      assert.equal(t.insert('ab'), false);
      assert.equal(t.size, 2);
    });

    it('supports the empty string as a word', () => {
      const t = new Trie();
      assert.equal(t.has(''), false);
      t.insert('');
      assert.equal(t.has(''), true);
      assert.equal(t.size, 1);
    });

    it('rejects non string input', () => {
      const t = new Trie();
      assert.throws(() => t.insert(42), /must be a string/);
      assert.throws(() => t.has(null), /must be a string/);
      assert.throws(() => t.wordsWithPrefix(7), /must be a string/);
      assert.throws(() => t.delete(['a']), /must be a string/);
      assert.throws(() => t.startsWith(1), /must be a string/);
      assert.throws(() => t.countPrefix(5), /must be a string/);
    });
  });

  describe('startsWith and countPrefix', () => {
    it('reports prefixes of stored words', () => {
      const t = new Trie(['apple', 'apply', 'bat']);
      assert.equal(t.startsWith('app'), true);
      assert.equal(t.startsWith('apple'), true);
      assert.equal(t.startsWith('b'), true);
      assert.equal(t.startsWith('c'), false);
      assert.equal(t.startsWith('applex'), false);
    });

    it('empty prefix matches only a non-empty trie', () => {
      assert.equal(new Trie().startsWith(''), false);
      assert.equal(new Trie(['x']).startsWith(''), true);
    });

    it('counts words sharing a prefix', () => {
      const t = new Trie(['to', 'tea', 'ted', 'ten', 'in', 'inn']);
      assert.equal(t.countPrefix('te'), 3);
      assert.equal(t.countPrefix('t'), 4);
      assert.equal(t.countPrefix('in'), 2);
      assert.equal(t.countPrefix(''), 6);
      assert.equal(t.countPrefix('z'), 0);
    });
  });

  describe('wordsWithPrefix', () => {
    it('returns matching words in sorted order', () => {
      const t = new Trie(['ten', 'tea', 'ted', 'to', 'inn']);
      assert.deepEqual(t.wordsWithPrefix('te'), ['tea', 'ted', 'ten']);
      assert.deepEqual(t.wordsWithPrefix('t'), ['tea', 'ted', 'ten', 'to']);
    });

    it('includes the prefix itself when it is a word', () => {
      const t = new Trie(['in', 'inn', 'ink']);
      assert.deepEqual(t.wordsWithPrefix('in'), ['in', 'ink', 'inn']);
    });

    it('respects the limit argument', () => {
      const t = new Trie(['a', 'ab', 'abc', 'abd']);
      assert.deepEqual(t.wordsWithPrefix('a', 2), ['a', 'ab']);
      assert.deepEqual(t.wordsWithPrefix('a', 1), ['a']);
      assert.deepEqual(t.wordsWithPrefix('a', 0), []);
      assert.deepEqual(t.wordsWithPrefix('a', 4), ['a', 'ab', 'abc', 'abd']);
    });

    it('returns an empty list for unknown prefixes', () => {
      const t = new Trie(['hello']);
      assert.deepEqual(t.wordsWithPrefix('world'), []);
      assert.deepEqual(t.wordsWithPrefix('hello!'), []);
    });
  });

  describe('delete', () => {
    it('removes a word and keeps words sharing its prefix', () => {
      const t = new Trie(['tea', 'team', 'ten']);
      assert.equal(t.delete('tea'), true);
      assert.equal(t.has('tea'), false);
      assert.equal(t.has('team'), true);
      assert.equal(t.size, 2);
      assert.equal(t.countPrefix('te'), 2);
    });

    it('prunes branches that are no longer used', () => {
      const t = new Trie(['tea', 'team']);
      assert.equal(t.delete('team'), true);
      assert.equal(t.size, 1);
      assert.equal(t.startsWith('team'), false);
      assert.equal(t.startsWith('tea'), true);
      assert.deepEqual(t.wordsWithPrefix(''), ['tea']);
    });

    it('returns false for words that are not stored', () => {
      const t = new Trie(['tea']);
      assert.equal(t.delete('te'), false);
      assert.equal(t.delete('teas'), false);
      assert.equal(t.size, 1);
      assert.equal(t.countPrefix('t'), 1);
    });

    it('can delete every word and reinsert', () => {
      const t = new Trie(['a', 'b']);
      t.delete('a');
      t.delete('b');
      assert.equal(t.size, 0);
      assert.equal(t.startsWith(''), false);
      t.insert('a');
      assert.deepEqual(t.wordsWithPrefix(''), ['a']);
    });
  });

  describe('longestCommonPrefix', () => {
    it('finds the shared prefix of all words', () => {
      assert.equal(new Trie(['flower', 'flow', 'flight']).longestCommonPrefix(), 'fl');
      assert.equal(new Trie(['interview', 'internet']).longestCommonPrefix(), 'inter');
    });

    it('stops at a word end and handles empty tries', () => {
      assert.equal(new Trie(['ab', 'abc']).longestCommonPrefix(), 'ab');
      assert.equal(new Trie(['dog', 'cat']).longestCommonPrefix(), '');
      assert.equal(new Trie().longestCommonPrefix(), '');
      assert.equal(new Trie(['solo']).longestCommonPrefix(), 'solo');
    });
  });
});
