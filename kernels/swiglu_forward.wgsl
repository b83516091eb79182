// swiglu_forward: h = silu(gate) · up, silu(g) = g · σ(g), σ(g) = 1 / (1 + e^(−g)).
// Bindings (group 0):
//   0 gate   storage read        f32  (N, F)
//   1 up     storage read        f32  (N, F)
//   2 h      storage read_write  f32  (N, F)
//   3 params uniform            Params
// Work: one invocation per element; 256 per workgroup.
// Dispatch: G = ceil(n / 256) workgroups as (min(G, 65535), ceil(G / 65535)), n = N·F.
// Writes `=`. Limits: n < 2^32. σ is evaluated with e^(−|g|) so it never overflows.

struct Params {
  n: u32,
}

@group(0) @binding(0) var<storage, read> gate: array<f32>;
@group(0) @binding(1) var<storage, read> up: array<f32>;
@group(0) @binding(2) var<storage, read_write> h: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

fn sigmoid(g: f32) -> f32 {
  let e = exp(-abs(g));  // in (0, 1]
  return select(e / (1.0 + e), 1.0 / (1.0 + e), g >= 0.0);
}

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = (wid.y * nwg.x + wid.x) * 256u + lid.x;
  if (i >= params.n) { return; }
  let g = gate[i];
  h[i] = g * sigmoid(g) * up[i];
}
