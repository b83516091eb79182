import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseMoney,
  formatMoney,
  add,
  subtract,
  multiply,
  split,
  allocate,
  percentage,
  addTax,
} from '../src/money.js';

describe('money', () => {
  describe('parseMoney', () => {
    it('parses dollars with thousands separators and cents', () => {
      assert.equal(parseMoney('$1,234.56'), 123456);
      assert.equal(parseMoney('1234.56'), 123456);
      assert.equal(parseMoney('$1,000,000'), 100000000);
    });

    it('pads a single decimal digit', () => {
      assert.equal(parseMoney('$3.5'), 350);
      assert.equal(parseMoney('0.05'), 5);
      assert.equal(parseMoney('0'), 0);
    });

    it('parses negative amounts', () => {
      assert.equal(parseMoney('-$12.34'), -1234);
      assert.equal(parseMoney(' -7 '), -700);
    });

    it('rejects malformed amounts', () => {
      assert.throws(() => parseMoney('$1,23.00'), SyntaxError);
      assert.throws(() => parseMoney('12.345'), /Invalid money/);
      assert.throws(() => parseMoney('abc'), SyntaxError);
      assert.throws(() => parseMoney(''), SyntaxError);
      assert.throws(() => parseMoney('$12,3456'), SyntaxError);
    });
  });

  describe('formatMoney', () => {
    it('formats with thousands separators', () => {
      assert.equal(formatMoney(123456), '$1,234.56');
      assert.equal(formatMoney(100000000), '$1,000,000.00');
      assert.equal(formatMoney(12345678), '$123,456.78');
    });

    it('formats small and zero amounts', () => {
      assert.equal(formatMoney(0), '$0.00');
      assert.equal(formatMoney(5), '$0.05');
      assert.equal(formatMoney(10), '$0.10');
      assert.equal(formatMoney(109), '$1.09');
      assert.equal(formatMoney(99999), '$999.99');
    });

    it('formats negatives and custom symbols', () => {
      assert.equal(formatMoney(-150), '-$1.50');
      assert.equal(formatMoney(123456789, { symbol: 'EUR ', separator: '.' }), 'EUR 1.234.567.89');
      assert.equal(formatMoney(100, { symbol: '' }), '1.00');
    });

    it('rejects non integer cents', () => {
      assert.throws(() => formatMoney(1.5), TypeError);
      assert.throws(() => formatMoney('100'), /integer/);
    });

    it('round trips with parseMoney', () => {
      for (const cents of [0, 1, 99, 100, 123456, -98765]) {
        assert.equal(parseMoney(formatMoney(cents)), cents);
      }
    });
  });

  describe('arithmetic', () => {
    it('adds, subtracts and multiplies with rounding', () => {
      assert.equal(add(150, 275), 425);
      assert.equal(subtract(150, 275), -125);
      assert.equal(multiply(199, 3), 597);
      assert.equal(multiply(105, 0.5), 53);
      assert.equal(multiply(-200, 2), -400);
      assert.equal(multiply(333, 0.5), 167);
    });

    it('computes percentages and tax', () => {
      assert.equal(percentage(10000, 15), 1500);
      assert.equal(percentage(999, 10), 100);
      assert.equal(percentage(1000, 0), 0);
      assert.equal(addTax(2000, 8.25), 2165);
      assert.equal(addTax(1, 50), 2);
    });
  });

  describe('split', () => {
    it('splits evenly when possible', () => {
      assert.deepEqual(split(900, 3), [300, 300, 300]);
      assert.deepEqual(split(500, 1), [500]);
      assert.deepEqual(split(0, 2), [0, 0]);
    });

    it('gives remainder cents to the first parts', () => {
      assert.deepEqual(split(1000, 3), [334, 333, 333]);
      assert.deepEqual(split(1001, 4), [251, 250, 250, 250]);
      assert.deepEqual(split(2, 3), [1, 1, 0]);
    });

    it('splits negative amounts symmetrically', () => {
      assert.deepEqual(split(-1000, 3), [-334, -333, -333]);
    });

    it('rejects invalid part counts', () => {
      assert.throws(() => split(100, 0), RangeError);
      assert.throws(() => split(100, -2), /positive integer/);
      assert.throws(() => split(100, 1.5), RangeError);
    });
  });

  describe('allocate', () => {
    it('allocates by weight with the total preserved', () => {
      assert.deepEqual(allocate(100, [1, 1, 1]), [34, 33, 33]);
      assert.deepEqual(allocate(1000, [70, 30]), [700, 300]);
      assert.deepEqual(allocate(5, [3, 7]), [2, 3]);
      assert.deepEqual(allocate(101, [1, 1, 1]), [34, 34, 33]);
      assert.deepEqual(allocate(250, [4]), [250]);
    });

    it('skips zero weights when distributing leftovers', () => {
      assert.deepEqual(allocate(10, [0, 1, 2]), [0, 4, 6]);
      assert.deepEqual(allocate(7, [0, 1, 1]), [0, 4, 3]);
    });

    it('rejects empty, negative or zero weights', () => {
      assert.throws(() => allocate(100, []), /more than zero/);
      assert.throws(() => allocate(100, [0, 0]), RangeError);
      assert.throws(() => allocate(100, [2, -1]), /negative/);
    });
  });
});
