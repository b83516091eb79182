// WASM kernels: attention forward, backward and against a KV cache.
#include "common.h"

// ---- attention (the contract of AttentionOps.attention / attentionBackward, the math of
// reference/attention.ts). Flash-style per query head: rows t in quads of 4 against keys in tiles of
// 4 (K packed as Kt[tile][d][4 keys]), online softmax, no T×T matrix; the backward recomputes P from
// lse. A quad visits keys from the first of its rows' segments to its last row (causal and segment
// skipping); tiles that some pair of the quad cannot see are masked pair by pair. The forward and the
// cached attention work in 4 rows × 8 keys register blocks (scores_4x8, softmax_step8, pv_4x8); the
// backward in blocks of up to 16 keys, four chains per row. SIMD runs across the keys of a tile
// (scores) and across head dimensions (updates), so HS must be a multiple of 4 (the caller checks).

/** The quad of rows t0..t0+3 of batch row b: which rows attend, and the key range they need. */
struct Quad {
  int t[4], st[4];
  int lo, hi, minT, maxRun, full;
};

/** seg (B, T); first/run (B, T): first position of seg[t]'s segment, start of t's contiguous run. */
static int load_quad(struct Quad *qd, const int *seg, const int *first, const int *run, int b, int T, int t0) {
  int lo = T, hi = -1, minT = T, maxRun = 0, full = 1;
  for (int i = 0; i < 4; i++) {
    int t = t0 + i, st = t < T ? seg[b * T + t] : -1;
    qd->t[i] = t;
    qd->st[i] = st;
    if (st < 0) {
      full = 0;
      continue;
    }
    int f = first[b * T + t], r = run[b * T + t];
    lo = f < lo ? f : lo;
    hi = t > hi ? t : hi;
    minT = t < minT ? t : minT;
    maxRun = r > maxRun ? r : maxRun;
  }
  qd->lo = lo; qd->hi = hi; qd->minT = minT; qd->maxRun = maxRun; qd->full = full;
  return hi >= 0;
}

/** Row i's scores against tile kt with invisible pairs set to −∞ (s > t, another segment, padding). */
static inline v128_t mask_row(v128_t s, const struct Quad *qd, int i, const int *segRow, int kt, int T) {
  int t = qd->t[i], st = qd->st[i];
  if (st < 0) return wasm_f32x4_splat(-__builtin_inff());
  int s0 = 4 * kt;
  int vis0 = s0 <= t && segRow[s0] == st, vis1 = s0 + 1 <= t && s0 + 1 < T && segRow[s0 + 1] == st;
  int vis2 = s0 + 2 <= t && s0 + 2 < T && segRow[s0 + 2] == st, vis3 = s0 + 3 <= t && s0 + 3 < T && segRow[s0 + 3] == st;
  v128_t keep = wasm_i32x4_make(-vis0, -vis1, -vis2, -vis3);
  return wasm_v128_bitselect(s, wasm_f32x4_splat(-__builtin_inff()), keep);
}

static inline int tile_unmasked(const struct Quad *qd, int kt) {
  int s0 = 4 * kt;
  return qd->full && s0 >= qd->maxRun && s0 + 3 <= qd->minT;
}

/** Kt[kt][d][c] = x(b, 4kt + c, hk, d) for kt < tiles, zero past T: keys as 4-wide tiles for the score products. */
static void pack_tiles(const float *x, float *Kt, int b, int hk, int T, int NKV, int HS, int tiles) {
  for (int s = 0; s < tiles * 4; s++) {
    float *dst = Kt + (s >> 2) * 4 * HS + (s & 3);
    if (s < T) {
      const float *src = x + ((long)(b * T + s) * NKV + hk) * HS;
      for (int d = 0; d < HS; d++) dst[4 * d] = src[d];
    } else {
      for (int d = 0; d < HS; d++) dst[4 * d] = 0.0f;
    }
  }
}

/** R[s][d] = x(b, s, h, d) · scale for s < T, zero up to 4·tiles: rows for the updates. */
static void pack_rows(const float *x, float *R, int b, int h, int T, int NH, int HS, float scale, int tiles) {
  for (int s = 0; s < tiles * 4; s++) {
    float *dst = R + s * HS;
    if (s < T) {
      const float *src = x + ((long)(b * T + s) * NH + h) * HS;
      for (int d = 0; d < HS; d++) dst[d] = src[d] * scale;
    } else {
      for (int d = 0; d < HS; d++) dst[d] = 0.0f;
    }
  }
}

/** Floats of attention scratch one thread needs at T, HS: five T·HS row/tile buffers + small ones. */
int attn_scratch_floats(int T, int HS) { return 5 * ((T + 3) / 4 + 1) * 4 * HS + 16 * HS + 192; }

/** S[j] = Σ_d Q[d] · tiles kp[j] (4 keys each) for the NT ≤ 4 tiles of a block: NT independent chains. */
static inline void scores_block(v128_t *S, const float *Q, const float *kp, int NT, int HS) {
  v128_t s0 = wasm_f32x4_splat(0.0f), s1 = s0, s2 = s0, s3 = s0;
  const float *k1 = kp + 4 * HS, *k2 = k1 + 4 * HS, *k3 = k2 + 4 * HS;
  if (NT == 4) {
    for (int d = 0; d < HS; d++) {
      v128_t qd = wasm_v128_load32_splat(Q + d);
      s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(qd, wasm_v128_load(kp + 4 * d)));
      s1 = wasm_f32x4_add(s1, wasm_f32x4_mul(qd, wasm_v128_load(k1 + 4 * d)));
      s2 = wasm_f32x4_add(s2, wasm_f32x4_mul(qd, wasm_v128_load(k2 + 4 * d)));
      s3 = wasm_f32x4_add(s3, wasm_f32x4_mul(qd, wasm_v128_load(k3 + 4 * d)));
    }
  } else {
    for (int d = 0; d < HS; d++) {
      v128_t qd = wasm_v128_load32_splat(Q + d);
      s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(qd, wasm_v128_load(kp + 4 * d)));
      if (NT > 1) s1 = wasm_f32x4_add(s1, wasm_f32x4_mul(qd, wasm_v128_load(k1 + 4 * d)));
      if (NT > 2) s2 = wasm_f32x4_add(s2, wasm_f32x4_mul(qd, wasm_v128_load(k2 + 4 * d)));
    }
  }
  S[0] = s0; S[1] = s1; S[2] = s2; S[3] = s3;
}

/** R (HS floats) += Σ_{c < 4·NT} W[c] · X[c·HS …]: one row of P·V (or dS·K) over a block's keys, in order;
 *  four 4-float chunks of R at a time (independent chains), then the rest. */
static inline void row_update_block(float *R, const float *W, const float *X, int NT, int HS) {
  int n = 4 * NT, d = 0;
  for (; d + 16 <= HS; d += 16) {
    v128_t o0 = wasm_v128_load(R + d), o1 = wasm_v128_load(R + d + 4), o2 = wasm_v128_load(R + d + 8), o3 = wasm_v128_load(R + d + 12);
    for (int c = 0; c < n; c++) {
      v128_t w = wasm_v128_load32_splat(W + c);
      const float *x = X + c * HS + d;
      o0 = wasm_f32x4_add(o0, wasm_f32x4_mul(w, wasm_v128_load(x)));
      o1 = wasm_f32x4_add(o1, wasm_f32x4_mul(w, wasm_v128_load(x + 4)));
      o2 = wasm_f32x4_add(o2, wasm_f32x4_mul(w, wasm_v128_load(x + 8)));
      o3 = wasm_f32x4_add(o3, wasm_f32x4_mul(w, wasm_v128_load(x + 12)));
    }
    wasm_v128_store(R + d, o0); wasm_v128_store(R + d + 4, o1); wasm_v128_store(R + d + 8, o2); wasm_v128_store(R + d + 12, o3);
  }
  for (; d < HS; d += 4) {
    v128_t o = wasm_v128_load(R + d);
    for (int c = 0; c < n; c++) o = wasm_f32x4_add(o, wasm_f32x4_mul(wasm_v128_load32_splat(W + c), wasm_v128_load(X + c * HS + d)));
    wasm_v128_store(R + d, o);
  }
}

/** Scores of row i of the quad against the NT tiles from kt, invisible pairs at −∞. */
static inline void masked_scores(v128_t *S, const struct Quad *qd, int i, const float *Qi, const float *Kt, const int *segRow, int kt, int NT, int T, int HS) {
  scores_block(S, Qi, Kt + kt * 4 * HS, NT, HS);
  for (int j = 0; j < NT; j++)
    if (!tile_unmasked(qd, kt + j)) S[j] = mask_row(S[j], qd, i, segRow, kt + j, T);
}

/** S[r][j] = Σ_d Q[r·HS + d] · tile j (j < 2: keys kp's 4 and the next tile's 4) for 4 query rows:
 *  a 4 × 8 register block, each key tile loaded once per d for the four rows. */
static inline void scores_4x8(v128_t S[4][2], const float *Q, const float *kp, int HS) {
  v128_t z = wasm_f32x4_splat(0.0f), a00 = z, a01 = z, a10 = z, a11 = z, a20 = z, a21 = z, a30 = z, a31 = z;
  const float *kq = kp + 4 * HS;
  for (int d = 0; d < HS; d++) {
    v128_t k0 = wasm_v128_load(kp + 4 * d), k1 = wasm_v128_load(kq + 4 * d), q;
    q = wasm_v128_load32_splat(Q + d);
    a00 = wasm_f32x4_add(a00, wasm_f32x4_mul(q, k0)); a01 = wasm_f32x4_add(a01, wasm_f32x4_mul(q, k1));
    q = wasm_v128_load32_splat(Q + HS + d);
    a10 = wasm_f32x4_add(a10, wasm_f32x4_mul(q, k0)); a11 = wasm_f32x4_add(a11, wasm_f32x4_mul(q, k1));
    q = wasm_v128_load32_splat(Q + 2 * HS + d);
    a20 = wasm_f32x4_add(a20, wasm_f32x4_mul(q, k0)); a21 = wasm_f32x4_add(a21, wasm_f32x4_mul(q, k1));
    q = wasm_v128_load32_splat(Q + 3 * HS + d);
    a30 = wasm_f32x4_add(a30, wasm_f32x4_mul(q, k0)); a31 = wasm_f32x4_add(a31, wasm_f32x4_mul(q, k1));
  }
  S[0][0] = a00; S[0][1] = a01; S[1][0] = a10; S[1][1] = a11; S[2][0] = a20; S[2][1] = a21; S[3][0] = a30; S[3][1] = a31;
}

/** One online-softmax step of a row over 8 keys (S, −∞ where invisible): rescale its O row and l when the
 *  max grows, then P (8 floats) = e^(S − m), l += Σ P. A row that has seen nothing yet gets P = 0. */
static inline void softmax_step8(const v128_t *S, float *m, float *l, float *Orow, float *P, int HS) {
  float mx = hmax(wasm_f32x4_pmax(S[0], S[1]));
  if (mx > *m) {
    float alpha = wasm_f32x4_extract_lane(vexp(wasm_f32x4_splat(*m - mx)), 0);
    *l *= alpha;
    v128_t av = wasm_f32x4_splat(alpha);
    for (int d = 0; d < HS; d += 4) wasm_v128_store(Orow + d, wasm_f32x4_mul(wasm_v128_load(Orow + d), av));
    *m = mx;
  }
  if (*m == -__builtin_inff()) {
    wasm_v128_store(P, wasm_f32x4_splat(0.0f));
    wasm_v128_store(P + 4, wasm_f32x4_splat(0.0f));
    return;
  }
  v128_t mm = wasm_f32x4_splat(*m), p0 = vexp(wasm_f32x4_sub(S[0], mm)), p1 = vexp(wasm_f32x4_sub(S[1], mm));
  *l += hsum(wasm_f32x4_add(p0, p1));
  wasm_v128_store(P, p0);
  wasm_v128_store(P + 4, p1);
}

/** O (4 rows × HS) += P (4 × 8) · V (8 rows × HS): 4 rows × 8 columns of O in registers, each V row
 *  loaded once for the four rows; keys in order. */
static inline void pv_4x8(float *O, const float *P, const float *V, int HS) {
  int d = 0;
  for (; d + 8 <= HS; d += 8) {
    float *o0 = O + d, *o1 = O + HS + d, *o2 = O + 2 * HS + d, *o3 = O + 3 * HS + d;
    v128_t c00 = wasm_v128_load(o0), c01 = wasm_v128_load(o0 + 4), c10 = wasm_v128_load(o1), c11 = wasm_v128_load(o1 + 4);
    v128_t c20 = wasm_v128_load(o2), c21 = wasm_v128_load(o2 + 4), c30 = wasm_v128_load(o3), c31 = wasm_v128_load(o3 + 4);
    for (int c = 0; c < 8; c++) {
      v128_t v0 = wasm_v128_load(V + c * HS + d), v1 = wasm_v128_load(V + c * HS + d + 4), p;
      p = wasm_v128_load32_splat(P + c);
      c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(p, v0)); c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(p, v1));
      p = wasm_v128_load32_splat(P + 8 + c);
      c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(p, v0)); c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(p, v1));
      p = wasm_v128_load32_splat(P + 16 + c);
      c20 = wasm_f32x4_add(c20, wasm_f32x4_mul(p, v0)); c21 = wasm_f32x4_add(c21, wasm_f32x4_mul(p, v1));
      p = wasm_v128_load32_splat(P + 24 + c);
      c30 = wasm_f32x4_add(c30, wasm_f32x4_mul(p, v0)); c31 = wasm_f32x4_add(c31, wasm_f32x4_mul(p, v1));
    }
    wasm_v128_store(o0, c00); wasm_v128_store(o0 + 4, c01); wasm_v128_store(o1, c10); wasm_v128_store(o1 + 4, c11);
    wasm_v128_store(o2, c20); wasm_v128_store(o2 + 4, c21); wasm_v128_store(o3, c30); wasm_v128_store(o3 + 4, c31);
  }
  for (; d < HS; d += 4) {
    v128_t c0 = wasm_v128_load(O + d), c1 = wasm_v128_load(O + HS + d), c2 = wasm_v128_load(O + 2 * HS + d), c3 = wasm_v128_load(O + 3 * HS + d);
    for (int c = 0; c < 8; c++) {
      v128_t v = wasm_v128_load(V + c * HS + d);
      c0 = wasm_f32x4_add(c0, wasm_f32x4_mul(wasm_v128_load32_splat(P + c), v));
      c1 = wasm_f32x4_add(c1, wasm_f32x4_mul(wasm_v128_load32_splat(P + 8 + c), v));
      c2 = wasm_f32x4_add(c2, wasm_f32x4_mul(wasm_v128_load32_splat(P + 16 + c), v));
      c3 = wasm_f32x4_add(c3, wasm_f32x4_mul(wasm_v128_load32_splat(P + 24 + c), v));
    }
    wasm_v128_store(O + d, c0); wasm_v128_store(O + HS + d, c1); wasm_v128_store(O + 2 * HS + d, c2); wasm_v128_store(O + 3 * HS + d, c3);
  }
}

/**
 * Forward, one item per (b, h): out (B, T, NH, HS) rows of head h; m and l (B, NH, T): the running
 * max and Σ e^(s − m) of each row (the caller forms lse = m + log l; l = 0 marks a padding row).
 * Keys go in blocks of two tiles (8 keys; the last may read the zero tile past T): the quad's scores as a
 * 4 × 8 register block, one online-softmax step per row and block, P·V as a 4 × 8 block of the output.
 * args: q, k, v, seg, first, run, out, m, l, B, T, NH, NKV, HS, scale bits, scratch base, scratch bytes.
 */
void attn_fwd_item(int item, int tid, const int *args) {
  const float *q = PTR(const float, 0), *k = PTR(const float, 1), *v = PTR(const float, 2);
  const int *seg = PTR(const int, 3), *first = PTR(const int, 4), *run = PTR(const int, 5);
  float *out = PTR(float, 6), *M = PTR(float, 7), *L = PTR(float, 8);
  int T = args[10], NH = args[11], NKV = args[12], HS = args[13];
  float scale = f32_of(args[14]);
  int b = item / NH, h = item % NH, hk = h / (NH / NKV), nk = (T + 3) / 4;
  // nk tiles of keys and one zero tile past them (the last 8-key block may read it)
  float *Kt = (float *)(long)(args[15] + tid * args[16]), *Vr = Kt + (nk + 1) * 4 * HS, *Q = Vr + (nk + 1) * 4 * HS, *O = Q + 4 * HS, *P = O + 4 * HS;
  pack_tiles(k, Kt, b, hk, T, NKV, HS, nk + 1);
  pack_rows(v, Vr, b, hk, T, NKV, HS, 1.0f, nk + 1);
  const int *segRow = seg + b * T;
  struct Quad qd;
  for (int t0 = 0; t0 < T; t0 += 4) {
    int any = load_quad(&qd, seg, first, run, b, T, t0);
    float m[4] = {-__builtin_inff(), -__builtin_inff(), -__builtin_inff(), -__builtin_inff()}, l[4] = {0, 0, 0, 0};
    for (int x = 0; x < 4 * HS; x += 4) wasm_v128_store(O + x, wasm_f32x4_splat(0.0f));
    if (any) {
      for (int i = 0; i < 4; i++) {
        const float *src = q + ((long)(b * T + qd.t[i]) * NH + h) * HS;
        for (int d = 0; d < HS; d++) Q[i * HS + d] = qd.st[i] >= 0 ? src[d] * scale : 0.0f;
      }
      for (int kt = qd.lo >> 2; kt <= qd.hi >> 2; kt += 2) {
        v128_t S[4][2];
        scores_4x8(S, Q, Kt + kt * 4 * HS, HS);
        int full0 = tile_unmasked(&qd, kt), full1 = tile_unmasked(&qd, kt + 1);
        for (int i = 0; i < 4; i++) {
          if (!full0) S[i][0] = mask_row(S[i][0], &qd, i, segRow, kt, T);
          if (!full1) S[i][1] = mask_row(S[i][1], &qd, i, segRow, kt + 1, T);
          softmax_step8(S[i], &m[i], &l[i], O + i * HS, P + 8 * i, HS);
        }
        pv_4x8(O, P, Vr + kt * 4 * HS, HS);
      }
    }
    for (int i = 0; i < 4; i++) {
      int t = qd.t[i];
      if (t >= T) break;
      float *dst = out + ((long)(b * T + t) * NH + h) * HS;
      int valid = qd.st[i] >= 0;
      float inv = valid ? 1.0f / l[i] : 0.0f;
      for (int d = 0; d < HS; d++) dst[d] = O[i * HS + d] * inv;
      M[(b * NH + h) * T + t] = valid ? m[i] : 0.0f;
      L[(b * NH + h) * T + t] = valid ? l[i] : 0.0f;
    }
  }
}

/**
 * Backward, one item per (b, kv head hk), over the G query heads of its group: P = exp(scale·q·k −
 * lse), D = Σ dout·out per row, dS = P (dout·v − D); dq = scale Σ_s dS k, dk = Σ_t dS (scale·q),
 * dv = Σ_t P dout. The item owns dk, dv of its kv head (summed over heads g, then t, in order).
 * Keys go in blocks of up to four tiles (16 keys), row by row: a row's scores and dout·v as four
 * independent chains each; dQ as a row update over the block, dK and dV one key at a time.
 * args: q, k, v, out, dout, lse, seg, first, run, dq, dk, dv, B, T, NH, NKV, HS, scale bits, scratch
 * base, scratch bytes.
 */
void attn_bwd_item(int item, int tid, const int *args) {
  const float *q = PTR(const float, 0), *k = PTR(const float, 1), *v = PTR(const float, 2), *out = PTR(const float, 3);
  const float *dout = PTR(const float, 4), *lse = PTR(const float, 5);
  const int *seg = PTR(const int, 6), *first = PTR(const int, 7), *run = PTR(const int, 8);
  float *dq = PTR(float, 9), *dk = PTR(float, 10), *dv = PTR(float, 11);
  int T = args[13], NH = args[14], NKV = args[15], HS = args[16];
  float scale = f32_of(args[17]);
  int G = NH / NKV, b = item / NKV, hk = item % NKV, nk = (T + 3) / 4;
  float *Kt = (float *)(long)(args[18] + tid * args[19]), *Vt = Kt + nk * 4 * HS, *Kr = Vt + nk * 4 * HS;
  float *dK = Kr + nk * 4 * HS, *dV = dK + nk * 4 * HS, *Q = dV + nk * 4 * HS, *dO = Q + 4 * HS, *dQ = dO + 4 * HS, *P = dQ + 4 * HS, *dS = P + 64;
  pack_tiles(k, Kt, b, hk, T, NKV, HS, nk);
  pack_tiles(v, Vt, b, hk, T, NKV, HS, nk);
  pack_rows(k, Kr, b, hk, T, NKV, HS, 1.0f, nk);
  for (int x = 0; x < nk * 4 * HS; x += 4) {
    wasm_v128_store(dK + x, wasm_f32x4_splat(0.0f));
    wasm_v128_store(dV + x, wasm_f32x4_splat(0.0f));
  }
  const int *segRow = seg + b * T;
  struct Quad qd;
  for (int g = 0; g < G; g++) {
    int h = hk * G + g;
    for (int t0 = 0; t0 < T; t0 += 4) {
      int any = load_quad(&qd, seg, first, run, b, T, t0);
      float Lr[4] = {0, 0, 0, 0}, Dr[4] = {0, 0, 0, 0};
      for (int x = 0; x < 4 * HS; x += 4) wasm_v128_store(dQ + x, wasm_f32x4_splat(0.0f));
      if (any) {
        for (int i = 0; i < 4; i++) {
          int t = qd.t[i], valid = qd.st[i] >= 0;
          long o = ((long)(b * T + t) * NH + h) * HS;
          float D = 0.0f;
          for (int d = 0; d < HS; d++) {
            Q[i * HS + d] = valid ? q[o + d] * scale : 0.0f;
            dO[i * HS + d] = valid ? dout[o + d] : 0.0f;
            if (valid) D += dout[o + d] * out[o + d];
          }
          Dr[i] = D;
          Lr[i] = valid ? lse[(b * NH + h) * T + t] : 0.0f;
        }
        int last = qd.hi >> 2;
        for (int kt = qd.lo >> 2; kt <= last; kt += 4) {
          int NT = last - kt + 1 < 4 ? last - kt + 1 : 4;
          // P[i][c], dS[i][c] for the block's keys c < 16 (rows of 16; padding rows and keys past the block are 0)
          for (int i = 0; i < 4; i++) {
            if (qd.st[i] < 0) {
              for (int j = 0; j < 4; j++) {
                wasm_v128_store(P + 16 * i + 4 * j, wasm_f32x4_splat(0.0f));
                wasm_v128_store(dS + 16 * i + 4 * j, wasm_f32x4_splat(0.0f));
              }
              continue;
            }
            v128_t S[4], DP[4];
            masked_scores(S, &qd, i, Q + i * HS, Kt, segRow, kt, NT, T, HS);
            scores_block(DP, dO + i * HS, Vt + kt * 4 * HS, NT, HS);
            v128_t lv = wasm_f32x4_splat(Lr[i]), dv4 = wasm_f32x4_splat(Dr[i]);
            for (int j = 0; j < 4; j++) {
              v128_t p = j < NT ? vexp(wasm_f32x4_sub(S[j], lv)) : wasm_f32x4_splat(0.0f);
              wasm_v128_store(P + 16 * i + 4 * j, p);
              wasm_v128_store(dS + 16 * i + 4 * j, j < NT ? wasm_f32x4_mul(p, wasm_f32x4_sub(DP[j], dv4)) : p);
            }
          }
          const float *kr = Kr + kt * 4 * HS;
          for (int i = 0; i < 4; i++) row_update_block(dQ + i * HS, dS + 16 * i, kr, NT, HS); // dQ_i += Σ_c dS[i][c] · K_c
          for (int c = 0; c < 4 * NT; c++) { // dK_c += Σ_i dS[i][c] · Q_i;  dV_c += Σ_i P[i][c] · dO_i
            v128_t s0 = wasm_v128_load32_splat(dS + c), s1 = wasm_v128_load32_splat(dS + 16 + c);
            v128_t s2 = wasm_v128_load32_splat(dS + 32 + c), s3 = wasm_v128_load32_splat(dS + 48 + c);
            v128_t p0 = wasm_v128_load32_splat(P + c), p1 = wasm_v128_load32_splat(P + 16 + c);
            v128_t p2 = wasm_v128_load32_splat(P + 32 + c), p3 = wasm_v128_load32_splat(P + 48 + c);
            float *dk_c = dK + (4 * kt + c) * HS, *dv_c = dV + (4 * kt + c) * HS;
            for (int d = 0; d < HS; d += 4) {
              v128_t a = wasm_v128_load(dk_c + d);
              a = wasm_f32x4_add(a, wasm_f32x4_mul(s0, wasm_v128_load(Q + d)));
              a = wasm_f32x4_add(a, wasm_f32x4_mul(s1, wasm_v128_load(Q + HS + d)));
              a = wasm_f32x4_add(a, wasm_f32x4_mul(s2, wasm_v128_load(Q + 2 * HS + d)));
              a = wasm_f32x4_add(a, wasm_f32x4_mul(s3, wasm_v128_load(Q + 3 * HS + d)));
              wasm_v128_store(dk_c + d, a);
              v128_t e = wasm_v128_load(dv_c + d);
              e = wasm_f32x4_add(e, wasm_f32x4_mul(p0, wasm_v128_load(dO + d)));
              e = wasm_f32x4_add(e, wasm_f32x4_mul(p1, wasm_v128_load(dO + HS + d)));
              e = wasm_f32x4_add(e, wasm_f32x4_mul(p2, wasm_v128_load(dO + 2 * HS + d)));
              e = wasm_f32x4_add(e, wasm_f32x4_mul(p3, wasm_v128_load(dO + 3 * HS + d)));
              wasm_v128_store(dv_c + d, e);
            }
          }
        }
      }
      for (int i = 0; i < 4; i++) {
        int t = qd.t[i];
        if (t >= T) break;
        float *dst = dq + ((long)(b * T + t) * NH + h) * HS;
        for (int d = 0; d < HS; d++) dst[d] = dQ[i * HS + d] * scale;
      }
    }
  }
  for (int s = 0; s < T; s++) {
    float *dks = dk + ((long)(b * T + s) * NKV + hk) * HS, *dvs = dv + ((long)(b * T + s) * NKV + hk) * HS;
    for (int d = 0; d < HS; d++) {
      dks[d] = dK[s * HS + d];
      dvs[d] = dV[s * HS + d];
    }
  }
}

/**
 * Queries against a KV cache (decode when TQ = 1, chunked prefill otherwise), one item per (b, kv head
 * hk): its keys and values are packed once for the G query heads of the group, whose TQ·G rows
 * (r = i·G + g) are taken four at a time. Query i of sequence b sits at position len[b] − TQ + i and
 * sees cache positions ≤ its own (rows before position 0 give 0); each row's scores, online softmax
 * and P·V run over key tiles in order, alone, as in the forward.
 * Optional rows (B): only queries i < rows[b] are computed (the rest are a chunk's right padding; they
 * give 0), and only the keys they see are packed; a sequence with rows[b] = 0 costs nothing.
 * args: q (B, TQ, NH, HS), kCache, vCache (B, S, NKV, HS), len (B), out (B, TQ, NH, HS), B, TQ, S, NH,
 * NKV, HS, scale bits, scratch base, scratch bytes, rows (B) or 0, then the cache kept tiled or 0: K
 * tiles, V rows, floats per (b, kv head) (kCache and vCache are then not read; attention.ts, KvTiles).
 */
void attn_cached_item(int item, int tid, const int *args) {
  const float *q = PTR(const float, 0), *kc = PTR(const float, 1), *vc = PTR(const float, 2);
  const int *len = PTR(const int, 3);
  float *out = PTR(float, 4);
  int TQ = args[6], S = args[7], NH = args[8], NKV = args[9], HS = args[10];
  float scale = f32_of(args[11]);
  int b = item / NKV, hk = item % NKV, G = NH / NKV, n = len[b];
  int nq = args[14] ? PTR(const int, 14)[b] : TQ;
  nq = nq < 0 ? 0 : nq > TQ ? TQ : nq;
  for (int i = nq; i < TQ; i++) // padding queries give 0
    for (int g = 0; g < G; g++) {
      float *dst = out + ((long)(b * TQ + i) * NH + hk * G + g) * HS;
      for (int d = 0; d < HS; d++) dst[d] = 0.0f;
    }
  // Keys the computed queries see: positions < n − (TQ − nq) (all n without padding).
  int nkeys = n - (TQ - nq), nk;
  nkeys = nkeys < 0 ? 0 : nkeys;
  nk = (nkeys + 3) / 4;
  float *Kt, *Vr, *Q, *O, *P, *scr = (float *)(long)(args[12] + tid * args[13]);
  if (args[15]) {
    // The cache kept tiled by the caller (args 15-17: K tiles, V rows, floats per (b, kv head)): the same
    // layout as the packing below, every position written so far (later ones masked out, and finite).
    Kt = PTR(float, 15) + (long)(b * NKV + hk) * args[17];
    Vr = PTR(float, 16) + (long)(b * NKV + hk) * args[17];
    Q = scr, O = Q + 4 * HS, P = O + 4 * HS;
  } else {
    Kt = scr, Vr = Kt + (nk + 1) * 4 * HS, Q = Vr + (nk + 1) * 4 * HS, O = Q + 4 * HS, P = O + 4 * HS;
    // Keys and values of this sequence's first nkeys positions: K as 4-key tiles, V as rows; zeros to the
    // end of the tile after the last (an 8-key block may read it).
    for (int s = 0; s < nkeys; s++) {
      float *kt = Kt + (s >> 2) * 4 * HS + (s & 3), *vr = Vr + s * HS;
      const float *ks = kc + ((long)(b * S + s) * NKV + hk) * HS, *vs = vc + ((long)(b * S + s) * NKV + hk) * HS;
      for (int d = 0; d < HS; d++) {
        kt[4 * d] = ks[d];
        vr[d] = vs[d];
      }
    }
    for (int s = nkeys; s < (nk + 1) * 4; s++) {
      float *kt = Kt + (s >> 2) * 4 * HS + (s & 3), *vr = Vr + s * HS;
      for (int d = 0; d < HS; d++) kt[4 * d] = vr[d] = 0.0f;
    }
  }
  for (int r0 = 0; r0 < nq * G; r0 += 4) {
    int rows = nq * G - r0 < 4 ? nq * G - r0 : 4, pos[4], head[4], qi[4], maxPos = -1, minPos = n;
    for (int i = 0; i < 4; i++) {
      qi[i] = (r0 + i) / G;
      head[i] = hk * G + (r0 + i) % G;
      pos[i] = i < rows ? n - TQ + qi[i] : -1;
      maxPos = pos[i] > maxPos ? pos[i] : maxPos;
      minPos = pos[i] < minPos ? pos[i] : minPos;
    }
    float m[4] = {-__builtin_inff(), -__builtin_inff(), -__builtin_inff(), -__builtin_inff()}, l[4] = {0, 0, 0, 0};
    for (int x = 0; x < 4 * HS; x += 4) wasm_v128_store(O + x, wasm_f32x4_splat(0.0f));
    for (int i = 0; i < 4; i++) {
      const float *src = q + ((long)(b * TQ + qi[i]) * NH + head[i]) * HS;
      for (int d = 0; d < HS; d++) Q[i * HS + d] = i < rows ? src[d] * scale : 0.0f;
    }
    for (int kt = 0; maxPos >= 0 && kt <= maxPos >> 2; kt += 2) {
      v128_t Sc[4][2];
      scores_4x8(Sc, Q, Kt + kt * 4 * HS, HS);
      int full = minPos >= 0 && 4 * kt + 7 <= minPos, s0 = 4 * kt;
      for (int i = 0; i < 4; i++) {
        if (!full) { // key s is seen by the row at position p when s ≤ p (p < 0: none)
          int p = pos[i];
          v128_t neg = wasm_f32x4_splat(-__builtin_inff());
          Sc[i][0] = wasm_v128_bitselect(Sc[i][0], neg, wasm_i32x4_make(-(s0 <= p), -(s0 + 1 <= p), -(s0 + 2 <= p), -(s0 + 3 <= p)));
          Sc[i][1] = wasm_v128_bitselect(Sc[i][1], neg, wasm_i32x4_make(-(s0 + 4 <= p), -(s0 + 5 <= p), -(s0 + 6 <= p), -(s0 + 7 <= p)));
        }
        softmax_step8(Sc[i], &m[i], &l[i], O + i * HS, P + 8 * i, HS);
      }
      pv_4x8(O, P, Vr + kt * 4 * HS, HS);
    }
    for (int i = 0; i < rows; i++) {
      float *dst = out + ((long)(b * TQ + qi[i]) * NH + head[i]) * HS;
      float inv = pos[i] >= 0 ? 1.0f / l[i] : 0.0f;
      for (int d = 0; d < HS; d++) dst[d] = O[i * HS + d] * inv;
    }
  }
}
