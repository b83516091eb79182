// The WASM SIMD backend's hot loops (src/ops/wasm/): matmul work items for every layout of
// matmul.shape.ts, compiled to wasm32 with 128-bit SIMD by scripts/build-wasm.mjs (Debian's clang and
// wasm-ld). Every instance of the module shares one linear memory (threads.ts): the caller lays out
// the operands and a per-thread scratch area, then each thread runs whole work items. An item owns
// a block of output elements and sums each of them alone, in k order, in f32 — the same order
// whatever thread runs it and however many threads there are, so results are bitwise the same for
// any thread count. Each instance's __stack_pointer is exported and set by threads.ts to a stack of
// its own (the shadow stack holds the few local arrays below).
#include <wasm_simd128.h>

#define MR 4   // micro-tile rows (A values splatted per k)
#define NR 8   // micro-tile columns (two f32x4 of B per k)
#define MC 64  // rows per work item
#define NC 64  // columns per work item (a multiple of NR)
#define KC 256 // depth per packed block: A block (MC·KC) + B block (KC·NC) = 128 KiB, within L2

/** Floats of scratch one matmul thread needs: packed A (MC·KC), packed B (KC·NC), accumulators (MC·NC). */
int mm_scratch_floats(void) { return MC * KC + KC * NC + MC * NC; }
int mm_rows_per_item(void) { return MC; }
int mm_cols_per_item(void) { return NC; }

// Every op's entry point is `op_item(item, tid, args)`: the item to run, the thread running it (it
// picks the thread's scratch), and the op's arguments as i32 words in memory (pointers are byte
// addresses; floats travel as their bits).
#define PTR(T, i) ((T *)(long)args[i])
static inline float f32_of(int bits) { return __builtin_bit_cast(float, bits); }

/** Ap[ip][k][r] = A(i0 + ip·MR + r, k0 + k), zero past mc. A(i, k) = a[i·K + k], or a[k·M + i] when transA. */
static void pack_a(const float *a, int M, int K, int transA, int i0, int mc, int k0, int kc, float *Ap) {
  for (int ip = 0; ip * MR < mc; ip++) {
    float *dst = Ap + ip * kc * MR;
    int h = mc - ip * MR;
    if (h > MR) h = MR;
    for (int r = 0; r < MR; r++) {
      float *p = dst + r;
      if (r >= h) {
        for (int k = 0; k < kc; k++, p += MR) *p = 0.0f;
      } else if (transA) {
        const float *src = a + (long)k0 * M + i0 + ip * MR + r;
        for (int k = 0; k < kc; k++, p += MR, src += M) *p = *src;
      } else {
        const float *src = a + (long)(i0 + ip * MR + r) * K + k0;
        for (int k = 0; k < kc; k++, p += MR) *p = src[k];
      }
    }
  }
}

/** Bp[jp][k][c] = B(k0 + k, j0 + jp·NR + c), zero past nc. B(k, j) = b[k·N + j], or b[j·K + k] when transB. */
static void pack_b(const float *b, int N, int K, int transB, int j0, int nc, int k0, int kc, float *Bp) {
  for (int jp = 0; jp * NR < nc; jp++) {
    float *dst = Bp + jp * kc * NR;
    int w = nc - jp * NR;
    if (w > NR) w = NR;
    if (!transB && w == NR) {
      // Rows of B are contiguous: two vector copies per k.
      const float *src = b + (long)k0 * N + j0 + jp * NR;
      for (int k = 0; k < kc; k++, src += N, dst += NR) {
        wasm_v128_store(dst, wasm_v128_load(src));
        wasm_v128_store(dst + 4, wasm_v128_load(src + 4));
      }
      continue;
    }
    for (int c = 0; c < NR; c++) {
      float *p = dst + c;
      if (c >= w) {
        for (int k = 0; k < kc; k++, p += NR) *p = 0.0f;
      } else if (transB) {
        const float *src = b + (long)(j0 + jp * NR + c) * K + k0;
        for (int k = 0; k < kc; k++, p += NR) *p = src[k];
      } else {
        const float *src = b + (long)k0 * N + j0 + jp * NR + c;
        for (int k = 0; k < kc; k++, p += NR, src += N) *p = *src;
      }
    }
  }
}

/** The 4×8 register tile T (row stride NC) += Σ_k Ap[4k + r] · Bp[8k + c], k in order. */
static void kernel(const float *Ap, const float *Bp, int kc, float *T) {
  v128_t c00 = wasm_v128_load(T), c01 = wasm_v128_load(T + 4);
  v128_t c10 = wasm_v128_load(T + NC), c11 = wasm_v128_load(T + NC + 4);
  v128_t c20 = wasm_v128_load(T + 2 * NC), c21 = wasm_v128_load(T + 2 * NC + 4);
  v128_t c30 = wasm_v128_load(T + 3 * NC), c31 = wasm_v128_load(T + 3 * NC + 4);
  for (int k = 0; k < kc; k++, Ap += MR, Bp += NR) {
    v128_t b0 = wasm_v128_load(Bp), b1 = wasm_v128_load(Bp + 4);
    v128_t a = wasm_v128_load32_splat(Ap);
    c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(a, b0));
    c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(a, b1));
    a = wasm_v128_load32_splat(Ap + 1);
    c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(a, b0));
    c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(a, b1));
    a = wasm_v128_load32_splat(Ap + 2);
    c20 = wasm_f32x4_add(c20, wasm_f32x4_mul(a, b0));
    c21 = wasm_f32x4_add(c21, wasm_f32x4_mul(a, b1));
    a = wasm_v128_load32_splat(Ap + 3);
    c30 = wasm_f32x4_add(c30, wasm_f32x4_mul(a, b0));
    c31 = wasm_f32x4_add(c31, wasm_f32x4_mul(a, b1));
  }
  wasm_v128_store(T, c00); wasm_v128_store(T + 4, c01);
  wasm_v128_store(T + NC, c10); wasm_v128_store(T + NC + 4, c11);
  wasm_v128_store(T + 2 * NC, c20); wasm_v128_store(T + 2 * NC + 4, c21);
  wasm_v128_store(T + 3 * NC, c30); wasm_v128_store(T + 3 * NC + 4, c31);
}

/**
 * One work item of C (batch, M, N) = A·B (+ bias), = or += : batch z = item / (mb·nb), row block
 * (item / nb) % mb, column block item % nb, with mb = ⌈M/MC⌉, nb = ⌈N/NC⌉. Operand offsets are in
 * floats from address 0; stride* are the floats between batches (0 broadcasts). C(i, j) = acc + bias[j],
 * or C(i, j) + (acc + bias[j]) when accumulating (the reference's order); acc is Σ_k in k order, f32.
 * args: a, b, c, bias (0: none), M, N, K, strideA, strideB, strideC, transA, transB, accumulate,
 * scratch base, scratch bytes per thread.
 */
static void matmul_item(int item, const float *a, const float *b, float *c, const float *bias, int M, int N, int K,
                        int strideA, int strideB, int strideC, int transA, int transB, int accumulate, float *scratch) {
  int mb = (M + MC - 1) / MC, nb = (N + NC - 1) / NC;
  int z = item / (mb * nb), r = item % (mb * nb);
  int i0 = (r / nb) * MC, j0 = (r % nb) * NC;
  int mc = M - i0 < MC ? M - i0 : MC, nc = N - j0 < NC ? N - j0 : NC;
  const float *az = a + (long)z * strideA, *bz = b + (long)z * strideB;
  float *cz = c + (long)z * strideC;
  float *Ap = scratch, *Bp = scratch + MC * KC, *T = scratch + MC * KC + KC * NC;
  int mp = (mc + MR - 1) / MR, np = (nc + NR - 1) / NR;
  for (int x = 0; x < mp * MR * NC; x += 4) wasm_v128_store(T + x, wasm_f32x4_splat(0.0f));
  for (int k0 = 0; k0 < K; k0 += KC) {
    int kc = K - k0 < KC ? K - k0 : KC;
    pack_a(az, M, K, transA, i0, mc, k0, kc, Ap);
    pack_b(bz, N, K, transB, j0, nc, k0, kc, Bp);
    for (int jp = 0; jp < np; jp++)
      for (int ip = 0; ip < mp; ip++) kernel(Ap + ip * kc * MR, Bp + jp * kc * NR, kc, T + ip * MR * NC + jp * NR);
  }
  for (int i = 0; i < mc; i++) {
    const float *t = T + i * NC;
    float *out = cz + (long)(i0 + i) * N + j0;
    for (int j = 0; j < nc; j++) {
      float s = bias ? t[j] + bias[j0 + j] : t[j];
      out[j] = accumulate ? out[j] + s : s;
    }
  }
}

void mm_item(int item, int tid, const int *args) {
  matmul_item(item, PTR(const float, 0), PTR(const float, 1), PTR(float, 2), args[3] ? PTR(const float, 3) : 0, args[4], args[5],
              args[6], args[7], args[8], args[9], args[10], args[11], args[12], (float *)(long)(args[13] + tid * args[14]));
}

// ---- attention (the contract of AttentionOps.attention / attentionBackward, the math of
// reference/attention.ts). Flash-style per query head: rows t in quads of 4 against keys in tiles of
// 4, online softmax, no T×T matrix; the backward recomputes P from lse. A quad visits keys from the
// first of its rows' segments to its last row (causal and segment skipping); tiles that some pair
// of the quad cannot see are masked pair by pair. SIMD runs across the 4 keys of a tile (scores)
// and across head dimensions (updates), so HS must be a multiple of 4 (the caller checks).

/** e^x in f32 lanes: x = k·ln2 + r, |r| ≤ ln2/2, e^r by its degree-7 Taylor polynomial (error
 *  < 1e-8 relative, under f32's ulp), 2^k through the exponent bits; 0 below −87.3 (−∞ included). */
static inline v128_t vexp(v128_t x) {
  const v128_t lo = wasm_f32x4_splat(-87.3f);
  v128_t under = wasm_f32x4_lt(x, lo);
  v128_t xc = wasm_f32x4_min(wasm_f32x4_max(x, lo), wasm_f32x4_splat(88.0f));
  v128_t k = wasm_f32x4_nearest(wasm_f32x4_mul(xc, wasm_f32x4_splat(1.44269504088896341f)));
  v128_t r = wasm_f32x4_sub(xc, wasm_f32x4_mul(k, wasm_f32x4_splat(0.693359375f)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(k, wasm_f32x4_splat(-2.12194440e-4f)));
  v128_t p = wasm_f32x4_splat(1.0f / 5040);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 720));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 120));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 24));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 6));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0.5f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  v128_t two_k = wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(k), wasm_i32x4_splat(127)), 23);
  return wasm_v128_andnot(wasm_f32x4_mul(p, two_k), under);
}

static inline float hmax(v128_t v) {
  float a = wasm_f32x4_extract_lane(v, 0), b = wasm_f32x4_extract_lane(v, 1), c = wasm_f32x4_extract_lane(v, 2), d = wasm_f32x4_extract_lane(v, 3);
  a = a > b ? a : b;
  c = c > d ? c : d;
  return a > c ? a : c;
}
static inline float hsum(v128_t v) {
  return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) + (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
}

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

/** Kt[kt][d][c] = x(b, 4kt + c, hk, d), zero past T: keys as 4-wide tiles for the score products. */
static void pack_tiles(const float *x, float *Kt, int b, int hk, int T, int NKV, int HS) {
  int nk = (T + 3) / 4;
  for (int s = 0; s < nk * 4; s++) {
    float *dst = Kt + (s >> 2) * 4 * HS + (s & 3);
    if (s < T) {
      const float *src = x + ((long)(b * T + s) * NKV + hk) * HS;
      for (int d = 0; d < HS; d++) dst[4 * d] = src[d];
    } else {
      for (int d = 0; d < HS; d++) dst[4 * d] = 0.0f;
    }
  }
}

/** R[s][d] = x(b, s, h, d) · scale for s < T, zero up to the tile boundary: rows for the updates. */
static void pack_rows(const float *x, float *R, int b, int h, int T, int NH, int HS, float scale) {
  int nk = (T + 3) / 4;
  for (int s = 0; s < nk * 4; s++) {
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
int attn_scratch_floats(int T, int HS) { return 5 * ((T + 3) / 4) * 4 * HS + 16 * HS + 64; }

/**
 * Forward, one item per (b, h): out (B, T, NH, HS) rows of head h; m and l (B, NH, T): the running
 * max and Σ e^(s − m) of each row (the caller forms lse = m + log l; l = 0 marks a padding row).
 * args: q, k, v, seg, first, run, out, m, l, B, T, NH, NKV, HS, scale bits, scratch base, scratch bytes.
 */
void attn_fwd_item(int item, int tid, const int *args) {
  const float *q = PTR(const float, 0), *k = PTR(const float, 1), *v = PTR(const float, 2);
  const int *seg = PTR(const int, 3), *first = PTR(const int, 4), *run = PTR(const int, 5);
  float *out = PTR(float, 6), *M = PTR(float, 7), *L = PTR(float, 8);
  int T = args[10], NH = args[11], NKV = args[12], HS = args[13];
  float scale = f32_of(args[14]);
  int b = item / NH, h = item % NH, hk = h / (NH / NKV), nk = (T + 3) / 4;
  float *Kt = (float *)(long)(args[15] + tid * args[16]), *Vr = Kt + nk * 4 * HS, *Q = Vr + nk * 4 * HS, *O = Q + 4 * HS, *P = O + 4 * HS;
  pack_tiles(k, Kt, b, hk, T, NKV, HS);
  pack_rows(v, Vr, b, hk, T, NKV, HS, 1.0f);
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
      for (int kt = qd.lo >> 2; kt <= qd.hi >> 2; kt++) {
        const float *kp = Kt + kt * 4 * HS;
        v128_t S[4];
        for (int i = 0; i < 4; i++) {
          v128_t s = wasm_f32x4_splat(0.0f);
          for (int d = 0; d < HS; d++) s = wasm_f32x4_add(s, wasm_f32x4_mul(wasm_v128_load32_splat(Q + i * HS + d), wasm_v128_load(kp + 4 * d)));
          S[i] = tile_unmasked(&qd, kt) ? s : mask_row(s, &qd, i, segRow, kt, T);
        }
        for (int i = 0; i < 4; i++) {
          float mx = hmax(S[i]);
          if (mx > m[i]) {
            float alpha = wasm_f32x4_extract_lane(vexp(wasm_f32x4_splat(m[i] - mx)), 0);
            l[i] *= alpha;
            v128_t av = wasm_f32x4_splat(alpha);
            for (int d = 0; d < HS; d += 4) wasm_v128_store(O + i * HS + d, wasm_f32x4_mul(wasm_v128_load(O + i * HS + d), av));
            m[i] = mx;
          }
          v128_t p = m[i] == -__builtin_inff() ? wasm_f32x4_splat(0.0f) : vexp(wasm_f32x4_sub(S[i], wasm_f32x4_splat(m[i])));
          l[i] += hsum(p);
          wasm_v128_store(P + 4 * i, p);
        }
        const float *vp = Vr + kt * 4 * HS;
        for (int i = 0; i < 4; i++) {
          v128_t p0 = wasm_v128_load32_splat(P + 4 * i), p1 = wasm_v128_load32_splat(P + 4 * i + 1);
          v128_t p2 = wasm_v128_load32_splat(P + 4 * i + 2), p3 = wasm_v128_load32_splat(P + 4 * i + 3);
          for (int d = 0; d < HS; d += 4) {
            v128_t o = wasm_v128_load(O + i * HS + d);
            o = wasm_f32x4_add(o, wasm_f32x4_mul(p0, wasm_v128_load(vp + d)));
            o = wasm_f32x4_add(o, wasm_f32x4_mul(p1, wasm_v128_load(vp + HS + d)));
            o = wasm_f32x4_add(o, wasm_f32x4_mul(p2, wasm_v128_load(vp + 2 * HS + d)));
            o = wasm_f32x4_add(o, wasm_f32x4_mul(p3, wasm_v128_load(vp + 3 * HS + d)));
            wasm_v128_store(O + i * HS + d, o);
          }
        }
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
  float *dK = Kr + nk * 4 * HS, *dV = dK + nk * 4 * HS, *Q = dV + nk * 4 * HS, *dO = Q + 4 * HS, *dQ = dO + 4 * HS, *P = dQ + 4 * HS, *dS = P + 16;
  pack_tiles(k, Kt, b, hk, T, NKV, HS);
  pack_tiles(v, Vt, b, hk, T, NKV, HS);
  pack_rows(k, Kr, b, hk, T, NKV, HS, 1.0f);
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
        for (int kt = qd.lo >> 2; kt <= qd.hi >> 2; kt++) {
          const float *kp = Kt + kt * 4 * HS, *vp = Vt + kt * 4 * HS;
          int full = tile_unmasked(&qd, kt);
          for (int i = 0; i < 4; i++) {
            v128_t s = wasm_f32x4_splat(0.0f), dp = wasm_f32x4_splat(0.0f);
            for (int d = 0; d < HS; d++) {
              s = wasm_f32x4_add(s, wasm_f32x4_mul(wasm_v128_load32_splat(Q + i * HS + d), wasm_v128_load(kp + 4 * d)));
              dp = wasm_f32x4_add(dp, wasm_f32x4_mul(wasm_v128_load32_splat(dO + i * HS + d), wasm_v128_load(vp + 4 * d)));
            }
            if (!full) s = mask_row(s, &qd, i, segRow, kt, T);
            v128_t p = vexp(wasm_f32x4_sub(s, wasm_f32x4_splat(Lr[i])));
            wasm_v128_store(P + 4 * i, p);
            wasm_v128_store(dS + 4 * i, wasm_f32x4_mul(p, wasm_f32x4_sub(dp, wasm_f32x4_splat(Dr[i]))));
          }
          const float *kr = Kr + kt * 4 * HS;
          for (int i = 0; i < 4; i++) { // dQ_i += Σ_c dS[i][c] · K_c
            v128_t w0 = wasm_v128_load32_splat(dS + 4 * i), w1 = wasm_v128_load32_splat(dS + 4 * i + 1);
            v128_t w2 = wasm_v128_load32_splat(dS + 4 * i + 2), w3 = wasm_v128_load32_splat(dS + 4 * i + 3);
            for (int d = 0; d < HS; d += 4) {
              v128_t o = wasm_v128_load(dQ + i * HS + d);
              o = wasm_f32x4_add(o, wasm_f32x4_mul(w0, wasm_v128_load(kr + d)));
              o = wasm_f32x4_add(o, wasm_f32x4_mul(w1, wasm_v128_load(kr + HS + d)));
              o = wasm_f32x4_add(o, wasm_f32x4_mul(w2, wasm_v128_load(kr + 2 * HS + d)));
              o = wasm_f32x4_add(o, wasm_f32x4_mul(w3, wasm_v128_load(kr + 3 * HS + d)));
              wasm_v128_store(dQ + i * HS + d, o);
            }
          }
          for (int c = 0; c < 4; c++) { // dK_c += Σ_i dS[i][c] · Q_i;  dV_c += Σ_i P[i][c] · dO_i
            v128_t s0 = wasm_v128_load32_splat(dS + c), s1 = wasm_v128_load32_splat(dS + 4 + c);
            v128_t s2 = wasm_v128_load32_splat(dS + 8 + c), s3 = wasm_v128_load32_splat(dS + 12 + c);
            v128_t p0 = wasm_v128_load32_splat(P + c), p1 = wasm_v128_load32_splat(P + 4 + c);
            v128_t p2 = wasm_v128_load32_splat(P + 8 + c), p3 = wasm_v128_load32_splat(P + 12 + c);
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

// ---- logprobs (the math of reference/logprobs.ts), LP_ROWS rows per item. Forward: per row the
// max m, s = Σ e^(x−m) and sx = Σ e^(x−m)·(x−m), each summed in four lanes over j ≡ lane (mod 4)
// in order, then lane 0 + 1 + 2 + 3; the caller forms lse = m + log s, H = log s − sx/s and
// logp = x[t] − m − log s. Backward: dlogits = dlogp·(onehot − p) + dentropy·(−p·(log p + H)).
#define LP_ROWS 16
int lp_rows_per_item(void) { return LP_ROWS; }

/** args: logits, N, V, m, s, sx. */
void lp_fwd_item(int item, int tid, const int *args) {
  const float *x = PTR(const float, 0);
  int N = args[1], V = args[2];
  float *M = PTR(float, 3), *S = PTR(float, 4), *SX = PTR(float, 5);
  int V4 = V & ~3;
  for (int n = item * LP_ROWS; n < N && n < (item + 1) * LP_ROWS; n++) {
    const float *r = x + (long)n * V;
    v128_t mv = wasm_f32x4_splat(-__builtin_inff());
    for (int j = 0; j < V4; j += 4) mv = wasm_f32x4_max(mv, wasm_v128_load(r + j));
    float m = hmax(mv);
    for (int j = V4; j < V; j++) m = r[j] > m ? r[j] : m;
    v128_t mm = wasm_f32x4_splat(m), s = wasm_f32x4_splat(0.0f), sx = wasm_f32x4_splat(0.0f);
    for (int j = 0; j < V4; j += 4) {
      v128_t d = wasm_f32x4_sub(wasm_v128_load(r + j), mm), e = vexp(d);
      s = wasm_f32x4_add(s, e);
      sx = wasm_f32x4_add(sx, wasm_f32x4_mul(e, d));
    }
    float ss = hsum(s), ssx = hsum(sx);
    for (int j = V4; j < V; j++) {
      float d = r[j] - m, e = wasm_f32x4_extract_lane(vexp(wasm_f32x4_splat(d)), 0);
      ss += e;
      ssx += e * d;
    }
    M[n] = m;
    S[n] = ss;
    SX[n] = ssx;
  }
}

/** args: logits, targets, lse, entropy, dlogp, dentropy (0: none), out, N, V. */
void lp_bwd_item(int item, int tid, const int *args) {
  const float *x = PTR(const float, 0), *lse = PTR(const float, 2), *ent = PTR(const float, 3), *dlogp = PTR(const float, 4);
  const int *tg = PTR(const int, 1);
  const float *dent = args[5] ? PTR(const float, 5) : 0;
  float *y = PTR(float, 6);
  int N = args[7], V = args[8], V4 = V & ~3;
  for (int n = item * LP_ROWS; n < N && n < (item + 1) * LP_ROWS; n++) {
    const float *r = x + (long)n * V;
    float *w = y + (long)n * V;
    float L = lse[n], H = ent[n], gl = dlogp[n], gh = dent ? dent[n] : 0.0f;
    v128_t Lv = wasm_f32x4_splat(L), Hv = wasm_f32x4_splat(H), glv = wasm_f32x4_splat(-gl), ghv = wasm_f32x4_splat(gh);
    for (int j = 0; j < V4; j += 4) {
      v128_t lp = wasm_f32x4_sub(wasm_v128_load(r + j), Lv), p = vexp(lp);
      v128_t g = wasm_f32x4_mul(glv, p);
      if (gh != 0.0f) g = wasm_f32x4_sub(g, wasm_f32x4_mul(ghv, wasm_f32x4_mul(p, wasm_f32x4_add(lp, Hv))));
      wasm_v128_store(w + j, g);
    }
    for (int j = V4; j < V; j++) {
      float lp = r[j] - L, p = wasm_f32x4_extract_lane(vexp(wasm_f32x4_splat(lp)), 0);
      w[j] = -gl * p - gh * p * (lp + H);
    }
    int t = tg[n];
    if (t >= 0 && t < V) {
      float lp = r[t] - L, p = wasm_f32x4_extract_lane(vexp(wasm_f32x4_splat(lp)), 0);
      w[t] = gl * (1.0f - p) - gh * p * (lp + H);
    }
  }
}

// ---- SwiGLU and RMSNorm (the math of reference/swiglu.ts and rmsnorm.ts) in f32 lanes.
#define EW_ITEM 4096 // elements per SwiGLU item
#define RN_ROWS 64   // rows per RMSNorm item
int ew_per_item(void) { return EW_ITEM; }
int rn_rows_per_item(void) { return RN_ROWS; }

static inline v128_t vsigmoid(v128_t g) {
  v128_t one = wasm_f32x4_splat(1.0f);
  return wasm_f32x4_div(one, wasm_f32x4_add(one, vexp(wasm_f32x4_neg(g))));
}

/** h = silu(gate) · up. args: gate, up, h, n (a tail past a multiple of 4 is done lane by lane). */
void swiglu_item(int item, int tid, const int *args) {
  const float *gate = PTR(const float, 0), *up = PTR(const float, 1);
  float *h = PTR(float, 2);
  int n = args[3], i0 = item * EW_ITEM, i1 = i0 + EW_ITEM < n ? i0 + EW_ITEM : n, i = i0;
  for (; i + 4 <= i1; i += 4) {
    v128_t g = wasm_v128_load(gate + i);
    wasm_v128_store(h + i, wasm_f32x4_mul(wasm_f32x4_mul(g, vsigmoid(g)), wasm_v128_load(up + i)));
  }
  for (; i < i1; i++) {
    v128_t g = wasm_f32x4_splat(gate[i]);
    h[i] = wasm_f32x4_extract_lane(wasm_f32x4_mul(wasm_f32x4_mul(g, vsigmoid(g)), wasm_f32x4_splat(up[i])), 0);
  }
}

static inline void swiglu_bwd4(v128_t d, v128_t g, v128_t u, v128_t *dg, v128_t *du) {
  v128_t s = vsigmoid(g), one = wasm_f32x4_splat(1.0f);
  *dg = wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_mul(d, u), s), wasm_f32x4_add(one, wasm_f32x4_mul(g, wasm_f32x4_sub(one, s))));
  *du = wasm_f32x4_mul(wasm_f32x4_mul(d, g), s);
}

/** dgate = dh · up · σ(g) · (1 + g(1 − σ(g))), dup = dh · silu(g). args: dh, gate, up, dgate, dup, n. */
void swiglu_bwd_item(int item, int tid, const int *args) {
  const float *dh = PTR(const float, 0), *gate = PTR(const float, 1), *up = PTR(const float, 2);
  float *dgate = PTR(float, 3), *dup = PTR(float, 4);
  int n = args[5], i0 = item * EW_ITEM, i1 = i0 + EW_ITEM < n ? i0 + EW_ITEM : n, i = i0;
  v128_t dg, du;
  for (; i + 4 <= i1; i += 4) {
    swiglu_bwd4(wasm_v128_load(dh + i), wasm_v128_load(gate + i), wasm_v128_load(up + i), &dg, &du);
    wasm_v128_store(dgate + i, dg);
    wasm_v128_store(dup + i, du);
  }
  for (; i < i1; i++) {
    swiglu_bwd4(wasm_f32x4_splat(dh[i]), wasm_f32x4_splat(gate[i]), wasm_f32x4_splat(up[i]), &dg, &du);
    dgate[i] = wasm_f32x4_extract_lane(dg, 0);
    dup[i] = wasm_f32x4_extract_lane(du, 0);
  }
}

/** Σ_d a[d]·b[d]·c[d] (c may be 0: Σ a·b) in four lanes then lane order, then the tail. */
static inline float dot3(const float *a, const float *b, const float *c, int D) {
  v128_t s = wasm_f32x4_splat(0.0f);
  int d = 0;
  for (; d + 4 <= D; d += 4) {
    v128_t p = wasm_f32x4_mul(wasm_v128_load(a + d), wasm_v128_load(b + d));
    s = wasm_f32x4_add(s, c ? wasm_f32x4_mul(p, wasm_v128_load(c + d)) : p);
  }
  float r = hsum(s);
  for (; d < D; d++) r += a[d] * b[d] * (c ? c[d] : 1.0f);
  return r;
}

/** y = x · rstd · w, rstd = 1/√(mean(x²) + eps). args: x, w, y, rstd, R, D, eps bits. */
void rmsnorm_item(int item, int tid, const int *args) {
  const float *x = PTR(const float, 0), *w = PTR(const float, 1);
  float *y = PTR(float, 2), *rstd = PTR(float, 3);
  int R = args[4], D = args[5];
  float eps = f32_of(args[6]);
  for (int r = item * RN_ROWS; r < R && r < (item + 1) * RN_ROWS; r++) {
    const float *xr = x + (long)r * D;
    float *yr = y + (long)r * D;
    float rs = 1.0f / __builtin_sqrtf(dot3(xr, xr, 0, D) / D + eps);
    rstd[r] = rs;
    int d = 0;
    v128_t rv = wasm_f32x4_splat(rs);
    for (; d + 4 <= D; d += 4) wasm_v128_store(yr + d, wasm_f32x4_mul(wasm_f32x4_mul(wasm_v128_load(xr + d), rv), wasm_v128_load(w + d)));
    for (; d < D; d++) yr[d] = xr[d] * rs * w[d];
  }
}

/**
 * dx = rstd·w·dy − x·rstd³·(1/D)·Σ_j dy·w·x (= or += per accumulate); the item's partial dw
 * (Σ over its rows, in row order) goes to dwPart[item·D …]; the caller adds the partials in item
 * order. args: dy, x, w, rstd, dx, dwPart, R, D, accumulate.
 */
void rmsnorm_bwd_item(int item, int tid, const int *args) {
  const float *dy = PTR(const float, 0), *x = PTR(const float, 1), *w = PTR(const float, 2), *rstd = PTR(const float, 3);
  float *dx = PTR(float, 4), *dw = PTR(float, 5) + (long)item * args[7];
  int R = args[6], D = args[7], acc = args[8];
  for (int d = 0; d < D; d++) dw[d] = 0.0f;
  for (int r = item * RN_ROWS; r < R && r < (item + 1) * RN_ROWS; r++) {
    const float *dyr = dy + (long)r * D, *xr = x + (long)r * D;
    float *dxr = dx + (long)r * D;
    float rs = rstd[r], k = rs * rs * rs * dot3(dyr, w, xr, D) / D;
    for (int d = 0; d < D; d++) {
      float g = rs * w[d] * dyr[d] - xr[d] * k;
      dxr[d] = acc ? dxr[d] + g : g;
      dw[d] += dyr[d] * xr[d] * rs;
    }
  }
}

/**
 * Queries against a KV cache (decode when TQ = 1, chunked prefill otherwise), one item per (b, kv head
 * hk): its keys and values are packed once for the G query heads of the group, whose TQ·G rows
 * (r = i·G + g) are taken four at a time. Query i of sequence b sits at position len[b] − TQ + i and
 * sees cache positions ≤ its own (rows before position 0 give 0); each row's scores, online softmax
 * and P·V run over key tiles in order, alone, as in the forward.
 * args: q (B, TQ, NH, HS), kCache, vCache (B, S, NKV, HS), len (B), out (B, TQ, NH, HS), B, TQ, S, NH,
 * NKV, HS, scale bits, scratch base, scratch bytes.
 */
void attn_cached_item(int item, int tid, const int *args) {
  const float *q = PTR(const float, 0), *kc = PTR(const float, 1), *vc = PTR(const float, 2);
  const int *len = PTR(const int, 3);
  float *out = PTR(float, 4);
  int TQ = args[6], S = args[7], NH = args[8], NKV = args[9], HS = args[10];
  float scale = f32_of(args[11]);
  int b = item / NKV, hk = item % NKV, G = NH / NKV, n = len[b], nk = (n + 3) / 4;
  float *Kt = (float *)(long)(args[12] + tid * args[13]), *Vr = Kt + nk * 4 * HS, *Q = Vr + nk * 4 * HS, *O = Q + 4 * HS, *P = O + 4 * HS;
  // Keys and values of this sequence's first n positions: K as 4-key tiles, V as rows; zeros to the tile's end.
  for (int s = 0; s < n; s++) {
    float *kt = Kt + (s >> 2) * 4 * HS + (s & 3), *vr = Vr + s * HS;
    const float *ks = kc + ((long)(b * S + s) * NKV + hk) * HS, *vs = vc + ((long)(b * S + s) * NKV + hk) * HS;
    for (int d = 0; d < HS; d++) {
      kt[4 * d] = ks[d];
      vr[d] = vs[d];
    }
  }
  for (int s = n; s < nk * 4; s++) {
    float *kt = Kt + (s >> 2) * 4 * HS + (s & 3), *vr = Vr + s * HS;
    for (int d = 0; d < HS; d++) kt[4 * d] = vr[d] = 0.0f;
  }
  for (int r0 = 0; r0 < TQ * G; r0 += 4) {
    int rows = TQ * G - r0 < 4 ? TQ * G - r0 : 4, pos[4], head[4], qi[4], maxPos = -1, minPos = n;
    for (int i = 0; i < 4; i++) {
      qi[i] = (r0 + i) / G;
      head[i] = hk * G + (r0 + i) % G;
      pos[i] = i < rows ? n - TQ + qi[i] : -1;
      maxPos = pos[i] > maxPos ? pos[i] : maxPos;
      minPos = pos[i] < minPos ? pos[i] : minPos;
    }
    float m[4] = {-__builtin_inff(), -__builtin_inff(), -__builtin_inff(), -__builtin_inff()}, l[4] = {0, 0, 0, 0};
    for (int x = 0; x < 4 * HS; x += 4) wasm_v128_store(O + x, wasm_f32x4_splat(0.0f));
    for (int i = 0; i < rows; i++) {
      const float *src = q + ((long)(b * TQ + qi[i]) * NH + head[i]) * HS;
      for (int d = 0; d < HS; d++) Q[i * HS + d] = src[d] * scale;
    }
    for (int kt = 0; maxPos >= 0 && kt <= maxPos >> 2; kt++) {
      const float *kp = Kt + kt * 4 * HS, *vp = Vr + kt * 4 * HS;
      int full = minPos >= 0 && 4 * kt + 3 <= minPos;
      for (int i = 0; i < rows; i++) {
        if (pos[i] < 0) continue;
        v128_t s = wasm_f32x4_splat(0.0f);
        for (int d = 0; d < HS; d++) s = wasm_f32x4_add(s, wasm_f32x4_mul(wasm_v128_load32_splat(Q + i * HS + d), wasm_v128_load(kp + 4 * d)));
        if (!full) {
          int s0 = 4 * kt, p = pos[i];
          v128_t keep = wasm_i32x4_make(-(s0 <= p), -(s0 + 1 <= p), -(s0 + 2 <= p), -(s0 + 3 <= p));
          s = wasm_v128_bitselect(s, wasm_f32x4_splat(-__builtin_inff()), keep);
        }
        float mx = hmax(s);
        if (mx > m[i]) {
          float alpha = wasm_f32x4_extract_lane(vexp(wasm_f32x4_splat(m[i] - mx)), 0);
          l[i] *= alpha;
          v128_t av = wasm_f32x4_splat(alpha);
          for (int d = 0; d < HS; d += 4) wasm_v128_store(O + i * HS + d, wasm_f32x4_mul(wasm_v128_load(O + i * HS + d), av));
          m[i] = mx;
        }
        v128_t p = m[i] == -__builtin_inff() ? wasm_f32x4_splat(0.0f) : vexp(wasm_f32x4_sub(s, wasm_f32x4_splat(m[i])));
        l[i] += hsum(p);
        wasm_v128_store(P + 4 * i, p);
        v128_t p0 = wasm_v128_load32_splat(P + 4 * i), p1 = wasm_v128_load32_splat(P + 4 * i + 1);
        v128_t p2 = wasm_v128_load32_splat(P + 4 * i + 2), p3 = wasm_v128_load32_splat(P + 4 * i + 3);
        for (int d = 0; d < HS; d += 4) {
          v128_t o = wasm_v128_load(O + i * HS + d);
          o = wasm_f32x4_add(o, wasm_f32x4_mul(p0, wasm_v128_load(vp + d)));
          o = wasm_f32x4_add(o, wasm_f32x4_mul(p1, wasm_v128_load(vp + HS + d)));
          o = wasm_f32x4_add(o, wasm_f32x4_mul(p2, wasm_v128_load(vp + 2 * HS + d)));
          o = wasm_f32x4_add(o, wasm_f32x4_mul(p3, wasm_v128_load(vp + 3 * HS + d)));
          wasm_v128_store(O + i * HS + d, o);
        }
      }
    }
    for (int i = 0; i < rows; i++) {
      float *dst = out + ((long)(b * TQ + qi[i]) * NH + head[i]) * HS;
      float inv = pos[i] >= 0 ? 1.0f / l[i] : 0.0f;
      for (int d = 0; d < HS; d++) dst[d] = O[i * HS + d] * inv;
    }
  }
}

// ---- The CPU roofline of `webswe bench kernels`: 12 independent f32x4 multiply-add chains held in
// registers (no memory traffic), each step a mul and an add per chain — the matmul kernel's
// instruction mix at its best. args: steps, out (one float per item, so the work is not dropped).
void peak_item(int item, int tid, const int *args) {
  int steps = args[0];
  float *out = PTR(float, 1);
  v128_t m = wasm_f32x4_splat(0.999999f), a = wasm_f32x4_splat(1e-7f);
  v128_t c0 = wasm_f32x4_splat(item), c1 = wasm_f32x4_splat(1), c2 = wasm_f32x4_splat(2), c3 = wasm_f32x4_splat(3);
  v128_t c4 = wasm_f32x4_splat(4), c5 = wasm_f32x4_splat(5), c6 = wasm_f32x4_splat(6), c7 = wasm_f32x4_splat(7);
  v128_t c8 = wasm_f32x4_splat(8), c9 = wasm_f32x4_splat(9), c10 = wasm_f32x4_splat(10), c11 = wasm_f32x4_splat(11);
  for (int i = 0; i < steps; i++) {
    c0 = wasm_f32x4_add(wasm_f32x4_mul(c0, m), a); c1 = wasm_f32x4_add(wasm_f32x4_mul(c1, m), a);
    c2 = wasm_f32x4_add(wasm_f32x4_mul(c2, m), a); c3 = wasm_f32x4_add(wasm_f32x4_mul(c3, m), a);
    c4 = wasm_f32x4_add(wasm_f32x4_mul(c4, m), a); c5 = wasm_f32x4_add(wasm_f32x4_mul(c5, m), a);
    c6 = wasm_f32x4_add(wasm_f32x4_mul(c6, m), a); c7 = wasm_f32x4_add(wasm_f32x4_mul(c7, m), a);
    c8 = wasm_f32x4_add(wasm_f32x4_mul(c8, m), a); c9 = wasm_f32x4_add(wasm_f32x4_mul(c9, m), a);
    c10 = wasm_f32x4_add(wasm_f32x4_mul(c10, m), a); c11 = wasm_f32x4_add(wasm_f32x4_mul(c11, m), a);
  }
  v128_t s = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(c0, c1), wasm_f32x4_add(c2, c3)), wasm_f32x4_add(wasm_f32x4_add(c4, c5), wasm_f32x4_add(c6, c7)));
  s = wasm_f32x4_add(s, wasm_f32x4_add(wasm_f32x4_add(c8, c9), wasm_f32x4_add(c10, c11)));
  out[item] = hsum(s);
}
