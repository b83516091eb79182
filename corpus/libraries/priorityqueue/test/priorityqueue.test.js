import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PriorityQueue, defaultCompare, topK } from '../src/priorityqueue.js';

function isHeap(queue) {
  const h = queue.heap;
  for (let i = 1; i < h.length; i++) {
    if (queue.compare(h[i], h[Math.floor((i - 1) / 2)]) < 0) {
      return false;
    }
  }
  return true;
}

describe('priorityqueue', () => {
  describe('defaultCompare', () => {
    it('orders numbers and strings', () => {
      assert.equal(defaultCompare(1, 2), -1);
      assert.equal(defaultCompare(2, 1), 1);
      assert.equal(defaultCompare(3, 3), 0);
      assert.equal(defaultCompare('a', 'b'), -1);
    });
  });

  describe('basic operations', () => {
    it('starts empty', () => {
      const q = new PriorityQueue();
      assert.equal(q.size, 0);
      assert.equal(q.isEmpty(), true);
      assert.equal(q.peek(), undefined);
      assert.equal(q.pop(), undefined);
    });

    it('push returns the new size', () => {
      const q = new PriorityQueue();
      assert.equal(q.push(5), 1);
      assert.equal(q.push(3, 8), 3);
      assert.equal(q.size, 3);
      assert.equal(q.isEmpty(), false);
    });

    it('peek returns the minimum without removing it', () => {
      const q = new PriorityQueue();
      q.push(5, 2, 9);
      assert.equal(q.peek(), 2);
      assert.equal(q.size, 3);
    });

    it('pop returns items in ascending order', () => {
      const q = new PriorityQueue();
      q.push(5, 1, 4, 1, 5, 9, 2, 6, 5, 3);
      assert.deepEqual(q.drain(), [1, 1, 2, 3, 4, 5, 5, 5, 6, 9]);
      assert.equal(q.size, 0);
    });

    it('keeps the heap property after every operation', () => {
      const q = new PriorityQueue();
      const values = [50, 20, 80, 10, 30, 70, 90, 60, 40, 0, 100, 25];
      for (const v of values) {
        q.push(v);
        assert.ok(isHeap(q));
      }
      while (q.size > 0) {
        q.pop();
        assert.ok(isHeap(q));
      }
    });

    it('places pushed items at the expected heap positions', () => {
      const q = new PriorityQueue();
      q.push(0, 10, 5, 11, 6);
      assert.deepEqual(q.heap, [0, 6, 5, 11, 10]);
      q.push(1);
      assert.deepEqual(q.heap, [0, 6, 1, 11, 10, 5]);
      assert.equal(q.pop(), 0);
      assert.deepEqual(q.heap, [1, 6, 5, 11, 10]);
    });

    it('handles a single element', () => {
      const q = new PriorityQueue();
      q.push(42);
      assert.equal(q.pop(), 42);
      assert.equal(q.size, 0);
      assert.equal(q.pop(), undefined);
    });
  });

  describe('comparators', () => {
    it('supports a max-heap comparator', () => {
      const q = new PriorityQueue((a, b) => b - a);
      q.push(3, 10, 7, 1);
      assert.equal(q.peek(), 10);
      assert.deepEqual(q.drain(), [10, 7, 3, 1]);
    });

    it('orders objects by a key', () => {
      const q = new PriorityQueue((a, b) => a.priority - b.priority);
      q.push({ name: 'low', priority: 5 }, { name: 'high', priority: 1 }, { name: 'mid', priority: 3 });
      assert.equal(q.pop().name, 'high');
      assert.equal(q.pop().name, 'mid');
      assert.equal(q.pop().name, 'low');
    });

    it('does not move equal elements past each other', () => {
      const byP = (a, b) => a.p - b.p;
      const q = new PriorityQueue(byP);
      q.push({ name: 'a', p: 1 }, { name: 'b', p: 1 });
      assert.equal(q.peek().name, 'a');
      const left = new PriorityQueue(byP);
      left.push({ name: 'r', p: 0 }, { name: 'L', p: 2 }, { name: 'R', p: 3 }, { name: 'x', p: 2 });
      left.pop();
      assert.equal(left.peek().name, 'x');
      const right = new PriorityQueue(byP);
      right.push({ name: 'r', p: 0 }, { name: 'L', p: 3 }, { name: 'R', p: 2 });
      right.push({ name: 'a', p: 3 }, { name: 'b', p: 3 }, { name: 'c', p: 2 });
      right.pop();
      assert.equal(right.peek().name, 'c');
    });

    it('rejects non-function comparators', () => {
      assert.throws(() => new PriorityQueue(5), TypeError);
      assert.throws(() => new PriorityQueue('x'), /comparator must be a function/);
    });
  });

  describe('bulk helpers', () => {
    it('from heapifies an array', () => {
      const q = PriorityQueue.from([9, 4, 7, 1, 8, 2, 6, 3, 5]);
      assert.ok(isHeap(q));
      assert.equal(q.peek(), 1);
      assert.deepEqual(q.drain(), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
      assert.equal(PriorityQueue.from([]).size, 0);
      assert.equal(PriorityQueue.from([3, 1]).peek(), 1);
    });

    it('toSortedArray leaves the queue intact', () => {
      const q = new PriorityQueue();
      q.push(3, 1, 2);
      assert.deepEqual(q.toSortedArray(), [1, 2, 3]);
      assert.equal(q.size, 3);
      assert.equal(q.peek(), 1);
    });

    it('pushPop returns the smaller of the item and the top', () => {
      const q = new PriorityQueue();
      assert.equal(q.pushPop(7), 7);
      assert.equal(q.size, 0);
      q.push(5, 8);
      assert.equal(q.pushPop(3), 3);
      assert.equal(q.pushPop(5), 5);
      assert.equal(q.pushPop(6), 5);
      assert.deepEqual(q.toSortedArray(), [6, 8]);
      const single = new PriorityQueue();
      single.push(5);
      assert.equal(single.pushPop(6), 5);
      assert.equal(single.peek(), 6);
      const ties = new PriorityQueue((a, b) => a.p - b.p);
      ties.push({ name: 'old', p: 1 });
      assert.equal(ties.pushPop({ name: 'new', p: 1 }).name, 'new');
    });

    it('clear removes everything', () => {
      const q = new PriorityQueue();
      q.push(1, 2, 3);
      q.clear();
      assert.equal(q.size, 0);
      assert.equal(q.peek(), undefined);
    });

    it('topK returns the k largest items in descending order', () => {
      assert.deepEqual(topK([5, 1, 9, 3, 7, 2], 3), [9, 7, 5]);
      assert.deepEqual(topK([5, 1], 5), [5, 1]);
      assert.deepEqual(topK([4, 4, 4], 2), [4, 4]);
      assert.deepEqual(topK([1, 2, 3], 0), []);
      assert.deepEqual(topK([3, 1, 2], 1), [3]);
      assert.deepEqual(topK([], 3), []);
    });
  });
});
