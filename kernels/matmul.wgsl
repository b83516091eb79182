// matmul: C[b] (=|+=) op(A[b]) · op(B[b]) (+ bias), op(X) = X or Xᵀ per TRANS_A / TRANS_B.
//   op(A): (M, K), op(B): (K, N), C: (M, N); f32 in, f32 accumulate, f32 out. Each operand is a
//   block of a larger row-major matrix in its binding: element (r, c) of the stored block is at
//   off + r·ld + c (a tensor split across buffers is multiplied block by block: src/ops/matmul.ts).
// Bindings (group 0):
//   0 a      storage read        f32  (B?, M, K) row-major, or (B?, K, M) when TRANS_A (row stride lda)
//   1 b      storage read        f32  (B?, K, N) row-major, or (B?, N, K) when TRANS_B (row stride ldb); batch stride 0 broadcasts
//   2 bias   storage read        f32  (N) from offBias; read only when HAS_BIAS (bind any buffer otherwise)
//   3 c      storage read_write  f32  (B, M, N) (row stride ldc)
//   4 params uniform            Params
// Work: one workgroup of 16×16 invocations computes a 64×64 tile of C; invocation (tx, ty) computes
//   the 4×4 block at rows 4ty.., cols 4tx.., with vec4 accumulators. Each K step stages a 64×BK panel
//   of A and a BK×64 panel of B in workgroup memory as vec4s along M and N (2·BK·64·4 B = 16 KiB),
//   so the inner loop does 2 vec4 loads per 4 vec4 FMAs. Dispatch (ceil(N/64), ceil(M/64), B).
// Writes `=` by default, `+=` when ACCUMULATE (gradient accumulation). Any M, N, K ≥ 1 (edges masked);
//   B ≤ 65535 (workgroups per dimension).

struct Params {
  M: u32,
  N: u32,
  K: u32,
  strideA: u32,  // elements between batches of a
  strideB: u32,  // elements between batches of b (0: broadcast)
  strideC: u32,  // elements between batches of c
  lda: u32,      // elements between stored rows of a (K, or M when TRANS_A, for a whole matrix)
  ldb: u32,      // elements between stored rows of b (N, or K when TRANS_B)
  ldc: u32,      // elements between rows of c (N)
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

const TILE: u32 = 64u;
const BK: u32 = 32u;

var<workgroup> As: array<vec4<f32>, 512>;  // [BK][TILE/4]: As[k * 16 + m/4][m % 4]
var<workgroup> Bs: array<vec4<f32>, 512>;  // [BK][TILE/4]: Bs[k * 16 + n/4][n % 4]

fn loadA(base: u32, m: u32, k: u32) -> f32 {
  if (m >= params.M || k >= params.K) { return 0.0; }
  if (TRANS_A) { return a[base + k * params.lda + m]; }
  return a[base + m * params.lda + k];
}

fn loadB(base: u32, k: u32, n: u32) -> f32 {
  if (n >= params.N || k >= params.K) { return 0.0; }
  if (TRANS_B) { return b[base + n * params.ldb + k]; }
  return b[base + k * params.ldb + n];
}

@compute @workgroup_size(16, 16, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let M = params.M;
  let N = params.N;
  let row0 = wid.y * TILE;
  let col0 = wid.x * TILE;
  let aBase = params.offA + wid.z * params.strideA;
  let bBase = params.offB + wid.z * params.strideB;
  let flat = lid.y * 16u + lid.x;

  var acc: array<vec4<f32>, 4>;
  for (var k0 = 0u; k0 < params.K; k0 += BK) {
    // Stage: 512 vec4 slots per panel, 2 per invocation. Slot s = (k, q): k = s / 16, q = s % 16
    // holds rows/cols 4q..4q+3 at depth k; element order follows the contiguous global axis.
    for (var i = 0u; i < 2u; i++) {
      let s = flat + i * 256u;
      var k: u32; var q: u32;
      if (TRANS_A) { q = s % 16u; k = s / 16u; } else { k = s % BK; q = s / BK; }
      let m = row0 + 4u * q;
      As[k * 16u + q] = vec4(loadA(aBase, m, k0 + k), loadA(aBase, m + 1u, k0 + k), loadA(aBase, m + 2u, k0 + k), loadA(aBase, m + 3u, k0 + k));
      if (TRANS_B) { k = s % BK; q = s / BK; } else { q = s % 16u; k = s / 16u; }
      let n = col0 + 4u * q;
      Bs[k * 16u + q] = vec4(loadB(bBase, k0 + k, n), loadB(bBase, k0 + k, n + 1u), loadB(bBase, k0 + k, n + 2u), loadB(bBase, k0 + k, n + 3u));
    }
    workgroupBarrier();
    for (var k = 0u; k < BK; k++) {
      let av = As[k * 16u + lid.y];
      let bv = Bs[k * 16u + lid.x];
      acc[0] = fma(vec4(av.x), bv, acc[0]);
      acc[1] = fma(vec4(av.y), bv, acc[1]);
      acc[2] = fma(vec4(av.z), bv, acc[2]);
      acc[3] = fma(vec4(av.w), bv, acc[3]);
    }
    workgroupBarrier();
  }

  let col = col0 + 4u * lid.x;
  var bv = vec4(0.0);
  if (HAS_BIAS) {
    for (var j = 0u; j < 4u; j++) { if (col + j < N) { bv[j] = bias[params.offBias + col + j]; } }
  }
  for (var i = 0u; i < 4u; i++) {
    let r = row0 + 4u * lid.y + i;
    if (r >= M) { break; }
    let o = params.offC + wid.z * params.strideC + r * params.ldc + col;
    for (var j = 0u; j < 4u; j++) {
      if (col + j >= N) { break; }
      var v = acc[i][j] + bv[j];
      if (ACCUMULATE) { v += c[o + j]; }
      c[o + j] = v;
    }
  }
}
