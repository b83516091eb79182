// matmul CPU reference: hand-computed values, every layout, and shape errors.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { matmul } from '../../../src/ops/reference/matmul.ts';
import { compareArrays } from '../../../src/ops/compare.ts';

const be = new CpuBackend();
const t = (data: number[], shape: number[]) => be.fromArray(new Float32Array(data), shape);

describe('matmul reference', () => {
  // A = [[1,2,3],[4,5,6]] (2×3), B = [[7,8],[9,10],[11,12]] (3×2): A·B = [[58,64],[139,154]]
  const A = t([1, 2, 3, 4, 5, 6], [2, 3]);
  const B = t([7, 8, 9, 10, 11, 12], [3, 2]);
  const AB = [58, 64, 139, 154];

  it('A·B by hand', () => {
    expect([...matmul(A, B).data]).toEqual(AB);
  });
  it('Aᵀ and Bᵀ layouts give the same product', () => {
    const At = t([1, 4, 2, 5, 3, 6], [3, 2]);
    const Bt = t([7, 9, 11, 8, 10, 12], [2, 3]);
    expect([...matmul(At, B, { transA: true }).data]).toEqual(AB);
    expect([...matmul(A, Bt, { transB: true }).data]).toEqual(AB);
    expect([...matmul(At, Bt, { transA: true, transB: true }).data]).toEqual(AB);
  });
  it('bias and accumulate', () => {
    const out = t([1, 1, 1, 1], [2, 2]);
    matmul(A, B, { bias: t([10, 20], [2]), out, accumulate: true });
    expect([...out.data]).toEqual([69, 85, 150, 175]);
  });
  it('batched with broadcast b equals per-batch products', () => {
    const A2 = t([1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1], [2, 2, 3]);
    const out = matmul(A2, B);
    expect(out.shape).toEqual([2, 2, 2]);
    expect([...out.data.slice(0, 4)]).toEqual(AB);
    const second = matmul(t([6, 5, 4, 3, 2, 1], [2, 3]), B);
    expect(compareArrays('batch 1', out.data.slice(4), second.data, { atol: 0, rtol: 0 }).ok).toBe(true);
  });
  it('refuses mismatched shapes with both shapes named', () => {
    expect(() => matmul(A, A)).toThrow(/inner dimensions differ: a \(2, 3\) has K=3, b \(2, 3\) has K=2/);
    expect(() => matmul(A, B, { accumulate: true })).toThrow(/accumulate needs an `out`/);
    expect(() => matmul(A, B, { bias: t([1, 2, 3], [3]) })).toThrow(/bias has shape \(3\), expected \(2\)/);
  });
});

describe('compareArrays', () => {
  it('reports the first mismatch and the errors', () => {
    const r = compareArrays('x', [1, 2, 3.5], [1, 2, 3], { atol: 0.1, rtol: 0 });
    expect(r.ok).toBe(false);
    expect(r.firstBad).toBe(2);
    expect(r.report).toMatch(/1\/3 values outside .* first at 2; \[2\] got 3.5 want 3/);
    expect(compareArrays('y', [1, 2.05], [1, 2], { atol: 0.1, rtol: 0 }).ok).toBe(true);
  });
});
