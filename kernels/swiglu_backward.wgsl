// swiglu_backward: with σ = σ(gate): dgate = dh · up · σ · (1 + gate · (1 − σ)), dup = dh · gate · σ
//   (the derivative of h = silu(gate) · up).
// Bindings (group 0):
//   0 dh     storage read        f32  (N, F)
//   1 gate   storage read        f32  (N, F)
//   2 up     storage read        f32  (N, F)
//   3 dgate  storage read_write  f32  (N, F)
//   4 dup    storage read_write  f32  (N, F)
//   5 params uniform            Params
// Work: one invocation per element; 256 per workgroup.
// Dispatch: G = ceil(n / 256) workgroups as (min(G, 65535), ceil(G / 65535)), n = N·F.
// Writes `=` (dgate, dup). Limits: n < 2^32. σ is evaluated with e^(−|g|) so it never overflows.

struct Params {
  n: u32,
}

@group(0) @binding(0) var<storage, read> dh: array<f32>;
@group(0) @binding(1) var<storage, read> gate: array<f32>;
@group(0) @binding(2) var<storage, read> up: array<f32>;
@group(0) @binding(3) var<storage, read_write> dgate: array<f32>;
@group(0) @binding(4) var<storage, read_write> dup: array<f32>;
@group(0) @binding(5) var<uniform> params: Params;

fn sigmoid(g: f32) -> f32 {
  let e = exp(-abs(g));  // in (0, 1]
  return select(e / (1.0 + e), 1.0 / (1.0 + e), g >= 0.0);
}

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = (wid.y * nwg.x + wid.x) * 256u + lid.x;
  if (i >= params.n) { return; }
  let g = gate[i];
  let s = sigmoid(g);
  let d = dh[i];
  dgate[i] = d * up[i] * s * (1.0 + g * (1.0 - s));
  dup[i] = d * g * s;
}
