// rmsnorm_dw: partial[b, d] = Σ_{r in block b} dy[r, d] · (x[r, d] · rstd[r]), in increasing r:
//   the first pass of RMSNorm's weight gradient; col_sum (+=) over the blocks is the second.
// Bindings (group 0):
//   0 dy      storage read        f32  (R, D)
//   1 x       storage read        f32  (R, D)
//   2 rstd    storage read        f32  (R)
//   3 partial storage read_write  f32  (ceil(R / rowsPerBlock), D)
//   4 params  uniform            Params
// Work: one workgroup of 64 invocations per (64 columns, block of rowsPerBlock rows); invocation i
//   owns column 64·wid.x + i and walks the block's rows (coalesced across the workgroup).
// Dispatch (ceil(D / 64), ceil(R / rowsPerBlock)); the dispatcher keeps both ≤ 65535.
// Writes `=`. Limits: R·D < 2^32. Deterministic: fixed blocks, fixed order, no atomics.

struct Params {
  R: u32,
  D: u32,
  rowsPerBlock: u32,
}

@group(0) @binding(0) var<storage, read> dy: array<f32>;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> rstd: array<f32>;
@group(0) @binding(3) var<storage, read_write> partial: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let D = params.D;
  let d = wid.x * 64u + lid.x;
  if (d >= D) { return; }
  let r0 = wid.y * params.rowsPerBlock;
  let r1 = min(params.R, r0 + params.rowsPerBlock);
  var acc = 0.0;
  for (var r = r0; r < r1; r++) { acc = fma(dy[r * D + d], x[r * D + d] * rstd[r], acc); }
  partial[wid.y * D + d] = acc;
}
