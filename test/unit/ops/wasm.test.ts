// WasmBackend's overrides (src/ops/wasm/: SIMD kernels on a thread pool) against the CPU references,
// at the WGSL kernels' f32 tolerances (test/gpu/ops/), on the awkward shapes of fast-cpu.test.ts:
// matmul in every layout (batched, broadcast, bias, +=, K past the 256 block, M and N past one work
// item), logprobs forward/backward (in place, out-of-range targets), attention forward/backward with packed segments, padding and GQA 1–4 (HS not a multiple of
// 4 falls back to the JS kernels), the PyTorch attention fixtures; results bitwise equal for 1, 2
// and 3 threads, and a micro training step equal to the bit on 1 and 2 threads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareArrays, type Tolerance } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import * as refAttention from '../../../src/ops/reference/attention.ts';
import { attentionCached as refCached } from '../../../src/ops/reference/attention_cached.ts';
import * as refLogprobs from '../../../src/ops/reference/logprobs.ts';
import { matmul as refMatmul } from '../../../src/ops/reference/matmul.ts';
import type { CpuTensor } from '../../../src/ops/tensor.ts';
import type { WasmBackend } from '../../../src/ops/wasm/backend.ts';
import { wasmBackendNode } from '../../../src/ops/wasm/threads.node.ts';
import { Rng } from '../../../src/random.ts';
import { ATTENTION_TOL, attentionArrays, packedWithPadding, type AttentionCase } from '../../helpers/attention.ts';
import { loadOpFixture } from '../../helpers/fixtures.ts';

const ref = new CpuBackend();
const rng = new Rng(12);
const f32 = (shape: number[], lo = -1, hi = 1) => ref.fromArray(rng.uniform(shape.reduce((a, b) => a * b, 1), lo, hi), shape);
const same = (label: string, got: CpuTensor, want: CpuTensor, tol: Tolerance) => {
  expect(got.shape).toEqual(want.shape);
  const r = compareArrays(label, got.data, want.data, tol);
  expect(r.ok, r.report).toBe(true);
};
const bitEqual = (a: CpuTensor, b: CpuTensor) => expect(Buffer.from(a.data.buffer).equals(Buffer.from(b.data.buffer))).toBe(true);

let one: WasmBackend, two: WasmBackend, three: WasmBackend;
beforeAll(async () => {
  [one, two, three] = await Promise.all([wasmBackendNode(1), wasmBackendNode(2), wasmBackendNode(3)]);
});
afterAll(() => [one, two, three].forEach((b) => b?.close()));

// f32 sums in k order against the reference's f64: error grows like √K·ulp·Σ|a·b|. Inputs in [-1, 1),
// K ≤ 300: observed ≤ 3e-6 absolute. Allowed: the WGSL matmul's tolerance scaled for K up to 300.
const MATMUL_TOL = { atol: 2e-5, rtol: 1e-4 };

describe('wasm matmul vs reference', () => {
  // Not multiples of the 4×8 micro-tile; M > 64 and N > 64 (several work items); K > 256 (two depth blocks).
  const dims: [number, number, number][] = [[1, 1, 1], [3, 5, 7], [17, 9, 300], [70, 33, 13], [5, 67, 260], [130, 140, 20]];
  for (const [M, N, K] of dims) {
    for (const transA of [false, true]) {
      for (const transB of [false, true]) {
        it(`M ${M} N ${N} K ${K}${transA ? ' Aᵀ' : ''}${transB ? ' Bᵀ' : ''}, with bias and +=`, () => {
          const a = f32(transA ? [K, M] : [M, K]), b = f32(transB ? [N, K] : [K, N]), bias = f32([N]);
          const o = { transA, transB };
          same('plain', two.matmul(a, b, o), refMatmul(a, b, o), MATMUL_TOL);
          same('bias', two.matmul(a, b, { ...o, bias }), refMatmul(a, b, { ...o, bias }), MATMUL_TOL);
          const init = f32([M, N]);
          const outW = ref.fromArray(init.data, init.shape), outR = ref.fromArray(init.data, init.shape);
          two.matmul(a, b, { ...o, bias, out: outW, accumulate: true });
          refMatmul(a, b, { ...o, bias, out: outR, accumulate: true });
          same('+= with bias', outW, outR, MATMUL_TOL);
          two.matmul(a, b, { ...o, out: outW });
          same('= into out', outW, refMatmul(a, b, o), MATMUL_TOL);
        });
      }
    }
  }
  it('batched: per-batch b and broadcast b, every layout', () => {
    for (const [transA, transB] of [[false, false], [true, false], [false, true], [true, true]] as const) {
      const [Z, M, N, K] = [3, 70, 7, 5];
      const a = f32(transA ? [Z, K, M] : [Z, M, K]);
      for (const b of [f32(transB ? [Z, N, K] : [Z, K, N]), f32(transB ? [N, K] : [K, N])]) {
        same(`batch ${b.shape.length}-D b`, two.matmul(a, b, { transA, transB }), refMatmul(a, b, { transA, transB }), MATMUL_TOL);
      }
    }
  });
  it('gives the same bits on 1, 2 and 3 threads (work split by output blocks), and refuses bad shapes', () => {
    for (const [transA, transB] of [[false, false], [true, false], [false, true]] as const) {
      const [M, N, K] = [300, 200, 290];
      const a = f32(transA ? [K, M] : [M, K]), b = f32(transB ? [N, K] : [K, N]);
      const r1 = one.matmul(a, b, { transA, transB });
      bitEqual(two.matmul(a, b, { transA, transB }), r1);
      bitEqual(three.matmul(a, b, { transA, transB }), r1);
    }
    const a = f32([40, 300]), b = f32([50, 300]);
    expect(() => two.matmul(a, b)).toThrow(/inner dimensions differ: a \(40, 300\) has K=300, b \(50, 300\) has K=50/);
    expect(() => two.matmul(a, b, { transB: true, accumulate: true })).toThrow(/accumulate needs an `out`/);
  });
});

// The WGSL attention's tolerances (test/gpu/ops/attention.test.ts): f32 dot products over HS, an f32
// online softmax with a polynomial exp (< 1 ulp), sums over ≤ G·T terms in another order.
const { FWD, LSE, BWD, LARGE } = ATTENTION_TOL;

const attentionCases: AttentionCase[] = [
  { label: 'one row, one token (HS 3: the JS kernels)', B: 1, T: 1, NH: 1, NKV: 1, HS: 3 },
  { label: 'one row, one token, HS 4', B: 1, T: 1, NH: 1, NKV: 1, HS: 4 },
  { label: 'GQA 1 (MHA), T 37, HS 8', B: 1, T: 37, NH: 3, NKV: 3, HS: 8 },
  { label: 'GQA 2, packed episodes with padding, fully padded row', B: 2, T: 45, NH: 4, NKV: 2, HS: 16, seg: packedWithPadding(45) },
  { label: 'GQA 4, two episodes', B: 1, T: 23, NH: 4, NKV: 1, HS: 8, seg: (_b, t) => (t < 9 ? 0 : 1) },
  { label: 'GQA 3, padding, HS 4', B: 2, T: 31, NH: 6, NKV: 2, HS: 4, seg: packedWithPadding(31) },
  { label: 'interleaved segments and scattered padding', B: 2, T: 29, NH: 4, NKV: 2, HS: 16, seg: (b, t) => ((t * 7 + b) % 5 === 0 ? -1 : t % 3) },
  { label: 'large scores (|q·k| up to ~100): many running-max rescales', B: 1, T: 70, NH: 2, NKV: 1, HS: 16, magnitude: 2.5 },
  { label: 'explicit scale, T 130 (several key tiles per quad)', B: 1, T: 130, NH: 2, NKV: 2, HS: 12, scale: 0.7, seg: (_b, t) => (t < 50 ? 0 : t < 127 ? 1 : -1) },
];

describe('wasm attention vs reference', () => {
  for (const c of attentionCases) {
    it(c.label, () => {
      const a = attentionArrays(c, 3);
      const t = (d: Float32Array | Int32Array, s: number[]) => ref.fromArray(d, s);
      const q = t(a.q, [c.B, c.T, c.NH, c.HS]), k = t(a.k, [c.B, c.T, c.NKV, c.HS]), v = t(a.v, [c.B, c.T, c.NKV, c.HS]);
      const seg = t(a.seg, [c.B, c.T]), dout = t(a.dout, [c.B, c.T, c.NH, c.HS]);
      const o = c.scale !== undefined ? { scale: c.scale } : {};
      const large = (c.magnitude ?? 1) > 1;
      const want = refAttention.attention(q, k, v, seg, o), got = two.attention(q, k, v, seg, o);
      same('out', got.out, want.out, large ? LARGE : FWD);
      same('lse', got.lse, want.lse, large ? LARGE : LSE);
      const gw = refAttention.attentionBackward(q, k, v, want.out, dout, want.lse, seg, o);
      const gg = two.attentionBackward(q, k, v, want.out, dout, want.lse, seg, o);
      for (const n of ['dq', 'dk', 'dv'] as const) same(n, gg[n], gw[n], large ? LARGE : BWD);
    });
  }
  it('PyTorch fixtures (the WGSL kernels tolerance)', () => {
    for (const c of loadOpFixture('attention')) {
      const T = c.tensors, fx = (n: string) => ref.fromArray(T[n]!.data, T[n]!.shape);
      const o = c.attrs.explicitScale ? { scale: c.attrs.scale as number } : {};
      const { out, lse } = two.attention(fx('q'), fx('k'), fx('v'), fx('seg'), o);
      same(`${c.name} out`, out, fx('out'), { atol: 3e-5, rtol: 1e-4 });
      same(`${c.name} lse`, lse, fx('lse'), { atol: 3e-5, rtol: 1e-4 });
      const g = two.attentionBackward(fx('q'), fx('k'), fx('v'), fx('out'), fx('dout'), fx('lse'), fx('seg'), o);
      for (const n of ['dq', 'dk', 'dv'] as const) same(`${c.name} ${n}`, g[n], fx(n), { atol: 3e-5, rtol: 1e-3 });
    }
  });
  it('gives the same bits on 1, 2 and 3 threads', () => {
    const c: AttentionCase = { label: '', B: 3, T: 96, NH: 4, NKV: 2, HS: 16, seg: packedWithPadding(96) };
    const a = attentionArrays(c, 5);
    const t = (d: Float32Array | Int32Array, s: number[]) => ref.fromArray(d, s);
    const q = t(a.q, [c.B, c.T, c.NH, c.HS]), k = t(a.k, [c.B, c.T, c.NKV, c.HS]), v = t(a.v, [c.B, c.T, c.NKV, c.HS]);
    const seg = t(a.seg, [c.B, c.T]), dout = t(a.dout, [c.B, c.T, c.NH, c.HS]);
    const f1 = one.attention(q, k, v, seg), b1 = one.attentionBackward(q, k, v, f1.out, dout, f1.lse, seg);
    for (const be of [two, three]) {
      const f = be.attention(q, k, v, seg);
      bitEqual(f.out, f1.out);
      bitEqual(f.lse, f1.lse);
      const g = be.attentionBackward(q, k, v, f1.out, dout, f1.lse, seg);
      for (const n of ['dq', 'dk', 'dv'] as const) bitEqual(g[n], b1[n]);
    }
  });
  it('refuses bad shapes with the reference messages', () => {
    const q = ref.zeros([1, 3, 4, 4]), k = ref.zeros([1, 3, 2, 4]), seg = ref.zeros([1, 3], 'i32');
    expect(() => two.attention(q, k, ref.zeros([1, 2, 2, 4]), seg)).toThrow(/attention: v has shape \(1, 2, 2, 4\), expected \(1, 3, 2, 4\)/);
    expect(() => two.attentionBackward(q, k, k, q, q, ref.zeros([1, 3, 4]), seg)).toThrow(/attentionBackward: lse has shape \(1, 3, 4\), expected \(1, 4, 3\)/);
  });
});

// The WGSL logprobs' tolerances (test/gpu/ops/logprobs.test.ts): f32 sums of V exps in four lanes.
const LP_FWD = { atol: 1e-5, rtol: 2e-6 };
const LP_BWD = { atol: 2e-7, rtol: 1e-4 };

describe('wasm logprobs vs reference', () => {
  // V: under one vector, a ragged tail, several blocks; logit ranges up to ±40; N past one item (16 rows).
  const cases: [number, number, number][] = [[3, 1, 1], [5, 63, 1], [20, 65, 8], [6, 1000, 40], [2, 130, 0]];
  const i32 = (data: number[]) => ref.fromArray(Int32Array.from(data), [data.length]);
  for (const [N, V, range] of cases) {
    it(`N ${N} V ${V}, logits in ±${range}; targets in and out of range; dentropy on and off; in place`, () => {
      const logits = range === 0 ? ref.zeros([N, V]) : f32([N, V], -range, range);
      if (range === 8) for (let i = 0; i < logits.data.length; i++) logits.data[i]! += (i % V) * 0.05;
      const targets = i32(Array.from({ length: N }, (_, n) => (n === 1 ? -1 : n === 2 ? V : (n * 7) % V)));
      const want = refLogprobs.logprobs(logits, targets), got = two.logprobs(logits, targets);
      for (const k of ['logp', 'entropy', 'lse'] as const) same(k, got[k], want[k], LP_FWD);
      const dlogp = f32([N]), dent = f32([N]);
      for (const d of [undefined, dent]) {
        const w = refLogprobs.logprobsBackward(logits, targets, want.lse, want.entropy, dlogp, d);
        same(`dlogits${d ? ' with dentropy' : ''}`, two.logprobsBackward(logits, targets, want.lse, want.entropy, dlogp, d), w, LP_BWD);
        const inPlace = ref.fromArray(logits.data, logits.shape);
        two.logprobsBackward(inPlace, targets, want.lse, want.entropy, dlogp, d, inPlace);
        same('in place', inPlace, w, LP_BWD);
      }
      bitEqual(one.logprobs(logits, targets).lse, got.lse);
      bitEqual(three.logprobsBackward(logits, targets, want.lse, want.entropy, dlogp, dent), two.logprobsBackward(logits, targets, want.lse, want.entropy, dlogp, dent));
    });
  }
  it('refuses bad shapes with the reference messages', () => {
    expect(() => two.logprobs(ref.zeros([2, 3]), i32([0, 1, 2]))).toThrow(/logprobs: targets has shape \(3\), expected \(2\)/);
  });
});

// The WGSL kernels' tolerances (test/gpu/ops/swiglu.test.ts, rmsnorm.test.ts), scaled by the array's
// largest magnitude: a few f32 operations and the polynomial exp; sums of ≤ D (or R) terms in lanes.
const scaled = (label: string, got: CpuTensor, want: CpuTensor, atolPerMax: number, rtol: number) => {
  const max = (want.data as Float32Array).reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  same(label, got, want, { atol: atolPerMax * max, rtol });
};

describe('wasm SwiGLU and RMSNorm vs reference', () => {
  it('swiglu forward and backward, gates up to ±30 (σ saturates), a ragged tail, several items', () => {
    for (const n of [3, 4101, 9000]) {
      const gate = f32([n], -30, 30), up = f32([n]), dh = f32([n]);
      scaled('h', two.swiglu(gate, up), ref.swiglu(gate, up), 2e-6, 1e-5);
      const g = two.swigluBackward(dh, gate, up), w = ref.swigluBackward(dh, gate, up);
      scaled('dgate', g.dgate, w.dgate, 2e-6, 1e-5);
      scaled('dup', g.dup, w.dup, 2e-6, 1e-5);
      bitEqual(one.swigluBackward(dh, gate, up).dgate, g.dgate);
    }
  });
  it('rmsnorm forward and backward (= and +=), D not a multiple of 4, R past one item; dw the same on 1, 2, 3 threads', () => {
    for (const [R, D] of [[1, 3], [70, 130], [200, 64]] as const) {
      const x = f32([R, D], -3, 3), w = f32([D]), dy = f32([R, D]);
      const got = two.rmsnorm(x, w, 1e-6), want = ref.rmsnorm(x, w, 1e-6);
      scaled('y', got.y, want.y, 1e-5, 1e-5);
      scaled('rstd', got.rstd, want.rstd, 1e-5, 1e-5);
      const dwInit = f32([D]);
      const dwG = ref.fromArray(dwInit.data, [D]), dwW = ref.fromArray(dwInit.data, [D]);
      scaled('dx', two.rmsnormBackward(dy, x, w, want.rstd, dwG), ref.rmsnormBackward(dy, x, w, want.rstd, dwW), 1e-5, 1e-5);
      scaled('dw', dwG, dwW, 1e-5, 1e-5);
      const accG = f32([R, D]), accW = ref.fromArray(accG.data, [R, D]);
      two.rmsnormBackward(dy, x, w, want.rstd, ref.zeros([D]), { accumulateDx: accG });
      ref.rmsnormBackward(dy, x, w, want.rstd, ref.zeros([D]), { accumulateDx: accW });
      scaled('dx +=', accG, accW, 1e-5, 1e-5);
      const dws = [one, two, three].map((be) => {
        const dw = ref.zeros([D]);
        be.rmsnormBackward(dy, x, w, want.rstd, dw);
        return dw;
      });
      bitEqual(dws[1]!, dws[0]!);
      bitEqual(dws[2]!, dws[0]!);
    }
  });
  it('refuses bad shapes with the reference messages', () => {
    expect(() => two.swiglu(ref.zeros([2, 3]), ref.zeros([3, 2]))).toThrow(/swiglu/);
    expect(() => two.rmsnorm(ref.zeros([2, 3]), ref.zeros([4]), 1e-6)).toThrow(/rmsnorm/);
  });
});

describe('wasm attentionCached vs reference', () => {
  // label, B, TQ, S, NH, NKV, HS, len
  const cases: [string, number, number, number, number, number, number, number[]][] = [
    ['decode, GQA 2, lengths 1..S', 3, 1, 9, 4, 2, 8, [1, 5, 9]],
    ['decode, GQA 4, HS 5 (the JS kernels)', 2, 1, 17, 4, 1, 5, [17, 3]],
    ['chunked prefill, GQA 1, rows before position 0', 2, 5, 12, 3, 3, 8, [12, 3]],
    ['prefill of a whole cache, GQA 2', 1, 11, 11, 2, 1, 16, [11]],
    ['prefill of 70 rows into a cache of 200, lengths 70 and 150', 2, 70, 200, 4, 2, 16, [70, 150]],
    ['chunked prefill, GQA 3, HS 12 (the 4-wide tail of the 4 × 8 blocks), rows before position 0', 2, 6, 30, 6, 2, 12, [30, 4]],
  ];
  const i32 = (data: number[]) => ref.fromArray(Int32Array.from(data), [data.length]);
  for (const [label, B, TQ, S, NH, NKV, HS, len] of cases) {
    it(label, () => {
      const q = f32([B, TQ, NH, HS], -2, 2), kc = f32([B, S, NKV, HS], -2, 2), vc = f32([B, S, NKV, HS]), n = i32(len);
      const want = refCached(q, kc, vc, n);
      same('out', two.attentionCached(q, kc, vc, n), want, FWD);
      same('scale 0.3', two.attentionCached(q, kc, vc, n, { scale: 0.3 }), refCached(q, kc, vc, n, { scale: 0.3 }), FWD);
      bitEqual(one.attentionCached(q, kc, vc, n), two.attentionCached(q, kc, vc, n));
    });
  }
  it('rows: the real queries of each sequence bit for bit as without it, padding queries 0, a sequence with none costs nothing', () => {
    const [B, TQ, S, NH, NKV, HS] = [4, 6, 40, 4, 2, 16];
    const q = f32([B, TQ, NH, HS], -2, 2), kc = f32([B, S, NKV, HS], -2, 2), vc = f32([B, S, NKV, HS]), n = i32([6, 40, 17, 9]);
    const rows = [6, 2, 0, 5], all = two.attentionCached(q, kc, vc, n), some = two.attentionCached(q, kc, vc, n, { rows: i32(rows) });
    expect(one.attentionCached(q, kc, vc, n, { rows: i32(rows) }).data).toEqual(some.data);
    const W = NH * HS;
    for (let b = 0; b < B; b++) {
      for (let i = 0; i < TQ; i++) {
        const at = (b * TQ + i) * W, want = i < rows[b]! ? all.data.subarray(at, at + W) : new Float32Array(W);
        expect(Buffer.from(some.data.buffer, at * 4, W * 4).equals(Buffer.from(want.buffer, want.byteOffset, W * 4)), `sequence ${b} query ${i}`).toBe(true);
      }
    }
    expect(() => two.attentionCached(q, kc, vc, n, { rows: i32([1, 2]) })).toThrow(/attentionCached: rows/);
  });
  it('a cache kept tiled (kvWrite, then calls against it) gives the bits of the cache copied in and packed each call, and is given back by free', async () => {
    const { wasmAttentionCached } = await import('../../../src/ops/wasm/attention.ts');
    const [B, S, NH, NKV, HS] = [3, 48, 4, 2, 16];
    const held = two.pool.residentBytes;
    const kc = two.zeros([B, S, NKV, HS]), vc = two.zeros([B, S, NKV, HS]);
    // A prompt chunk of 5, sequence 2 padded (2 real rows), then decode steps of 1 and a chunk of 3, each
    // sequence at its own length; the first call also brings in positions written before it (sync).
    kc.data.set(f32([1, 4, NKV, HS], -2, 2).data, 0);
    vc.data.set(f32([1, 4, NKV, HS]).data, 0);
    const lens = [4, 0, 0];
    for (const [TQ, rows] of [[5, [5, 5, 2]], [1, null], [1, null], [3, [3, 1, 3]], [1, null]] as const) {
      const start = i32(lens), k = f32([B, TQ, NKV, HS], -2, 2), v = f32([B, TQ, NKV, HS]);
      two.kvWrite(kc, k, start);
      two.kvWrite(vc, v, start);
      for (let b = 0; b < B; b++) lens[b]! += TQ;
      const q = f32([B, TQ, NH, HS], -2, 2), n = i32(lens), opts = rows ? { rows: i32([...rows]) } : {};
      const got = two.attentionCached(q, kc, vc, n, opts);
      bitEqual(got, wasmAttentionCached(two.pool, q, kc, vc, n, opts));
      if (!rows) same(`TQ ${TQ}`, got, refCached(q, kc, vc, n), FWD); // (with rows, padding queries give 0)
    }
    expect(two.pool.residentBytes).toBeGreaterThan(held);
    two.free(kc);
    two.free(vc);
    expect(two.pool.residentBytes).toBe(held);
  });
  it('PyTorch fixtures and the len check', () => {
    for (const c of loadOpFixture('attention_cached')) {
      const T = c.tensors, fx = (n: string) => ref.fromArray(T[n]!.data, T[n]!.shape);
      same(c.name, two.attentionCached(fx('q'), fx('kCache'), fx('vCache'), fx('len')), fx('out'), { atol: 3e-5, rtol: 1e-4 });
    }
    expect(() => two.attentionCached(ref.zeros([1, 1, 2, 4]), ref.zeros([1, 3, 2, 4]), ref.zeros([1, 3, 2, 4]), i32([4]))).toThrow(
      /attentionCached: len\[0\] = 4 is outside the cache's 0..3/,
    );
  });
});

describe('wasm backend: bad requests', () => {
  it('refuses a bad thread count, threads without a host starter, and an op past the memory limit, naming the fix', async () => {
    const { KernelPool } = await import('../../../src/ops/wasm/threads.ts');
    await expect(KernelPool.create(0)).rejects.toThrow(/threads must be a whole number ≥ 1, got 0/);
    await expect(KernelPool.create(2)).rejects.toThrow(/more than one thread needs a host thread starter/);
    let ended = 0;
    const broken = () => ({ ready: Promise.reject(new Error('the worker could not load')), terminate: () => void ended++ });
    await expect(KernelPool.create(3, broken)).rejects.toThrow(/a helper thread failed to start \(the worker could not load\); use 1 thread/);
    expect(ended).toBe(2); // every started helper is ended
    expect(() => two.pool.reserve(2 ** 31)).toThrow(/needs \d+ MiB of WebAssembly memory, more than its 1024 MiB limit; use a smaller batch or the fast-cpu backend/);
    // The pool is still usable after the refusal.
    const a = f32([3, 4]), b = f32([4, 2]);
    same('after a refusal', two.matmul(a, b), refMatmul(a, b), MATMUL_TOL);
  });
});
