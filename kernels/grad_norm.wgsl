// grad_norm: global gradient norm sqrt(Σ_tensors Σ g²) in two deterministic passes.
//   Pass 1 (FINAL = false), once per tensor: out[offset + w] = Σ x² over workgroup w's share of x.
//   Pass 2 (FINAL = true), once: out[0] = sqrt(Σ x) over the partials of every tensor.
// Bindings (group 0):
//   0 x       storage read        f32  (n): one gradient tensor (pass 1) or the partials (pass 2)
//   1 x4      storage read        vec4<f32> the same buffer seen as (floor(n / 4))
//   2 out     storage read_write  f32  the partials buffer, written at offset + wid.x (pass 1); the norm (1) (pass 2)
//   3 params  uniform            Params
// Work: workgroups of 64 invocations; with W workgroups, invocation g = 64·w + i owns the contiguous
//   vec4s [g·c, (g+1)·c) of x4, c = ceil(floor(n/4) / (64·W)), and sums them (squared in pass 1) in
//   order; invocation 0 also takes the n % 4 tail. After the one barrier, invocation 0 adds the 64
//   partials in order (workgroup memory 256 B).
// Dispatch: pass 1 (W) per tensor, W = min(256, ceil(n / 32768)); pass 2 (1).
// Writes `=`. Limits: n < 2^32 per tensor; partials of all tensors ≤ one buffer.

struct Params {
  n: u32,
  offset: u32,
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read> x4: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

override FINAL: bool = false;

const WG: u32 = 64u;

var<workgroup> sums: array<f32, 64>;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let n4 = params.n / 4u;
  let g = wid.x * WG + li;
  let c = (n4 + nwg.x * WG - 1u) / (nwg.x * WG);
  let i0 = min(g * c, n4);
  let i1 = min(i0 + c, n4);
  var s = vec4(0.0);
  for (var i = i0; i < i1; i++) {
    let v = x4[i];
    if (FINAL) { s += v; } else { s = fma(v, v, s); }
  }
  var t = (s.x + s.y) + (s.z + s.w);
  if (g == 0u) {
    for (var i = 4u * n4; i < params.n; i++) {
      let v = x[i];
      if (FINAL) { t += v; } else { t = fma(v, v, t); }
    }
  }
  sums[li] = t;
  workgroupBarrier();
  if (li != 0u) { return; }
  var total = 0.0;
  for (var k = 0u; k < WG; k++) { total += sums[k]; }
  if (FINAL) { out[0] = sqrt(total); } else { out[params.offset + wid.x] = total; }
}
