import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  toRoman,
  fromRoman,
  isRoman,
  romanRange,
  addRoman,
  compareRoman,
  MIN_VALUE,
  MAX_VALUE,
} from '../src/roman.js';

describe('roman', () => {
  describe('toRoman', () => {
    it('converts single symbols', () => {
      assert.equal(toRoman(1), 'I');
      assert.equal(toRoman(5), 'V');
      assert.equal(toRoman(10), 'X');
      assert.equal(toRoman(50), 'L');
      assert.equal(toRoman(100), 'C');
      assert.equal(toRoman(500), 'D');
      assert.equal(toRoman(1000), 'M');
    });

    it('uses subtractive notation', () => {
      assert.equal(toRoman(4), 'IV');
      assert.equal(toRoman(9), 'IX');
      assert.equal(toRoman(40), 'XL');
      assert.equal(toRoman(90), 'XC');
      assert.equal(toRoman(400), 'CD');
      assert.equal(toRoman(900), 'CM');
    });

    it('repeats symbols up to three times', () => {
      assert.equal(toRoman(3), 'III');
      assert.equal(toRoman(8), 'VIII');
      assert.equal(toRoman(30), 'XXX');
      assert.equal(toRoman(300), 'CCC');
    });

    it('converts composite numbers', () => {
      assert.equal(toRoman(14), 'XIV');
      assert.equal(toRoman(1994), 'MCMXCIV');
      assert.equal(toRoman(2024), 'MMXXIV');
      assert.equal(toRoman(444), 'CDXLIV');
    });

    it('handles the range limits', () => {
      assert.equal(MIN_VALUE, 1);
      assert.equal(MAX_VALUE, 3999);
      assert.equal(toRoman(3999), 'MMMCMXCIX');
      assert.equal(toRoman(1), 'I');
    });

    it('rejects values outside the range', () => {
      assert.throws(() => toRoman(0), RangeError);
      assert.throws(() => toRoman(-1), RangeError);
      assert.throws(() => toRoman(4000), RangeError);
    });

    it('rejects non-integers', () => {
      assert.throws(() => toRoman(1.5), TypeError);
      assert.throws(() => toRoman('5'), TypeError);
    });
  });

  describe('fromRoman', () => {
    it('parses simple numerals', () => {
      assert.equal(fromRoman('I'), 1);
      assert.equal(fromRoman('III'), 3);
      assert.equal(fromRoman('VI'), 6);
      assert.equal(fromRoman('MM'), 2000);
    });

    it('parses subtractive numerals', () => {
      assert.equal(fromRoman('IV'), 4);
      assert.equal(fromRoman('IX'), 9);
      assert.equal(fromRoman('XLII'), 42);
      assert.equal(fromRoman('MCMXCIV'), 1994);
      assert.equal(fromRoman('MMMCMXCIX'), 3999);
    });

    it('is case-insensitive and trims whitespace', () => {
      assert.equal(fromRoman('xiv'), 14);
      assert.equal(fromRoman('  mcm '), 1900);
    });

    it('rejects empty and invalid input', () => {
      assert.throws(() => fromRoman(''), /empty/);
      assert.throws(() => fromRoman('   '), /empty/);
      assert.throws(() => fromRoman('ABC'), /invalid character/);
      assert.throws(() => fromRoman(12), TypeError);
    });

    it('rejects non-canonical numerals', () => {
      assert.throws(() => fromRoman('IIII'), /non-canonical/);
      assert.throws(() => fromRoman('IC'), /non-canonical/);
      assert.throws(() => fromRoman('VV'), /non-canonical/);
      assert.throws(() => fromRoman('MMMM'), /non-canonical/);
    });

    it('round-trips every value in a range', () => {
      for (let n = 1; n <= 400; n++) {
        assert.equal(fromRoman(toRoman(n)), n);
      }
    });
  });

  describe('helpers', () => {
    it('isRoman recognises valid numerals', () => {
      assert.equal(isRoman('XII'), true);
      assert.equal(isRoman('MMXX'), true);
      assert.equal(isRoman('IIII'), false);
      assert.equal(isRoman(''), false);
      assert.equal(isRoman(null), false);
    });

    it('romanRange lists consecutive numerals', () => {
      assert.deepEqual(romanRange(1, 5), ['I', 'II', 'III', 'IV', 'V']);
      assert.deepEqual(romanRange(9, 9), ['IX']);
      assert.throws(() => romanRange(5, 4), RangeError);
    });

    it('addRoman sums two numerals', () => {
      assert.equal(addRoman('II', 'III'), 'V');
      assert.equal(addRoman('XC', 'X'), 'C');
      assert.throws(() => addRoman('MMM', 'M'), RangeError);
    });

    it('compareRoman orders numerals by value', () => {
      assert.equal(compareRoman('IX', 'XI'), -1);
      assert.equal(compareRoman('XL', 'XXXIX'), 1);
      assert.equal(compareRoman('X', 'x'), 0);
    });
  });
});
