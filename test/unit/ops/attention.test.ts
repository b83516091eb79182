// Attention group CPU references (attention, attentionBackward, kvWrite, attentionCached) against the
// PyTorch fixtures (test/fixtures/torch/attention.py), hand-computed cases, cross-checks between
// the references, and shape errors; and how the WebGPU attentionCached splits the cache (no GPU needed).
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { LSE_PADDING } from '../../../src/ops/attention.shape.ts';
import { attention, attentionBackward } from '../../../src/ops/reference/attention.ts';
import { attentionCached, kvWrite } from '../../../src/ops/reference/attention_cached.ts';
import { cachedPlan } from '../../../src/ops/webgpu/attention_cached.ts';
import type { CpuTensor } from '../../../src/ops/tensor.ts';
import { Rng } from '../../../src/random.ts';
import { loadOpFixture, type FixtureTensor } from '../../helpers/fixtures.ts';

const be = new CpuBackend();
const t = (data: number[], shape: number[]) => be.fromArray(new Float32Array(data), shape);
const ids = (data: number[], shape: number[]) => be.fromArray(new Int32Array(data), shape);
const fx = (x: FixtureTensor, label: string): CpuTensor => be.fromArray(x.data, x.shape, label);

// Tolerance vs PyTorch: torch computes in f32 (matmuls, softmax, autograd) and the reference in f64;
// over ≤ 8-term dot products and ≤ 7-key softmaxes the f32 rounding stays near 1e-6 relative. The
// large-magnitude case (|scores| up to ~100) loses ~|score|·2⁻²⁴ ≈ 1e-5 absolute in exp's argument
// (observed: ≤ 1.3e-5 there, ≤ 6e-7 elsewhere).
const FIXTURE_TOL = { atol: 3e-5, rtol: 1e-4 };

describe('attention reference vs PyTorch', () => {
  for (const c of loadOpFixture('attention')) {
    it(c.name, () => {
      const T = c.tensors;
      const scale = c.attrs.explicitScale ? (c.attrs.scale as number) : undefined;
      const q = fx(T.q!, 'q'), k = fx(T.k!, 'k'), v = fx(T.v!, 'v'), seg = fx(T.seg!, 'seg');
      const { out, lse } = attention(q, k, v, seg, { scale });
      for (const [name, got] of [['out', out], ['lse', lse]] as const) {
        const r = compareArrays(`${c.name}: ${name}`, got.data, T[name]!.data, FIXTURE_TOL);
        expect(r.ok, r.report).toBe(true);
      }
      // The backward takes PyTorch's out and lse, so it is checked on its own.
      const g = attentionBackward(q, k, v, fx(T.out!, 'out'), fx(T.dout!, 'dout'), fx(T.lse!, 'lse'), seg, { scale });
      for (const [name, got] of [['dq', g.dq], ['dk', g.dk], ['dv', g.dv]] as const) {
        const r = compareArrays(`${c.name}: ${name}`, got.data, T[name]!.data, FIXTURE_TOL);
        expect(r.ok, r.report).toBe(true);
      }
    });
  }
});

describe('attentionCached reference vs PyTorch', () => {
  for (const c of loadOpFixture('attention_cached')) {
    it(c.name, () => {
      const T = c.tensors;
      const out = attentionCached(fx(T.q!, 'q'), fx(T.kCache!, 'kCache'), fx(T.vCache!, 'vCache'), fx(T.len!, 'len'));
      const r = compareArrays(`${c.name}: out`, out.data, T.out!.data, FIXTURE_TOL);
      expect(r.ok, r.report).toBe(true);
    });
  }
});

describe('attention reference by hand', () => {
  // HS = 1, scale 1: q = [1, 1], k = [0, ln 3], v = [1, 5]. Row 0 sees key 0 only: out 1, lse 0.
  // Row 1: weights ∝ (e⁰, e^{ln 3}) = (1/4, 3/4): out = 1/4 + 15/4 = 4, lse = ln 4.
  const q = t([1, 1], [1, 2, 1, 1]), k = t([0, Math.log(3)], [1, 2, 1, 1]), v = t([1, 5], [1, 2, 1, 1]);

  it('softmax weights, causal mask and lse', () => {
    const { out, lse } = attention(q, k, v, ids([0, 0], [1, 2]), { scale: 1 });
    expect(compareArrays('out', out.data, [1, 4], { atol: 1e-6, rtol: 0 }).ok).toBe(true);
    expect(compareArrays('lse', lse.data, [0, Math.log(4)], { atol: 1e-6, rtol: 0 }).ok).toBe(true);
  });
  it('segments keep rows apart; padding gives 0 and the lse sentinel', () => {
    expect([...attention(q, k, v, ids([0, 1], [1, 2]), { scale: 1 }).out.data]).toEqual([1, 5]);
    const pad = attention(q, k, v, ids([0, -1], [1, 2]), { scale: 1 });
    expect([...pad.out.data]).toEqual([1, 0]);
    expect(pad.lse.data[1]).toBe(LSE_PADDING);
  });
  it('backward of the two-key row: dv = P·dout, dq = scale·Σ dS·k', () => {
    // dout = [0, 1]: row 1 only. P = (1/4, 3/4), dP = v = (1, 5), D = out = 4, dS = P (dP − D) = (−3/4, 3/4).
    const { out, lse } = attention(q, k, v, ids([0, 0], [1, 2]), { scale: 1 });
    const g = attentionBackward(q, k, v, out, t([0, 1], [1, 2, 1, 1]), lse, ids([0, 0], [1, 2]), { scale: 1 });
    expect(compareArrays('dv', g.dv.data, [0.25, 0.75], { atol: 1e-6, rtol: 0 }).ok).toBe(true);
    expect(compareArrays('dq', g.dq.data, [0, 0.75 * Math.log(3)], { atol: 1e-6, rtol: 0 }).ok).toBe(true);
    expect(compareArrays('dk', g.dk.data, [-0.75, 0.75], { atol: 1e-6, rtol: 0 }).ok).toBe(true);
  });
});

describe('references agree with each other', () => {
  const rng = new Rng(5);
  const [B, T, NH, NKV, HS] = [2, 6, 4, 2, 8];
  const q = be.fromArray(rng.uniform(B * T * NH * HS), [B, T, NH, HS]);
  const k = be.fromArray(rng.uniform(B * T * NKV * HS), [B, T, NKV, HS]);
  const v = be.fromArray(rng.uniform(B * T * NKV * HS), [B, T, NKV, HS]);
  const full = attention(q, k, v, be.zeros([B, T], 'i32')).out.data;
  const row = NH * HS;

  it('chunked prefill of the whole sequence equals attention', () => {
    const out = attentionCached(q, k, v, ids([T, T], [B]));
    expect(compareArrays('prefill', out.data, full, { atol: 1e-6, rtol: 1e-6 }).ok).toBe(true);
  });
  it('decode at every length equals attention on the prefix (last row)', () => {
    for (let n = 1; n <= T; n++) {
      const qLast = new Float32Array(B * row);
      for (let b = 0; b < B; b++) qLast.set(q.data.subarray((b * T + n - 1) * row, (b * T + n) * row), b * row);
      const out = attentionCached(be.fromArray(qLast, [B, 1, NH, HS]), k, v, ids([n, n], [B]));
      const want = new Float32Array(B * row);
      for (let b = 0; b < B; b++) want.set(full.subarray((b * T + n - 1) * row, (b * T + n) * row), b * row);
      const r = compareArrays(`decode len ${n}`, out.data, want, { atol: 1e-6, rtol: 1e-6 });
      expect(r.ok, r.report).toBe(true);
    }
  });
  it('a packed segment equals attention over that episode alone', () => {
    // seg [0,0,0,1,1,1]: rows 3..5 of the packed run equal rows 0..2 of the episode run alone.
    const packed = attention(q, k, v, ids([0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0], [B, T])).out.data;
    const tail = (x: CpuTensor, n: number) => be.fromArray(x.data.slice(3 * n, 6 * n), [1, 3, x.shape[2]!, HS]);
    const alone = attention(tail(q, row), tail(k, NKV * HS), tail(v, NKV * HS), be.zeros([1, 3], 'i32')).out.data;
    expect(compareArrays('episode', packed.slice(3 * row, 6 * row), alone, { atol: 1e-6, rtol: 1e-6 }).ok).toBe(true);
  });
});

describe('kvWrite reference', () => {
  it('writes rows at per-sequence offsets and refuses rows past the cache', () => {
    const cache = be.zeros([2, 4, 1, 2]);
    kvWrite(cache, t([1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 1, 2]), ids([0, 2], [2]));
    expect([...cache.data]).toEqual([1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 5, 6, 7, 8]);
    expect(() => kvWrite(cache, t([1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 1, 2]), ids([0, 3], [2]))).toThrow(/start\[1\] = 3 writes rows 3..4, outside the cache's 0..3/);
  });
});

describe('attention group shape errors', () => {
  const q = be.zeros([1, 3, 3, 4]), k = be.zeros([1, 3, 2, 4]), seg = be.zeros([1, 3], 'i32');
  it('name the op, the argument and the shapes', () => {
    expect(() => attention(q, k, k, seg)).toThrow(/attention: NKV must divide NH: q \(1, 3, 3, 4\) has NH=3, k \(1, 3, 2, 4\) has NKV=2/);
    const q4 = be.zeros([1, 3, 4, 4]);
    expect(() => attention(q4, k, be.zeros([1, 2, 2, 4]), seg)).toThrow(/attention: v has shape \(1, 2, 2, 4\), expected \(1, 3, 2, 4\)/);
    expect(() => attention(q4, k, k, be.zeros([1, 3]))).toThrow(/attention: seg must be i32, got f32/);
    expect(() => attentionBackward(q4, k, k, q4, q4, be.zeros([1, 3, 4]), seg)).toThrow(/attentionBackward: lse has shape \(1, 3, 4\), expected \(1, 4, 3\)/);
    expect(() => kvWrite(be.zeros([1, 2, 2, 4]), k, ids([0], [1]))).toThrow(/kvWrite: x \(1, 3, 2, 4\) has more rows \(TQ=3\) than the cache \(1, 2, 2, 4\) holds \(S=2\)/);
    expect(() => attentionCached(q4, k, k, ids([4], [1]))).toThrow(/attentionCached: len\[0\] = 4 is outside the cache's 0..3/);
  });
});

describe('attentionCached split plan (WebGPU dispatcher)', () => {
  const shapes: [string, number, number, number, number, number, number][] = [
    // label, B, TQ, S, NH, NKV, HS
    ['decode, small batch', 1, 1, 4096, 14, 2, 64],
    ['decode, B 16', 16, 1, 2048, 4, 2, 64],
    ['tiny cache', 4, 1, 24, 4, 2, 32],
    ['chunked prefill', 16, 128, 4096, 14, 2, 64],
  ];
  for (const [label, B, TQ, S, NH, NKV, HS] of shapes) {
    it(`${label}: spans of whole 32-key chunks cover the cache; partials within 16 MiB`, () => {
      const p = cachedPlan(B, TQ, S, NH, NKV, HS);
      expect(p.nblk).toBe(Math.ceil((TQ * NH) / NKV / 4));
      expect(p.span % 32).toBe(0);
      expect(p.nsplit * p.span).toBeGreaterThanOrEqual(S);
      expect((p.nsplit - 1) * p.span).toBeLessThan(S);
      expect(p.nsplit === 1 || B * TQ * NH * p.nsplit * (HS + 4) * 4 <= 16 * 2 ** 20).toBe(true);
      expect(cachedPlan(B, TQ, S, NH, NKV, HS)).toEqual(p);
    });
  }
  it('decode spreads a long cache over many spans; prefill keeps few', () => {
    expect(cachedPlan(1, 1, 4096, 14, 2, 64).nsplit).toBe(128);
    expect(cachedPlan(16, 128, 4096, 14, 2, 64).nsplit).toBeLessThanOrEqual(2);
  });
});
