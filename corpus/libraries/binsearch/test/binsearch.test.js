import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  binarySearch,
  lowerBound,
  upperBound,
  countOccurrences,
  insertionIndex,
  insertSorted,
  searchRotated,
  findRotationPoint,
} from '../src/binsearch.js';

const odds = [1, 3, 5, 7, 9, 11, 13];

describe('binsearch', () => {
  describe('binarySearch', () => {
    it('finds every element including both ends', () => {
      for (let i = 0; i < odds.length; i++) {
        assert.equal(binarySearch(odds, odds[i]), i);
      }
    });

    it('returns -1 for missing values and empty arrays', () => {
      assert.equal(binarySearch(odds, 0), -1);
      assert.equal(binarySearch(odds, 4), -1);
      assert.equal(binarySearch(odds, 14), -1);
      assert.equal(binarySearch([], 1), -1);
    });

    it('works on single element arrays', () => {
      assert.equal(binarySearch([5], 5), 0);
      assert.equal(binarySearch([5], 6), -1);
      assert.equal(binarySearch([5], 4), -1);
    });

    it('uses a logarithmic number of comparisons', () => {
      const arr = [];
      for (let i = 0; i < 1024; i++) {
        arr.push(i * 2);
      }
      for (const target of [0, 2, 1000, 2046, 777, -5, 5000]) {
        let calls = 0;
        const counting = (a, b) => {
          calls++;
          return a - b;
        };
        const index = binarySearch(arr, target, counting);
        assert.equal(index, target % 2 === 0 && target >= 0 && target <= 2046 ? target / 2 : -1);
        assert.ok(calls <= 11, 'too many comparisons: ' + calls);
      }
    });

    it('accepts a custom comparator', () => {
      const people = [{ age: 20 }, { age: 30 }, { age: 40 }];
      const byAge = (p, age) => p.age - age;
      assert.equal(binarySearch(people, 40, byAge), 2);
      assert.equal(binarySearch(people, 25, byAge), -1);
    });
  });

  describe('lowerBound and upperBound', () => {
    const dup = [1, 2, 2, 2, 5, 8];

    it('lowerBound returns the first index not less than the target', () => {
      assert.equal(lowerBound(dup, 2), 1);
      assert.equal(lowerBound(dup, 3), 4);
      assert.equal(lowerBound(dup, 0), 0);
      assert.equal(lowerBound(dup, 9), 6);
      assert.equal(lowerBound(dup, 8), 5);
    });

    it('upperBound returns the first index greater than the target', () => {
      assert.equal(upperBound(dup, 2), 4);
      assert.equal(upperBound(dup, 1), 1);
      assert.equal(upperBound(dup, 0), 0);
      assert.equal(upperBound(dup, 8), 6);
      assert.equal(upperBound(dup, 4), 4);
    });

    it('both return 0 on an empty array', () => {
      assert.equal(lowerBound([], 3), 0);
      assert.equal(upperBound([], 3), 0);
    });

    it('countOccurrences counts duplicates', () => {
      assert.equal(countOccurrences(dup, 2), 3);
      assert.equal(countOccurrences(dup, 8), 1);
      assert.equal(countOccurrences(dup, 3), 0);
    });
  });

  describe('insertion', () => {
    it('insertionIndex places after equal values', () => {
      assert.equal(insertionIndex([10, 20, 20, 30], 20), 3);
      assert.equal(insertionIndex([10, 20, 30], 5), 0);
      assert.equal(insertionIndex([10, 20, 30], 35), 3);
    });

    it('insertSorted keeps the array sorted', () => {
      const arr = [];
      for (const v of [5, 1, 4, 1, 9, 0]) {
        insertSorted(arr, v);
      }
      assert.deepEqual(arr, [0, 1, 1, 4, 5, 9]);
      assert.equal(insertSorted(arr, 6), 5);
      assert.deepEqual(arr, [0, 1, 1, 4, 5, 6, 9]);
    });

    it('works with strings', () => {
      const words = ['apple', 'cherry', 'grape'];
      assert.equal(insertionIndex(words, 'banana'), 1);
      assert.equal(binarySearch(words, 'grape'), 2);
    });
  });

  describe('rotated arrays', () => {
    const rotated = [15, 18, 22, 3, 6, 9, 12];

    it('searchRotated finds every element', () => {
      for (let i = 0; i < rotated.length; i++) {
        assert.equal(searchRotated(rotated, rotated[i]), i);
      }
    });

    it('searchRotated returns -1 for missing values', () => {
      assert.equal(searchRotated(rotated, 4), -1);
      assert.equal(searchRotated(rotated, 16), -1);
      assert.equal(searchRotated(rotated, 30), -1);
      assert.equal(searchRotated(rotated, 1), -1);
      assert.equal(searchRotated([], 1), -1);
    });

    it('searchRotated handles unrotated and two element arrays', () => {
      assert.equal(searchRotated([1, 2, 3, 4, 5], 4), 3);
      assert.equal(searchRotated([1, 2, 3, 4, 5], 1), 0);
      assert.equal(searchRotated([2, 1], 1), 1);
      assert.equal(searchRotated([2, 1], 2), 0);
    });

    it('searchRotated agrees with a linear scan on every small rotation', () => {
      for (let n = 1; n <= 9; n++) {
        const base = [];
        for (let i = 0; i < n; i++) {
          base.push(i * 2 + 1);
        }
        for (let r = 0; r < n; r++) {
          const arr = base.slice(r).concat(base.slice(0, r));
          for (let target = 0; target <= n * 2 + 1; target++) {
            assert.equal(searchRotated(arr, target), arr.indexOf(target), 'n=' + n + ' r=' + r + ' t=' + target);
          }
          assert.equal(findRotationPoint(arr), r === 0 ? 0 : n - r, 'rotation point n=' + n + ' r=' + r);
        }
      }
    });

    it('findRotationPoint returns the index of the minimum', () => {
      assert.equal(findRotationPoint(rotated), 3);
      assert.equal(findRotationPoint([1, 2, 3]), 0);
      assert.equal(findRotationPoint([3, 1, 2]), 1);
      assert.equal(findRotationPoint([2, 3, 1]), 2);
      assert.equal(findRotationPoint([7]), 0);
      assert.equal(findRotationPoint([]), -1);
    });
  });
});
