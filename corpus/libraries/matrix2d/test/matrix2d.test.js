import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  shape,
  zeros,
  identity,
  add,
  subtract,
  scale,
  transpose,
  multiply,
  minor,
  determinant,
  equals,
} from '../src/matrix2d.js';

describe('matrix2d', () => {
  describe('construction', () => {
    it('shape reports rows and columns', () => {
      assert.deepEqual(shape([[1, 2, 3]]), [1, 3]);
      assert.deepEqual(shape([[1], [2]]), [2, 1]);
    });

    it('shape rejects malformed matrices', () => {
      assert.throws(() => shape([]), TypeError);
      assert.throws(() => shape([1, 2]), TypeError);
      assert.throws(() => shape([[1, 2], [3]]), /equal length/);
      assert.throws(() => shape([[1], [2], [3, 4]]), RangeError);
    });

    it('zeros builds a filled matrix', () => {
      assert.deepEqual(zeros(2, 3), [[0, 0, 0], [0, 0, 0]]);
      assert.deepEqual(zeros(1, 1), [[0]]);
      assert.throws(() => zeros(0, 2), RangeError);
      assert.throws(() => zeros(2, 0), RangeError);
    });

    it('identity puts ones on the diagonal', () => {
      assert.deepEqual(identity(1), [[1]]);
      assert.deepEqual(identity(3), [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    });
  });

  describe('elementwise operations', () => {
    it('adds matrices', () => {
      assert.deepEqual(add([[1, 2], [3, 4]], [[10, 20], [30, 40]]), [[11, 22], [33, 44]]);
    });

    it('subtracts matrices', () => {
      assert.deepEqual(subtract([[5, 5], [5, 5]], [[1, 2], [3, 4]]), [[4, 3], [2, 1]]);
    });

    it('rejects mismatched dimensions', () => {
      assert.throws(() => add([[1, 2]], [[1], [2]]), /dimensions must match/);
      assert.throws(() => subtract([[1, 2]], [[1, 2, 3]]), RangeError);
      assert.throws(() => add([[1], [2]], [[1], [2], [3]]), RangeError);
    });

    it('scales every element', () => {
      assert.deepEqual(scale([[1, -2], [3, 0]], 3), [[3, -6], [9, 0]]);
      assert.deepEqual(scale([[1, 2]], 0), [[0, 0]]);
    });

    it('does not modify its inputs', () => {
      const a = [[1, 2], [3, 4]];
      add(a, a);
      scale(a, 5);
      transpose(a);
      assert.deepEqual(a, [[1, 2], [3, 4]]);
    });
  });

  describe('products', () => {
    it('transposes rectangular matrices', () => {
      assert.deepEqual(transpose([[1, 2, 3], [4, 5, 6]]), [[1, 4], [2, 5], [3, 6]]);
      assert.deepEqual(transpose([[7]]), [[7]]);
    });

    it('multiplies square matrices', () => {
      assert.deepEqual(multiply([[1, 2], [3, 4]], [[5, 6], [7, 8]]), [[19, 22], [43, 50]]);
      assert.deepEqual(multiply([[5, 6], [7, 8]], [[1, 2], [3, 4]]), [[23, 34], [31, 46]]);
    });

    it('multiplies rectangular matrices', () => {
      assert.deepEqual(multiply([[1, 2, 3]], [[4], [5], [6]]), [[32]]);
      assert.deepEqual(multiply([[1], [2]], [[3, 4]]), [[3, 4], [6, 8]]);
      assert.throws(() => multiply([[1, 2]], [[1, 2]]), /columns of a/);
    });

    it('identity is neutral for multiplication', () => {
      const m = [[2, -1, 0], [4, 3, 1], [0, 5, 6]];
      assert.deepEqual(multiply(identity(3), m), m);
      assert.deepEqual(multiply(m, identity(3)), m);
    });
  });

  describe('determinant and friends', () => {
    it('minor removes a row and a column', () => {
      const m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]];
      assert.deepEqual(minor(m, 0, 0), [[5, 6], [8, 9]]);
      assert.deepEqual(minor(m, 1, 2), [[1, 2], [7, 8]]);
      assert.deepEqual(minor(m, 2, 1), [[1, 3], [4, 6]]);
    });

    it('computes small determinants', () => {
      assert.equal(determinant([[7]]), 7);
      assert.equal(determinant([[1, 2], [3, 4]]), -2);
      assert.equal(determinant([[4, 6], [3, 8]]), 14);
    });

    it('computes larger determinants', () => {
      assert.equal(determinant([[6, 1, 1], [4, -2, 5], [2, 8, 7]]), -306);
      assert.equal(determinant([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), 0);
      assert.equal(determinant([[2, 0, 0, 0], [0, 3, 0, 0], [0, 0, 4, 0], [0, 0, 0, 5]]), 120);
      assert.equal(determinant([[1, 0, 2, -1], [3, 0, 0, 5], [2, 1, 4, -3], [1, 0, 5, 0]]), 30);
      assert.equal(determinant(identity(4)), 1);
    });

    it('determinant requires a square matrix', () => {
      assert.throws(() => determinant([[1, 2, 3], [4, 5, 6]]), /square/);
      assert.throws(() => determinant([[1], [2]]), RangeError);
    });

    it('equals compares shape and values', () => {
      assert.equal(equals([[1, 2]], [[1, 2]]), true);
      assert.equal(equals([[1, 2]], [[1, 3]]), false);
      assert.equal(equals([[1, 2]], [[9, 2]]), false);
      assert.equal(equals([[1, 2]], [[1], [2]]), false);
      assert.equal(equals([[1], [2]], [[1], [2], [3]]), false);
      assert.equal(equals([[1, 2], [3, 4]], [[1, 2], [3, 5]]), false);
    });
  });
});
