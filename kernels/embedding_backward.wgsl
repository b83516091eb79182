// embedding_backward: dtable[v, :] += Σ_{n: ids[n] = v} dout[n, :], summed in increasing n.
//   Reads the keys (id, n) sorted by embedding_sort: a run of equal ids is one segment, its
//   positions in increasing n. No atomics: segments own disjoint rows of dtable. The binding dtable
//   holds rows [V0, V0 + V) of the table (a table split across buffers: one dispatch per buffer).
// Bindings (group 0):
//   0 keys   storage read        vec2<u32>  (P) sorted; the first N are the real positions
//   1 dout   storage read        f32        (N, C)
//   2 dtable storage read_write  f32        (V, C): table rows V0 ..
//   3 params uniform            Params
// Work: one workgroup of 64 invocations per sorted index s; only segment heads (s = 0, or the id
//   differs from s − 1) work: invocation i walks the segment for channels i, i+64, …, sums in f32
//   and adds the sum into dtable[id, c]. Every dout value is read once: O(N·C) work.
// Dispatch (min(N, 65535), ceil(N / 65535)): s = wid.y · num_workgroups.x + wid.x.
// Writes `+=`. Limits: V·C, N·C < 2^32; ids outside [V0, V0 + V) are skipped (the CPU reference
//   throws on ids outside the table).

struct Params {
  N: u32,
  V: u32,
  C: u32,
  V0: u32,  // first table row held by dtable
}

@group(0) @binding(0) var<storage, read> keys: array<vec2<u32>>;
@group(0) @binding(1) var<storage, read> dout: array<f32>;
@group(0) @binding(2) var<storage, read_write> dtable: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let s = wid.y * nwg.x + wid.x;
  if (s >= params.N) { return; }
  let id = keys[s].x;
  if (id < params.V0 || id - params.V0 >= params.V) { return; }
  if (s > 0u && keys[s - 1u].x == id) { return; }  // not the head of its segment
  let C = params.C;
  for (var c = lid.x; c < C; c += 64u) {
    var sum = 0.0;
    for (var e = s; e < params.N; e++) {
      let key = keys[e];
      if (key.x != id) { break; }
      sum += dout[key.y * C + c];
    }
    dtable[(id - params.V0) * C + c] += sum;
  }
}
