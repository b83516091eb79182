// FastCpuBackend's overrides (src/ops/fast-cpu/) against the CPU references on seeded inputs with
// awkward shapes: matmul in every layout (batched, broadcast, bias, +=, K past the 256 block), attention
// forward/backward with packed segments, padding and GQA 1/2/3/4, attentionCached (decode and chunked
// prefill), logprobs forward/backward (in place, out-of-range targets), sample (bit-identical);
// plus determinism, the fast exp, and the PyTorch attention fixtures.
import { describe, expect, it } from 'vitest';
import { compareArrays, type Tolerance } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { fexp } from '../../../src/ops/fast-cpu/exp.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import * as refAttention from '../../../src/ops/reference/attention.ts';
import { attentionCached as refCached } from '../../../src/ops/reference/attention_cached.ts';
import * as refLogprobs from '../../../src/ops/reference/logprobs.ts';
import { matmul as refMatmul } from '../../../src/ops/reference/matmul.ts';
import { sample as refSample } from '../../../src/ops/reference/sample.ts';
import type { CpuTensor } from '../../../src/ops/tensor.ts';
import { Rng } from '../../../src/random.ts';
import { attentionArrays, packedWithPadding, type AttentionCase } from '../../helpers/attention.ts';
import { loadOpFixture } from '../../helpers/fixtures.ts';

const ref = new CpuBackend();
const fast = new FastCpuBackend();
const rng = new Rng(11);
const f32 = (shape: number[], lo = -1, hi = 1) => ref.fromArray(rng.uniform(shape.reduce((a, b) => a * b, 1), lo, hi), shape);
const i32 = (data: number[], shape = [data.length]) => ref.fromArray(Int32Array.from(data), shape);
const same = (label: string, got: CpuTensor, want: CpuTensor, tol: Tolerance) => {
  expect(got.shape).toEqual(want.shape);
  const r = compareArrays(label, got.data, want.data, tol);
  expect(r.ok, r.report).toBe(true);
};
const bitEqual = (a: CpuTensor, b: CpuTensor) => expect(Buffer.from(a.data.buffer).equals(Buffer.from(b.data.buffer))).toBe(true);

// Both sides sum exact f32·f32 products in f64 and round once to f32; only the summation order
// differs (~1e-16 relative, K blocks of 256), which can move a result by one f32 ulp (6e-8 relative).
// Observed: bit-equal on every case below. Allowed: 2.4e-7 ≈ 2 ulps, plus a tiny atol for results
// that cancel to near 0 (terms ~1, K ≤ 300: order error ≪ 1e-12).
const MATMUL_TOL = { atol: 1e-12, rtol: 2.4e-7 };

describe('fast matmul vs reference', () => {
  // M, N, K: not multiples of the 4×4 micro-tile; M > 64 (two row blocks); K > 256 (two depth blocks).
  const dims: [number, number, number][] = [[1, 1, 1], [3, 5, 7], [17, 9, 300], [70, 33, 13], [5, 67, 260]];
  for (const [M, N, K] of dims) {
    for (const transA of [false, true]) {
      for (const transB of [false, true]) {
        it(`M ${M} N ${N} K ${K}${transA ? ' Aᵀ' : ''}${transB ? ' Bᵀ' : ''}, with bias and +=`, () => {
          const a = f32(transA ? [K, M] : [M, K]), b = f32(transB ? [N, K] : [K, N]), bias = f32([N]);
          const o = { transA, transB };
          same('plain', fast.matmul(a, b, o), refMatmul(a, b, o), MATMUL_TOL);
          same('bias', fast.matmul(a, b, { ...o, bias }), refMatmul(a, b, { ...o, bias }), MATMUL_TOL);
          const init = f32([M, N]);
          const outF = fast.fromArray(init.data, init.shape), outR = ref.fromArray(init.data, init.shape);
          fast.matmul(a, b, { ...o, bias, out: outF, accumulate: true });
          refMatmul(a, b, { ...o, bias, out: outR, accumulate: true });
          same('+= with bias', outF, outR, MATMUL_TOL);
          fast.matmul(a, b, { ...o, out: outF });
          same('= into out', outF, refMatmul(a, b, o), MATMUL_TOL);
        });
      }
    }
  }
  it('batched: per-batch b and broadcast b, every layout', () => {
    for (const [transA, transB] of [[false, false], [true, false], [false, true], [true, true]] as const) {
      const [Z, M, N, K] = [3, 6, 7, 5];
      const a = f32(transA ? [Z, K, M] : [Z, M, K]);
      for (const b of [f32(transB ? [Z, N, K] : [Z, K, N]), f32(transB ? [N, K] : [K, N])]) {
        same(`batch ${b.shape.length}-D b`, fast.matmul(a, b, { transA, transB }), refMatmul(a, b, { transA, transB }), MATMUL_TOL);
      }
    }
  });
  it('is deterministic and refuses bad shapes with the reference messages', () => {
    const a = f32([40, 300]), b = f32([50, 300]);
    bitEqual(fast.matmul(a, b, { transB: true }), fast.matmul(a, b, { transB: true }));
    expect(() => fast.matmul(a, b)).toThrow(/inner dimensions differ: a \(40, 300\) has K=300, b \(50, 300\) has K=50/);
    expect(() => fast.matmul(a, b, { transB: true, accumulate: true })).toThrow(/accumulate needs an `out`/);
  });
});

// Both sides compute scores and sums in f64 from the same f32 inputs and round once; they differ in
// summation order (online vs materialised softmax, Σ e·v / Σ e vs Σ (e/Σ)·v) and fexp (< 1e-12
// relative), ~1e-15 relative before rounding. Observed: bit-equal on every case below (and ≤ 1.5e-8
// abs on a T 512 run, on outputs that cancel to ~1e-3). Allowed: atol 1e-7 (values and gradients
// are O(0.01–1)) + rtol 1e-6 (~16 ulps).
const ATTN_TOL = { atol: 1e-7, rtol: 1e-6 };

const attentionCases: AttentionCase[] = [
  { label: 'one row, one token', B: 1, T: 1, NH: 1, NKV: 1, HS: 3 },
  { label: 'GQA 1 (MHA), T 37, HS 8', B: 1, T: 37, NH: 3, NKV: 3, HS: 8 },
  { label: 'GQA 2, packed episodes with padding, fully padded row', B: 2, T: 45, NH: 4, NKV: 2, HS: 16, seg: packedWithPadding(45) },
  { label: 'GQA 4, HS 5, two episodes', B: 1, T: 23, NH: 4, NKV: 1, HS: 5, seg: (_b, t) => (t < 9 ? 0 : 1) },
  { label: 'GQA 3 (quads straddle positions), padding', B: 2, T: 31, NH: 6, NKV: 2, HS: 4, seg: packedWithPadding(31) },
  { label: 'interleaved segments and scattered padding', B: 2, T: 29, NH: 4, NKV: 2, HS: 16, seg: (b, t) => ((t * 7 + b) % 5 === 0 ? -1 : t % 3) },
  { label: 'large scores (|q·k| up to ~100): many running-max rescales', B: 1, T: 70, NH: 2, NKV: 1, HS: 16, magnitude: 2.5 },
  { label: 'explicit scale, T 130 (several key tiles per quad)', B: 1, T: 130, NH: 2, NKV: 2, HS: 6, scale: 0.7, seg: (_b, t) => (t < 50 ? 0 : t < 127 ? 1 : -1) },
];

describe('fast attention vs reference', () => {
  for (const c of attentionCases) {
    it(c.label, () => {
      const a = attentionArrays(c, 3);
      const t = (d: Float32Array | Int32Array, s: number[]) => ref.fromArray(d, s);
      const q = t(a.q, [c.B, c.T, c.NH, c.HS]), k = t(a.k, [c.B, c.T, c.NKV, c.HS]), v = t(a.v, [c.B, c.T, c.NKV, c.HS]);
      const seg = t(a.seg, [c.B, c.T]), dout = t(a.dout, [c.B, c.T, c.NH, c.HS]);
      const o = c.scale !== undefined ? { scale: c.scale } : {};
      const want = refAttention.attention(q, k, v, seg, o), got = fast.attention(q, k, v, seg, o);
      same('out', got.out, want.out, ATTN_TOL);
      same('lse', got.lse, want.lse, ATTN_TOL);
      // The backward on the reference's out and lse, so it is checked on its own.
      const gw = refAttention.attentionBackward(q, k, v, want.out, dout, want.lse, seg, o);
      const gg = fast.attentionBackward(q, k, v, want.out, dout, want.lse, seg, o);
      for (const n of ['dq', 'dk', 'dv'] as const) same(n, gg[n], gw[n], ATTN_TOL);
      bitEqual(fast.attentionBackward(q, k, v, want.out, dout, want.lse, seg, o).dk, gg.dk);
      bitEqual(fast.attention(q, k, v, seg, o).out, got.out);
    });
  }
  it('PyTorch fixtures (same tolerance as the reference test)', () => {
    const FIXTURE_TOL = { atol: 3e-5, rtol: 1e-4 }; // test/unit/ops/attention.test.ts
    for (const c of loadOpFixture('attention')) {
      const T = c.tensors, fx = (n: string) => ref.fromArray(T[n]!.data, T[n]!.shape);
      const o = c.attrs.explicitScale ? { scale: c.attrs.scale as number } : {};
      const { out, lse } = fast.attention(fx('q'), fx('k'), fx('v'), fx('seg'), o);
      same(`${c.name} out`, out, fx('out'), FIXTURE_TOL);
      same(`${c.name} lse`, lse, fx('lse'), FIXTURE_TOL);
      const g = fast.attentionBackward(fx('q'), fx('k'), fx('v'), fx('out'), fx('dout'), fx('lse'), fx('seg'), o);
      for (const n of ['dq', 'dk', 'dv'] as const) same(`${c.name} ${n}`, g[n], fx(n), FIXTURE_TOL);
    }
  });
  it('refuses bad shapes with the reference messages', () => {
    const q = ref.zeros([1, 3, 4, 4]), k = ref.zeros([1, 3, 2, 4]), seg = ref.zeros([1, 3], 'i32');
    expect(() => fast.attention(q, k, ref.zeros([1, 2, 2, 4]), seg)).toThrow(/attention: v has shape \(1, 2, 2, 4\), expected \(1, 3, 2, 4\)/);
    expect(() => fast.attentionBackward(q, k, k, q, q, ref.zeros([1, 3, 4]), seg)).toThrow(/attentionBackward: lse has shape \(1, 3, 4\), expected \(1, 4, 3\)/);
  });
});

describe('fast attentionCached vs reference', () => {
  // label, B, TQ, S, NH, NKV, HS, len
  const cases: [string, number, number, number, number, number, number, number[]][] = [
    ['decode, GQA 2, lengths 1..S', 3, 1, 9, 4, 2, 8, [1, 5, 9]],
    ['decode, GQA 4, HS 5', 2, 1, 17, 4, 1, 5, [17, 3]],
    ['chunked prefill, GQA 1, rows before position 0', 2, 5, 12, 3, 3, 6, [12, 3]],
    ['prefill of a whole cache, GQA 2', 1, 11, 11, 2, 1, 16, [11]],
  ];
  for (const [label, B, TQ, S, NH, NKV, HS, len] of cases) {
    it(label, () => {
      const q = f32([B, TQ, NH, HS], -2, 2), kc = f32([B, S, NKV, HS], -2, 2), vc = f32([B, S, NKV, HS]), n = i32(len);
      const got = fast.attentionCached(q, kc, vc, n), want = refCached(q, kc, vc, n);
      same('out', got, want, ATTN_TOL);
      same('scale 0.3', fast.attentionCached(q, kc, vc, n, { scale: 0.3 }), refCached(q, kc, vc, n, { scale: 0.3 }), ATTN_TOL);
    });
  }
  it('PyTorch fixtures and the len check', () => {
    for (const c of loadOpFixture('attention_cached')) {
      const T = c.tensors, fx = (n: string) => ref.fromArray(T[n]!.data, T[n]!.shape);
      same(c.name, fast.attentionCached(fx('q'), fx('kCache'), fx('vCache'), fx('len')), fx('out'), { atol: 3e-5, rtol: 1e-4 });
    }
    expect(() => fast.attentionCached(ref.zeros([1, 1, 2, 4]), ref.zeros([1, 3, 2, 4]), ref.zeros([1, 3, 2, 4]), i32([4]))).toThrow(
      /attentionCached: len\[0\] = 4 is outside the cache's 0..3/,
    );
  });
});

// Forward: f64 on both sides, rounded once; fexp differs from Math.exp by < 1e-12 relative and the
// blocked running max reorders the sums. Backward: p = e^(x − lse) through fexp vs Math.exp, then
// the same formula. Observed: bit-equal below; allowed: atol 1e-7 + rtol 1e-6 (~16 ulps).
const LOGPROBS_TOL = { atol: 1e-7, rtol: 1e-6 };

describe('fast logprobs vs reference', () => {
  // V: one block, a block and one, several blocks with a ragged tail; logit ranges up to ±40.
  const cases: [number, number, number][] = [[3, 1, 1], [5, 63, 1], [4, 65, 8], [6, 1000, 40], [2, 130, 0]];
  for (const [N, V, range] of cases) {
    it(`N ${N} V ${V}, logits in ±${range}; targets in and out of range; dentropy on and off; in place`, () => {
      const logits = range === 0 ? ref.zeros([N, V]) : f32([N, V], -range, range);
      // Rising logits make every block raise the running max.
      if (range === 8) for (let i = 0; i < logits.data.length; i++) logits.data[i]! += (i % V) * 0.05;
      const targets = i32(Array.from({ length: N }, (_, n) => (n === 1 ? -1 : n === 2 ? V : (n * 7) % V)));
      const want = refLogprobs.logprobs(logits, targets), got = fast.logprobs(logits, targets);
      for (const k of ['logp', 'entropy', 'lse'] as const) same(k, got[k], want[k], LOGPROBS_TOL);
      const dlogp = f32([N]), dent = f32([N]);
      for (const d of [undefined, dent]) {
        const w = refLogprobs.logprobsBackward(logits, targets, want.lse, want.entropy, dlogp, d);
        same(`dlogits${d ? ' with dentropy' : ''}`, fast.logprobsBackward(logits, targets, want.lse, want.entropy, dlogp, d), w, LOGPROBS_TOL);
        const inPlace = ref.fromArray(logits.data, logits.shape);
        fast.logprobsBackward(inPlace, targets, want.lse, want.entropy, dlogp, d, inPlace);
        same('in place', inPlace, w, LOGPROBS_TOL);
      }
    });
  }
  it('refuses bad shapes with the reference messages', () => {
    expect(() => fast.logprobs(ref.zeros([2, 3]), i32([0, 1, 2]))).toThrow(/logprobs: targets has shape \(3\), expected \(2\)/);
  });
});

describe('fast sample vs reference', () => {
  it('gives the same ids and logp, bit for bit, at any temperature; filters go to the reference', () => {
    const [B, V] = [6, 777];
    const logits = f32([B, V], -6, 6);
    logits.data[3] = -Infinity; // a banned token
    const counters = i32([0, 1, 2, 3, 1000, 65535]);
    for (const opts of [{ seed: 1 }, { seed: 7, temperature: 0.7 }, { seed: 2 ** 40 + 3, temperature: 1.6 }, { seed: 5, topK: 20 }, { seed: 5, topP: 0.9 }]) {
      const got = fast.sample(logits, counters, opts), want = refSample(logits, counters, opts);
      expect([...got.ids.data]).toEqual([...want.ids.data]);
      bitEqual(got.logp, want.logp);
    }
    expect(() => fast.sample(logits, counters, { seed: 1, temperature: 0 })).toThrow(/temperature must be > 0/);
  });
});

describe('fexp', () => {
  it('is within 1e-12 of Math.exp over its range; 0 below −708 and at −∞; Math.exp above 0', () => {
    let worst = 0;
    for (let i = 0; i <= 200_000; i++) {
      const x = i <= 100_000 ? -708 * (i / 100_000) : -0.02 * ((i - 100_000) / 100_000);
      worst = Math.max(worst, Math.abs(fexp(x) - Math.exp(x)) / Math.exp(x));
    }
    expect(worst).toBeLessThan(1e-12);
    expect([fexp(0), fexp(-709), fexp(-Infinity), fexp(2)]).toEqual([1, 0, 0, Math.exp(2)]);
    expect(fexp(NaN)).toBeNaN();
  });
});
