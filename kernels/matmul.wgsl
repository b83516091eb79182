// matmul: C[b] (=|+=) op(A[b]) · op(B[b]) (+ bias), op(X) = X or Xᵀ per TRANS_A / TRANS_B.
//   op(A): (M, K), op(B): (K, N), C: (M, N); f32 in, f32 accumulate, f32 out.
// Bindings (group 0):
//   0 a      storage read        f32  (B?, M, K) row-major, or (B?, K, M) when TRANS_A
//   1 b      storage read        f32  (B?, K, N) row-major, or (B?, N, K) when TRANS_B; batch stride 0 broadcasts
//   2 bias   storage read        f32  (N); read only when HAS_BIAS (bind any buffer otherwise)
//   3 c      storage read_write  f32  (B, M, N)
//   4 params uniform            Params
// Work: one workgroup of 16×16 invocations computes a 64×64 tile of C; one invocation computes
//   4×4 outputs strided by 16 (rows ty+16i, cols tx+16j), staging 64×16 panels of A and B in
//   workgroup memory (8 KiB). Dispatch (ceil(N/64), ceil(M/64), B).
// Writes `=` by default, `+=` when ACCUMULATE (gradient accumulation). Any M, N, K ≥ 1 (edges masked);
//   B ≤ 65535 (workgroups per dimension).

struct Params {
  M: u32,
  N: u32,
  K: u32,
  strideA: u32,  // elements between batches of a
  strideB: u32,  // elements between batches of b (0: broadcast)
  strideC: u32,  // elements between batches of c
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
const BK: u32 = 16u;

var<workgroup> As: array<f32, 1024>;  // [BK][TILE]: As[k * TILE + m]
var<workgroup> Bs: array<f32, 1024>;  // [BK][TILE]: Bs[k * TILE + n]

@compute @workgroup_size(16, 16, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let M = params.M;
  let N = params.N;
  let K = params.K;
  let row0 = wid.y * TILE;
  let col0 = wid.x * TILE;
  let aBase = wid.z * params.strideA;
  let bBase = wid.z * params.strideB;
  let flat = lid.y * 16u + lid.x;

  var acc: array<array<f32, 4>, 4>;
  for (var k0 = 0u; k0 < K; k0 += BK) {
    // Stage the panels; the index order keeps global reads contiguous for each layout.
    for (var i = 0u; i < 4u; i++) {
      let idx = flat + i * 256u;
      var m: u32; var ka: u32;
      if (TRANS_A) { m = idx % TILE; ka = idx / TILE; } else { ka = idx % BK; m = idx / BK; }
      let gm = row0 + m;
      let gka = k0 + ka;
      var av = 0.0;
      if (gm < M && gka < K) {
        if (TRANS_A) { av = a[aBase + gka * M + gm]; } else { av = a[aBase + gm * K + gka]; }
      }
      As[ka * TILE + m] = av;

      var n: u32; var kb: u32;
      if (TRANS_B) { kb = idx % BK; n = idx / BK; } else { n = idx % TILE; kb = idx / TILE; }
      let gn = col0 + n;
      let gkb = k0 + kb;
      var bv = 0.0;
      if (gn < N && gkb < K) {
        if (TRANS_B) { bv = b[bBase + gn * K + gkb]; } else { bv = b[bBase + gkb * N + gn]; }
      }
      Bs[kb * TILE + n] = bv;
    }
    workgroupBarrier();
    for (var k = 0u; k < BK; k++) {
      var ar: array<f32, 4>;
      var br: array<f32, 4>;
      for (var i = 0u; i < 4u; i++) { ar[i] = As[k * TILE + lid.y + 16u * i]; }
      for (var j = 0u; j < 4u; j++) { br[j] = Bs[k * TILE + lid.x + 16u * j]; }
      for (var i = 0u; i < 4u; i++) {
        for (var j = 0u; j < 4u; j++) { acc[i][j] = fma(ar[i], br[j], acc[i][j]); }
      }
    }
    workgroupBarrier();
  }

  for (var i = 0u; i < 4u; i++) {
    let r = row0 + lid.y + 16u * i;
    if (r >= M) { continue; }
    for (var j = 0u; j < 4u; j++) {
      let col = col0 + lid.x + 16u * j;
      if (col >= N) { continue; }
      var v = acc[i][j];
      if (HAS_BIAS) { v += bias[col]; }
      let o = wid.z * params.strideC + r * N + col;
      if (ACCUMULATE) { v += c[o]; }
      c[o] = v;
    }
  }
}
