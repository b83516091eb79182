// sample CPU reference: Philox4x32-10 against Random123's known-answer vectors, the top-k / top-p
// filtered distribution against Hugging Face's warpers (PyTorch fixture), unbiased sampling
// (chi-square over many counters), reproducibility, argument errors.
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { philox4x32, sampleUniform, seedKey, wordToUniform } from '../../../src/ops/reference/philox.ts';
import { inverseCdf, sample, sampledLogProbs } from '../../../src/ops/reference/sample.ts';
import { loadOpFixture } from '../../helpers/fixtures.ts';
import { PHILOX_KAT } from '../../helpers/philox-kat.ts';

const be = new CpuBackend();

describe('philox4x32-10', () => {
  for (const [c, k, want] of PHILOX_KAT) {
    it(`known answer: counter ${c.map((x) => x.toString(16)).join(' ')}, key ${k.map((x) => x.toString(16)).join(' ')}`, () => {
      expect(philox4x32(c as [number, number, number, number], k as [number, number])).toEqual(want);
    });
  }
  it('splits a seed into (low 32 bits, high bits) and maps words into [0, 1)', () => {
    expect(seedKey(0x1234_5678_9abc)).toEqual([0x5678_9abc, 0x1234]);
    expect(wordToUniform(0xffffffff)).toBe(1 - 2 ** -24);
    expect(wordToUniform(0)).toBe(0);
    expect(() => seedKey(-1)).toThrow(/seed must be an integer/);
  });
  it('uniforms over counters look uniform (mean 1/2, variance 1/12)', () => {
    const n = 20000;
    let s = 0, s2 = 0;
    for (let i = 0; i < n; i++) {
      const u = sampleUniform(42, i, 0);
      s += u;
      s2 += u * u;
    }
    expect(Math.abs(s / n - 0.5)).toBeLessThan(0.01); // σ of the mean: 0.002
    expect(Math.abs(s2 / n - (s / n) ** 2 - 1 / 12)).toBeLessThan(0.005);
  });
});

describe('top-k / top-p distribution vs Hugging Face warpers (PyTorch fixture)', () => {
  for (const c of loadOpFixture('sample_filter')) {
    it(c.name, () => {
      const [B, V] = c.tensors.logits!.shape as [number, number];
      const a = c.attrs as { temperature: number; topK: number | null; topP: number | null };
      for (let b = 0; b < B; b++) {
        const row = c.tensors.logits!.data.subarray(b * V, (b + 1) * V);
        const logq = sampledLogProbs(row, { temperature: a.temperature, topK: a.topK ?? 0, topP: a.topP ?? 1 });
        const kept = c.tensors.kept!.data.subarray(b * V, (b + 1) * V);
        expect([...logq].map((x) => (x > -Infinity ? 1 : 0)), `row ${b} kept set`).toEqual([...kept]);
        // f64 on both sides from the same f32 logits, rounded to f32 by the fixture writer.
        const r = compareArrays(`row ${b} log q`, logq.map((x) => (x > -Infinity ? x : 0)), c.tensors.logq!.data.subarray(b * V, (b + 1) * V), { atol: 1e-6, rtol: 1e-6 });
        expect(r.ok, r.report).toBe(true);
      }
    });
  }
  it('keeps every tie at the top-k threshold and the whole top group under top-p', () => {
    const x = [3, 1, 2, 2, 0];
    expect([...sampledLogProbs(x, { temperature: 1, topK: 2, topP: 1 })].map((v) => v > -Infinity)).toEqual([true, false, true, true, false]);
    expect([...sampledLogProbs([5, 5, 0], { temperature: 1, topK: 0, topP: 0.1 })].map((v) => v > -Infinity)).toEqual([true, true, false]);
  });
});

/** Pearson's chi-square statistic of observed counts against probabilities. */
function chiSquare(counts: number[], probs: number[], n: number): number {
  return counts.reduce((s, c, j) => s + (c - n * probs[j]!) ** 2 / (n * probs[j]!), 0);
}

describe('sample reference', () => {
  const logits = [0.5, -1, 2, 0, 1.2, -0.3];
  const draw = (n: number, opts: { seed: number; temperature?: number; topK?: number; topP?: number }) => {
    const rows = be.fromArray(Float32Array.from({ length: n * logits.length }, (_, i) => logits[i % logits.length]!), [n, logits.length]);
    return sample(rows, be.fromArray(new Int32Array(n).fill(7), [n]), opts); // counter (7, b): a fresh draw per row
  };
  // Chi-square critical values at p = 0.001 (the draws are seeded, so the test is deterministic;
  // the bound says a biased sampler would be caught, e.g. one off by 1 % on a 20 % token).
  const CRIT = { 5: 20.52, 3: 16.27 };
  for (const [label, opts, df] of [
    ['temperature 1 (training)', { seed: 1234 }, 5],
    ['temperature 0.6, top-k 4', { seed: 99, temperature: 0.6, topK: 4 }, 3],
  ] as const) {
    it(`frequencies match the sampled distribution over 20000 counters: ${label}`, () => {
      const n = 20000;
      const { ids, logp } = draw(n, opts);
      const q = [...sampledLogProbs(logits, { temperature: opts.temperature ?? 1, topK: 'topK' in opts ? opts.topK : 0, topP: 1 })].map(Math.exp);
      const counts = new Array<number>(logits.length).fill(0);
      let worst = 0; // logp = log q(id): f64 → f32 rounding only
      for (let i = 0; i < n; i++) {
        counts[ids.data[i]!]!++;
        worst = Math.max(worst, Math.abs(logp.data[i]! - Math.log(q[ids.data[i]!]!)));
      }
      expect(worst).toBeLessThan(1e-6);
      const kept = q.map((p, j) => [p, j] as const).filter(([p]) => p > 0);
      expect(kept.length - 1).toBe(df);
      const x2 = chiSquare(kept.map(([, j]) => counts[j]!), kept.map(([p]) => p), n);
      expect(x2, `chi-square ${x2.toFixed(2)} on ${df} df; counts ${counts.join(' ')}`).toBeLessThan(CRIT[df]);
      q.forEach((p, j) => p === 0 && expect(counts[j], `filtered token ${j} drawn`).toBe(0));
    });
  }
  it('inverse CDF picks the first index whose running sum exceeds u', () => {
    const logq = Float64Array.from([0.25, 0.5, 0.25].map(Math.log));
    expect([0, 0.2499, 0.25, 0.7499, 0.75, 0.999].map((u) => inverseCdf(logq, u))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(inverseCdf(Float64Array.from([Math.log(0.5), -Infinity, Math.log(0.5)]), 0.9)).toBe(2);
  });
  it('the same seed and counters give the same tokens; another seed gives others', () => {
    const a = draw(200, { seed: 5 }), b = draw(200, { seed: 5 }), c = draw(200, { seed: 2 ** 40 + 5 });
    expect([...a.ids.data]).toEqual([...b.ids.data]);
    expect([...a.ids.data]).not.toEqual([...c.ids.data]);
  });
  it('refuses bad arguments', () => {
    const l = be.fromArray(new Float32Array(6), [2, 3]);
    const c = be.fromArray(new Int32Array(2), [2]);
    expect(() => sample(l, c, { seed: 1, temperature: 0 })).toThrow(/sample: temperature must be > 0 \(use argmax for greedy\)/);
    expect(() => sample(l, c, { seed: 1, topP: 0 })).toThrow(/sample: topP must be in \(0, 1\]/);
    expect(() => sample(l, c, { seed: 1, topK: 1.5 })).toThrow(/sample: topK must be an integer ≥ 1/);
    expect(() => sample(l, c, { seed: 0.5 })).toThrow(/sample: seed must be an integer/);
    expect(() => sample(l, be.fromArray(new Int32Array(3), [3]), { seed: 1 })).toThrow(/sample: counters has shape \(3\), expected \(2\)/);
    expect(() => sample(l, be.fromArray(new Float32Array(2), [2]), { seed: 1 })).toThrow(/sample: counters must be i32, got f32/);
  });
});
