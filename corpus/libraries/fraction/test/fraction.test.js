import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gcd, lcm, Fraction, sum } from '../src/fraction.js';

const f = (n, d) => new Fraction(n, d);

describe('fraction', () => {
  describe('gcd and lcm', () => {
    it('gcd computes the greatest common divisor', () => {
      assert.equal(gcd(12, 18), 6);
      assert.equal(gcd(17, 5), 1);
      assert.equal(gcd(-12, 8), 4);
      assert.equal(gcd(0, 7), 7);
      assert.equal(gcd(7, 0), 7);
      assert.equal(gcd(0, 0), 0);
    });

    it('lcm computes the least common multiple', () => {
      assert.equal(lcm(4, 6), 12);
      assert.equal(lcm(-3, 5), 15);
      assert.equal(lcm(0, 5), 0);
      assert.equal(lcm(5, 0), 0);
      assert.equal(lcm(7, 7), 7);
      assert.equal(lcm(1, 5), 5);
      assert.equal(lcm(5, 1), 5);
      assert.equal(lcm(0, 0), 0);
    });
  });

  describe('construction', () => {
    it('normalises to lowest terms', () => {
      const x = f(6, 8);
      assert.equal(x.num, 3);
      assert.equal(x.den, 4);
      assert.equal(f(10, 5).toString(), '2');
    });

    it('keeps the sign on the numerator', () => {
      assert.equal(f(1, -2).toString(), '-1/2');
      assert.equal(f(-1, -2).toString(), '1/2');
      assert.equal(f(-3, 6).den, 2);
      assert.equal(f(0, -5).toString(), '0');
      assert.equal(f(0, 5).den, 1);
    });

    it('defaults the denominator to one', () => {
      assert.equal(new Fraction(7).toString(), '7');
      assert.equal(new Fraction(7).den, 1);
    });

    it('rejects invalid parts', () => {
      assert.throws(() => f(1, 0), RangeError);
      assert.throws(() => f(1.5, 2), TypeError);
      assert.throws(() => f(1, '2'), /must be integers/);
    });

    it('parses strings', () => {
      assert.equal(Fraction.parse('3/4').toString(), '3/4');
      assert.equal(Fraction.parse(' -10/4 ').toString(), '-5/2');
      assert.equal(Fraction.parse('5').toString(), '5');
      assert.throws(() => Fraction.parse('1/2/3'), SyntaxError);
      assert.throws(() => Fraction.parse('a/2'), /invalid fraction/);
      assert.throws(() => Fraction.parse('1/'), /invalid fraction/);
      assert.throws(() => Fraction.parse('/2'), /invalid fraction/);
      assert.throws(() => Fraction.parse('1/0'), RangeError);
    });
  });

  describe('arithmetic', () => {
    it('adds and subtracts', () => {
      assert.equal(f(1, 2).add(f(1, 3)).toString(), '5/6');
      assert.equal(f(1, 2).add(f(1, 2)).toString(), '1');
      assert.equal(f(1, 2).sub(f(1, 3)).toString(), '1/6');
      assert.equal(f(1, 3).sub(f(1, 2)).toString(), '-1/6');
    });

    it('multiplies and divides', () => {
      assert.equal(f(2, 3).mul(f(3, 4)).toString(), '1/2');
      assert.equal(f(2, 3).div(f(4, 9)).toString(), '3/2');
      assert.equal(f(-1, 2).div(f(1, 4)).toString(), '-2');
      assert.throws(() => f(1, 2).div(f(0, 1)), /division by zero/);
    });

    it('negates and inverts', () => {
      assert.equal(f(3, 4).neg().toString(), '-3/4');
      assert.equal(f(3, 4).reciprocal().toString(), '4/3');
      assert.equal(f(-3, 4).reciprocal().toString(), '-4/3');
      assert.equal(f(1, 3).reciprocal().toString(), '3');
      assert.throws(() => f(0, 1).reciprocal(), RangeError);
    });

    it('raises to integer powers', () => {
      assert.equal(f(2, 3).pow(2).toString(), '4/9');
      assert.equal(f(2, 3).pow(0).toString(), '1');
      assert.equal(f(2, 3).pow(1).toString(), '2/3');
      assert.equal(f(2, 3).pow(-2).toString(), '9/4');
      assert.equal(f(0, 1).pow(0).toString(), '1');
      assert.equal(f(0, 1).pow(3).toString(), '0');
      assert.throws(() => f(0, 1).pow(-1), /no reciprocal/);
      assert.throws(() => f(2, 3).pow(0.5), TypeError);
    });

    it('sums a list', () => {
      assert.equal(sum([f(1, 2), f(1, 3), f(1, 6)]).toString(), '1');
      assert.equal(sum([]).toString(), '0');
      assert.equal(sum([f(1, 4)]).toString(), '1/4');
    });
  });

  describe('comparison and output', () => {
    it('compare orders fractions', () => {
      assert.equal(f(1, 3).compare(f(1, 2)), -1);
      assert.equal(f(1, 2).compare(f(1, 3)), 1);
      assert.equal(f(2, 4).compare(f(1, 2)), 0);
      assert.equal(f(-1, 2).compare(f(1, 3)), -1);
    });

    it('equals compares normalised values', () => {
      assert.equal(f(2, 4).equals(f(1, 2)), true);
      assert.equal(f(1, 2).equals(f(1, 3)), false);
      assert.equal(f(1, 2).equals(f(-1, 2)), false);
    });

    it('converts to a number', () => {
      assert.equal(f(1, 4).toNumber(), 0.25);
      assert.equal(f(-3, 2).toNumber(), -1.5);
    });

    it('formats mixed numbers', () => {
      assert.equal(f(7, 2).toMixedString(), '3 1/2');
      assert.equal(f(-7, 2).toMixedString(), '-3 1/2');
      assert.equal(f(1, 2).toMixedString(), '1/2');
      assert.equal(f(6, 3).toMixedString(), '2');
      assert.equal(f(0, 3).toMixedString(), '0');
    });
  });
});
