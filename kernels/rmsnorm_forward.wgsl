// rmsnorm_forward: y[r, :] = x[r, :] · rstd[r] · w, rstd[r] = 1 / sqrt(mean_d x[r, d]² + eps).
//   Rows are every index but the last: (N, C) for the residual stream, (N·NH, HS) for Qwen3's
//   per-head q/k norm.
// Bindings (group 0):
//   0 x      storage read        f32  (R, D)
//   1 x4     storage read        vec4<f32> x seen as (R·D / 4); read only when VEC4
//   2 w      storage read        f32  (D)
//   3 w4     storage read        vec4<f32> w seen as (D / 4); read only when VEC4
//   4 y      storage read_write  f32  (R, D)
//   5 rstd   storage read_write  f32  (R)
//   6 params uniform            Params
// Work: workgroups of 64 invocations, TPR (override, a power of two ≤ 64) per row, 64 / TPR rows per
//   workgroup. Lane i of a row owns the contiguous columns [i·c, (i+1)·c) (c = ceil(D / TPR) rounded up
//   to 4), read in groups of 4 (one vec4 load when VEC4: D % 4 = 0): Σ x² over its chunk; after the one
//   barrier every lane adds the row's TPR partials in lane order (workgroup memory 256 B), then writes
//   its chunk of y.
// Dispatch (min(W, 65535), ceil(W / 65535)), W = ceil(R·TPR / 64): first row of a workgroup =
//   (wid.y · num_workgroups.x + wid.x) · 64 / TPR.
// Writes `=` (y and rstd). Limits: R·D < 2^32; f32 sum of squares (|x| up to ~1e17 before overflow).

struct Params {
  R: u32,
  D: u32,
  eps: f32,
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read> x4: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> w: array<f32>;
@group(0) @binding(3) var<storage, read> w4: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;
@group(0) @binding(5) var<storage, read_write> rstd: array<f32>;
@group(0) @binding(6) var<uniform> params: Params;

override TPR: u32 = 1u;
override VEC4: bool = false;

const WG: u32 = 64u;
var<workgroup> partial: array<f32, WG>;

// x[e..e+3] and w[c..c+3] (e = row base + c, c 4-aligned); entries at or past column D read as 0.
fn loadX(e: u32, c: u32) -> vec4<f32> {
  if (VEC4) { return x4[e / 4u]; }
  var v = vec4(0.0);
  for (var k = 0u; k < 4u; k++) { if (c + k < params.D) { v[k] = x[e + k]; } }
  return v;
}
fn loadW(c: u32) -> vec4<f32> {
  if (VEC4) { return w4[c / 4u]; }
  var v = vec4(0.0);
  for (var k = 0u; k < 4u; k++) { if (c + k < params.D) { v[k] = w[c + k]; } }
  return v;
}

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = (wid.y * nwg.x + wid.x) * (WG / TPR) + li / TPR;
  let lane = li % TPR;
  let D = params.D;
  let chunk = ((D + TPR - 1u) / TPR + 3u) / 4u * 4u;
  let c0 = min(lane * chunk, D);
  var c1 = min(c0 + chunk, D);
  if (r >= params.R) { c1 = c0; }                               // surplus rows: empty chunks
  let o = r * D;
  var ss = vec4(0.0);
  for (var c = c0; c < c1; c += 4u) {
    let v = loadX(o + c, c);
    ss = fma(v, v, ss);
  }
  partial[li] = (ss.x + ss.y) + (ss.z + ss.w);
  workgroupBarrier();
  if (r >= params.R) { return; }
  var sum = 0.0;
  for (var k = li - lane; k < li - lane + TPR; k++) { sum += partial[k]; }
  let rs = inverseSqrt(sum / f32(D) + params.eps);
  if (lane == 0u) { rstd[r] = rs; }
  for (var c = c0; c < c1; c += 4u) {
    let v = loadX(o + c, c) * rs * loadW(c);
    for (var k = 0u; k < 4u; k++) { if (c + k < c1) { y[o + c + k] = v[k]; } }
  }
}
