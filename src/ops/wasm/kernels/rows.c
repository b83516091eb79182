// WASM kernels by rows: log-softmax forward/backward, SwiGLU and RMSNorm forward/backward.
#include "common.h"

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

