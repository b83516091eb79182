// colSum CPU reference: PyTorch fixtures (x.sum(0)), = and += modes, and refusals.
// Tolerance vs PyTorch: atol 1e-5, rtol 1e-6: ≤ 40 O(1) terms summed in f32 by torch, f64 here.
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { colSum } from '../../../src/ops/reference/col_sum.ts';
import { loadOpFixture } from '../../helpers/fixtures.ts';

const be = new CpuBackend();
const f32 = (data: ArrayLike<number>, shape: number[]) => be.fromArray(Float32Array.from(data), shape);

describe('colSum reference', () => {
  for (const c of loadOpFixture('col_sum')) {
    it(`vs PyTorch: ${c.name}`, () => {
      const r = compareArrays(c.name, colSum(f32(c.tensors.x!.data, c.tensors.x!.shape)).data, c.tensors.out!.data, { atol: 1e-5, rtol: 1e-6 });
      expect(r.ok, r.report).toBe(true);
    });
  }
  it('by hand: = into a new tensor or out, += into out', () => {
    const x = f32([1, 2, 3, 4, 5, 6], [3, 2]);
    expect([...colSum(x).data]).toEqual([9, 12]);
    const out = f32([100, 200], [2]);
    expect(colSum(x, out, true)).toBe(out);
    expect([...out.data]).toEqual([109, 212]);
    expect([...colSum(x, out).data]).toEqual([9, 12]);
    expect([...colSum(be.zeros([0, 2])).data]).toEqual([0, 0]);
  });
  it('refuses bad shapes', () => {
    expect(() => colSum(be.zeros([3, 2]), undefined, true)).toThrow(/colSum: accumulate needs an `out`/);
    expect(() => colSum(be.zeros([3, 2]), be.zeros([3]))).toThrow(/colSum: out has shape \(3\), expected \(2\)/);
  });
});
