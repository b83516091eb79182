// KV-cache kernels (kv_write, attention_cached) against the CPU reference on seeded inputs: decode with
// cache lengths varying across the batch (length 1 and a full cache included), chunked prefill with rows
// before the cache start, GQA 1/2/3/4/7 (4-row blocks mixing heads and queries, short last blocks), one
// to ten spans of the cache merged by the combine pass, HS 32/64/128; kvWrite then decode; bitwise
// determinism. Tolerances: kvWrite copies, so exact. out: CACHED (atol 1e-5, rtol 1e-4): HS-term f32
// dot products and a ≤ S-term softmax merged over spans, inputs in [−1, 1), against the f64 reference.
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { attentionCached, kvWrite } from '../../../src/ops/reference/attention_cached.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

const CACHED = { atol: 1e-5, rtol: 1e-4 };

interface CachedCase {
  label: string;
  S: number;
  TQ: number;
  NH: number;
  NKV: number;
  HS: number;
  len: number[];
}

const CASES: CachedCase[] = [
  { label: 'decode, lengths 1 / 7 / 20 / 24 (full), GQA 2, HS 32', S: 24, TQ: 1, NH: 4, NKV: 2, HS: 32, len: [1, 7, 20, 24] },
  { label: 'decode, GQA 4, HS 128, lengths 17 / 2', S: 20, TQ: 1, NH: 4, NKV: 1, HS: 128, len: [17, 2] },
  { label: 'chunked prefill TQ = 5, rows before the cache start, GQA 1, HS 64', S: 21, TQ: 5, NH: 2, NKV: 2, HS: 64, len: [5, 12, 3, 21] },
  { label: 'chunked prefill TQ = 7, GQA 4 (28 rows: two row blocks), HS 32', S: 40, TQ: 7, NH: 4, NKV: 1, HS: 32, len: [40, 9] },
  { label: 'decode over 10 spans, GQA 7 (two 4-row blocks, one short), HS 64, lengths 300 / 1 / 129 / 33', S: 300, TQ: 1, NH: 7, NKV: 1, HS: 64, len: [300, 1, 129, 33] },
  { label: 'chunked prefill TQ = 9 over 5 spans, GQA 3 (blocks mixing queries), HS 32', S: 150, TQ: 9, NH: 6, NKV: 2, HS: 32, len: [150, 20, 9, 4] },
  { label: 'chunked prefill TQ = 3, MHA (GQA 1), HS 128, spans of one chunk', S: 100, TQ: 3, NH: 2, NKV: 2, HS: 128, len: [100, 37] },
];

function arrays(c: CachedCase, seed: number) {
  const rng = new Rng(seed);
  const B = c.len.length;
  return {
    B,
    q: rng.uniform(B * c.TQ * c.NH * c.HS),
    k: rng.uniform(B * c.S * c.NKV * c.HS),
    v: rng.uniform(B * c.S * c.NKV * c.HS),
    len: Int32Array.from(c.len),
  };
}

describe('attention_cached kernel vs reference', () => {
  for (const [i, c] of CASES.entries()) {
    gpuIt(c.label, async () => {
      const be = await sharedBackend(), cpu = new CpuBackend();
      const a = arrays(c, 200 + i);
      const qS = [a.B, c.TQ, c.NH, c.HS], kvS = [a.B, c.S, c.NKV, c.HS];
      const want = attentionCached(cpu.fromArray(a.q, qS), cpu.fromArray(a.k, kvS), cpu.fromArray(a.v, kvS), cpu.fromArray(a.len, [a.B]));
      const got = be.attentionCached(be.fromArray(a.q, qS), be.fromArray(a.k, kvS), be.fromArray(a.v, kvS), be.fromArray(a.len, [a.B]));
      const r = compareArrays(c.label, await be.read(got), want.data, CACHED);
      expect(r.ok, r.report).toBe(true);
    });
  }

  gpuIt('kvWrite appends at per-sequence offsets, then decode reads it', async () => {
    const be = await sharedBackend(), cpu = new CpuBackend();
    const rng = new Rng(9);
    const [B, S, TQ, NKV, HS] = [3, 10, 3, 2, 32];
    const cacheData = rng.uniform(B * S * NKV * HS), xData = rng.uniform(B * TQ * NKV * HS);
    const start = Int32Array.from([0, 4, 7]);
    const cacheC = cpu.fromArray(cacheData, [B, S, NKV, HS]);
    kvWrite(cacheC, cpu.fromArray(xData, [B, TQ, NKV, HS]), cpu.fromArray(start, [B]));
    const cacheG = be.fromArray(cacheData, [B, S, NKV, HS]);
    be.kvWrite(cacheG, be.fromArray(xData, [B, TQ, NKV, HS]), be.fromArray(start, [B]));
    expect(compareArrays('cache', await be.read(cacheG), cacheC.data, { atol: 0, rtol: 0 }).ok).toBe(true);

    const q = rng.uniform(B * 1 * 4 * HS), len = Int32Array.from([3, 7, 10]);
    const want = attentionCached(cpu.fromArray(q, [B, 1, 4, HS]), cacheC, cacheC, cpu.fromArray(len, [B]));
    const got = be.attentionCached(be.fromArray(q, [B, 1, 4, HS]), cacheG, cacheG, be.fromArray(len, [B]));
    const r = compareArrays('decode after kvWrite', await be.read(got), want.data, CACHED);
    expect(r.ok, r.report).toBe(true);
  });

  gpuIt('kvWrite skips rows that fall outside the cache', async () => {
    const be = await sharedBackend();
    const cache = be.zeros([1, 4, 1, 2]);
    be.kvWrite(cache, be.fromArray(Float32Array.from([1, 2, 3, 4]), [1, 2, 1, 2]), be.fromArray(Int32Array.from([3]), [1]));
    expect([...(await be.read(cache))]).toEqual([0, 0, 0, 0, 0, 0, 1, 2]);
  });

  gpuIt('is bitwise deterministic', async () => {
    const be = await sharedBackend();
    const c = CASES[3]!, a = arrays(c, 5);
    const qS = [a.B, c.TQ, c.NH, c.HS], kvS = [a.B, c.S, c.NKV, c.HS];
    const args = [be.fromArray(a.q, qS), be.fromArray(a.k, kvS), be.fromArray(a.v, kvS), be.fromArray(a.len, [a.B])] as const;
    const x = await be.read(be.attentionCached(...args)), y = await be.read(be.attentionCached(...args));
    expect(Buffer.from(x.buffer).equals(Buffer.from(y.buffer))).toBe(true);
  });
});
