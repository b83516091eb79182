// dapoLoss CPU reference against a PyTorch transcription of verl's compute_policy_loss
// (token-mean, clip-higher) and its autograd gradient; micro-batches adding up; hand-checked
// clip cases; masked garbage; argument errors.
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { dapoLoss } from '../../../src/ops/reference/dapo_loss.ts';
import type { CpuTensor } from '../../../src/ops/tensor.ts';
import { loadOpFixture, type FixtureTensor } from '../../helpers/fixtures.ts';

const be = new CpuBackend();
const t = (f: FixtureTensor): CpuTensor => be.fromArray(f.data, f.shape);
const v = (data: number[]) => be.fromArray(new Float32Array(data), [data.length]);

// Both sides are f64 on the same f32 inputs, rounded once to f32: an ulp or two apart.
const TOL = { atol: 1e-7, rtol: 1e-6 };

describe('dapoLoss reference vs PyTorch (verl compute_policy_loss, token-mean)', () => {
  const cases = loadOpFixture('dapo_loss');
  for (const c of cases) {
    it(`${c.name}: stats [loss, clipfrac_low, clipfrac_high, k3] and dlogp`, () => {
      const T = c.tensors;
      const opts = { epsLow: c.attrs.epsLow as number, epsHigh: c.attrs.epsHigh as number, denom: c.attrs.denom as number | undefined };
      const r = dapoLoss(t(T.logp!), t(T.oldLogp!), t(T.adv!), t(T.mask!), opts);
      const s = compareArrays(`${c.name} stats`, r.stats.data, T.stats!.data, TOL);
      expect(s.ok, s.report).toBe(true);
      const g = compareArrays(`${c.name} dlogp`, r.dlogp.data, T.dlogp!.data, TOL);
      expect(g.ok, g.report).toBe(true);
    });
  }
  it('the fixture exercises both clip edges (else the test proves little)', () => {
    const s = cases[0]!.tensors.stats!.data;
    expect(s[1]).toBeGreaterThan(0);
    expect(s[2]).toBeGreaterThan(0);
  });
  it('micro-batches with the whole batch as denom add up to the batch (loss, stats and dlogp)', () => {
    const run = (name: string) => {
      const c = cases.find((x) => x.name === name)!;
      const T = c.tensors;
      return dapoLoss(t(T.logp!), t(T.oldLogp!), t(T.adv!), t(T.mask!), { epsLow: 0.2, epsHigh: 0.28, denom: c.attrs.denom as number | undefined });
    };
    const [b, m0, m1] = [run('batch'), run('micro0'), run('micro1')];
    const sum = m0.stats.data.map((x, i) => x + m1.stats.data[i]!);
    const r = compareArrays('micro sum', sum, b.stats.data, { atol: 1e-7, rtol: 1e-6 }); // two f32 roundings
    expect(r.ok, r.report).toBe(true);
    expect(compareArrays('micro dlogp', [...m0.dlogp.data, ...m1.dlogp.data], b.dlogp.data, { atol: 0, rtol: 0 }).ok).toBe(true);
  });
});

describe('dapoLoss reference by hand (εlow 0.2, εhigh 0.28)', () => {
  const eps = { epsLow: 0.2, epsHigh: 0.28 };
  it('ρ = 1.5: clipped for A > 0 (no gradient), unclipped for A < 0', () => {
    const r = dapoLoss(v([Math.log(1.5), Math.log(1.5)]), v([0, 0]), v([1, -1]), v([1, 1]), eps);
    // token 0: −min(1.5, 1.28) = −1.28, clip high; token 1: −min(−1.5, −1.28) = 1.5, ∂/∂logp = −ρA/2 = 0.75
    const kl = 1.5 - 1 - Math.log(1.5);
    const s = compareArrays('stats', r.stats.data, [(-1.28 + 1.5) / 2, 0, 0.5, kl], { atol: 1e-7, rtol: 1e-6 });
    expect(s.ok, s.report).toBe(true);
    expect(compareArrays('dlogp', r.dlogp.data, [0, 0.75], { atol: 1e-7, rtol: 1e-6 }).ok).toBe(true);
  });
  it('ρ = 0.5: clipped for A < 0 (clip low), unclipped for A > 0', () => {
    const r = dapoLoss(v([Math.log(0.5), Math.log(0.5)]), v([0, 0]), v([-2, 2]), v([1, 1]), { ...eps, denom: 4 });
    // token 0: −min(−1, −1.6) = 1.6, clipped; token 1: −min(1, 1.6) = −1, ∂ = −ρA/4 = −0.25
    const s = compareArrays('stats', r.stats.data, [(1.6 - 1) / 4, 1 / 4, 0, (2 * (0.5 - 1 - Math.log(0.5))) / 4], { atol: 1e-7, rtol: 1e-6 });
    expect(s.ok, s.report).toBe(true);
    expect(compareArrays('dlogp', r.dlogp.data, [0, -0.25], { atol: 1e-7, rtol: 1e-6 }).ok).toBe(true);
  });
  it('masked tokens are skipped outright, even with non-finite ratios', () => {
    const r = dapoLoss(v([0, 1e30, -1e30]), v([0, 0, 0]), v([1, 1, -1]), v([1, 0, 0]), eps);
    expect([...r.stats.data]).toEqual([-1, 0, 0, 0]);
    expect([...r.dlogp.data]).toEqual([-1, 0, 0]);
  });
  it('an all-zero mask gives zeros, not NaN', () => {
    const r = dapoLoss(v([0, 0]), v([0, 0]), v([1, 1]), v([0, 0]), eps);
    expect([...r.stats.data, ...r.dlogp.data]).toEqual([0, 0, 0, 0, 0, 0]);
  });
  it('refuses bad arguments, naming op, argument and shapes', () => {
    expect(() => dapoLoss(v([0, 0]), v([0]), v([1, 1]), v([1, 1]), eps)).toThrow(/dapoLoss: oldLogp has shape \(1\), expected \(2\)/);
    expect(() => dapoLoss(v([0]), v([0]), v([1]), be.fromArray(Int32Array.of(1), [1]), eps)).toThrow(/dapoLoss: mask must be f32, got i32/);
    expect(() => dapoLoss(v([0]), v([0]), v([1]), v([1]), { ...eps, denom: 0 })).toThrow(/dapoLoss: denom must be a finite number > 0/);
    expect(() => dapoLoss(v([0]), v([0]), v([1]), v([1]), { epsLow: -0.1, epsHigh: 0.2 })).toThrow(/dapoLoss: epsLow must be/);
  });
});
