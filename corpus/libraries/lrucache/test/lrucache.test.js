import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LRUCache } from '../src/lrucache.js';

describe('lrucache', () => {
  describe('basics', () => {
    it('stores and retrieves values', () => {
      const c = new LRUCache(3);
      c.set('a', 1);
      c.set('b', 2);
      assert.equal(c.get('a'), 1);
      assert.equal(c.get('b'), 2);
      assert.equal(c.size, 2);
    });

    it('returns undefined for missing keys', () => {
      const c = new LRUCache(2);
      assert.equal(c.get('x'), undefined);
      assert.equal(c.peek('x'), undefined);
      assert.equal(c.has('x'), false);
      assert.equal(c.size, 0);
    });

    it('rejects invalid capacities', () => {
      assert.throws(() => new LRUCache(0), RangeError);
      assert.throws(() => new LRUCache(-1), /positive integer/);
      assert.throws(() => new LRUCache(2.5), RangeError);
      assert.equal(new LRUCache(1).capacity, 1);
    });

    it('overwrites an existing key without growing', () => {
      const c = new LRUCache(2);
      c.set('a', 1);
      assert.equal(c.set('a', 5), null);
      assert.equal(c.get('a'), 5);
      assert.equal(c.size, 1);
    });
  });

  describe('eviction', () => {
    it('evicts the least recently set entry at capacity', () => {
      const c = new LRUCache(2);
      c.set('a', 1);
      c.set('b', 2);
      assert.deepEqual(c.set('c', 3), ['a', 1]);
      assert.equal(c.has('a'), false);
      assert.equal(c.has('b'), true);
      assert.equal(c.size, 2);
      assert.equal(c.evictions, 1);
    });

    it('does not evict below capacity', () => {
      const c = new LRUCache(3);
      assert.equal(c.set('a', 1), null);
      assert.equal(c.set('b', 2), null);
      assert.equal(c.set('c', 3), null);
      assert.equal(c.size, 3);
      assert.equal(c.evictions, 0);
    });

    it('get refreshes recency', () => {
      const c = new LRUCache(2);
      c.set('a', 1);
      c.set('b', 2);
      c.get('a');
      c.set('c', 3);
      assert.equal(c.has('a'), true);
      assert.equal(c.has('b'), false);
    });

    it('peek does not refresh recency', () => {
      const c = new LRUCache(2);
      c.set('a', 1);
      c.set('b', 2);
      assert.equal(c.peek('a'), 1);
      c.set('c', 3);
      assert.equal(c.has('a'), false);
      assert.deepEqual(c.keys(), ['c', 'b']);
    });

    it('updating a key refreshes recency', () => {
      const c = new LRUCache(2);
      c.set('a', 1);
      c.set('b', 2);
      c.set('a', 10);
      assert.deepEqual(c.set('c', 3), ['b', 2]);
      assert.deepEqual(c.keys(), ['c', 'a']);
    });

    it('capacity one keeps only the newest entry', () => {
      const c = new LRUCache(1);
      c.set('a', 1);
      c.set('b', 2);
      assert.deepEqual(c.keys(), ['b']);
      assert.equal(c.get('b'), 2);
      assert.equal(c.evictions, 1);
    });
  });

  describe('ordering and removal', () => {
    it('keys lists most recent first and oldest first', () => {
      const c = new LRUCache(4);
      c.set('a', 1);
      c.set('b', 2);
      c.set('c', 3);
      c.get('a');
      assert.deepEqual(c.keys(), ['a', 'c', 'b']);
      assert.deepEqual(c.keysOldestFirst(), ['b', 'c', 'a']);
    });

    it('get on the middle entry keeps the list consistent', () => {
      const c = new LRUCache(3);
      c.set('a', 1);
      c.set('b', 2);
      c.set('c', 3);
      c.get('b');
      assert.deepEqual(c.keys(), ['b', 'c', 'a']);
      assert.deepEqual(c.keysOldestFirst(), ['a', 'c', 'b']);
      c.get('a');
      assert.deepEqual(c.keysOldestFirst(), ['c', 'b', 'a']);
    });

    it('delete removes entries', () => {
      const c = new LRUCache(3);
      c.set('a', 1);
      c.set('b', 2);
      c.set('c', 3);
      assert.equal(c.delete('b'), true);
      assert.equal(c.delete('b'), false);
      assert.equal(c.size, 2);
      assert.deepEqual(c.keys(), ['c', 'a']);
      c.delete('a');
      c.delete('c');
      assert.deepEqual(c.keys(), []);
      assert.deepEqual(c.keysOldestFirst(), []);
    });

    it('delete of head and tail keeps eviction order', () => {
      const c = new LRUCache(3);
      c.set('a', 1);
      c.set('b', 2);
      c.set('c', 3);
      c.delete('c');
      c.delete('a');
      c.set('d', 4);
      c.set('e', 5);
      assert.deepEqual(c.set('f', 6), ['b', 2]);
      assert.deepEqual(c.keysOldestFirst(), ['d', 'e', 'f']);
    });

    it('clear empties the cache', () => {
      const c = new LRUCache(2);
      c.set('a', 1);
      c.set('b', 2);
      c.clear();
      assert.equal(c.size, 0);
      assert.deepEqual(c.keys(), []);
      c.set('z', 26);
      assert.deepEqual(c.keys(), ['z']);
      assert.deepEqual(c.keysOldestFirst(), ['z']);
    });

    it('resize shrinks by evicting the oldest entries', () => {
      const c = new LRUCache(4);
      c.set('a', 1);
      c.set('b', 2);
      c.set('c', 3);
      c.set('d', 4);
      c.resize(2);
      assert.deepEqual(c.keys(), ['d', 'c']);
      assert.equal(c.evictions, 2);
      c.resize(2);
      assert.equal(c.size, 2);
      assert.throws(() => c.resize(0), RangeError);
      assert.throws(() => c.resize(1.5), /positive integer/);
    });

    it('resize changes the capacity used by later sets', () => {
      const c = new LRUCache(2);
      c.resize(1);
      assert.equal(c.capacity, 1);
      c.set('a', 1);
      assert.deepEqual(c.set('b', 2), ['a', 1]);
      c.resize(3);
      assert.equal(c.capacity, 3);
      c.set('c', 3);
      c.set('d', 4);
      assert.deepEqual(c.keys(), ['d', 'c', 'b']);
      assert.equal(c.evictions, 1);
    });
  });
});
