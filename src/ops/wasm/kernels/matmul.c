// The WASM SIMD backend's matmul work items for every layout of
// matmul.shape.ts, compiled to wasm32 with 128-bit SIMD by scripts/build-wasm.mjs (Debian's clang and
// wasm-ld). Every instance of the module shares one linear memory (threads.ts): the caller lays out
// the operands and a per-thread scratch area, then each thread runs whole work items. An item owns
// a block of output elements and sums each of them alone, in k order, in f32 — the same order
// whatever thread runs it and however many threads there are, so results are bitwise the same for
// any thread count. Each instance's __stack_pointer is exported and set by threads.ts to a stack of
// its own (the shadow stack holds the few local arrays below).
#include "common.h"

#define MR 4   // micro-tile rows (A values splatted per k)
#define NR 8   // micro-tile columns (two f32x4 of B per k)
#define MC 64  // rows per work item
#define NC 64  // columns per work item (a multiple of NR)
#define KC 256 // depth per packed block: A block (MC·KC) + B block (KC·NC) = 128 KiB, within L2

/** Floats of scratch one matmul thread needs: packed A (MC·KC), packed B (KC·NC), accumulators (MC·NC). */
int mm_scratch_floats(void) { return MC * KC + KC * NC + MC * NC; }
int mm_rows_per_item(void) { return MC; }
int mm_cols_per_item(void) { return NC; }

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

