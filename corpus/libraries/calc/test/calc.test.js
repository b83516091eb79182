import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from '../src/calc.js';
import { lex } from '../src/lexer.js';

describe('calc', () => {
  describe('lexer', () => {
    it('produces tokens with positions and an end marker', () => {
      assert.deepEqual(lex('2+ x'), [
        { type: 'num', value: 2, pos: 0 },
        { type: '+', value: '+', pos: 1 },
        { type: 'name', value: 'x', pos: 3 },
        { type: 'end', value: null, pos: 4 },
      ]);
    });

    it('reads numbers in scientific notation', () => {
      assert.deepEqual(lex('1e3')[0], { type: 'num', value: 1000, pos: 0 });
      assert.equal(lex('2.5E-2')[0].value, 0.025);
      assert.equal(lex('4e+1')[0].value, 40);
      assert.equal(lex('12e-0')[0].value, 12);
    });

    it('treats an e without digits as a name', () => {
      assert.deepEqual(lex('2e').map((t) => t.type), ['num', 'name', 'end']);
      assert.deepEqual(lex('3e+x').map((t) => t.type), ['num', 'name', '+', 'name', 'end']);
      assert.equal(evaluate('2e-1 * 10'), 2);
      assert.equal(evaluate('2 * e', { e: 3 }), 6);
    });

    it('reads every digit and all whitespace kinds', () => {
      assert.equal(evaluate('1234567890 - 9'), 1234567881);
      assert.equal(evaluate('1\t+\n2 +  3'), 6);
      assert.deepEqual(lex('5e0').map((t) => t.type), ['num', 'end']);
      assert.equal(lex('3e9')[0].value, 3000000000);
      assert.equal(lex('1e19')[0].value, 1e19);
      assert.equal(lex('9.09')[0].value, 9.09);
    });

    it('rejects bad characters and malformed numbers', () => {
      assert.throws(() => lex('1 & 2'), /Unexpected character "&" at position 2/);
      assert.throws(() => lex('1.2.3'), /Invalid number "1.2.3" at position 0/);
    });
  });

  describe('arithmetic', () => {
    it('evaluates single numbers and decimals', () => {
      assert.equal(evaluate('42'), 42);
      assert.equal(evaluate('0.5'), 0.5);
      assert.equal(evaluate('.5 + 1'), 1.5);
    });

    it('evaluates each binary operator', () => {
      assert.equal(evaluate('7 + 3'), 10);
      assert.equal(evaluate('7 - 3'), 4);
      assert.equal(evaluate('7 * 3'), 21);
      assert.equal(evaluate('7 / 2'), 3.5);
      assert.equal(evaluate('7 % 3'), 1);
      assert.equal(evaluate('2 ^ 3'), 8);
    });

    it('respects precedence', () => {
      assert.equal(evaluate('2 + 3 * 4'), 14);
      assert.equal(evaluate('2 * 3 + 4'), 10);
      assert.equal(evaluate('10 - 6 / 2'), 7);
      assert.equal(evaluate('2 * 3 ^ 2'), 18);
      assert.equal(evaluate('1 + 10 % 4'), 3);
    });

    it('is left associative for minus and divide', () => {
      assert.equal(evaluate('10 - 4 - 3'), 3);
      assert.equal(evaluate('100 / 10 / 5'), 2);
      assert.equal(evaluate('2 - 3 + 4'), 3);
    });

    it('is right associative for powers', () => {
      assert.equal(evaluate('2 ^ 3 ^ 2'), 512);
      assert.equal(evaluate('2 ^ -1'), 0.5);
    });
  });

  describe('unary and parentheses', () => {
    it('handles unary minus and plus', () => {
      assert.equal(evaluate('-5'), -5);
      assert.equal(evaluate('--5'), 5);
      assert.equal(evaluate('3 - -2'), 5);
      assert.equal(evaluate('+4 * -2'), -8);
    });

    it('applies unary minus after powers', () => {
      assert.equal(evaluate('-2 ^ 2'), -4);
      assert.equal(evaluate('(-2) ^ 2'), 4);
    });

    it('groups with parentheses', () => {
      assert.equal(evaluate('(2 + 3) * 4'), 20);
      assert.equal(evaluate('((1 + 2) * (3 + 4)) - 1'), 20);
      assert.equal(evaluate('-(3 - 5)'), 2);
    });
  });

  describe('variables and functions', () => {
    it('reads variables from the environment', () => {
      assert.equal(evaluate('x * y + 1', { x: 3, y: 4 }), 13);
      assert.equal(evaluate('rate_2 - 1', { rate_2: 0 }), -1);
      assert.throws(() => evaluate('z + 1', { x: 1 }), /Unknown variable: z/);
      assert.throws(() => evaluate('toString'), ReferenceError);
    });

    it('calls built in functions', () => {
      assert.equal(evaluate('abs(-7)'), 7);
      assert.equal(evaluate('max(1, 5, 3)'), 5);
      assert.equal(evaluate('min(4, -2 * 3)'), -6);
      assert.equal(evaluate('sqrt(16) + 1'), 5);
      assert.equal(evaluate('sqrt(0)'), 0);
      assert.equal(evaluate('sqrt(0.25)'), 0.5);
    });

    it('rejects bad function calls', () => {
      assert.throws(() => evaluate('nope(1)'), /Unknown function: nope/);
      assert.throws(() => evaluate('max()'), /at least one argument/);
      assert.throws(() => evaluate('sqrt(-4)'), RangeError);
      assert.throws(() => evaluate('max(1, 2'), /Expected "\)"/);
    });
  });

  describe('errors', () => {
    it('throws on division and modulo by zero', () => {
      assert.throws(() => evaluate('1 / 0'), /Division by zero/);
      assert.throws(() => evaluate('5 % (2 - 2)'), RangeError);
      assert.equal(evaluate('0 / 5'), 0);
    });

    it('throws on empty and incomplete expressions', () => {
      assert.throws(() => evaluate(''), /Empty expression/);
      assert.throws(() => evaluate('   '), SyntaxError);
      assert.throws(() => evaluate('1 +'), /Unexpected token "end" at position 3/);
      assert.throws(() => evaluate('(1 + 2'), /Expected "\)" at position 6/);
    });

    it('throws on trailing tokens', () => {
      assert.throws(() => evaluate('1 2'), /Unexpected token "2" at position 2/);
      assert.throws(() => evaluate('(1))'), /Unexpected token "\)" at position 3/);
      assert.throws(() => evaluate('* 3'), /Unexpected token "\*" at position 0/);
    });
  });
});
