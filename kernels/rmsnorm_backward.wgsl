// rmsnorm_backward: dx[r, d] = rstd·w[d]·dy[r, d] − x[r, d]·rstd³·(1/D)·Σ_j dy[r, j]·w[j]·x[r, j],
//   rstd from the forward. dw is reduced apart, deterministically (rmsnorm_dw, then col_sum).
// Bindings (group 0):
//   0 dy     storage read        f32  (R, D)
//   1 x      storage read        f32  (R, D)
//   2 w      storage read        f32  (D)
//   3 rstd   storage read        f32  (R)
//   4 dx     storage read_write  f32  (R, D)
//   5 params uniform            Params
// Work: one workgroup of 64 invocations per row; invocation i sums dy·w·x over columns i, i+64, …,
//   a fixed tree over the 64 partials in workgroup memory (256 B) gives the row's dot product,
//   then each invocation writes its columns of dx.
// Dispatch (min(R, 65535), ceil(R / 65535)): row r = wid.y · num_workgroups.x + wid.x.
// Writes `=` by default, `+=` when ACCUMULATE (dx into an existing gradient). Limits: R·D < 2^32.

struct Params {
  R: u32,
  D: u32,
}

@group(0) @binding(0) var<storage, read> dy: array<f32>;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<f32>;
@group(0) @binding(3) var<storage, read> rstd: array<f32>;
@group(0) @binding(4) var<storage, read_write> dx: array<f32>;
@group(0) @binding(5) var<uniform> params: Params;

override ACCUMULATE: bool = false;

const WG: u32 = 64u;
var<workgroup> partial: array<f32, WG>;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = wid.y * nwg.x + wid.x;
  if (r >= params.R) { return; }  // uniform across the workgroup
  let D = params.D;
  let o = r * D;
  var dot = 0.0;
  for (var d = lid.x; d < D; d += WG) { dot = fma(dy[o + d] * w[d], x[o + d], dot); }
  partial[lid.x] = dot;
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride /= 2u) {
    if (lid.x < stride) { partial[lid.x] += partial[lid.x + stride]; }
    workgroupBarrier();
  }
  let rs = rstd[r];
  let k = rs * rs * rs * partial[0] / f32(D);
  for (var d = lid.x; d < D; d += WG) {
    var g = rs * w[d] * dy[o + d] - x[o + d] * k;
    if (ACCUMULATE) { g += dx[o + d]; }
    dx[o + d] = g;
  }
}
