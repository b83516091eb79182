import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  sum,
  mean,
  median,
  mode,
  frequencies,
  variance,
  stdDev,
  percentile,
  minMax,
  range,
  clamp,
  normalize,
} from '../src/stats.js';

describe('stats', () => {
  describe('central tendency', () => {
    it('sum adds values and is zero for empty input', () => {
      assert.equal(sum([1, 2, 3, 4]), 10);
      assert.equal(sum([]), 0);
      assert.equal(sum([-5, 5]), 0);
    });

    it('mean averages values', () => {
      assert.equal(mean([1, 2, 3, 4]), 2.5);
      assert.equal(mean([7]), 7);
      assert.equal(mean([-2, 4]), 1);
    });

    it('median of odd and even length input', () => {
      assert.equal(median([3, 1, 2]), 2);
      assert.equal(median([4, 1, 3, 2]), 2.5);
      assert.equal(median([5]), 5);
      assert.equal(median([10, 2]), 6);
      assert.equal(median([1, 2, 100, 3, 4]), 3);
    });

    it('median does not reorder the input', () => {
      const data = [3, 1, 2];
      median(data);
      assert.deepEqual(data, [3, 1, 2]);
    });

    it('mode returns all most frequent values sorted', () => {
      assert.deepEqual(mode([1, 2, 2, 3]), [2]);
      assert.deepEqual(mode([3, 1, 3, 1, 2]), [1, 3]);
      assert.deepEqual(mode([5, 4]), [4, 5]);
      assert.deepEqual(mode([10, 2, 10]), [10]);
      assert.deepEqual(mode([1, 1, 2]), [1]);
    });

    it('frequencies counts each distinct value', () => {
      assert.deepEqual(frequencies([3, 1, 3, 2, 3]), [[1, 1], [2, 1], [3, 3]]);
      assert.deepEqual(frequencies([]), []);
      assert.deepEqual(frequencies([-1, -1]), [[-1, 2]]);
      assert.deepEqual(frequencies([10, 9]), [[9, 1], [10, 1]]);
      assert.deepEqual(frequencies([5, 2, 2, 9]), [[2, 2], [5, 1], [9, 1]]);
      assert.deepEqual(frequencies([7, 1, 4, 4, 4, 0]), [[0, 1], [1, 1], [4, 3], [7, 1]]);
    });

    it('rejects empty input', () => {
      assert.throws(() => mean([]), RangeError);
      assert.throws(() => median([]), /non-empty/);
      assert.throws(() => mode([]), RangeError);
      assert.throws(() => variance('abc'), RangeError);
      assert.throws(() => percentile([], 50), RangeError);
      assert.throws(() => minMax([]), RangeError);
      assert.throws(() => range([]), RangeError);
      assert.throws(() => normalize([]), RangeError);
    });
  });

  describe('spread', () => {
    it('population variance and standard deviation', () => {
      assert.equal(variance([2, 4, 4, 4, 5, 5, 7, 9]), 4);
      assert.equal(stdDev([2, 4, 4, 4, 5, 5, 7, 9]), 2);
      assert.equal(variance([5]), 0);
      assert.equal(variance([1, 3]), 1);
    });

    it('sample variance divides by n minus one', () => {
      assert.equal(variance([1, 3], true), 2);
      assert.equal(variance([2, 4, 4, 4, 5, 5, 7, 9], true), 32 / 7);
      assert.equal(stdDev([1, 3, 5], true), 2);
      assert.throws(() => variance([1], true), /at least two/);
    });

    it('percentile interpolates linearly', () => {
      const data = [40, 10, 30, 20];
      assert.equal(percentile(data, 0), 10);
      assert.equal(percentile(data, 100), 40);
      assert.equal(percentile(data, 50), 25);
      assert.equal(percentile(data, 25), 17.5);
      assert.equal(percentile([1, 2, 3, 4, 5], 75), 4);
      assert.equal(percentile([8], 30), 8);
    });

    it('percentile rejects out-of-range p', () => {
      assert.throws(() => percentile([1, 2], -1), RangeError);
      assert.throws(() => percentile([1, 2], 101), /between 0 and 100/);
    });

    it('minMax and range', () => {
      assert.deepEqual(minMax([3, -1, 7, 2]), { min: -1, max: 7 });
      assert.deepEqual(minMax([4]), { min: 4, max: 4 });
      assert.deepEqual(minMax([9, 1]), { min: 1, max: 9 });
      assert.equal(range([3, -1, 7, 2]), 8);
      assert.equal(range([5, 5]), 0);
    });
  });

  describe('scaling', () => {
    it('clamp limits a value to a range', () => {
      assert.equal(clamp(5, 0, 10), 5);
      assert.equal(clamp(-3, 0, 10), 0);
      assert.equal(clamp(15, 0, 10), 10);
      assert.equal(clamp(0, 0, 10), 0);
      assert.equal(clamp(10, 0, 10), 10);
      assert.equal(clamp(4, 4, 4), 4);
      assert.throws(() => clamp(1, 5, 0), /min must not exceed max/);
    });

    it('normalize maps values to the unit interval', () => {
      assert.deepEqual(normalize([0, 5, 10]), [0, 0.5, 1]);
      assert.deepEqual(normalize([2, 4]), [0, 1]);
      assert.deepEqual(normalize([3, 3]), [0, 0]);
      assert.deepEqual(normalize([-10, 0, 30]), [0, 0.25, 1]);
    });
  });
});
