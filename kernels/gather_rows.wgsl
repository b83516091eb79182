// gather_rows: out[m, :] = x[idx[m], :] for m < M. Serves embedding (x = table (V, C), idx = ids)
//   and gatherRows. An index outside [0, RT) yields a row of NaN (see Limits). The binding x holds
//   rows [R0, R0 + R) of the (RT, D) table (a table split across buffers is gathered once per
//   buffer: rows whose index lies in another buffer are left alone); whole table: R0 = 0, RT = R.
// Bindings (group 0):
//   0 x      storage read        f32  (R, D) row-major (table rows R0 ..), read as u32 bits
//   1 idx    storage read        i32  (M)
//   2 out    storage read_write  f32  (M, D), written as u32 bits (an exact copy: no denormal flush)
//   3 params uniform            Params
// Work: one workgroup of 64 invocations copies one row; invocation i copies columns i, i+64, ….
// Dispatch (min(M, 65535), ceil(M / 65535)): row m = wid.y · num_workgroups.x + wid.x (2-D past
//   65535 rows; surplus workgroups return).
// Writes `=` (the rows whose index this binding holds, and NaN rows). Limits: R·D < 2^32,
//   RT < 2^31. The CPU reference throws on a bad index; a kernel cannot, so it writes NaN (a loud,
//   propagating value) instead of reading some other row or out of bounds.

struct Params {
  R: u32,
  D: u32,
  M: u32,
  R0: u32,  // first table row held by x
  RT: u32,  // rows of the whole table
}

@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read> idx: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let m = wid.y * nwg.x + wid.x;
  if (m >= params.M) { return; }
  let D = params.D;
  let o = m * D;
  let id = idx[m];
  if (id < 0 || u32(id) >= params.RT) {
    for (var c = lid.x; c < D; c += 64u) { out[o + c] = 0x7fc00000u; }  // quiet NaN
    return;
  }
  if (u32(id) < params.R0 || u32(id) - params.R0 >= params.R) { return; }  // in another buffer
  let src = (u32(id) - params.R0) * D;
  for (var c = lid.x; c < D; c += 64u) { out[o + c] = x[src + c]; }
}
