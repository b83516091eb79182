// logprobs_backward: dlogits[n, v] = dlogp[n]·(1[v = targets[n]] − p) − dentropy[n]·p·(log p + H[n]),
//   log p = logits[n, v] − lse[n], p = exp(log p) (recomputed, never stored), H = entropy[n].
// Bindings (group 0):
//   0 logits    storage read        f32  (N, V); not read when IN_PLACE (bind any buffer)
//   1 targets   storage read        i32  (N); a target outside [0, V) has no one-hot term
//   2 lse       storage read        f32  (N)
//   3 entropy   storage read        f32  (N)
//   4 dlogp     storage read        f32  (N)
//   5 dentropy  storage read        f32  (N); read only when HAS_DENTROPY
//   6 out       storage read_write  f32  (N, V); holds the logits on entry when IN_PLACE
//   7 params    uniform            Params
// Work: one workgroup of 256 invocations per row; invocation i computes columns i, i + 256, …
//   (each element is read and written by the same invocation, so IN_PLACE is race-free).
// Dispatch (min(N, 65535), ceil(N / 65535)): row = wid.y · num_workgroups.x + wid.x.
// Writes `=` (over the logits when IN_PLACE). Limits: any V ≥ 1; N·V < 2^32.

struct Params {
  N: u32,
  V: u32,
}

@group(0) @binding(0) var<storage, read> logits: array<f32>;
@group(0) @binding(1) var<storage, read> targets: array<i32>;
@group(0) @binding(2) var<storage, read> lse: array<f32>;
@group(0) @binding(3) var<storage, read> entropy: array<f32>;
@group(0) @binding(4) var<storage, read> dlogp: array<f32>;
@group(0) @binding(5) var<storage, read> dentropy: array<f32>;
@group(0) @binding(6) var<storage, read_write> out: array<f32>;
@group(0) @binding(7) var<uniform> params: Params;

override HAS_DENTROPY: bool = true;
override IN_PLACE: bool = false;

const WG: u32 = 256u;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = wid.y * nwg.x + wid.x;
  if (row >= params.N) { return; }
  let V = params.V;
  let base = row * V;
  let L = lse[row];
  let H = entropy[row];
  let gl = dlogp[row];
  var gh = 0.0;
  if (HAS_DENTROPY) { gh = dentropy[row]; }
  let tg = targets[row];
  for (var j = li; j < V; j += WG) {
    var x: f32;
    if (IN_PLACE) { x = out[base + j]; } else { x = logits[base + j]; }
    let lp = x - L;
    let p = exp(lp);
    var onehot = 0.0;
    if (i32(j) == tg) { onehot = 1.0; }
    out[base + j] = gl * (onehot - p) - gh * p * (lp + H);
  }
}
