// logprobs_backward: dlogits[n, v] = dlogp[n]·(1[v = targets[n]] − p) − dentropy[n]·p·(log p + H[n]),
//   log p = logits[n, v] − lse[n], p = exp(log p) (recomputed, never stored), H = entropy[n].
//   The logits and out bindings hold rows [row0, row0 + N) of the whole (N_all, V) matrices, the
//   per-row vectors all N_all rows (split logits: one dispatch per buffer; whole: row0 = 0).
// Bindings (group 0):
//   0 logits    storage read        f32  (N, V); not read when IN_PLACE (bind any buffer)
//   1 logits4   storage read        vec4<f32> the logits seen as (N·V / 4); read only when VEC4 and not IN_PLACE
//   2 targets   storage read        i32  (N_all); a target outside [0, V) has no one-hot term
//   3 lse       storage read        f32  (N_all)
//   4 entropy   storage read        f32  (N_all)
//   5 dlogp     storage read        f32  (N_all)
//   6 dentropy  storage read        f32  (N_all); read only when HAS_DENTROPY
//   7 out       storage read_write  f32  (N, V); holds the logits on entry when IN_PLACE
//   8 params    uniform            Params
// Work: workgroups of 64 invocations, TPR (override, a power of two ≤ 64) per row, as in
//   logprobs_forward: lane i of a row owns the contiguous chunk [i·c, (i+1)·c) (c = ceil(V / TPR)
//   rounded up to 4), in groups of 4 columns (one vec4 load when VEC4: V % 4 = 0). Each element is
//   read and written by the same invocation, so IN_PLACE is race-free. No barriers.
// Dispatch (min(W, 65535), ceil(W / 65535)), W = ceil(N·TPR / 64), rows as in logprobs_forward.
// Writes `=` (over the logits when IN_PLACE). Limits: any V ≥ 1; N·V < 2^32.

struct Params {
  N: u32,
  V: u32,
  row0: u32,  // row of the whole logits where this binding starts
}

@group(0) @binding(0) var<storage, read> logits: array<f32>;
@group(0) @binding(1) var<storage, read> logits4: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> targets: array<i32>;
@group(0) @binding(3) var<storage, read> lse: array<f32>;
@group(0) @binding(4) var<storage, read> entropy: array<f32>;
@group(0) @binding(5) var<storage, read> dlogp: array<f32>;
@group(0) @binding(6) var<storage, read> dentropy: array<f32>;
@group(0) @binding(7) var<storage, read_write> out: array<f32>;
@group(0) @binding(8) var<uniform> params: Params;

override TPR: u32 = 64u;
override VEC4: bool = false;
override HAS_DENTROPY: bool = true;
override IN_PLACE: bool = false;

const WG: u32 = 64u;

// Logits e..e+3 (flat index, e 4-aligned within the row); those at or past `end` read as 0.
fn load4(e: u32, end: u32) -> vec4<f32> {
  if (VEC4 && !IN_PLACE) { return logits4[e / 4u]; }
  var x = vec4(0.0);
  for (var k = 0u; k < 4u; k++) {
    if (e + k < end) {
      if (IN_PLACE) { x[k] = out[e + k]; } else { x[k] = logits[e + k]; }
    }
  }
  return x;
}

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = (wid.y * nwg.x + wid.x) * (WG / TPR) + li / TPR;
  if (row >= params.N) { return; }
  let lane = li % TPR;
  let V = params.V;
  let base = row * V;
  let chunk = ((V + TPR - 1u) / TPR + 3u) / 4u * 4u;
  let j0 = base + min(lane * chunk, V);
  let j1 = base + min(lane * chunk + chunk, V);
  let r = params.row0 + row;
  let L = lse[r];
  let H = entropy[r];
  let gl = dlogp[r];
  var gh = 0.0;
  if (HAS_DENTROPY) { gh = dentropy[r]; }
  let tg = targets[r];
  var hot = 0xffffffffu;                                         // flat index of the target, if any
  if (tg >= 0 && u32(tg) < V) { hot = base + u32(tg); }
  for (var e = j0; e < j1; e += 4u) {
    let lp = load4(e, j1) - L;
    let p = exp(lp);
    let g = -gl * p - gh * p * (lp + H);
    for (var k = 0u; k < 4u; k++) {
      let j = e + k;
      if (j < j1) {
        var gk = g[k];
        if (j == hot) { gk += gl; }
        out[j] = gk;
      }
    }
  }
}
