// elementwise: OP 0 (add): out = a + b; OP 1 (scale): out = a · s. Residual adds and scaling.
//   IN_PLACE reads a from out itself (out aliases a: WebGPU forbids binding one buffer both
//   read-only and writable in a dispatch).
// Bindings (group 0):
//   0 a      storage read        f32  (n); unused when IN_PLACE (bind any buffer)
//   1 b      storage read        f32  (n); read only by add (bind any buffer for scale)
//   2 out    storage read_write  f32  (n)
//   3 params uniform            Params
// Work: one invocation per element; 256 per workgroup.
// Dispatch: G = ceil(n / 256) workgroups as (min(G, 65535), ceil(G / 65535)).
// Writes `=` (each element read before it is written, so out may alias a). Limits: n < 2^32.

struct Params {
  n: u32,
  s: f32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

override OP: u32 = 0u;
override IN_PLACE: bool = false;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = (wid.y * nwg.x + wid.x) * 256u + lid.x;
  if (i >= params.n) { return; }
  var v: f32;
  if (IN_PLACE) { v = out[i]; } else { v = a[i]; }
  if (OP == 0u) { v += b[i]; } else { v *= params.s; }
  out[i] = v;
}
