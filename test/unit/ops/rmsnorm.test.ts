// rmsnorm CPU reference: PyTorch fixtures (transformers' Qwen3RMSNorm with autograd: y, rstd, dx,
// dw) including one row, values ~1e4 and Qwen3's per-head q/k norm; hand cases, a finite-difference
// check, += modes and refusals.
// Tolerance vs PyTorch: atol 1e-5 · max|want|, rtol 1e-5 per array: torch accumulates in f32
// (D ≤ 16 terms, ~1e-6 relative), the reference in f64; scaling atol by the array's magnitude keeps
// the check meaningful for the 1e4-scaled case (rstd ~1e-4, dx ~1e-4).
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { rmsnorm, rmsnormBackward } from '../../../src/ops/reference/rmsnorm.ts';
import type { TypedArray } from '../../../src/ops/tensor.ts';
import { loadOpFixture } from '../../helpers/fixtures.ts';

const be = new CpuBackend();
const f32 = (data: ArrayLike<number>, shape: number[]) => be.fromArray(Float32Array.from(data), shape);
const maxAbs = (a: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]!));
  return m;
};
const close = (label: string, got: TypedArray, want: TypedArray, rel = 1e-5) => {
  const r = compareArrays(label, got, want, { atol: rel * maxAbs(want), rtol: rel });
  expect(r.ok, r.report).toBe(true);
};

describe('rmsnorm reference vs PyTorch', () => {
  for (const c of loadOpFixture('rmsnorm')) {
    it(c.name, () => {
      const t = c.tensors;
      const eps = c.attrs.eps as number;
      const x = f32(t.x!.data, t.x!.shape), w = f32(t.w!.data, t.w!.shape);
      const { y, rstd } = rmsnorm(x, w, eps);
      expect(rstd.shape).toEqual(t.rstd!.shape);
      close(`${c.name} y`, y.data, t.y!.data);
      close(`${c.name} rstd`, rstd.data, t.rstd!.data);
      const dw = be.zeros(t.w!.shape);
      const dx = rmsnormBackward(f32(t.dy!.data, t.dy!.shape), x, w, rstd, dw);
      close(`${c.name} dx`, dx.data, t.dx!.data);
      close(`${c.name} dw`, dw.data, t.dw!.data);
    });
  }
  it('per-head q/k norm on (N·NH, HS) rows equals the (N, NH, HS) form', () => {
    const c = loadOpFixture('rmsnorm').find((k) => k.name.startsWith('qk_norm'))!;
    const [N, NH, HS] = c.tensors.x!.shape as [number, number, number];
    const { y, rstd } = rmsnorm(f32(c.tensors.x!.data, [N * NH, HS]), f32(c.tensors.w!.data, [HS]), c.attrs.eps as number);
    expect(rstd.shape).toEqual([N * NH]);
    close('qk y as rows', y.data, c.tensors.y!.data);
  });
});

describe('rmsnorm reference', () => {
  it('by hand: x = (2, −2, 2, −2) has rstd 1/2 (eps 0)', () => {
    const { y, rstd } = rmsnorm(f32([2, -2, 2, -2], [1, 4]), f32([1, 2, 3, 4], [4]), 0);
    expect([...rstd.data]).toEqual([0.5]);
    expect([...y.data]).toEqual([1, -2, 3, -4]);
  });
  it('backward matches central finite differences of Σ y·dy', () => {
    const xs = [0.3, -1.2, 0.8, 0.5, -0.1, 1.1], ws = [1.1, 0.9, -0.7], dys = [0.2, -0.5, 1.0, 0.4, 0.3, -0.8];
    const loss = (xv: number[], wv: number[]) => {
      const { y } = rmsnorm(f32(xv, [2, 3]), f32(wv, [3]), 1e-5);
      let s = 0;
      for (let i = 0; i < y.data.length; i++) s += y.data[i]! * dys[i]!;
      return s;
    };
    const x = f32(xs, [2, 3]), w = f32(ws, [3]);
    const { rstd } = rmsnorm(x, w, 1e-5);
    const dw = be.zeros([3]);
    const dx = rmsnormBackward(f32(dys, [2, 3]), x, w, rstd, dw);
    const h = 1e-2;
    const numeric = (v: number[], i: number, f: (u: number[]) => number) => {
      const p = [...v], m = [...v];
      p[i]! += h;
      m[i]! -= h;
      return (f(p) - f(m)) / (2 * h);
    };
    // f32 forward (~1e-7) over 2h = 2e-2 and the O(h²) truncation: agreement to ~1e-3.
    const ndx = xs.map((_, i) => numeric(xs, i, (u) => loss(u, ws)));
    const ndw = ws.map((_, i) => numeric(ws, i, (u) => loss(xs, u)));
    for (const [label, got, want] of [['dx', dx.data, ndx], ['dw', dw.data, ndw]] as const) {
      const r = compareArrays(`finite differences ${label}`, got, want, { atol: 2e-3, rtol: 2e-3 });
      expect(r.ok, r.report).toBe(true);
    }
  });
  it('accumulates: dw += always, dx += into accumulateDx', () => {
    const x = f32([1, 2, 3, 4], [2, 2]), w = f32([1, 1], [2]), dy = f32([1, 0, 0, 1], [2, 2]);
    const { rstd } = rmsnorm(x, w, 1e-6);
    const dw1 = be.zeros([2]);
    const dx1 = rmsnormBackward(dy, x, w, rstd, dw1);
    const dw2 = f32([10, 20], [2]), acc = f32([1, 1, 1, 1], [2, 2]);
    const dx2 = rmsnormBackward(dy, x, w, rstd, dw2, { accumulateDx: acc });
    expect(dx2).toBe(acc);
    // Same values to one f32 rounding (the reference adds the f64 gradient before rounding).
    close('dx +=', dx2.data, Float32Array.from(dx1.data, (v) => v + 1), 1e-7);
    close('dw +=', dw2.data, Float32Array.of(dw1.data[0]! + 10, dw1.data[1]! + 20), 1e-7);
  });
  it('refuses bad shapes, naming both', () => {
    const x = be.zeros([3, 4]);
    expect(() => rmsnorm(x, be.zeros([3]), 1e-6)).toThrow(/rmsnorm: w has shape \(3\), expected \(4\)/);
    expect(() => rmsnorm(x, be.zeros([4]), -1)).toThrow(/eps must be/);
    const { rstd } = rmsnorm(x, be.zeros([4]), 1e-6);
    expect(() => rmsnormBackward(be.zeros([4, 3]), x, be.zeros([4]), rstd, be.zeros([4]))).toThrow(/rmsnormBackward: dy has shape \(4, 3\), expected \(3, 4\)/);
    expect(() => rmsnormBackward(be.zeros([3, 4]), x, be.zeros([4]), be.zeros([4]), be.zeros([4]))).toThrow(/rstd has shape \(4\), expected \(3\)/);
    expect(() => rmsnormBackward(be.zeros([3, 4]), x, be.zeros([4]), rstd, be.zeros([3]))).toThrow(/dw has shape \(3\), expected \(4\)/);
  });
});
