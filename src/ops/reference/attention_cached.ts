// CPU reference of the KV-cache ops: kvWrite (append new keys/values at per-sequence offsets) and
// attentionCached (decode / chunked prefill against the cache), plain loops with f64 accumulation.
//   Query i of sequence b sits at position len[b] − TQ + i and sees cache positions ≤ its own.
import { cachedDims, kvWriteDims } from '../attention.shape.ts';
import type { CpuTensor } from '../tensor.ts';

/** cache[b, start[b] + i] = x[b, i]; refuses writes outside [0, S). */
export function kvWrite(cache: CpuTensor, x: CpuTensor, start: CpuTensor): void {
  const { B, S, TQ, NKV, HS } = kvWriteDims(cache, x, start);
  const row = NKV * HS;
  for (let b = 0; b < B; b++) {
    const s0 = start.data[b]!;
    if (s0 < 0 || s0 + TQ > S) throw new Error(`kvWrite: start[${b}] = ${s0} writes rows ${s0}..${s0 + TQ - 1}, outside the cache's 0..${S - 1}`);
    cache.data.set(x.data.subarray(b * TQ * row, (b + 1) * TQ * row), (b * S + s0) * row);
  }
}

/** → out (B, TQ, NH, HS); rows whose position is negative give 0. Refuses len outside [0, S]. */
export function attentionCached(q: CpuTensor, kCache: CpuTensor, vCache: CpuTensor, len: CpuTensor, opts: { scale?: number } = {}): CpuTensor {
  const { B, TQ, S, NH, NKV, HS, G, scale } = cachedDims(q, kCache, vCache, len, opts.scale);
  const Q = q.data, K = kCache.data, V = vCache.data;
  const out = new Float64Array(B * TQ * NH * HS);
  const p = new Float64Array(S);
  for (let b = 0; b < B; b++) {
    const n = len.data[b]!;
    if (n < 0 || n > S) throw new Error(`attentionCached: len[${b}] = ${n} is outside the cache's 0..${S}`);
    for (let i = 0; i < TQ; i++) {
      const pos = n - TQ + i;
      for (let h = 0; h < NH; h++) {
        const hk = Math.floor(h / G);
        const qo = ((b * TQ + i) * NH + h) * HS;
        let m = -Infinity;
        for (let s = 0; s <= pos; s++) {
          const ko = ((b * S + s) * NKV + hk) * HS;
          let dot = 0;
          for (let d = 0; d < HS; d++) dot += Q[qo + d]! * K[ko + d]!;
          p[s] = dot * scale;
          m = Math.max(m, p[s]!);
        }
        let sum = 0;
        for (let s = 0; s <= pos; s++) sum += Math.exp(p[s]! - m);
        for (let s = 0; s <= pos; s++) {
          const w = Math.exp(p[s]! - m) / sum;
          const vo = ((b * S + s) * NKV + hk) * HS;
          for (let d = 0; d < HS; d++) out[qo + d] = out[qo + d]! + w * V[vo + d]!;
        }
      }
    }
  }
  return { shape: [B, TQ, NH, HS], dtype: 'f32', label: 'attentionCached.out', data: Float32Array.from(out) };
}
