// rmsnorm_dw: partial[b, d] = Σ_{r in block b} dy[r, d] · (x[r, d] · rstd[r]), in increasing r:
//   the first pass of RMSNorm's weight gradient; col_sum (+=) over the blocks is the second.
// Bindings (group 0):
//   0 dy      storage read        f32  (R, D)
//   1 x       storage read        f32  (R, D)
//   2 rstd    storage read        f32  (R)
//   3 partial storage read_write  f32  (ceil(R / rowsPerBlock), D)
//   4 dy4     storage read        vec4<f32> dy seen as (R·D / 4); read only when VEC4
//   5 x4      storage read        vec4<f32> x seen as (R·D / 4); read only when VEC4
//   6 params  uniform            Params
// Work: one workgroup of 64 invocations per (256 columns, block of rowsPerBlock rows); invocation i
//   owns columns 256·wid.x + 4i .. +3 and walks the block's rows, vec4 loads when VEC4 (D % 4 = 0).
//   No barriers. Dispatch (ceil(D / 256), ceil(R / rowsPerBlock)); the dispatcher keeps both ≤ 65535.
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
@group(0) @binding(4) var<storage, read> dy4: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read> x4: array<vec4<f32>>;
@group(0) @binding(6) var<uniform> params: Params;

override VEC4: bool = false;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let D = params.D;
  let d = (wid.x * 64u + lid.x) * 4u;
  if (d >= D) { return; }
  let r0 = wid.y * params.rowsPerBlock;
  let r1 = min(params.R, r0 + params.rowsPerBlock);
  var acc = vec4(0.0);
  for (var r = r0; r < r1; r++) {
    let rs = rstd[r];
    if (VEC4) {
      let i = (r * D + d) / 4u;
      acc = fma(dy4[i], x4[i] * rs, acc);
    } else {
      for (var k = 0u; k < 4u; k++) {
        if (d + k < D) { acc[k] = fma(dy[r * D + d + k], x[r * D + d + k] * rs, acc[k]); }
      }
    }
  }
  for (var k = 0u; k < 4u; k++) {
    if (d + k < D) { partial[wid.y * D + d + k] = acc[k]; }
  }
}
