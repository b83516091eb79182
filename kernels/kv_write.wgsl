// kv_write: cache[b, start[b] + i, :, :] = x[b, i, :, :] for i < TQ (append new keys or values to a cache).
// Bindings (group 0):
//   0 x      storage read        f32  (B, TQ, NKV, HS)
//   1 start  storage read        i32  (B)
//   2 cache  storage read_write  f32  (B, S, NKV, HS)
//   3 params uniform             Params
// Work: one invocation per element of x (row = NKV·HS values), 256 per workgroup.
//   Dispatch (min(W, 65535), ceil(W / 65535)) with W = ceil(B·TQ·NKV·HS / 256);
//   element = (wid.y·nwg.x + wid.x)·256 + lid.x.
// Writes `=`. Limits: rows whose position falls outside [0, S) are skipped (the CPU backend refuses them:
//   start lives on the GPU and is not read back); B·TQ·NKV·HS < 2³².

struct Params {
  count: u32,  // B·TQ·NKV·HS
  TQ: u32,
  S: u32,
  row: u32,    // NKV·HS
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read> start: array<i32>;
@group(0) @binding(2) var<storage, read_write> cache: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = (wid.y * nwg.x + wid.x) * 256u + lid.x;
  if (e >= params.count) { return; }
  let d = e % params.row;
  let bi = e / params.row;                 // b · TQ + i
  let i = bi % params.TQ;
  let b = bi / params.TQ;
  let pos = start[b] + i32(i);
  if (pos < 0 || pos >= i32(params.S)) { return; }
  cache[(b * params.S + u32(pos)) * params.row + d] = x[e];
}
