import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { wrap, splitWords, breakWord, indentText, dedent, longestLine } from '../src/wordwrap.js';

describe('wordwrap', () => {
  describe('splitWords', () => {
    it('splits on any whitespace', () => {
      assert.deepEqual(splitWords('a bb\tccc\nd'), ['a', 'bb', 'ccc', 'd']);
      assert.deepEqual(splitWords('  lead  trail  '), ['lead', 'trail']);
    });

    it('returns an empty list for blank input', () => {
      assert.deepEqual(splitWords(''), []);
      assert.deepEqual(splitWords(' \t\r\n '), []);
    });
  });

  describe('breakWord', () => {
    it('splits a word into fixed-size chunks', () => {
      assert.deepEqual(breakWord('abcdefg', 3), ['abc', 'def', 'g']);
      assert.deepEqual(breakWord('abcdef', 3), ['abc', 'def']);
      assert.deepEqual(breakWord('ab', 5), ['ab']);
      assert.deepEqual(breakWord('abc', 1), ['a', 'b', 'c']);
    });

    it('rejects widths below one', () => {
      assert.throws(() => breakWord('abc', 0), /at least 1/);
      assert.throws(() => breakWord('abc', -2), RangeError);
    });
  });

  describe('wrap', () => {
    it('wraps greedily at the width', () => {
      assert.equal(wrap('the quick brown fox jumps', 10), 'the quick\nbrown fox\njumps');
    });

    it('allows a line of exactly the width', () => {
      assert.equal(wrap('abcd efgh', 9), 'abcd efgh');
      assert.equal(wrap('abcd efgh', 8), 'abcd\nefgh');
    });

    it('leaves short text on a single line and normalises spaces', () => {
      assert.equal(wrap('hello   world', 80), 'hello world');
      assert.equal(wrap('', 10), '');
    });

    it('keeps long words intact unless cut is set', () => {
      assert.equal(wrap('a verylongword b', 5), 'a\nverylongword\nb');
      assert.equal(wrap('a verylongword b', 5, { cut: true }), 'a\nveryl\nongwo\nrd b');
    });

    it('preserves hard line breaks and blank lines', () => {
      assert.equal(wrap('one two\nthree', 20), 'one two\nthree');
      assert.equal(wrap('aa bb\n\ncc dd', 5), 'aa bb\n\ncc dd');
      assert.equal(wrap('aa bb cc\ndd', 5), 'aa bb\ncc\ndd');
    });

    it('applies an indent that counts toward the width', () => {
      assert.equal(wrap('one two three', 9, { indent: '> ' }), '> one two\n> three');
      assert.equal(wrap('a\n\nb', 5, { indent: '  ' }), '  a\n\n  b');
    });

    it('supports a custom newline', () => {
      assert.equal(wrap('aa bb cc', 5, { newline: '\r\n' }), 'aa bb\r\ncc');
    });

    it('validates its arguments', () => {
      assert.throws(() => wrap('x', 0), /positive integer/);
      assert.throws(() => wrap('x', -3), RangeError);
      assert.throws(() => wrap('x', 2.5), RangeError);
      assert.throws(() => wrap(5, 10), TypeError);
      assert.throws(() => wrap('x', 2, { indent: '  ' }), /indent is wider/);
      assert.equal(wrap('x', 3, { indent: '  ' }), '  x');
    });

    it('never produces lines longer than the width when cutting', () => {
      const text = 'lorem ipsum dolor sit amet consectetur adipiscing elit';
      for (let w = 1; w <= 12; w++) {
        assert.ok(longestLine(wrap(text, w, { cut: true })) <= w);
      }
    });
  });

  describe('indentText and dedent', () => {
    it('indentText prefixes non-blank lines', () => {
      assert.equal(indentText('a\n\nb', '  '), '  a\n\n  b');
      assert.equal(indentText('a\n\nb', '- ', false), '- a\n- \n- b');
      assert.equal(indentText('x', '>>'), '>>x');
    });

    it('dedent removes the common leading spaces', () => {
      assert.equal(dedent('    a\n      b\n    c'), 'a\n  b\nc');
      assert.equal(dedent('  a\n\n  b'), 'a\n\nb');
      assert.equal(dedent('a\n  b'), 'a\n  b');
      assert.equal(dedent(''), '');
      assert.equal(dedent('   \n  '), '   \n  ');
      assert.equal(dedent('   x\n      \n   y'), 'x\n   \ny');
    });

    it('longestLine measures the widest line', () => {
      assert.equal(longestLine('a\nabc\nab'), 3);
      assert.equal(longestLine(''), 0);
      assert.equal(longestLine('abcd'), 4);
    });
  });
});
