import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { slugify, transliterate, truncateSlug, isSlug, uniqueSlug } from '../src/slugify.js';

describe('slugify', () => {
  describe('basic slugs', () => {
    it('lowercases and joins words with dashes', () => {
      assert.equal(slugify('Hello World'), 'hello-world');
      assert.equal(slugify('One Two Three'), 'one-two-three');
    });

    it('collapses runs of punctuation and whitespace', () => {
      assert.equal(slugify('Hello,   World!!'), 'hello-world');
      assert.equal(slugify('a -- b __ c'), 'a-b-c');
    });

    it('trims leading and trailing separators', () => {
      assert.equal(slugify('  --Hello--  '), 'hello');
      assert.equal(slugify('!!!x'), 'x');
    });

    it('keeps digits and drops apostrophes', () => {
      assert.equal(slugify("Don't Stop 2 Believe"), 'dont-stop-2-believe');
      assert.equal(slugify('version 10'), 'version-10');
      assert.equal(slugify('Zoo 9 to 0 az'), 'zoo-9-to-0-az');
    });

    it('returns empty string for empty or symbol-only input', () => {
      assert.equal(slugify(''), '');
      assert.equal(slugify('   '), '');
      assert.equal(slugify('?!*'), '');
    });

    it('rejects non-string input', () => {
      assert.throws(() => slugify(42), TypeError);
      assert.throws(() => slugify(null), /expects a string/);
    });
  });

  describe('options', () => {
    it('supports a custom separator', () => {
      assert.equal(slugify('Hello Big World', { separator: '_' }), 'hello_big_world');
      assert.equal(slugify('a b', { separator: '' }), 'ab');
      assert.equal(slugify('ab cd ef', { separator: '', maxLength: 3 }), 'abc');
      assert.throws(() => slugify('a b', { separator: '--' }), /at most one character/);
    });

    it('can preserve case', () => {
      assert.equal(slugify('Hello World', { lowercase: false }), 'Hello-World');
      assert.equal(slugify('Crème Brûlée', { lowercase: false }), 'Creme-Brulee');
    });

    it('truncates at word boundaries with maxLength', () => {
      assert.equal(slugify('the quick brown fox', { maxLength: 12 }), 'the-quick');
      assert.equal(slugify('the quick brown fox', { maxLength: 15 }), 'the-quick-brown');
      assert.equal(slugify('the quick brown fox', { maxLength: 100 }), 'the-quick-brown-fox');
    });
  });

  describe('transliteration', () => {
    it('replaces accented letters', () => {
      assert.equal(slugify('Café déjà vu'), 'cafe-deja-vu');
      assert.equal(slugify('Señor Müller'), 'senor-muller');
      assert.equal(slugify('Straße'), 'strasse');
    });

    it('transliterate keeps the case of the source letter', () => {
      assert.equal(transliterate('Élan'), 'Elan');
      assert.equal(transliterate('Æther'), 'Aether');
      assert.equal(transliterate('æther'), 'aether');
      assert.equal(transliterate('plain'), 'plain');
    });

    it('spells out ampersands', () => {
      assert.equal(slugify('Salt & Pepper'), 'salt-and-pepper');
      assert.equal(transliterate('A&B'), 'AandB');
    });
  });

  describe('truncateSlug', () => {
    it('leaves short slugs alone', () => {
      assert.equal(truncateSlug('abc', 3), 'abc');
      assert.equal(truncateSlug('abc-def', 0), 'abc-def');
      assert.equal(truncateSlug('abc-de', 6), 'abc-de');
      assert.equal(truncateSlug('abc', 1), 'a');
    });

    it('cuts at the last separator inside the limit', () => {
      assert.equal(truncateSlug('abc-def-ghi', 9), 'abc-def');
      assert.equal(truncateSlug('abc-def-ghi', 7), 'abc-def');
      assert.equal(truncateSlug('abc-def-ghi', 8), 'abc-def');
      assert.equal(truncateSlug('a-bcdef', 4), 'a');
      assert.equal(truncateSlug('x_yz', 3, '_'), 'x');
    });

    it('strips trailing separators left by the cut', () => {
      assert.equal(truncateSlug('abc--def', 4), 'abc');
      assert.equal(truncateSlug('abc---def', 5), 'abc');
      assert.equal(truncateSlug('-abcdef', 3), '-ab');
    });

    it('hard-cuts a single long word', () => {
      assert.equal(truncateSlug('abcdefghij', 4), 'abcd');
      assert.equal(truncateSlug('abcdefgh-ij', 4), 'abcd');
    });
  });

  describe('isSlug and uniqueSlug', () => {
    it('isSlug validates slug shape', () => {
      assert.equal(isSlug('hello-world'), true);
      assert.equal(isSlug('a1'), true);
      assert.equal(isSlug('Hello'), false);
      assert.equal(isSlug('-a'), false);
      assert.equal(isSlug('a--b'), false);
      assert.equal(isSlug(''), false);
      assert.equal(isSlug(null), false);
      assert.equal(isSlug('z9'), true);
      assert.equal(isSlug('a-'), false);
      assert.equal(isSlug('a_b', '_'), true);
    });

    it('uniqueSlug appends a counter on collision', () => {
      assert.equal(uniqueSlug('My Post', []), 'my-post');
      assert.equal(uniqueSlug('My Post', ['my-post']), 'my-post-2');
      assert.equal(uniqueSlug('My Post', ['my-post', 'my-post-2', 'my-post-3']), 'my-post-4');
      assert.equal(uniqueSlug('My Post', ['my_post'], { separator: '_' }), 'my_post_2');
    });
  });
});
