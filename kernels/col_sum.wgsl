// col_sum: out[b, d] (=|+=) Σ_{r in block b} x[r, d], in increasing r. Two passes make a
//   deterministic column sum: blocks of rows → partial (nb, D), then one block of nb rows → (D).
// Bindings (group 0):
//   0 x      storage read        f32  (R, D)
//   1 x4     storage read        vec4<f32> x seen as (R·D / 4); read only when VEC4
//   2 out    storage read_write  f32  (ceil(R / rowsPerBlock), D)
//   3 params uniform            Params
// Work: one workgroup of 64 invocations per (256 columns, block of rowsPerBlock rows); invocation i
//   owns columns 256·wid.x + 4i .. +3 and walks the block's rows, one vec4 load per row when VEC4
//   (D % 4 = 0), else up to 4 scalar loads. No barriers.
// Dispatch (ceil(D / 256), ceil(R / rowsPerBlock)); the dispatcher keeps both ≤ 65535.
// Writes `=` by default, `+=` when ACCUMULATE (bias gradients). Limits: R·D < 2^32.

struct Params {
  R: u32,
  D: u32,
  rowsPerBlock: u32,
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read> x4: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

override VEC4: bool = false;
override ACCUMULATE: bool = false;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let D = params.D;
  let d = (wid.x * 64u + lid.x) * 4u;
  if (d >= D) { return; }
  let r0 = wid.y * params.rowsPerBlock;
  let r1 = min(params.R, r0 + params.rowsPerBlock);
  var acc = vec4(0.0);
  for (var r = r0; r < r1; r++) {
    if (VEC4) {
      acc += x4[(r * D + d) / 4u];
    } else {
      for (var k = 0u; k < 4u; k++) { if (d + k < D) { acc[k] += x[r * D + d + k]; } }
    }
  }
  for (var k = 0u; k < 4u; k++) {
    if (d + k >= D) { break; }
    let o = wid.y * D + d + k;
    var v = acc[k];
    if (ACCUMULATE) { v += out[o]; }
    out[o] = v;
  }
}
