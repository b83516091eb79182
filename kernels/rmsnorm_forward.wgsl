// rmsnorm_forward: y[r, :] = x[r, :] · rstd[r] · w, rstd[r] = 1 / sqrt(mean_d x[r, d]² + eps).
//   Rows are every index but the last: (N, C) for the residual stream, (N·NH, HS) for Qwen3's
//   per-head q/k norm.
// Bindings (group 0):
//   0 x      storage read        f32  (R, D)
//   1 w      storage read        f32  (D)
//   2 y      storage read_write  f32  (R, D)
//   3 rstd   storage read_write  f32  (R)
//   4 params uniform            Params
// Work: one workgroup of 64 invocations per row; invocation i sums x² over columns i, i+64, …,
//   then a fixed tree over the 64 partials in workgroup memory (256 B) gives the row sum.
// Dispatch (min(R, 65535), ceil(R / 65535)): row r = wid.y · num_workgroups.x + wid.x.
// Writes `=` (y and rstd). Limits: R·D < 2^32; f32 sum of squares (|x| up to ~1e17 before overflow).

struct Params {
  R: u32,
  D: u32,
  eps: f32,
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read> w: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;
@group(0) @binding(3) var<storage, read_write> rstd: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;

const WG: u32 = 64u;
var<workgroup> partial: array<f32, WG>;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = wid.y * nwg.x + wid.x;
  if (r >= params.R) { return; }  // uniform across the workgroup
  let D = params.D;
  let o = r * D;
  var ss = 0.0;
  for (var d = lid.x; d < D; d += WG) {
    let v = x[o + d];
    ss = fma(v, v, ss);
  }
  partial[lid.x] = ss;
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride /= 2u) {
    if (lid.x < stride) { partial[lid.x] += partial[lid.x + stride]; }
    workgroupBarrier();
  }
  let rs = inverseSqrt(partial[0] / f32(D) + params.eps);
  if (lid.x == 0u) { rstd[r] = rs; }
  for (var d = lid.x; d < D; d += WG) { y[o + d] = x[o + d] * rs * w[d]; }
}
