// The T×T baseline kernels (attention_naive_forward / _backward, the benchmark's peer) against the CPU
// reference: they must be right, not fast. Tolerances as the tiled kernels' (test/gpu/ops/attention.test.ts):
// FWD (atol 1e-5, rtol 1e-4) for out, LSE (atol 1e-5, rtol 1e-5), BWD (atol 1e-5, rtol 1e-3) for the
// gradients (sums of ≤ G·T products of recomputed probabilities, in another order than the reference).
import { describe, expect } from 'vitest';
import { naiveAttention, naiveAttentionBackward } from '../../../src/ops/webgpu/attention_naive.ts';
import { compareArrays, type Tolerance } from '../../../src/ops/compare.ts';
import { attention, attentionBackward } from '../../../src/ops/reference/attention.ts';
import { attentionInputs, packedWithPadding, type AttentionCase } from '../../helpers/attention.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

const FWD: Tolerance = { atol: 1e-5, rtol: 1e-4 };
const LSE: Tolerance = { atol: 1e-5, rtol: 1e-5 };
const BWD: Tolerance = { atol: 1e-5, rtol: 1e-3 };

const CASES: AttentionCase[] = [
  { label: 'T = 37, GQA 2, HS 64', B: 1, T: 37, NH: 4, NKV: 2, HS: 64 },
  { label: 'packed segments + padding, a fully padded row, GQA 4, HS 32', B: 2, T: 20, NH: 4, NKV: 1, HS: 32, seg: packedWithPadding(20) },
  { label: 'T = 1, HS 128', B: 1, T: 1, NH: 2, NKV: 1, HS: 128 },
];

describe('naive attention kernels vs reference', () => {
  for (const [i, c] of CASES.entries()) {
    gpuIt(c.label, async () => {
      const be = await sharedBackend();
      const { gpu, cpu } = attentionInputs(be, c, 300 + i);
      const want = attention(cpu.q, cpu.k, cpu.v, cpu.seg);
      const got = naiveAttention(be.ctx, gpu.q, gpu.k, gpu.v, gpu.seg);
      expect(got.scores.shape).toEqual([c.B, c.NH, c.T, c.T]);
      const wantG = attentionBackward(cpu.q, cpu.k, cpu.v, want.out, cpu.dout, want.lse, cpu.seg);
      const gOut = be.fromArray(want.out.data, want.out.shape), gLse = be.fromArray(want.lse.data, want.lse.shape);
      const gotG = naiveAttentionBackward(be.ctx, gpu.q, gpu.k, gpu.v, gOut, gpu.dout, gLse, gpu.seg);
      const checks: [string, ArrayLike<number>, ArrayLike<number>, Tolerance][] = [
        ['out', await be.read(got.out), want.out.data, FWD],
        ['lse', await be.read(got.lse), want.lse.data, LSE],
        ['dq', await be.read(gotG.dq), wantG.dq.data, BWD],
        ['dk', await be.read(gotG.dk), wantG.dk.data, BWD],
        ['dv', await be.read(gotG.dv), wantG.dv.data, BWD],
      ];
      be.free(got.scores);
      be.free(gotG.scores);
      for (const [name, g, w, tol] of checks) {
        const r = compareArrays(`${c.label}: ${name}`, g, w, tol);
        expect(r.ok, r.report).toBe(true);
      }
    });
  }
});
