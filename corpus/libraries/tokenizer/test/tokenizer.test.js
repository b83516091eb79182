import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TokenizeError, tokenize, checkParens, tokenTypes, untokenize } from '../src/tokenizer.js';

describe('tokenizer', () => {
  describe('numbers', () => {
    it('reads integers and decimals with positions', () => {
      assert.deepEqual(tokenize('12 3.5'), [
        { type: 'number', value: 12, start: 0, end: 2 },
        { type: 'number', value: 3.5, start: 3, end: 6 },
      ]);
    });

    it('accepts a leading decimal point', () => {
      assert.deepEqual(tokenize('.25'), [{ type: 'number', value: 0.25, start: 0, end: 3 }]);
      assert.deepEqual(tokenize('.5'), [{ type: 'number', value: 0.5, start: 0, end: 2 }]);
    });

    it('treats 0 and 9 as digits anywhere in a number', () => {
      assert.deepEqual(tokenize('0 9 90.09').map((t) => t.value), [0, 9, 90.09]);
      assert.deepEqual(tokenize('0 9 90.09').map((t) => t.end), [1, 3, 9]);
    });

    it('rejects malformed numbers', () => {
      assert.throws(() => tokenize('1.2.3'), /second decimal point at position 3/);
      assert.throws(() => tokenize('7.'), /end with a decimal point at position 1/);
      assert.throws(() => tokenize('.'), TokenizeError);
    });
  });

  describe('operators and identifiers', () => {
    it('reads every operator', () => {
      const tokens = tokenize('+-*/%^');
      assert.deepEqual(tokens.map((t) => t.value), ['+', '-', '*', '/', '%', '^']);
      assert.ok(tokens.every((t) => t.type === 'operator' && t.end === t.start + 1));
    });

    it('reads identifiers with digits and underscores', () => {
      assert.deepEqual(tokenize('_x1 + rate_2'), [
        { type: 'identifier', value: '_x1', start: 0, end: 3 },
        { type: 'operator', value: '+', start: 4, end: 5 },
        { type: 'identifier', value: 'rate_2', start: 6, end: 12 },
      ]);
    });

    it('accepts the first and last letters of both cases', () => {
      assert.deepEqual(tokenize('a z A Z zA Za').map((t) => t.type === 'identifier' ? t.value : '?'), ['a', 'z', 'A', 'Z', 'zA', 'Za']);
    });

    it('splits a number directly followed by an identifier', () => {
      assert.deepEqual(tokenTypes('2x'), ['number', 'identifier']);
      assert.deepEqual(tokenize('2x')[1], { type: 'identifier', value: 'x', start: 1, end: 2 });
    });

    it('reads parentheses and commas in function calls', () => {
      assert.deepEqual(tokenTypes('max(a, 2)'), ['identifier', 'lparen', 'identifier', 'comma', 'number', 'rparen']);
    });
  });

  describe('whitespace and errors', () => {
    it('skips all kinds of whitespace and tracks positions', () => {
      const tokens = tokenize(' \t1\n+\r 2 ');
      assert.deepEqual(tokens.map((t) => t.start), [2, 4, 7]);
      assert.deepEqual(tokenize('   '), []);
      assert.deepEqual(tokenize(''), []);
    });

    it('throws on unexpected characters with the position', () => {
      assert.throws(() => tokenize('1 + $'), /Unexpected character "\$" at position 4/);
      assert.throws(() => tokenize('a = 1'), TokenizeError);
    });

    it('exposes the error position as a property', () => {
      let caught = null;
      try {
        tokenize('12 & 3');
      } catch (err) {
        caught = err;
      }
      assert.ok(caught instanceof TokenizeError);
      assert.equal(caught.position, 3);
      assert.equal(caught.name, 'TokenizeError');
    });
  });

  describe('checkParens', () => {
    it('accepts balanced and empty input', () => {
      assert.equal(checkParens(tokenize('((1) + (2))')), true);
      assert.equal(checkParens([]), true);
    });

    it('reports unmatched closing parentheses', () => {
      assert.throws(() => checkParens(tokenize('(1))')), /Unmatched closing parenthesis at position 3/);
      assert.throws(() => checkParens(tokenize(')(')), /position 0/);
    });

    it('reports unclosed parentheses at the end of input', () => {
      assert.throws(() => checkParens(tokenize('(1 + 2')), /Unclosed parenthesis at position 6/);
      assert.throws(() => checkParens(tokenize('((')), /position 2/);
    });
  });

  describe('untokenize', () => {
    it('joins tokens with single spaces around operators', () => {
      assert.equal(untokenize(tokenize('1+2*x')), '1 + 2 * x');
      assert.equal(untokenize(tokenize('f( a ,b )')), 'f (a, b)');
      assert.equal(untokenize([]), '');
    });
  });
});
