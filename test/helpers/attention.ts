// Seeded inputs for the attention group's GPU tests: one case description, the same arrays uploaded
// to the WebGPU backend and wrapped for the CPU reference.
import type { Tolerance } from '../../src/ops/compare.ts';
import { CpuBackend } from '../../src/ops/reference/backend.ts';
import type { CpuTensor, GpuTensor } from '../../src/ops/tensor.ts';
import type { WebGpuBackend } from '../../src/ops/webgpu/backend.ts';
import { Rng } from '../../src/random.ts';

export interface AttentionCase {
  label: string;
  B: number;
  T: number;
  NH: number;
  NKV: number;
  HS: number;
  /** seg[b][t]; all 0 (one episode per row) when omitted. */
  seg?: (b: number, t: number) => number;
  /** q and k are drawn from U(−magnitude, magnitude) (v and dout from U(−1, 1)). */
  magnitude?: number;
  scale?: number;
}

export interface AttentionInputs<T> {
  q: T;
  k: T;
  v: T;
  seg: T;
  dout: T;
}

export function attentionArrays(c: AttentionCase, seed: number): Record<keyof AttentionInputs<unknown>, Float32Array | Int32Array> {
  const rng = new Rng(seed);
  const mag = c.magnitude ?? 1;
  const seg = new Int32Array(c.B * c.T);
  for (let b = 0; b < c.B; b++) for (let t = 0; t < c.T; t++) seg[b * c.T + t] = c.seg?.(b, t) ?? 0;
  return {
    q: rng.uniform(c.B * c.T * c.NH * c.HS, -mag, mag),
    k: rng.uniform(c.B * c.T * c.NKV * c.HS, -mag, mag),
    v: rng.uniform(c.B * c.T * c.NKV * c.HS),
    seg,
    dout: rng.uniform(c.B * c.T * c.NH * c.HS),
  };
}

/** The same seeded inputs on both backends. */
export function attentionInputs(gpu: WebGpuBackend, c: AttentionCase, seed: number): { gpu: AttentionInputs<GpuTensor>; cpu: AttentionInputs<CpuTensor> } {
  const a = attentionArrays(c, seed);
  const cpuBe = new CpuBackend();
  const shapes = { q: [c.B, c.T, c.NH, c.HS], k: [c.B, c.T, c.NKV, c.HS], v: [c.B, c.T, c.NKV, c.HS], seg: [c.B, c.T], dout: [c.B, c.T, c.NH, c.HS] };
  const on = <T>(make: (data: Float32Array | Int32Array, shape: number[], label: string) => T): AttentionInputs<T> => ({
    q: make(a.q, shapes.q, 'q'),
    k: make(a.k, shapes.k, 'k'),
    v: make(a.v, shapes.v, 'v'),
    seg: make(a.seg, shapes.seg, 'seg'),
    dout: make(a.dout, shapes.dout, 'dout'),
  });
  return { gpu: on((d, s, l) => gpu.fromArray(d, s, l)), cpu: on((d, s, l) => cpuBe.fromArray(d, s, l)) };
}

/** Two packed episodes then padding in row 0 (lengths ⌊0.4T⌋, ⌊0.4T⌋, rest), a fully padded row 1. */
export const packedWithPadding = (T: number) => (b: number, t: number): number =>
  b === 1 ? -1 : t < Math.floor(0.4 * T) ? 0 : t < Math.floor(0.8 * T) ? 1 : -1;

/** Tolerances of f32 attention kernels (WGSL, WASM) against the f64 reference; inputs in [−1, 1).
 *  out: HS-term f32 dot products and a ≤ T-term online softmax. lse: log of a sum of ≤ T terms, each off by
 *  ~|score|·2⁻²⁴. dq, dk, dv: sums of ≤ G·T products of recomputed P and dS (a difference dP − D that
 *  cancels, hence the loose rtol), in another order. LARGE: scores up to ~100, whose rounding (~1e-5)
 *  enters exp's argument and so P, lse and every gradient. */
export const ATTENTION_TOL: Record<'FWD' | 'LSE' | 'BWD' | 'LARGE', Tolerance> = {
  FWD: { atol: 1e-5, rtol: 1e-4 },
  LSE: { atol: 1e-5, rtol: 1e-5 },
  BWD: { atol: 1e-5, rtol: 1e-3 },
  LARGE: { atol: 2e-4, rtol: 2e-3 },
};
