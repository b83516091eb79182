// rmsnorm_backward: dx[r, d] = rstd·w[d]·dy[r, d] − x[r, d]·rstd³·(1/D)·Σ_j dy[r, j]·w[j]·x[r, j],
//   rstd from the forward. dw is reduced apart, deterministically (rmsnorm_dw, then col_sum).
// Bindings (group 0):
//   0 dy     storage read        f32  (R, D)
//   1 x      storage read        f32  (R, D)
//   2 w      storage read        f32  (D)
//   3 rstd   storage read        f32  (R)
//   4 dx     storage read_write  f32  (R, D)
//   5 dy4    storage read        vec4<f32> dy seen as (R·D / 4); read only when VEC4
//   6 x4     storage read        vec4<f32> x seen as (R·D / 4); read only when VEC4
//   7 w4     storage read        vec4<f32> w seen as (D / 4); read only when VEC4
//   8 params uniform            Params
// Work: as rmsnorm_forward: TPR (override) lanes per row, 64 / TPR rows per workgroup, lane i owns
//   the contiguous columns [i·c, (i+1)·c) in groups of 4 (vec4 loads when VEC4: D % 4 = 0): Σ dy·w·x
//   over its chunk; after the one barrier every lane adds the row's TPR partials in lane order
//   (workgroup memory 256 B), then writes its chunk of dx.
// Dispatch (min(W, 65535), ceil(W / 65535)), W = ceil(R·TPR / 64), rows as in rmsnorm_forward.
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
@group(0) @binding(5) var<storage, read> dy4: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read> x4: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read> w4: array<vec4<f32>>;
@group(0) @binding(8) var<uniform> params: Params;

override TPR: u32 = 1u;
override VEC4: bool = false;
override ACCUMULATE: bool = false;

const WG: u32 = 64u;
var<workgroup> partial: array<f32, WG>;

// Columns c..c+3 (4-aligned) of row base o of dy, x, or of w; entries at or past column D read as 0.
fn loadDy(o: u32, c: u32) -> vec4<f32> {
  if (VEC4) { return dy4[(o + c) / 4u]; }
  var v = vec4(0.0);
  for (var k = 0u; k < 4u; k++) { if (c + k < params.D) { v[k] = dy[o + c + k]; } }
  return v;
}
fn loadX(o: u32, c: u32) -> vec4<f32> {
  if (VEC4) { return x4[(o + c) / 4u]; }
  var v = vec4(0.0);
  for (var k = 0u; k < 4u; k++) { if (c + k < params.D) { v[k] = x[o + c + k]; } }
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
  var dot4 = vec4(0.0);
  for (var c = c0; c < c1; c += 4u) { dot4 = fma(loadDy(o, c) * loadW(c), loadX(o, c), dot4); }
  partial[li] = (dot4.x + dot4.y) + (dot4.z + dot4.w);
  workgroupBarrier();
  if (r >= params.R) { return; }
  var sum = 0.0;
  for (var k = li - lane; k < li - lane + TPR; k++) { sum += partial[k]; }
  let rs = rstd[r];
  let kx = rs * rs * rs * sum / f32(D);
  for (var c = c0; c < c1; c += 4u) {
    let g = rs * loadW(c) * loadDy(o, c) - loadX(o, c) * kx;
    for (var k = 0u; k < 4u; k++) {
      if (c + k < c1) {
        var gk = g[k];
        if (ACCUMULATE) { gk += dx[o + c + k]; }
        dx[o + c + k] = gk;
      }
    }
  }
}
