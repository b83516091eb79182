// embedding_sort: one compare-exchange step (k, j) of a bitonic sort of the keys (ids[n], n),
//   ascending by id then n, so each id's positions end up contiguous and in increasing n.
//   The first step (k = 2) reads the keys from ids; slots n ≥ N pad with (0xffffffff, n).
// Bindings (group 0):
//   0 ids    storage read        i32        (N)
//   1 keys   storage read_write  vec2<u32>  (P), P = max(2, next power of two ≥ N): (id as u32, n)
//   2 params uniform            Params
// Work: one invocation compare-exchanges the pair (i, i + j) of step (k, j); 256 per workgroup.
// Dispatch: G = ceil(P/2 / 256) workgroups as (min(G, 65535), ceil(G / 65535)), once per step:
//   k = 2, 4, …, P; j = k/2, …, 1 (log2 P · (log2 P + 1) / 2 dispatches, recorded in order).
// Writes `=` (keys). Limits: N ≤ 2^24. Negative ids compare as large u32 and sort last with the
//   padding (ties broken by n, so the first N sorted keys are exactly the N real positions).

struct Params {
  N: u32,
  P: u32,
  k: u32,
  j: u32,
}

@group(0) @binding(0) var<storage, read> ids: array<i32>;
@group(0) @binding(1) var<storage, read_write> keys: array<vec2<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

fn load(i: u32) -> vec2<u32> {
  if (params.k == 2u) {
    if (i < params.N) { return vec2<u32>(bitcast<u32>(ids[i]), i); }
    return vec2<u32>(0xffffffffu, i);
  }
  return keys[i];
}

fn less(a: vec2<u32>, b: vec2<u32>) -> bool {
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let t = (wid.y * nwg.x + wid.x) * 256u + lid.x;
  if (t >= params.P / 2u) { return; }
  let j = params.j;
  let i = (t / j) * 2u * j + t % j;  // lower element of the pair; partner i + j
  let l = i + j;
  let a = load(i);
  let b = load(l);
  let ascending = (i & params.k) == 0u;
  if (less(b, a) == ascending) {
    keys[i] = b;
    keys[l] = a;
  } else {
    keys[i] = a;
    keys[l] = b;
  }
}
