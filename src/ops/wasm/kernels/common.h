// Shared by the WASM kernels (kernels/*.c, one file per op family, built into one module by
// scripts/build-wasm.mjs): the entry-point convention, and the f32-lane helpers (exp, horizontal max
// and sum).
#pragma once
#include <wasm_simd128.h>

// Every op's entry point is `op_item(item, tid, args)`: the item to run, the thread running it (it
// picks the thread's scratch), and the op's arguments as i32 words in memory (pointers are byte
// addresses; floats travel as their bits).
#define PTR(T, i) ((T *)(long)args[i])
static inline float f32_of(int bits) { return __builtin_bit_cast(float, bits); }

/** Ap[ip][k][r] = A(i0 + ip·MR + r, k0 + k), zero past mc. A(i, k) = a[i·K + k], or a[k·M + i] when transA. */
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
