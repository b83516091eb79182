// attention_backward_prep: stats[b,h,t] = (lse[b,h,t], D[b,h,t]), D = Σ_d dout[b,t,h,d] · out[b,t,h,d]
//   (FlashAttention-2's row term: dS = P (dP − D)); the backward passes read both from one buffer.
// Bindings (group 0):
//   0 out    storage read        vec4<f32> (B, T, NH, HS/4)
//   1 dout   storage read        vec4<f32> (B, T, NH, HS/4)
//   2 lse    storage read        f32       (B, NH, T)
//   3 stats  storage read_write  f32       (B, NH, T, 2)
//   4 params uniform             Params
// Work: one invocation per row (b, h, t), summing HS/4 vec4 products in order; 64 rows per workgroup.
//   Dispatch (min(W, 65535), ceil(W / 65535)) with W = ceil(B·NH·T / 64); row = (wid.y·nwg.x + wid.x)·64 + lid.x.
// Writes `=`. Limits: HS % 4 = 0; B·NH·T < 2³².

struct Params {
  rows: u32,
  T: u32,
  NH: u32,
}

@group(0) @binding(0) var<storage, read> out: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> dout: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> lse: array<f32>;
@group(0) @binding(3) var<storage, read_write> stats: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;

override HS4: u32 = 16u;  // HS / 4

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = (wid.y * nwg.x + wid.x) * 64u + lid.x;   // (b, h, t) in lse order
  if (row >= params.rows) { return; }
  let T = params.T;
  let t = row % T;
  let bh = row / T;
  let h = bh % params.NH;
  let b = bh / params.NH;
  let o = ((b * T + t) * params.NH + h) * HS4;
  var D = vec4(0.0);
  for (var d = 0u; d < HS4; d++) { D = fma(dout[o + d], out[o + d], D); }
  stats[2u * row] = lse[row];
  stats[2u * row + 1u] = (D.x + D.y) + (D.z + D.w);
}
