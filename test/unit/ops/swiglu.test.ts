// swiglu CPU reference: the PyTorch fixture (silu(gate) · up and autograd dgate/dup, gate values up
// to ±30 to saturate σ), hand values and refusals.
// Tolerance vs PyTorch: atol 1e-6, rtol 1e-5: a handful of f32 operations (~1e-7 relative) in torch
// against f64 in the reference, on values ≤ ~30.
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { swiglu, swigluBackward } from '../../../src/ops/reference/swiglu.ts';
import { loadOpFixture } from '../../helpers/fixtures.ts';

const be = new CpuBackend();
const TOL = { atol: 1e-6, rtol: 1e-5 };
const f32 = (data: ArrayLike<number>, shape: number[]) => be.fromArray(Float32Array.from(data), shape);

describe('swiglu reference', () => {
  for (const c of loadOpFixture('swiglu')) {
    it(`vs PyTorch: ${c.name}`, () => {
      const t = c.tensors;
      const gate = f32(t.gate!.data, t.gate!.shape), up = f32(t.up!.data, t.up!.shape);
      const checks: [string, ArrayLike<number>, ArrayLike<number>][] = [['h', swiglu(gate, up).data, t.h!.data]];
      const { dgate, dup } = swigluBackward(f32(t.dh!.data, t.dh!.shape), gate, up);
      checks.push(['dgate', dgate.data, t.dgate!.data], ['dup', dup.data, t.dup!.data]);
      for (const [name, got, want] of checks) {
        const r = compareArrays(`${c.name} ${name}`, got, want, TOL);
        expect(r.ok, r.report).toBe(true);
      }
    });
  }
  it('by hand: silu(0) = 0 with slope 1/2; silu(g) → g for large g', () => {
    const gate = f32([0, 40], [1, 2]), up = f32([3, 2], [1, 2]);
    expect([...swiglu(gate, up).data]).toEqual([0, 80]);
    const { dgate, dup } = swigluBackward(f32([1, 1], [1, 2]), gate, up);
    expect([...dgate.data]).toEqual([1.5, 2]);
    expect([...dup.data]).toEqual([0, 40]);
  });
  it('refuses mismatched shapes, naming both', () => {
    expect(() => swiglu(be.zeros([2, 3]), be.zeros([3, 2]))).toThrow(/swiglu: up has shape \(3, 2\), expected \(2, 3\)/);
    expect(() => swigluBackward(be.zeros([2, 2]), be.zeros([2, 3]), be.zeros([2, 3]))).toThrow(/swigluBackward: gate has shape \(2, 3\), expected \(2, 2\)/);
  });
});
