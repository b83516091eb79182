// matmul_rows: matmul.wgsl's product for few rows (decoding: M = the rows being generated), with the
//   same bits. C (=|+=) op(A) · op(B) (+ bias), op(A): (M, K), op(B): (K, N), C: (M, N), f32; each
//   operand a block of a row-major matrix in its binding, element (r, c) at off + r·ld + c.
//   Every element is matmul.wgsl's sum: acc = fma(a_k, b_k, acc) over k = 0, 1, …, K − 1 in order from
//   0, then v = acc + bias (0 without), then v += c (ACCUMULATE). So a row's product does not depend on
//   which kernel ran or which rows ran beside it (the KV generator's packed, padded and one-step paths
//   and a cohort kept to its live rows give the same tokens).
//   matmul.wgsl computes a 64 × 64 tile per workgroup: for M = 1 it does 64 rows of arithmetic to keep
//   one. Here a workgroup covers 4 rows × 256 columns, so the arithmetic done is ceil(M/4)·4 rows.
// Bindings (group 0):
//   0 a      storage read        f32  (M, K) row-major, or (K, M) when TRANS_A (row stride lda)
//   1 b      storage read        f32  (K, N) row-major, or (N, K) when TRANS_B (row stride ldb)
//   2 bias   storage read        f32  (N) from offBias; read only when HAS_BIAS (bind any buffer otherwise)
//   3 c      storage read_write  f32  (M, N) (row stride ldc)
//   4 params uniform            Params
// Work: invocation x of workgroup (wx, wy) computes rows 4·wy .. 4·wy + 3 × columns 4·(64·wx + x) .. + 3
//   (vec4 accumulators, no workgroup memory, no barriers). Rows and columns past the edge read the
//   last row or column instead (their sums are never written), so the loop has no bounds tests.
//   4 columns an invocation reuse each A load 4 times: on SwiftShader 2.2× the speed of one column an
//   invocation at 4 × 896 × 896, which has 4× the invocations for a big GPU's narrow products (N/4 here).
//   Which is better on a real GPU is not measured yet (`bench kernels --shapes large`: vs_tile).
// Dispatch (ceil(N / 256), ceil(M / 4), 1).
// Writes `=` by default, `+=` when ACCUMULATE. Any M, N, K ≥ 1; one matrix (no batch).

struct Params {
  M: u32,
  N: u32,
  K: u32,
  lda: u32,      // elements between stored rows of a (K, or M when TRANS_A)
  ldb: u32,      // elements between stored rows of b (N, or K when TRANS_B)
  ldc: u32,      // elements between rows of c
  offA: u32,     // element of a, b, c, bias where the block starts
  offB: u32,
  offC: u32,
  offBias: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read> bias: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;

override TRANS_A: bool = false;
override TRANS_B: bool = false;
override HAS_BIAS: bool = false;
override ACCUMULATE: bool = false;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let M = params.M;
  let N = params.N;
  let K = params.K;
  let row0 = wid.y * 4u;
  let col = (wid.x * 64u + lid.x) * 4u;
  if (col >= N) { return; }
  // Element (m, k) of op(A) is at aRow[m] + k·aStep; (k, n) of op(B) at bCol[n] + k·bStep.
  var aRow: vec4<u32>;
  var bCol: vec4<u32>;
  for (var i = 0u; i < 4u; i++) {
    let m = min(row0 + i, M - 1u);
    let n = min(col + i, N - 1u);
    if (TRANS_A) { aRow[i] = params.offA + m; } else { aRow[i] = params.offA + m * params.lda; }
    if (TRANS_B) { bCol[i] = params.offB + n * params.ldb; } else { bCol[i] = params.offB + n; }
  }
  var aStep = 1u;
  if (TRANS_A) { aStep = params.lda; }
  var bStep = params.ldb;
  if (TRANS_B) { bStep = 1u; }

  var acc: array<vec4<f32>, 4>;
  for (var k = 0u; k < K; k++) {
    let av = vec4(a[aRow.x + k * aStep], a[aRow.y + k * aStep], a[aRow.z + k * aStep], a[aRow.w + k * aStep]);
    let bv = vec4(b[bCol.x + k * bStep], b[bCol.y + k * bStep], b[bCol.z + k * bStep], b[bCol.w + k * bStep]);
    acc[0] = fma(vec4(av.x), bv, acc[0]);
    acc[1] = fma(vec4(av.y), bv, acc[1]);
    acc[2] = fma(vec4(av.z), bv, acc[2]);
    acc[3] = fma(vec4(av.w), bv, acc[3]);
  }

  var bv = vec4(0.0);
  if (HAS_BIAS) {
    for (var j = 0u; j < 4u; j++) { if (col + j < N) { bv[j] = bias[params.offBias + col + j]; } }
  }
  for (var i = 0u; i < 4u; i++) {
    let r = row0 + i;
    if (r >= M) { break; }
    let o = params.offC + r * params.ldc + col;
    for (var j = 0u; j < 4u; j++) {
      if (col + j >= N) { break; }
      var v = acc[i][j] + bv[j];
      if (ACCUMULATE) { v += c[o + j]; }
      c[o + j] = v;
    }
  }
}
