// CPU reference of causal grouped-query attention with segments, forward and backward: plain
// loops over (b, h, t) rows, the softmax materialised per row, f64 accumulation. The oracle the
// tiled and naive WGSL kernels are tested against (and the CPU backend's implementation).
//   Query t of head h sees key s (kv head h / G) iff s ≤ t and seg[s] = seg[t] ≥ 0.
import { LSE_PADDING, attentionBackwardDims, attentionDims } from '../attention.shape.ts';
import type { CpuTensor } from '../tensor.ts';

const f32 = (shape: number[], label: string, data: ArrayLike<number>): CpuTensor => ({ shape, dtype: 'f32', label, data: Float32Array.from(data) });

/** → out (B, T, NH, HS), lse (B, NH, T); padding rows (seg −1): out 0, lse LSE_PADDING. */
export function attention(q: CpuTensor, k: CpuTensor, v: CpuTensor, seg: CpuTensor, opts: { scale?: number } = {}): { out: CpuTensor; lse: CpuTensor } {
  const { B, T, NH, NKV, HS, G, scale } = attentionDims(q, k, v, seg, opts.scale);
  const Q = q.data, K = k.data, V = v.data, SEG = seg.data;
  const out = new Float64Array(B * T * NH * HS);
  const lse = new Float64Array(B * NH * T);
  const p = new Float64Array(T);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < NH; h++) {
      const hk = Math.floor(h / G);
      for (let t = 0; t < T; t++) {
        const st = SEG[b * T + t]!;
        if (st < 0) {
          lse[(b * NH + h) * T + t] = LSE_PADDING;
          continue;
        }
        const qo = ((b * T + t) * NH + h) * HS;
        let m = -Infinity;
        for (let s = 0; s <= t; s++) {
          p[s] = -Infinity;
          if (SEG[b * T + s] !== st) continue;
          const ko = ((b * T + s) * NKV + hk) * HS;
          let dot = 0;
          for (let d = 0; d < HS; d++) dot += Q[qo + d]! * K[ko + d]!;
          p[s] = dot * scale;
          m = Math.max(m, p[s]!);
        }
        let sum = 0;
        for (let s = 0; s <= t; s++) sum += p[s] === -Infinity ? 0 : Math.exp(p[s]! - m);
        lse[(b * NH + h) * T + t] = m + Math.log(sum);
        for (let s = 0; s <= t; s++) {
          if (p[s] === -Infinity) continue;
          const w = Math.exp(p[s]! - m) / sum;
          const vo = ((b * T + s) * NKV + hk) * HS;
          for (let d = 0; d < HS; d++) out[qo + d] = out[qo + d]! + w * V[vo + d]!;
        }
      }
    }
  }
  return { out: f32([B, T, NH, HS], 'attention.out', out), lse: f32([B, NH, T], 'attention.lse', lse) };
}

/** Recomputes P = exp(scale·q·k − lse) per allowed pair; D = Σ dout·out per row;
 *  dS = P (dout·v − D); dq = scale Σ_s dS k, dk = scale Σ_t dS q, dv = Σ_t P dout (summed over the
 *  G query heads of each kv head). */
export function attentionBackward(
  q: CpuTensor,
  k: CpuTensor,
  v: CpuTensor,
  out: CpuTensor,
  dout: CpuTensor,
  lse: CpuTensor,
  seg: CpuTensor,
  opts: { scale?: number } = {},
): { dq: CpuTensor; dk: CpuTensor; dv: CpuTensor } {
  const { B, T, NH, NKV, HS, G, scale } = attentionBackwardDims(q, k, v, out, dout, lse, seg, opts.scale);
  const Q = q.data, K = k.data, V = v.data, O = out.data, DO = dout.data, L = lse.data, SEG = seg.data;
  const dq = new Float64Array(q.data.length);
  const dk = new Float64Array(k.data.length);
  const dv = new Float64Array(v.data.length);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < NH; h++) {
      const hk = Math.floor(h / G);
      for (let t = 0; t < T; t++) {
        const st = SEG[b * T + t]!;
        if (st < 0) continue;
        const qo = ((b * T + t) * NH + h) * HS;
        let D = 0;
        for (let d = 0; d < HS; d++) D += DO[qo + d]! * O[qo + d]!;
        const lseT = L[(b * NH + h) * T + t]!;
        for (let s = 0; s <= t; s++) {
          if (SEG[b * T + s] !== st) continue;
          const ko = ((b * T + s) * NKV + hk) * HS;
          let dot = 0, dP = 0;
          for (let d = 0; d < HS; d++) {
            dot += Q[qo + d]! * K[ko + d]!;
            dP += DO[qo + d]! * V[ko + d]!;
          }
          const P = Math.exp(dot * scale - lseT);
          const dS = P * (dP - D);
          for (let d = 0; d < HS; d++) {
            dq[qo + d] = dq[qo + d]! + scale * dS * K[ko + d]!;
            dk[ko + d] = dk[ko + d]! + scale * dS * Q[qo + d]!;
            dv[ko + d] = dv[ko + d]! + P * DO[qo + d]!;
          }
        }
      }
    }
  }
  return {
    dq: f32([...q.shape], 'attention.dq', dq),
    dk: f32([...k.shape], 'attention.dk', dk),
    dv: f32([...v.shape], 'attention.dv', dv),
  };
}
