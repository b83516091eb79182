import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalize, union, intersect, subtract, contains, size, parse, format } from '../src/rangeset.js';

describe('rangeset', () => {
  describe('normalize', () => {
    it('sorts ranges by start', () => {
      assert.deepEqual(normalize([[10, 12], [1, 3]]), [[1, 3], [10, 12]]);
      assert.deepEqual(normalize([]), []);
    });

    it('merges overlapping and nested ranges', () => {
      assert.deepEqual(normalize([[1, 5], [3, 8]]), [[1, 8]]);
      assert.deepEqual(normalize([[1, 10], [2, 3]]), [[1, 10]]);
      assert.deepEqual(normalize([[5, 5], [5, 5]]), [[5, 5]]);
    });

    it('merges adjacent ranges but keeps gaps', () => {
      assert.deepEqual(normalize([[1, 3], [4, 6]]), [[1, 6]]);
      assert.deepEqual(normalize([[1, 3], [5, 6]]), [[1, 3], [5, 6]]);
      assert.deepEqual(normalize([[-3, -1], [0, 2]]), [[-3, 2]]);
    });

    it('does not mutate the input', () => {
      const input = [[4, 6], [1, 5]];
      normalize(input);
      assert.deepEqual(input, [[4, 6], [1, 5]]);
    });

    it('rejects invalid ranges', () => {
      assert.throws(() => normalize([[3, 1]]), RangeError);
      assert.throws(() => normalize([[1.5, 2]]), TypeError);
      assert.throws(() => normalize([[1]]), /pair of integers/);
      assert.throws(() => normalize([[1, 2, 3]]), TypeError);
      assert.throws(() => normalize([[1, 2.5]]), TypeError);
      assert.deepEqual(normalize([[2, 2]]), [[2, 2]]);
    });
  });

  describe('set operations', () => {
    it('union combines two sets', () => {
      assert.deepEqual(union([[1, 3]], [[2, 6]]), [[1, 6]]);
      assert.deepEqual(union([[1, 2]], [[8, 9]]), [[1, 2], [8, 9]]);
      assert.deepEqual(union([], [[4, 4]]), [[4, 4]]);
    });

    it('intersect keeps common parts', () => {
      assert.deepEqual(intersect([[1, 10]], [[5, 15]]), [[5, 10]]);
      assert.deepEqual(intersect([[1, 3], [6, 9]], [[2, 7]]), [[2, 3], [6, 7]]);
      assert.deepEqual(intersect([[1, 3]], [[3, 5]]), [[3, 3]]);
      assert.deepEqual(intersect([[1, 3]], [[4, 5]]), []);
      assert.deepEqual(intersect([], [[1, 5]]), []);
    });

    it('intersect walks both lists fully', () => {
      assert.deepEqual(intersect([[2, 4]], [[0, 1], [3, 3], [4, 9]]), [[3, 4]]);
      assert.deepEqual(intersect([[0, 1], [3, 3], [5, 9]], [[0, 20]]), [[0, 1], [3, 3], [5, 9]]);
      assert.deepEqual(intersect([[0, 5], [10, 15]], [[5, 10]]), [[5, 5], [10, 10]]);
      assert.deepEqual(intersect([[0, 10]], [[2, 3], [5, 6]]), [[2, 3], [5, 6]]);
      assert.deepEqual(intersect([[2, 3], [5, 6]], [[0, 10]]), [[2, 3], [5, 6]]);
    });

    it('subtract removes the middle of a range', () => {
      assert.deepEqual(subtract([[1, 10]], [[4, 6]]), [[1, 3], [7, 10]]);
      assert.deepEqual(subtract([[1, 10]], [[2, 2], [5, 6]]), [[1, 1], [3, 4], [7, 10]]);
    });

    it('subtract trims the edges', () => {
      assert.deepEqual(subtract([[1, 10]], [[1, 3]]), [[4, 10]]);
      assert.deepEqual(subtract([[1, 10]], [[8, 20]]), [[1, 7]]);
      assert.deepEqual(subtract([[1, 10]], [[10, 10]]), [[1, 9]]);
      assert.deepEqual(subtract([[1, 10]], [[0, 10]]), []);
      assert.deepEqual(subtract([[1, 10]], [[1, 9]]), [[10, 10]]);
      assert.deepEqual(subtract([[5, 9]], [[1, 5]]), [[6, 9]]);
      assert.deepEqual(subtract([[5, 5]], [[5, 5]]), []);
    });

    it('subtract ignores disjoint cuts', () => {
      assert.deepEqual(subtract([[5, 7]], [[1, 4], [8, 9]]), [[5, 7]]);
      assert.deepEqual(subtract([[5, 7]], [[1, 2]]), [[5, 7]]);
      assert.deepEqual(subtract([[1, 2], [5, 6]], []), [[1, 2], [5, 6]]);
      assert.deepEqual(subtract([], [[1, 2]]), []);
    });
  });

  describe('queries and text form', () => {
    it('contains checks inclusive bounds', () => {
      const set = [[1, 3], [7, 9]];
      assert.equal(contains(set, 1), true);
      assert.equal(contains(set, 3), true);
      assert.equal(contains(set, 9), true);
      assert.equal(contains(set, 0), false);
      assert.equal(contains(set, 4), false);
      assert.equal(contains(set, 10), false);
      assert.equal(contains([], 1), false);
    });

    it('size counts integers in the set', () => {
      assert.equal(size([[1, 3], [7, 9]]), 6);
      assert.equal(size([[1, 5], [3, 7]]), 7);
      assert.equal(size([[4, 4]]), 1);
      assert.equal(size([]), 0);
    });

    it('parse reads comma-separated ranges', () => {
      assert.deepEqual(parse('1..3, 5, 7..9'), [[1, 3], [5, 5], [7, 9]]);
      assert.deepEqual(parse('4,5,6'), [[4, 6]]);
      assert.deepEqual(parse('-5..-2'), [[-5, -2]]);
      assert.deepEqual(parse('  '), []);
    });

    it('parse rejects bad input', () => {
      assert.throws(() => parse('1..'), /invalid range/);
      assert.throws(() => parse('a'), SyntaxError);
      assert.throws(() => parse('1,,2'), SyntaxError);
      assert.throws(() => parse('5..1'), RangeError);
    });

    it('format writes the canonical text form', () => {
      assert.equal(format([[7, 9], [1, 3], [5, 5]]), '1..3,5,7..9');
      assert.equal(format([[1, 2], [3, 4]]), '1..4');
      assert.equal(format([]), '');
      assert.equal(format(parse('10, 1..2')), '1..2,10');
    });
  });
});
