import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  words,
  wordCount,
  sentenceCount,
  charFrequency,
  mostCommonChar,
  longestWord,
  averageWordLength,
  capitalizeWords,
} from '../src/textstats.js';

describe('textstats', () => {
  describe('words and wordCount', () => {
    it('splits on spaces and punctuation', () => {
      assert.deepEqual(words('Hello, world! How are you?'), ['Hello', 'world', 'How', 'are', 'you']);
    });

    it('keeps apostrophes, hyphens and digits inside words', () => {
      assert.deepEqual(words("it's a well-known 42nd fact"), ["it's", 'a', 'well-known', '42nd', 'fact']);
    });

    it('uses exact ASCII letter and digit ranges', () => {
      assert.deepEqual(words('0a9 AZ az'), ['0a9', 'AZ', 'az']);
      assert.deepEqual(words('x/y:z@w[v`u{t'), ['x', 'y', 'z', 'w', 'v', 'u', 't']);
    });

    it('keeps a single letter word at the end of the text', () => {
      assert.deepEqual(words('go to x'), ['go', 'to', 'x']);
      assert.equal(wordCount('a'), 1);
    });

    it('counts zero words in empty or blank text', () => {
      assert.equal(wordCount(''), 0);
      assert.equal(wordCount('   \n\t '), 0);
      assert.equal(wordCount('...!?'), 0);
    });

    it('counts words with irregular spacing', () => {
      assert.equal(wordCount('  one   two\nthree\tfour '), 4);
      assert.equal(wordCount('single'), 1);
    });
  });

  describe('sentenceCount', () => {
    it('counts sentences ending with terminators', () => {
      assert.equal(sentenceCount('One. Two! Three?'), 3);
    });

    it('counts a trailing sentence without a terminator', () => {
      assert.equal(sentenceCount('First one. Second one'), 2);
      assert.equal(sentenceCount('no punctuation at all'), 1);
    });

    it('ignores repeated terminators and empty text', () => {
      assert.equal(sentenceCount('Wait... What?!'), 2);
      assert.equal(sentenceCount(''), 0);
      assert.equal(sentenceCount('...'), 0);
    });
  });

  describe('charFrequency', () => {
    it('counts letters case insensitively and skips whitespace by default', () => {
      assert.deepEqual(charFrequency('Aa b'), { a: 2, b: 1 });
    });

    it('can be case sensitive and include spaces', () => {
      assert.deepEqual(charFrequency('Aa a', { ignoreCase: false, includeSpaces: true }), { A: 1, a: 2, ' ': 1 });
    });

    it('returns an empty object for empty text', () => {
      assert.deepEqual(charFrequency(''), {});
    });

    it('mostCommonChar breaks ties alphabetically', () => {
      assert.equal(mostCommonChar('banana'), 'a');
      assert.equal(mostCommonChar('abab'), 'a');
      assert.equal(mostCommonChar('zzy'), 'z');
      assert.equal(mostCommonChar('cab'), 'a');
      assert.equal(mostCommonChar(''), null);
    });
  });

  describe('longestWord and averageWordLength', () => {
    it('returns the first longest word', () => {
      assert.equal(longestWord('the quick brown fox'), 'quick');
      assert.equal(longestWord('ab cd ef'), 'ab');
      assert.equal(longestWord(''), '');
    });

    it('computes the rounded average word length', () => {
      assert.equal(averageWordLength('a bb ccc'), 2);
      assert.equal(averageWordLength('ab abc'), 2.5);
      assert.equal(averageWordLength('a b bb'), 1.33);
      assert.equal(averageWordLength(''), 0);
    });
  });

  describe('capitalizeWords', () => {
    it('capitalizes the first letter of each word', () => {
      assert.equal(capitalizeWords('hello big world'), 'Hello Big World');
    });

    it('lowercases the rest of each word', () => {
      assert.equal(capitalizeWords('hELLO wORLD'), 'Hello World');
    });

    it('keeps apostrophes inside words and capitalizes after hyphens', () => {
      assert.equal(capitalizeWords("don't stop-me now"), "Don't Stop-Me Now");
    });

    it('preserves punctuation and empty input', () => {
      assert.equal(capitalizeWords('  a.b,c  '), '  A.B,C  ');
      assert.equal(capitalizeWords(''), '');
    });
  });
});
