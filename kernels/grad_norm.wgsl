// grad_norm: global gradient norm sqrt(Σ_tensors Σ g²) in two deterministic passes.
//   Pass 1 (FINAL = false), once per tensor: out[offset + w] = Σ x² over workgroup w's share of x.
//   Pass 2 (FINAL = true), once: out[0] = sqrt(Σ x) over the partials of every tensor.
// Bindings (group 0):
//   0 x       storage read        f32  (n): one gradient tensor (pass 1) or the partials (pass 2)
//   1 out     storage read_write  f32  the partials buffer, written at offset + wid.x (pass 1); the norm (1) (pass 2)
//   2 params  uniform            Params
// Work: workgroups of 256 invocations; with W workgroups, invocation i of workgroup w sums elements
//   w·256 + i + k·W·256 (k = 0, 1, …) in order, then a fixed tree in workgroup memory (1 KiB).
// Dispatch: pass 1 (W) per tensor, W = min(256, ceil(n / 2048)); pass 2 (1).
// Writes `=`. Limits: n < 2^32 − 2^16 per tensor; partials of all tensors ≤ one buffer.

struct Params {
  n: u32,
  offset: u32,
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> params: Params;

override FINAL: bool = false;

const WG: u32 = 256u;

var<workgroup> sums: array<f32, 256>;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * WG;
  var s = 0.0;
  for (var i = wid.x * WG + li; i < params.n; i += stride) {
    let v = x[i];
    if (FINAL) { s += v; } else { s += v * v; }
  }
  sums[li] = s;
  workgroupBarrier();
  for (var k = WG / 2u; k > 0u; k >>= 1u) {
    if (li < k) { sums[li] += sums[li + k]; }
    workgroupBarrier();
  }
  if (li == 0u) {
    if (FINAL) { out[0] = sqrt(sums[0]); } else { out[params.offset + wid.x] = sums[0]; }
  }
}
