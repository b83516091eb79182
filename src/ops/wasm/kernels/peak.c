// WASM kernels: the SIMD peak and the read bandwidth of the CPU roofline.
#include "common.h"

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

// ---- The read bandwidth of the CPU roofline: item i sums floats [i·n, (i+1)·n) of a buffer far larger than
// the caches with four f32x4 accumulators, every float read once (a decode step's access to the weights).
// args: n (floats an item, a multiple of 16), x, out (one float per item, so the reads are not dropped).
void stream_item(int item, int tid, const int *args) {
  int n = args[0];
  const float *x = PTR(const float, 1) + (long)item * n;
  float *out = PTR(float, 2);
  v128_t s0 = wasm_f32x4_splat(0), s1 = s0, s2 = s0, s3 = s0;
  for (int i = 0; i < n; i += 16) {
    s0 = wasm_f32x4_add(s0, wasm_v128_load(x + i)); s1 = wasm_f32x4_add(s1, wasm_v128_load(x + i + 4));
    s2 = wasm_f32x4_add(s2, wasm_v128_load(x + i + 8)); s3 = wasm_f32x4_add(s3, wasm_v128_load(x + i + 12));
  }
  out[item] = hsum(wasm_f32x4_add(wasm_f32x4_add(s0, s1), wasm_f32x4_add(s2, s3)));
}
