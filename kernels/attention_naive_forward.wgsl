// attention_naive_forward: the T×T way, for benchmarks against attention_forward (same math and outputs):
//   phase 0: scores[b,h,t,s] = scale·q[b,t,h]·k[b,s,h/G] where allowed (s ≤ t, seg[s] = seg[t] ≥ 0), else −1e30
//   phase 1: per row: lse = log Σ_allowed exp(scores); scores ← P = softmax (0 where not allowed; padding: 0, lse 0)
//   phase 2: out[b,t,h,d] = Σ_s P[b,h,t,s] v[b,s,h/G,d]
// Bindings (group 0):
//   0 q      storage read        f32  (B, T, NH, HS)
//   1 k      storage read        f32  (B, T, NKV, HS)
//   2 v      storage read        f32  (B, T, NKV, HS)
//   3 seg    storage read        i32  (B, T)
//   4 scores storage read_write  f32  (B, NH, T, T): the materialised score / probability matrix
//   5 out    storage read_write  f32  (B, T, NH, HS)
//   6 lse    storage read_write  f32  (B, NH, T)
//   7 params uniform             Params
// Work: one invocation per element of the phase's output (score; row; out element), 256 per workgroup.
//   Dispatch per phase (min(W, 65535), ceil(W / 65535)) with W = ceil(count / 256);
//   index = (wid.y·nwg.x + wid.x)·256 + lid.x.
// Writes `=`. Limits: B·NH·T·T < 2³² and within one binding (memory O(T²), unlike the tiled kernel).

struct Params {
  phase: u32,
  count: u32,
  T: u32,
  NH: u32,
  NKV: u32,
  HS: u32,
  scale: f32,
}

@group(0) @binding(0) var<storage, read> q: array<f32>;
@group(0) @binding(1) var<storage, read> k: array<f32>;
@group(0) @binding(2) var<storage, read> v: array<f32>;
@group(0) @binding(3) var<storage, read> seg: array<i32>;
@group(0) @binding(4) var<storage, read_write> scores: array<f32>;
@group(0) @binding(5) var<storage, read_write> out: array<f32>;
@group(0) @binding(6) var<storage, read_write> lse: array<f32>;
@group(0) @binding(7) var<uniform> params: Params;

const MASKED: f32 = -1e30;
const LSE_PAD: f32 = 0.0;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = (wid.y * nwg.x + wid.x) * 256u + lid.x;
  if (idx >= params.count) { return; }
  let T = params.T;
  let NH = params.NH;
  let HS = params.HS;
  let G = NH / params.NKV;
  if (params.phase == 0u) {            // idx = ((b·NH + h)·T + t)·T + s
    let s = idx % T;
    let t = (idx / T) % T;
    let h = (idx / (T * T)) % NH;
    let b = idx / (T * T * NH);
    let st = seg[b * T + t];
    var sc = MASKED;
    if (s <= t && st >= 0 && seg[b * T + s] == st) {
      let qo = ((b * T + t) * NH + h) * HS;
      let ko = ((b * T + s) * params.NKV + h / G) * HS;
      var dot = 0.0;
      for (var d = 0u; d < HS; d++) { dot = fma(q[qo + d], k[ko + d], dot); }
      sc = dot * params.scale;
    }
    scores[idx] = sc;
  } else if (params.phase == 1u) {     // idx = (b·NH + h)·T + t: one row
    let row = idx * T;
    var m = MASKED;
    for (var s = 0u; s < T; s++) { m = max(m, scores[row + s]); }
    var l = 0.0;
    for (var s = 0u; s < T; s++) {
      let sc = scores[row + s];
      if (sc != MASKED) { l += exp(sc - m); }
    }
    for (var s = 0u; s < T; s++) {
      let sc = scores[row + s];
      var p = 0.0;
      if (sc != MASKED) { p = exp(sc - m) / l; }
      scores[row + s] = p;
    }
    var x = LSE_PAD;
    if (l > 0.0) { x = m + log(l); }
    lse[idx] = x;
  } else {                             // idx = ((b·T + t)·NH + h)·HS + d
    let d = idx % HS;
    let h = (idx / HS) % NH;
    let t = (idx / (HS * NH)) % T;
    let b = idx / (HS * NH * T);
    let row = ((b * NH + h) * T + t) * T;
    var acc = 0.0;
    for (var s = 0u; s <= t; s++) {
      acc = fma(scores[row + s], v[((b * T + s) * params.NKV + h / G) * HS + d], acc);
    }
    out[idx] = acc;
  }
}
