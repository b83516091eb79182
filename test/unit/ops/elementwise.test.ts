// add / scale CPU reference: PyTorch fixtures, aliasing (out = a), and refusals.
// Tolerance: exact. One f32 add or multiply is correctly rounded in both torch and the reference.
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { add, scale } from '../../../src/ops/reference/elementwise.ts';
import { loadOpFixture } from '../../helpers/fixtures.ts';

const be = new CpuBackend();
const f32 = (data: ArrayLike<number>, shape: number[]) => be.fromArray(Float32Array.from(data), shape);

describe('add / scale reference', () => {
  for (const c of loadOpFixture('elementwise')) {
    it(`vs PyTorch: ${c.name}`, () => {
      const t = c.tensors;
      const a = f32(t.a!.data, t.a!.shape);
      const out = c.name === 'add' ? add(a, f32(t.b!.data, t.b!.shape)) : scale(a, c.attrs.s as number);
      const r = compareArrays(c.name, out.data, t.out!.data, { atol: 0, rtol: 0 });
      expect(r.ok, r.report).toBe(true);
    });
  }
  it('writes into out, which may alias a', () => {
    const a = f32([1, 2, 3], [3]);
    expect(add(a, f32([10, 20, 30], [3]), a)).toBe(a);
    expect([...a.data]).toEqual([11, 22, 33]);
    expect(scale(a, 2, a)).toBe(a);
    expect([...a.data]).toEqual([22, 44, 66]);
    expect([...add(a, a, a).data]).toEqual([44, 88, 132]);
  });
  it('refuses mismatched shapes, naming both', () => {
    expect(() => add(be.zeros([2, 3]), be.zeros([3, 2]))).toThrow(/add: b has shape \(3, 2\), expected \(2, 3\)/);
    expect(() => add(be.zeros([2]), be.zeros([2]), be.zeros([3]))).toThrow(/add: out has shape \(3\), expected \(2\)/);
    expect(() => scale(be.zeros([2]), NaN)).toThrow(/scale: s must be finite/);
  });
});
