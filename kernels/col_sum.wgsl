// col_sum: out[b, d] (=|+=) Σ_{r in block b} x[r, d], in increasing r. Two passes make a
//   deterministic column sum: blocks of rows → partial (nb, D), then one block of nb rows → (D).
// Bindings (group 0):
//   0 x      storage read        f32  (R, D)
//   1 out    storage read_write  f32  (ceil(R / rowsPerBlock), D)
//   2 params uniform            Params
// Work: one workgroup of 64 invocations per (64 columns, block of rowsPerBlock rows); invocation i
//   owns column 64·wid.x + i and walks the block's rows (coalesced across the workgroup).
// Dispatch (ceil(D / 64), ceil(R / rowsPerBlock)); the dispatcher keeps both ≤ 65535.
// Writes `=` by default, `+=` when ACCUMULATE (bias gradients). Limits: R·D < 2^32.

struct Params {
  R: u32,
  D: u32,
  rowsPerBlock: u32,
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> params: Params;

override ACCUMULATE: bool = false;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let D = params.D;
  let d = wid.x * 64u + lid.x;
  if (d >= D) { return; }
  let r0 = wid.y * params.rowsPerBlock;
  let r1 = min(params.R, r0 + params.rowsPerBlock);
  var acc = 0.0;
  for (var r = r0; r < r1; r++) { acc += x[r * D + d]; }
  let o = wid.y * D + d;
  if (ACCUMULATE) { acc += out[o]; }
  out[o] = acc;
}
