import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BitSet } from '../src/bitset.js';

describe('bitset', () => {
  describe('construction', () => {
    it('creates an empty set with the right word count', () => {
      const s = new BitSet(70);
      assert.equal(s.size, 70);
      assert.equal(s.words.length, 3);
      assert.equal(s.count(), 0);
      assert.ok(s.isEmpty());
    });

    it('allows size zero and exact word multiples', () => {
      assert.equal(new BitSet(0).words.length, 0);
      assert.equal(new BitSet(32).words.length, 1);
      assert.equal(new BitSet(33).words.length, 2);
    });

    it('rejects negative or fractional sizes', () => {
      assert.throws(() => new BitSet(-1), RangeError);
      assert.throws(() => new BitSet(1.5), /non-negative integer/);
    });
  });

  describe('set and has', () => {
    it('sets bits across word boundaries', () => {
      const s = new BitSet(100);
      s.set(0).set(31).set(32).set(99);
      assert.ok(s.has(0));
      assert.ok(s.has(31));
      assert.ok(s.has(32));
      assert.ok(s.has(99));
      assert.equal(s.has(1), false);
      assert.equal(s.has(33), false);
      assert.equal(s.has(98), false);
    });

    it('has returns false for out of range indices', () => {
      const s = new BitSet(8);
      s.set(7).set(2);
      assert.equal(s.has(8), false);
      assert.equal(s.has(-1), false);
      assert.equal(s.has(2.5), false);
    });

    it('set throws on out of range index', () => {
      const s = new BitSet(10);
      assert.throws(() => s.set(10), /out of range/);
      assert.throws(() => s.set(-1), RangeError);
      s.set(9);
      assert.ok(s.has(9));
    });
  });

  describe('clear and toggle', () => {
    it('clear removes only the given bit', () => {
      const s = BitSet.fromArray(40, [3, 4, 35]);
      s.clear(4);
      assert.deepEqual(s.toArray(), [3, 35]);
      s.clear(4);
      assert.deepEqual(s.toArray(), [3, 35]);
      assert.throws(() => s.clear(40), RangeError);
    });

    it('clear works on high bits of later words', () => {
      const s = BitSet.fromArray(70, [30, 31, 34, 35, 66, 67]);
      s.clear(35).clear(31);
      assert.deepEqual(s.toArray(), [30, 34, 66, 67]);
    });

    it('toggle flips bits on and off', () => {
      const s = new BitSet(64);
      s.toggle(63);
      assert.ok(s.has(63));
      s.toggle(63);
      assert.equal(s.has(63), false);
      assert.ok(s.isEmpty());
      assert.throws(() => s.toggle(64), /out of range/);
      assert.throws(() => s.toggle(-3), RangeError);
    });
  });

  describe('count', () => {
    it('counts bits including the highest bit of a word', () => {
      const s = BitSet.fromArray(96, [0, 1, 31, 32, 63, 64, 95]);
      assert.equal(s.count(), 7);
    });

    it('counts a fully set word', () => {
      const s = new BitSet(32);
      for (let i = 0; i < 32; i++) s.set(i);
      assert.equal(s.count(), 32);
      assert.equal(s.isEmpty(), false);
    });
  });

  describe('set operations', () => {
    it('union combines bits and grows to the larger size', () => {
      const a = BitSet.fromArray(10, [1, 2]);
      const b = BitSet.fromArray(50, [2, 45]);
      const u = a.union(b);
      assert.equal(u.size, 50);
      assert.deepEqual(u.toArray(), [1, 2, 45]);
      assert.deepEqual(a.toArray(), [1, 2]);
      assert.deepEqual(b.union(a).toArray(), [1, 2, 45]);
      assert.equal(b.union(a).size, 50);
    });

    it('intersect keeps common bits and shrinks to the smaller size', () => {
      const a = BitSet.fromArray(70, [0, 5, 33, 65]);
      const b = BitSet.fromArray(40, [5, 33, 39]);
      const r = a.intersect(b);
      assert.equal(r.size, 40);
      assert.deepEqual(r.toArray(), [5, 33]);
    });

    it('difference removes bits present in the other set', () => {
      const a = BitSet.fromArray(70, [1, 2, 3, 68]);
      const b = BitSet.fromArray(10, [2]);
      assert.deepEqual(a.difference(b).toArray(), [1, 3, 68]);
      assert.deepEqual(BitSet.fromArray(70, [32, 64]).difference(b).toArray(), [32, 64]);
    });

    it('intersection of disjoint sets is empty', () => {
      const a = BitSet.fromArray(16, [1, 3]);
      const b = BitSet.fromArray(16, [2, 4]);
      assert.ok(a.intersect(b).isEmpty());
      assert.equal(a.union(b).count(), 4);
    });
  });

  describe('toArray and equals', () => {
    it('toArray returns sorted indices up to the last bit', () => {
      const s = BitSet.fromArray(33, [32, 0, 16]);
      assert.deepEqual(s.toArray(), [0, 16, 32]);
      assert.deepEqual(new BitSet(5).toArray(), []);
    });

    it('equals compares size and contents', () => {
      const a = BitSet.fromArray(20, [1, 19]);
      const b = BitSet.fromArray(20, [1, 19]);
      const c = BitSet.fromArray(21, [1, 19]);
      const d = BitSet.fromArray(20, [1]);
      assert.ok(a.equals(b));
      assert.equal(a.equals(c), false);
      assert.equal(a.equals(d), false);
    });
  });
});
