// Fast CPU attention, forward and backward (the contract of AttentionOps.attention /
// attentionBackward; the math of reference/attention.ts). Flash-style: per (b, kv head hk), the G
// query heads of the group are rows r = t·G + g, taken four at a time (a quad) against keys four at
// a time (a tile), so one 4×4 register block of scores serves QKᵀ, the online softmax and P·V (and,
// backward, dP, dQ, dK, dV); no T×T matrix exists, and the backward recomputes P from lse. Each quad
// visits only keys from the first of its segment to its last row (causal and segment skipping;
// attention_quads.ts); tiles: attention_tiles.ts. Sums in f64, one fixed order: deterministic.
import { LSE_PADDING, attentionBackwardDims, attentionDims } from '../attention.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { fexp } from './exp.ts';
import { Quads } from './attention_quads.ts';
import { colUpdate, packKeys, packRows, quadForward, rowUpdate, scores } from './attention_tiles.ts';

const f32 = (shape: readonly number[], label: string, data: Float32Array): CpuTensor => ({ shape: [...shape], dtype: 'f32', label, data });

/** → out (B, T, NH, HS), lse (B, NH, T); padding rows (seg −1): out 0, lse LSE_PADDING. */
export function attention(q: CpuTensor, k: CpuTensor, v: CpuTensor, seg: CpuTensor, opts: { scale?: number } = {}): { out: CpuTensor; lse: CpuTensor } {
  const { B, T, NH, NKV, HS, G, scale } = attentionDims(q, k, v, seg, opts.scale);
  const out = new Float32Array(B * T * NH * HS), lse = new Float32Array(B * NH * T);
  const quads = new Quads(T, G, seg.data as Int32Array);
  const Qp = new Float64Array(quads.nq * 4 * HS), Kp = new Float64Array(quads.nk * 4 * HS), Vp = new Float64Array(Kp.length);
  const O = new Float64Array(4 * HS), S = new Float64Array(16), m = new Float64Array(4), l = new Float64Array(4);
  for (let b = 0; b < B; b++) {
    quads.setBatch(b);
    for (let hk = 0; hk < NKV; hk++) {
      packRows(q.data as Float32Array, Qp, b, hk, T, NH, G, HS, scale);
      packKeys(k.data as Float32Array, Kp, b, hk, T, NKV, HS);
      packKeys(v.data as Float32Array, Vp, b, hk, T, NKV, HS);
      for (let qd = 0; qd < quads.nq; qd++) {
        if (!quads.load(qd)) {
          for (let i = 0; i < 4; i++) if (quads.real(i)) lse[(b * NH + hk * G + quads.g(i)) * T + quads.t(i)] = LSE_PADDING;
          continue;
        }
        O.fill(0);
        m.fill(-Infinity);
        l.fill(0);
        quadForward(Qp, qd * 4 * HS, Kp, Vp, HS, quads.lo >> 2, quads.hi >> 2, quads, O, m, l, S);
        for (let i = 0; i < 4; i++) {
          if (!quads.real(i)) continue;
          const t = quads.t(i), h = hk * G + quads.g(i), oo = ((b * T + t) * NH + h) * HS;
          if (!quads.valid(i)) {
            lse[(b * NH + h) * T + t] = LSE_PADDING;
            continue;
          }
          const inv = 1 / l[i]!;
          for (let d = 0; d < HS; d++) out[oo + d] = O[4 * d + i]! * inv;
          lse[(b * NH + h) * T + t] = m[i]! + Math.log(l[i]!);
        }
      }
    }
  }
  return { out: f32(q.shape, 'attention.out', out), lse: f32([B, NH, T], 'attention.lse', lse) };
}

/** P = exp(scale·q·k − lse), D = Σ dout·out per row, dS = P (dout·v − D);
 *  dq = scale Σ_s dS k, dk = scale Σ_t dS q, dv = Σ_t P dout (over the G heads of each kv head). */
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
  const dq = new Float32Array(q.data.length), dk = new Float32Array(k.data.length), dv = new Float32Array(v.data.length);
  const L = lse.data as Float32Array, OUT = out.data as Float32Array, DO = dout.data as Float32Array;
  const quads = new Quads(T, G, seg.data as Int32Array);
  const Qp = new Float64Array(quads.nq * 4 * HS), DOp = new Float64Array(Qp.length);
  const Kp = new Float64Array(quads.nk * 4 * HS), Vp = new Float64Array(Kp.length), dK = new Float64Array(Kp.length), dV = new Float64Array(Kp.length);
  const dQ = new Float64Array(4 * HS), S = new Float64Array(16), dP = new Float64Array(16), rowL = new Float64Array(4), rowD = new Float64Array(4);
  for (let b = 0; b < B; b++) {
    quads.setBatch(b);
    for (let hk = 0; hk < NKV; hk++) {
      packRows(q.data as Float32Array, Qp, b, hk, T, NH, G, HS, scale);
      packRows(DO, DOp, b, hk, T, NH, G, HS, 1);
      packKeys(k.data as Float32Array, Kp, b, hk, T, NKV, HS);
      packKeys(v.data as Float32Array, Vp, b, hk, T, NKV, HS);
      dK.fill(0);
      dV.fill(0);
      for (let qd = 0; qd < quads.nq; qd++) {
        if (!quads.load(qd)) continue;
        rowL.fill(0);
        rowD.fill(0);
        for (let i = 0; i < 4; i++) {
          if (!quads.valid(i)) continue;
          const t = quads.t(i), h = hk * G + quads.g(i), oo = ((b * T + t) * NH + h) * HS;
          let D = 0;
          for (let d = 0; d < HS; d++) D += DO[oo + d]! * OUT[oo + d]!;
          rowD[i] = D;
          rowL[i] = L[(b * NH + h) * T + t]!;
        }
        dQ.fill(0);
        const pq = qd * 4 * HS;
        for (let kt = quads.lo >> 2; kt <= quads.hi >> 2; kt++) {
          const pk = kt * 4 * HS;
          scores(Qp, pq, Kp, pk, HS, S);
          scores(DOp, pq, Vp, pk, HS, dP);
          if (!quads.unmasked(kt)) quads.mask(kt, S);
          for (let i = 0; i < 4; i++) {
            const Li = rowL[i]!, Di = rowD[i]!;
            for (let o = 4 * i; o < 4 * i + 4; o++) {
              const p = fexp(S[o]! - Li);
              S[o] = p; // S now holds P
              dP[o] = p * (dP[o]! - Di); // dP now holds dS
            }
          }
          rowUpdate(dP, Kp, pk, HS, dQ); // dQ += dS·K
          colUpdate(dP, Qp, pq, HS, dK, pk); // dK += dSᵀ·(scale·Q)
          colUpdate(S, DOp, pq, HS, dV, pk); // dV += Pᵀ·dO
        }
        for (let i = 0; i < 4; i++) {
          if (!quads.valid(i)) continue;
          const oo = ((b * T + quads.t(i)) * NH + hk * G + quads.g(i)) * HS;
          for (let d = 0; d < HS; d++) dq[oo + d] = dQ[4 * d + i]! * scale;
        }
      }
      for (let s = 0; s < T; s++) {
        const ko = ((b * T + s) * NKV + hk) * HS, pk = (s >> 2) * 4 * HS + (s & 3);
        for (let d = 0; d < HS; d++) {
          dk[ko + d] = dK[pk + 4 * d]!;
          dv[ko + d] = dV[pk + 4 * d]!;
        }
      }
    }
  }
  return { dq: f32(q.shape, 'attention.dq', dq), dk: f32(k.shape, 'attention.dk', dk), dv: f32(v.shape, 'attention.dv', dv) };
}
