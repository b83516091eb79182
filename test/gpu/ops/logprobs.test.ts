// logprobs / logprobsBackward WGSL kernels against the CPU reference on seeded inputs: vocabularies
// split over 1 to 16 lanes per row (vec4 and scalar loads, V % 4 ≠ 0, ragged last chunks), one
// smaller than a group of 4, logits of magnitude ±80, out-of-range targets, the 2-D row grid,
// backward with and without the entropy gradient and in place, and bitwise determinism.
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { logprobs as logprobsGpu } from '../../../src/ops/webgpu/logprobs.ts';
import type { Tensor } from '../../../src/ops/tensor.ts';
import type { WebGpuBackend } from '../../../src/ops/webgpu/backend.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

// Forward: f32 exp/log and ≤ 64 f32 chunk sums merged in order against an f64 loop. lse and logp reach
// |80+|, where an ulp is 8e-6; WGSL's exp may be off by 3 + 2|x| ulps, so allow a few ulps of that
// (SwiftShader: max abs 1e-6). Entropy comes from the same sums.
const FWD = { atol: 1e-5, rtol: 2e-6 };
// Backward: p = exp(x − lse) in f32, relative error a few ulps of |x − lse| (SwiftShader: max abs
// 3e-8 on values ≤ ~2, most of them ~1/V).
const BWD = { atol: 2e-7, rtol: 1e-4 };

interface Case {
  label: string;
  N: number;
  V: number;
  /** logits uniform in [−scale, scale) */
  scale: number;
  /** override targets (else random in [0, V)) */
  targets?: number[];
  gridMax?: number;
}

const CASES: Case[] = [
  { label: 'N 5, V 3000 (8 lanes per row, vec4 loads)', N: 5, V: 3000, scale: 4 },
  { label: 'N 4, V 7 (most invocations idle), target −100 and V', N: 4, V: 7, scale: 2, targets: [3, -100, 6, 7] },
  { label: 'N 3, V 1000, logits ±80', N: 3, V: 1000, scale: 80 },
  { label: 'N 150, V 300, 2-D grid (2 × 2 workgroups of 64 rows, one surplus)', N: 150, V: 300, scale: 3, gridMax: 2 },
  { label: 'N 6, V 1537 (V % 4 ≠ 0: scalar loads, 4 lanes per row, ragged last chunk)', N: 6, V: 1537, scale: 4 },
  { label: 'N 9, V 4100 (vec4 loads, 16 lanes per row, 4 rows per workgroup, 3 surplus rows)', N: 9, V: 4100, scale: 4 },
];

function inputs(c: Case, seed: number) {
  const rng = new Rng(seed);
  const logits = rng.uniform(c.N * c.V, -c.scale, c.scale);
  const targets = Int32Array.from(c.targets ?? Array.from({ length: c.N }, () => rng.int(c.V)));
  return { logits, targets, dlogp: rng.uniform(c.N), dentropy: rng.uniform(c.N) };
}

const expectClose = (label: string, got: ArrayLike<number>, want: ArrayLike<number>, tol: { atol: number; rtol: number }) => {
  const r = compareArrays(label, got, want, tol);
  expect(r.ok, r.report).toBe(true);
};

describe('logprobs kernels vs reference', () => {
  const cpu = new CpuBackend();
  CASES.forEach((c, i) => {
    gpuIt(`forward and backward (with dentropy): ${c.label}`, async () => {
      const be = await sharedBackend();
      const x = inputs(c, 100 + i);
      const want = cpu.logprobs(cpu.fromArray(x.logits, [c.N, c.V]), cpu.fromArray(x.targets, [c.N]));
      const logits = be.fromArray(x.logits, [c.N, c.V]), targets = be.fromArray(x.targets, [c.N]);
      const got = c.gridMax ? logprobsGpu(be.ctx, logits, targets, c.gridMax) : be.logprobs(logits, targets);
      for (const k of ['logp', 'entropy', 'lse'] as const) expectClose(`${c.label} ${k}`, await be.read(got[k]), want[k].data, FWD);
      // Backward from the reference's own lse/entropy on both sides, so only the kernel differs.
      const dWant = cpu.logprobsBackward(cpu.fromArray(x.logits, [c.N, c.V]), cpu.fromArray(x.targets, [c.N]), want.lse, want.entropy, cpu.fromArray(x.dlogp, [c.N]), cpu.fromArray(x.dentropy, [c.N]));
      const up = (t: Tensor & { data: Float32Array | Int32Array | Uint32Array }) => be.fromArray(t.data, t.shape);
      const dGot = be.logprobsBackward(logits, targets, up(want.lse), up(want.entropy), be.fromArray(x.dlogp, [c.N]), be.fromArray(x.dentropy, [c.N]));
      expectClose(`${c.label} dlogits`, await be.read(dGot), dWant.data, BWD);
    });
  });

  gpuIt('backward without dentropy, and in place over the logits', async () => {
    const be = await sharedBackend();
    const c = CASES[0]!;
    const x = inputs(c, 7);
    const cl = cpu.fromArray(x.logits, [c.N, c.V]), ct = cpu.fromArray(x.targets, [c.N]);
    const f = cpu.logprobs(cl, ct);
    const dl = cpu.fromArray(x.dlogp, [c.N]), dh = cpu.fromArray(x.dentropy, [c.N]);
    const logits = be.fromArray(x.logits, [c.N, c.V]), targets = be.fromArray(x.targets, [c.N]);
    const [lse, ent, glp, gh] = [f.lse, f.entropy, dl, dh].map((t) => be.fromArray(t.data, t.shape));
    const noH = be.logprobsBackward(logits, targets, lse!, ent!, glp!);
    expectClose('without dentropy', await be.read(noH), cpu.logprobsBackward(cl, ct, f.lse, f.entropy, dl).data, BWD);
    const inPlace = be.logprobsBackward(logits, targets, lse!, ent!, glp!, gh!, logits);
    expect(inPlace).toBe(logits);
    expectClose('in place', await be.read(logits), cpu.logprobsBackward(cl, ct, f.lse, f.entropy, dl, dh).data, BWD);
  });

  gpuIt('is bitwise deterministic (forward and backward, run twice)', async () => {
    const be = await sharedBackend();
    const c = CASES[0]!;
    const x = inputs(c, 8);
    const logits = be.fromArray(x.logits, [c.N, c.V]), targets = be.fromArray(x.targets, [c.N]);
    const run = async () => {
      const f = be.logprobs(logits, targets);
      const d = be.logprobsBackward(logits, targets, f.lse, f.entropy, be.fromArray(x.dlogp, [c.N]), be.fromArray(x.dentropy, [c.N]));
      return Promise.all([f.logp, f.entropy, f.lse, d].map((t) => be.read(t)));
    };
    const [a, b] = [await run(), await run()];
    a.forEach((arr, i) => expect(Buffer.from(arr.buffer).equals(Buffer.from(b[i]!.buffer)), `output ${i}`).toBe(true));
  });
});
