// The 4×4 tiling shared by the fast CPU attention ops (attention.ts, attention_cached.ts): packing
// of one (b, kv head hk) into interleaved blocks, the register-blocked 4×4 kernels, and the online
// softmax of one quad of rows over a range of key tiles. Rows of kv head hk: r = t·G + g (query
// head hk·G + g); a quad is rows 4j..4j+3, a tile keys 4j..4j+3. Packed layout: block j holds items
// 4j..4j+3 as P[j·4·HS + 4d + i] (item i, dimension d), zeros past the end, so a 4×4 block of
// scores reads 4 + 4 contiguous values per d. All sums in f64.
import { fexp } from './exp.ts';

/** Which pairs of a quad and a key tile are visible; the caller's rows (segments, cache positions). */
export interface TileMask {
  /** Every row of the loaded quad sees every key of tile kt. */
  unmasked(kt: number): boolean;
  /** S[4i + c] = −∞ where row i does not see key 4·kt + c. */
  mask(kt: number, S: Float64Array): void;
}

/** P ← rows of x (B, T, NH, HS) for kv head hk, times `scale`. */
export function packRows(x: Float32Array, P: Float64Array, b: number, hk: number, T: number, NH: number, G: number, HS: number, scale: number): void {
  P.fill(0);
  for (let r = 0; r < T * G; r++) {
    const t = (r / G) | 0, src = ((b * T + t) * NH + hk * G + (r % G)) * HS, dst = (r >> 2) * 4 * HS + (r & 3);
    for (let d = 0; d < HS; d++) P[dst + 4 * d] = scale * x[src + d]!;
  }
}

/** P ← the first `n` keys (or values) of x (B, T, NKV, HS) for kv head hk (T: x's length, e.g. S). */
export function packKeys(x: Float32Array, P: Float64Array, b: number, hk: number, T: number, NKV: number, HS: number, n = T): void {
  for (let s = 0; s < Math.ceil(n / 4) * 4; s++) {
    const src = ((b * T + s) * NKV + hk) * HS, dst = (s >> 2) * 4 * HS + (s & 3);
    if (s < n) for (let d = 0; d < HS; d++) P[dst + 4 * d] = x[src + d]!;
    else for (let d = 0; d < HS; d++) P[dst + 4 * d] = 0;
  }
}

/**
 * Online softmax of one quad (packed at Qp[pq], pre-scaled) over key tiles kt0..kt1:
 * m (4) running max, l (4) Σ e^(s − m), O (4·HS, O[4d + i]) Σ e^(s − m)·v; the caller zeroes them
 * (m = −∞) first. S (16) is scratch.
 */
export function quadForward(
  Qp: Float64Array, pq: number, Kp: Float64Array, Vp: Float64Array, HS: number, kt0: number, kt1: number,
  tiles: TileMask, O: Float64Array, m: Float64Array, l: Float64Array, S: Float64Array,
): void {
  for (let kt = kt0; kt <= kt1; kt++) {
    const pk = kt * 4 * HS;
    scores(Qp, pq, Kp, pk, HS, S);
    if (!tiles.unmasked(kt)) tiles.mask(kt, S);
    for (let i = 0; i < 4; i++) {
      const o = 4 * i, mx = Math.max(S[o]!, S[o + 1]!, S[o + 2]!, S[o + 3]!);
      let mi = m[i]!;
      if (mx > mi) {
        const alpha = fexp(mi - mx);
        l[i]! *= alpha;
        for (let d = i; d < 4 * HS; d += 4) O[d]! *= alpha;
        m[i] = mi = mx;
      }
      if (mi === -Infinity) {
        S.fill(0, o, o + 4); // this row has seen no key yet
        continue;
      }
      const p0 = fexp(S[o]! - mi), p1 = fexp(S[o + 1]! - mi), p2 = fexp(S[o + 2]! - mi), p3 = fexp(S[o + 3]! - mi);
      S[o] = p0; S[o + 1] = p1; S[o + 2] = p2; S[o + 3] = p3;
      l[i]! += p0 + p1 + p2 + p3;
    }
    rowUpdate(S, Vp, pk, HS, O); // O += P·V
  }
}

/** S[4i + c] = Σ_d A[pa + 4d + i] · Bt[pb + 4d + c]: one 4×4 block of A·Bᵀ over HS. */
export function scores(A: Float64Array, pa: number, Bt: Float64Array, pb: number, HS: number, S: Float64Array): void {
  let s00 = 0, s01 = 0, s02 = 0, s03 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0;
  let s20 = 0, s21 = 0, s22 = 0, s23 = 0, s30 = 0, s31 = 0, s32 = 0, s33 = 0;
  for (let d = 0; d < HS; d++, pa += 4, pb += 4) {
    const a0 = A[pa]!, a1 = A[pa + 1]!, a2 = A[pa + 2]!, a3 = A[pa + 3]!;
    const b0 = Bt[pb]!, b1 = Bt[pb + 1]!, b2 = Bt[pb + 2]!, b3 = Bt[pb + 3]!;
    s00 += a0 * b0; s01 += a0 * b1; s02 += a0 * b2; s03 += a0 * b3;
    s10 += a1 * b0; s11 += a1 * b1; s12 += a1 * b2; s13 += a1 * b3;
    s20 += a2 * b0; s21 += a2 * b1; s22 += a2 * b2; s23 += a2 * b3;
    s30 += a3 * b0; s31 += a3 * b1; s32 += a3 * b2; s33 += a3 * b3;
  }
  S[0] = s00; S[1] = s01; S[2] = s02; S[3] = s03; S[4] = s10; S[5] = s11; S[6] = s12; S[7] = s13;
  S[8] = s20; S[9] = s21; S[10] = s22; S[11] = s23; S[12] = s30; S[13] = s31; S[14] = s32; S[15] = s33;
}

/** R[4d + i] += Σ_c W[4i + c] · X[px + 4d + c] (the quad's rows += W · the tile's keys). */
export function rowUpdate(W: Float64Array, X: Float64Array, px: number, HS: number, R: Float64Array): void {
  const w00 = W[0]!, w01 = W[1]!, w02 = W[2]!, w03 = W[3]!, w10 = W[4]!, w11 = W[5]!, w12 = W[6]!, w13 = W[7]!;
  const w20 = W[8]!, w21 = W[9]!, w22 = W[10]!, w23 = W[11]!, w30 = W[12]!, w31 = W[13]!, w32 = W[14]!, w33 = W[15]!;
  for (let d = 0, o = 0; d < HS; d++, o += 4, px += 4) {
    const x0 = X[px]!, x1 = X[px + 1]!, x2 = X[px + 2]!, x3 = X[px + 3]!;
    R[o]! += w00 * x0 + w01 * x1 + w02 * x2 + w03 * x3;
    R[o + 1]! += w10 * x0 + w11 * x1 + w12 * x2 + w13 * x3;
    R[o + 2]! += w20 * x0 + w21 * x1 + w22 * x2 + w23 * x3;
    R[o + 3]! += w30 * x0 + w31 * x1 + w32 * x2 + w33 * x3;
  }
}

/** R[pr + 4d + c] += Σ_i W[4i + c] · X[px + 4d + i] (the tile's keys += Wᵀ · the quad's rows). */
export function colUpdate(W: Float64Array, X: Float64Array, px: number, HS: number, R: Float64Array, pr: number): void {
  const w00 = W[0]!, w01 = W[1]!, w02 = W[2]!, w03 = W[3]!, w10 = W[4]!, w11 = W[5]!, w12 = W[6]!, w13 = W[7]!;
  const w20 = W[8]!, w21 = W[9]!, w22 = W[10]!, w23 = W[11]!, w30 = W[12]!, w31 = W[13]!, w32 = W[14]!, w33 = W[15]!;
  for (let d = 0; d < HS; d++, px += 4, pr += 4) {
    const x0 = X[px]!, x1 = X[px + 1]!, x2 = X[px + 2]!, x3 = X[px + 3]!;
    R[pr]! += w00 * x0 + w10 * x1 + w20 * x2 + w30 * x3;
    R[pr + 1]! += w01 * x0 + w11 * x1 + w21 * x2 + w31 * x3;
    R[pr + 2]! += w02 * x0 + w12 * x1 + w22 * x2 + w32 * x3;
    R[pr + 3]! += w03 * x0 + w13 * x1 + w23 * x2 + w33 * x3;
  }
}
