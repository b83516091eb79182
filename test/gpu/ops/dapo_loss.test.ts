// dapoLoss WGSL kernels (per-token pass + one-workgroup reduction) against the CPU reference on
// seeded inputs: several 1024-token tiles, default and explicit denom, masked garbage, micro-batches
// adding up, bitwise determinism.
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import type { DapoLossOptions } from '../../../src/ops/dapo_loss.shape.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

// dlogp: one f32 exp per token (WGSL exp: a few ulps) against f64: rtol 1e-5.
const GRAD = { atol: 1e-9, rtol: 1e-5 };
// stats: f32 sums of ~2500 terms of either sign in tree order against an f64 loop; the loss is a
// difference of O(1) terms: absolute error ~ √N · ulp(1) ≈ 1e-7 (SwiftShader: 7e-8).
const STATS = { atol: 5e-7, rtol: 1e-5 };

function inputs(N: number, seed: number) {
  const rng = new Rng(seed);
  const old = Float32Array.from({ length: N }, () => -4 * rng.next());
  const logp = Float32Array.from(old, (o) => o + 0.35 * rng.normal());
  const adv = new Float32Array(N);
  for (let i = 0, a = 0; i < N; i++) adv[i] = i % 64 === 0 ? (a = rng.normal()) : a; // one advantage per 64-token episode
  const mask = Float32Array.from({ length: N }, () => (rng.next() < 0.8 ? 1 : 0));
  for (let i = 5; i < N; i += 97) if (mask[i] === 0) logp[i] = 1e30; // garbage under the mask
  return { logp, old, adv, mask };
}

describe('dapoLoss kernels vs reference', () => {
  const cpu = new CpuBackend();
  const N = 2500; // 3 tiles of 1024, the last partial
  for (const [label, opts] of [
    ['default denom (Σ mask)', { epsLow: 0.2, epsHigh: 0.28 }],
    ['explicit denom 3000, ε 0.2 / 0.3', { epsLow: 0.2, epsHigh: 0.3, denom: 3000 }],
  ] as [string, DapoLossOptions][]) {
    gpuIt(`N ${N}, ${label}`, async () => {
      const be = await sharedBackend();
      const x = inputs(N, 11);
      const c = (d: Float32Array) => cpu.fromArray(d, [N]), g_ = (d: Float32Array) => be.fromArray(d, [N]);
      const want = cpu.dapoLoss(c(x.logp), c(x.old), c(x.adv), c(x.mask), opts);
      const got = be.dapoLoss(g_(x.logp), g_(x.old), g_(x.adv), g_(x.mask), opts);
      expect(want.stats.data[1]! * want.stats.data[2]!, 'both clip edges occur').toBeGreaterThan(0);
      const g = compareArrays(`${label} dlogp`, await be.read(got.dlogp), want.dlogp.data, GRAD);
      expect(g.ok, g.report).toBe(true);
      const s = compareArrays(`${label} stats`, await be.read(got.stats), want.stats.data, STATS);
      expect(s.ok, s.report).toBe(true);
    });
  }

  gpuIt('micro-batches with the batch denom add up; bitwise deterministic', async () => {
    const be = await sharedBackend();
    const x = inputs(N, 12);
    const up = (d: Float32Array) => be.fromArray(d, [d.length]);
    const part = (lo: number, hi: number, denom: number) =>
      be.dapoLoss(up(x.logp.slice(lo, hi)), up(x.old.slice(lo, hi)), up(x.adv.slice(lo, hi)), up(x.mask.slice(lo, hi)), { epsLow: 0.2, epsHigh: 0.28, denom });
    const denom = x.mask.reduce((a, b) => a + b, 0);
    const whole = part(0, N, denom), a = part(0, 1300, denom), b = part(1300, N, denom);
    const [sw, sa, sb] = await Promise.all([whole.stats, a.stats, b.stats].map((t) => be.read(t)));
    const r = compareArrays('micro-batch stats sum', sa!.map((v, i) => v + sb![i]!), sw!, STATS);
    expect(r.ok, r.report).toBe(true);
    const [ga, gb, gw] = await Promise.all([a.dlogp, b.dlogp, whole.dlogp].map((t) => be.read(t)));
    expect(compareArrays('micro-batch dlogp', [...ga!, ...gb!], gw!, { atol: 0, rtol: 0 }).ok).toBe(true);
    const again = part(0, N, denom);
    for (const [p, q] of [[whole.stats, again.stats], [whole.dlogp, again.dlogp]] as const) {
      const [u, w] = [await be.read(p), await be.read(q)];
      expect(Buffer.from(u.buffer).equals(Buffer.from(w.buffer))).toBe(true);
    }
  });
});
