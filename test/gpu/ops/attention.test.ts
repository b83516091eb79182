// Tiled attention kernels (attention_forward, attention_backward_*) against the CPU reference on seeded
// inputs: T = 1, T not a tile multiple, GQA 1/2/4, HS 32/64/128, packed segments with padding, a fully
// padded row, non-contiguous segment ids, large-magnitude scores, one moderate T; bitwise determinism.
// Tolerances (f32 kernels vs the f64 reference; inputs in [−1, 1), observed errors ≤ 2e-6):
//   out: FWD (atol 1e-5, rtol 1e-4): HS-term f32 dot products and a ≤ T-term online softmax.
//   lse: LSE (atol 1e-5, rtol 1e-5): log of a sum of ≤ T terms, each off by ~|score|·2⁻²⁴.
//   dq, dk, dv: BWD (atol 1e-5, rtol 1e-3): sums of ≤ G·T products of recomputed P (exp of a rounded
//     score) and dS (a difference dP − D that cancels, hence the loose rtol), in another order.
//   Large-magnitude scores (|scale·q·k| up to ~100): a score's rounding, ~|score|·2⁻²⁴ ≈ 1e-5, enters
//     exp's argument and so P, lse and every gradient: LARGE (atol 2e-4, rtol 2e-3; observed ≤ 4e-5).
import { describe, expect } from 'vitest';
import { compareArrays, type Tolerance } from '../../../src/ops/compare.ts';
import { attention, attentionBackward } from '../../../src/ops/reference/attention.ts';
import { ATTENTION_TOL, attentionInputs, packedWithPadding, type AttentionCase } from '../../helpers/attention.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

const { FWD, LSE, BWD, LARGE } = ATTENTION_TOL;

const TILED_CASES: AttentionCase[] = [
  { label: 'T = 1, HS 32', B: 2, T: 1, NH: 2, NKV: 2, HS: 32 },
  { label: 'T = 37 (not a tile multiple), GQA 2, HS 64', B: 1, T: 37, NH: 4, NKV: 2, HS: 64 },
  { label: 'GQA 4, HS 128, explicit scale', B: 1, T: 20, NH: 4, NKV: 1, HS: 128, scale: 0.05 },
  { label: 'two packed segments + padding, a fully padded row, HS 32', B: 2, T: 24, NH: 2, NKV: 2, HS: 32, seg: packedWithPadding(24) },
  { label: 'non-contiguous segment ids, GQA 2', B: 1, T: 21, NH: 2, NKV: 1, HS: 32, seg: (_b, t) => Math.floor(t / 3) % 2 },
  { label: 'large-magnitude scores', B: 1, T: 33, NH: 2, NKV: 1, HS: 32, magnitude: 10 },
  { label: 'moderate T = 150, packed segments, GQA 2, HS 64', B: 1, T: 150, NH: 2, NKV: 1, HS: 64, seg: (_b, t) => (t < 50 ? 0 : t < 120 ? 1 : t < 140 ? 2 : -1) },
];

describe('attention kernels vs reference', () => {
  for (const [i, c] of TILED_CASES.entries()) {
    gpuIt(c.label, async () => {
      const be = await sharedBackend();
      const { gpu, cpu } = attentionInputs(be, c, 100 + i);
      const opts = { scale: c.scale };
      const want = attention(cpu.q, cpu.k, cpu.v, cpu.seg, opts);
      const got = be.attention(gpu.q, gpu.k, gpu.v, gpu.seg, opts);
      const large = c.magnitude !== undefined;
      const checks: [string, ArrayLike<number>, ArrayLike<number>, Tolerance][] = [
        ['out', await be.read(got.out), want.out.data, large ? LARGE : FWD],
        ['lse', await be.read(got.lse), want.lse.data, large ? LARGE : LSE],
      ];
      // Both backwards take the reference's out and lse, so the backward is checked on its own.
      const gOut = be.fromArray(want.out.data, want.out.shape), gLse = be.fromArray(want.lse.data, want.lse.shape);
      const wantG = attentionBackward(cpu.q, cpu.k, cpu.v, want.out, cpu.dout, want.lse, cpu.seg, opts);
      const gotG = be.attentionBackward(gpu.q, gpu.k, gpu.v, gOut, gpu.dout, gLse, gpu.seg, opts);
      for (const name of ['dq', 'dk', 'dv'] as const) checks.push([name, await be.read(gotG[name]), wantG[name].data, large ? LARGE : BWD]);
      for (const [name, g, w, tol] of checks) {
        const r = compareArrays(`${c.label}: ${name}`, g, w, tol);
        expect(r.ok, r.report).toBe(true);
      }
    });
  }

  gpuIt('forward and backward are bitwise deterministic', async () => {
    const be = await sharedBackend();
    const c = TILED_CASES[3]!;
    const { gpu } = attentionInputs(be, c, 7);
    const run = async () => {
      const f = be.attention(gpu.q, gpu.k, gpu.v, gpu.seg);
      const g = be.attentionBackward(gpu.q, gpu.k, gpu.v, f.out, gpu.dout, f.lse, gpu.seg);
      return Promise.all([f.out, f.lse, g.dq, g.dk, g.dv].map((t) => be.read(t)));
    };
    const [x, y] = [await run(), await run()];
    for (let i = 0; i < x.length; i++) expect(Buffer.from(x[i]!.buffer).equals(Buffer.from(y[i]!.buffer)), `output ${i}`).toBe(true);
  });

  gpuIt('refuses head sizes beyond the kernels\' tile', async () => {
    const be = await sharedBackend();
    const q = be.zeros([1, 2, 1, 130]), seg = be.zeros([1, 2], 'i32');
    expect(() => be.attention(q, q, q, seg)).toThrow(/attention: head size 130 exceeds the WebGPU kernels' 128/);
  });
});
