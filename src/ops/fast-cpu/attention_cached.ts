// Fast CPU attentionCached (decode / chunked prefill against a KV cache; the math of
// reference/attention_cached.ts) on the tiling of attention_tiles.ts: per (b, kv head hk) the TQ·G
// query rows (r = i·G + g) are taken four at a time against the first len[b] cached keys, four at
// a time, with the online softmax of the training forward. Query i sits at position
// len[b] − TQ + i and sees keys ≤ it: only tiles that straddle that diagonal are masked.
import { cachedDims } from '../attention.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { packKeys, packRows, quadForward, type TileMask } from './attention_tiles.ts';

/** The rows of one quad: their positions (−1: no row, or before position 0). */
class CachedQuad implements TileMask {
  readonly pos = new Int32Array(4);
  maxPos = -1;
  private minPos = 0;
  private full = false;

  load(qd: number, TQ: number, G: number, n: number): boolean {
    this.maxPos = -1;
    this.minPos = Infinity;
    this.full = true;
    for (let i = 0; i < 4; i++) {
      const r = 4 * qd + i, p = r < TQ * G ? n - TQ + ((r / G) | 0) : -1;
      this.pos[i] = p;
      if (p < 0) this.full = false;
      this.maxPos = Math.max(this.maxPos, p);
      this.minPos = Math.min(this.minPos, p);
    }
    return this.maxPos >= 0;
  }
  unmasked(kt: number): boolean {
    return this.full && 4 * kt + 3 <= this.minPos;
  }
  mask(kt: number, S: Float64Array): void {
    for (let i = 0; i < 4; i++) for (let c = 0; c < 4; c++) if (4 * kt + c > this.pos[i]!) S[4 * i + c] = -Infinity;
  }
}

/** → out (B, TQ, NH, HS); rows whose position is negative give 0. Refuses len outside [0, S]. */
export function attentionCached(q: CpuTensor, kCache: CpuTensor, vCache: CpuTensor, len: CpuTensor, opts: { scale?: number } = {}): CpuTensor {
  const { B, TQ, S, NH, NKV, HS, G, scale } = cachedDims(q, kCache, vCache, len, opts.scale);
  const out = new Float32Array(B * TQ * NH * HS);
  const nq = Math.ceil((TQ * G) / 4), quad = new CachedQuad();
  const Qp = new Float64Array(nq * 4 * HS), Kp = new Float64Array(Math.ceil(S / 4) * 4 * HS), Vp = new Float64Array(Kp.length);
  const O = new Float64Array(4 * HS), Sc = new Float64Array(16), m = new Float64Array(4), l = new Float64Array(4);
  for (let b = 0; b < B; b++) {
    const n = len.data[b]!;
    if (n < 0 || n > S) throw new Error(`attentionCached: len[${b}] = ${n} is outside the cache's 0..${S}`);
    for (let hk = 0; hk < NKV; hk++) {
      packRows(q.data as Float32Array, Qp, b, hk, TQ, NH, G, HS, scale);
      packKeys(kCache.data as Float32Array, Kp, b, hk, S, NKV, HS, n);
      packKeys(vCache.data as Float32Array, Vp, b, hk, S, NKV, HS, n);
      for (let qd = 0; qd < nq; qd++) {
        if (!quad.load(qd, TQ, G, n)) continue;
        O.fill(0);
        m.fill(-Infinity);
        l.fill(0);
        quadForward(Qp, qd * 4 * HS, Kp, Vp, HS, 0, quad.maxPos >> 2, quad, O, m, l, Sc);
        for (let i = 0; i < 4; i++) {
          const r = 4 * qd + i;
          if (quad.pos[i]! < 0) continue;
          const oo = ((b * TQ + ((r / G) | 0)) * NH + hk * G + (r % G)) * HS, inv = 1 / l[i]!;
          for (let d = 0; d < HS; d++) out[oo + d] = O[4 * d + i]! * inv;
        }
      }
    }
  }
  return { shape: [B, TQ, NH, HS], dtype: 'f32', label: 'attentionCached.out', data: out };
}
