// logprobs CPU reference against the PyTorch fixtures (log_softmax, entropy, logsumexp, autograd
// dlogits), hand-computed values, in-place backward, out-of-range targets and shape errors.
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { logprobs, logprobsBackward } from '../../../src/ops/reference/logprobs.ts';
import type { CpuTensor } from '../../../src/ops/tensor.ts';
import { loadOpFixture, type FixtureTensor } from '../../helpers/fixtures.ts';

const be = new CpuBackend();
const t = (f: FixtureTensor, label = 't'): CpuTensor => be.fromArray(f.data, f.shape, label);
const f32 = (data: number[], shape: number[]) => be.fromArray(new Float32Array(data), shape);
const i32 = (data: number[]) => be.fromArray(Int32Array.from(data), [data.length]);

// Forward: both sides are f64 computations on the same f32 inputs, rounded once to f32: at most an
// ulp apart (rtol 1e-6 ≈ 8 ulps; they agree exactly today).
const FWD = { atol: 1e-6, rtol: 1e-6 };
// Backward: the reference recomputes p from the f32-rounded lse (an ulp of lse is a relative error
// of ~|lse|·6e-8 in p), torch from the exact f64 one.
const BWD = { atol: 1e-6, rtol: 2e-5 };

describe('logprobs reference vs PyTorch', () => {
  for (const c of loadOpFixture('logprobs')) {
    it(`${c.name}: logp, entropy, lse`, () => {
      const r = logprobs(t(c.tensors.logits!), t(c.tensors.targets!));
      for (const k of ['logp', 'entropy', 'lse'] as const) {
        const cmp = compareArrays(`${c.name} ${k}`, r[k].data, c.tensors[k]!.data, FWD);
        expect(cmp.ok, cmp.report).toBe(true);
      }
    });
    it(`${c.name}: dlogits (autograd of Σ dlogp·logp${c.tensors.dentropy ? ' + Σ dentropy·entropy' : ''})`, () => {
      const T = c.tensors;
      const d = logprobsBackward(t(T.logits!), t(T.targets!), t(T.lse!), t(T.entropy!), t(T.dlogp!), T.dentropy ? t(T.dentropy) : undefined);
      const cmp = compareArrays(`${c.name} dlogits`, d.data, T.dlogits!.data, BWD);
      expect(cmp.ok, cmp.report).toBe(true);
    });
  }
});

describe('logprobs reference by hand', () => {
  it('uniform logits: lse = log V, entropy = log V, logp = −log V', () => {
    const r = logprobs(f32([2, 2, 2, 2], [1, 4]), i32([1]));
    expect(r.lse.data[0]).toBeCloseTo(2 + Math.log(4), 6);
    expect(r.entropy.data[0]).toBeCloseTo(Math.log(4), 6);
    expect(r.logp.data[0]).toBeCloseTo(-Math.log(4), 6);
  });
  it('backward of logp alone is onehot − p; of entropy alone is −p·(log p + H)', () => {
    const logits = f32([0, Math.log(3)], [1, 2]); // p = (1/4, 3/4)
    const { lse, entropy } = logprobs(logits, i32([0]));
    const d1 = logprobsBackward(logits, i32([0]), lse, entropy, f32([1], [1]));
    expect(compareArrays('dlogp', d1.data, [0.75, -0.75], { atol: 1e-7, rtol: 0 }).ok).toBe(true);
    const H = -(0.25 * Math.log(0.25) + 0.75 * Math.log(0.75));
    const d2 = logprobsBackward(logits, i32([0]), lse, entropy, f32([0], [1]), f32([1], [1]));
    const want = [-0.25 * (Math.log(0.25) + H), -0.75 * (Math.log(0.75) + H)];
    const r = compareArrays('dentropy', d2.data, want, { atol: 1e-7, rtol: 0 });
    expect(r.ok, r.report).toBe(true);
  });
  it('writes in place over the logits when out is the logits tensor', () => {
    const c = loadOpFixture('logprobs')[1]!;
    const T = c.tensors;
    const logits = t(T.logits!);
    const args = [t(T.targets!), t(T.lse!), t(T.entropy!), t(T.dlogp!), t(T.dentropy!)] as const;
    const separate = logprobsBackward(logits, ...args);
    const same = logprobsBackward(logits, ...args, logits);
    expect(same).toBe(logits);
    expect(compareArrays('in place', logits.data, separate.data, { atol: 0, rtol: 0 }).ok).toBe(true);
  });
  it('a target outside [0, V) gives logp 0 and no one-hot term (the loss masks that row)', () => {
    const logits = f32([1, 2, 3, 1, 2, 3], [2, 3]);
    const r = logprobs(logits, i32([-100, 2]));
    expect(r.logp.data[0]).toBe(0);
    expect(r.entropy.data[0]).toBeCloseTo(r.entropy.data[1]!, 6);
    const d = logprobsBackward(logits, i32([-100, 3]), r.lse, r.entropy, f32([1, 1], [2]));
    for (let j = 0; j < 6; j++) expect(d.data[j]).toBeLessThan(0); // −p everywhere
  });
  it('refuses bad shapes and dtypes, naming op, argument and shapes', () => {
    const logits = f32([1, 2, 3, 4, 5, 6], [2, 3]);
    expect(() => logprobs(logits, i32([0]))).toThrow(/logprobs: targets has shape \(1\), expected \(2\)/);
    expect(() => logprobs(logits, f32([0, 1], [2]))).toThrow(/logprobs: targets must be i32, got f32/);
    expect(() => logprobs(f32([1, 2], [2]), i32([0, 1]))).toThrow(/logprobs: logits must be \(N, V\), got \(2\)/);
    const { lse, entropy } = logprobs(logits, i32([0, 1]));
    expect(() => logprobsBackward(logits, i32([0, 1]), lse, entropy, f32([1, 2, 3], [3]))).toThrow(/logprobsBackward: dlogp has shape \(3\), expected \(2\)/);
    expect(() => logprobsBackward(logits, i32([0, 1]), lse, entropy, f32([1, 2], [2]), undefined, f32([0, 0], [1, 2]))).toThrow(/logprobsBackward: out has shape \(1, 2\), expected \(2, 3\)/);
  });
});
