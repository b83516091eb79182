import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  insertionSort,
  mergeSort,
  quickselect,
  median,
  sortBy,
  isSorted,
} from '../src/sortalgos.js';

const messy = [5, -2, 9, 0, 5, 3, -7, 12, 1];
const sorted = [-7, -2, 0, 1, 3, 5, 5, 9, 12];

describe('sortalgos', () => {
  describe('insertionSort', () => {
    it('sorts numbers with duplicates and negatives', () => {
      assert.deepEqual(insertionSort(messy), sorted);
    });

    it('does not modify the input and handles tiny arrays', () => {
      const input = [3, 1, 2];
      assert.deepEqual(insertionSort(input), [1, 2, 3]);
      assert.deepEqual(input, [3, 1, 2]);
      assert.deepEqual(insertionSort([]), []);
      assert.deepEqual(insertionSort([4]), [4]);
      assert.deepEqual(insertionSort([2, 1]), [1, 2]);
    });

    it('uses a custom comparator and stays stable', () => {
      const items = [{ n: 2, t: 'a' }, { n: 1, t: 'b' }, { n: 2, t: 'c' }, { n: 1, t: 'd' }];
      const out = insertionSort(items, (x, y) => x.n - y.n);
      assert.deepEqual(out.map((x) => x.t), ['b', 'd', 'a', 'c']);
      assert.deepEqual(insertionSort([1, 3, 2], (a, b) => b - a), [3, 2, 1]);
    });
  });

  describe('mergeSort', () => {
    it('sorts numbers with duplicates and negatives', () => {
      assert.deepEqual(mergeSort(messy), sorted);
      assert.deepEqual(messy[0], 5);
    });

    it('handles empty, single and reversed arrays', () => {
      assert.deepEqual(mergeSort([]), []);
      assert.deepEqual(mergeSort([1]), [1]);
      assert.deepEqual(mergeSort([6, 5, 4, 3, 2, 1]), [1, 2, 3, 4, 5, 6]);
    });

    it('is stable for equal keys', () => {
      const items = [{ n: 1, t: 'a' }, { n: 0, t: 'b' }, { n: 1, t: 'c' }, { n: 0, t: 'd' }, { n: 1, t: 'e' }];
      const out = mergeSort(items, (x, y) => x.n - y.n);
      assert.deepEqual(out.map((x) => x.t), ['b', 'd', 'a', 'c', 'e']);
    });

    it('sorts strings lexicographically', () => {
      assert.deepEqual(mergeSort(['pear', 'apple', 'fig', 'banana']), ['apple', 'banana', 'fig', 'pear']);
    });
  });

  describe('quickselect', () => {
    it('returns the kth smallest for every k', () => {
      for (let k = 1; k <= sorted.length; k++) {
        assert.equal(quickselect(messy, k), sorted[k - 1]);
      }
    });

    it('works on a single element array', () => {
      assert.equal(quickselect([42], 1), 42);
    });

    it('throws on out of range k', () => {
      assert.throws(() => quickselect([1, 2, 3], 0), RangeError);
      assert.throws(() => quickselect([1, 2, 3], 4), /between 1 and 3/);
      assert.throws(() => quickselect([], 1), RangeError);
      assert.equal(quickselect([1, 2, 3], 3), 3);
    });

    it('does not modify its input', () => {
      const input = [9, 8, 7, 6];
      assert.equal(quickselect(input, 2), 7);
      assert.deepEqual(input, [9, 8, 7, 6]);
    });
  });

  describe('median', () => {
    it('returns the middle value for odd lengths', () => {
      assert.equal(median([7, 1, 3]), 3);
      assert.equal(median([5]), 5);
    });

    it('averages the two middle values for even lengths', () => {
      assert.equal(median([4, 1, 3, 2]), 2.5);
      assert.equal(median([10, 20]), 15);
    });

    it('throws on empty input', () => {
      assert.throws(() => median([]), /empty/);
    });
  });

  describe('sortBy', () => {
    const people = [
      { name: 'Cy', age: 30 },
      { name: 'Al', age: 25 },
      { name: 'Bo', age: 30 },
      { name: 'Di', age: 20 },
    ];

    it('sorts by a property name keeping ties in input order', () => {
      assert.deepEqual(sortBy(people, 'age').map((p) => p.name), ['Di', 'Al', 'Cy', 'Bo']);
    });

    it('sorts descending while staying stable', () => {
      assert.deepEqual(sortBy(people, 'age', true).map((p) => p.name), ['Cy', 'Bo', 'Al', 'Di']);
    });

    it('sorts reversed input fully', () => {
      assert.deepEqual(sortBy([5, 4, 3, 2, 1], (x) => x), [1, 2, 3, 4, 5]);
      assert.deepEqual(sortBy([1, 2, 3, 4, 5], (x) => x, true), [5, 4, 3, 2, 1]);
    });

    it('keeps many equal keys in input order', () => {
      const items = [];
      for (let i = 0; i < 12; i++) {
        items.push({ k: i % 3, id: i });
      }
      assert.deepEqual(sortBy(items, 'k').map((x) => x.id), [0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11]);
    });

    it('accepts a key function', () => {
      assert.deepEqual(sortBy(people, (p) => p.name).map((p) => p.age), [25, 30, 30, 20]);
      assert.deepEqual(sortBy([], 'x'), []);
    });
  });

  describe('isSorted', () => {
    it('detects sorted and unsorted arrays', () => {
      assert.equal(isSorted([]), true);
      assert.equal(isSorted([1, 1, 2]), true);
      assert.equal(isSorted([2, 1]), false);
      assert.equal(isSorted([1, 2, 3, 0]), false);
    });
  });
});
