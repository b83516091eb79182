// attention_naive_backward: the T×T way, for benchmarks against the tiled backward (same math and outputs):
//   phase 0: P[b,h,t,s] = exp(scale·q[b,t,h]·k[b,s,h/G] − lse[b,h,t]) where allowed, else 0
//   phase 1: grad = dv[b,s,j] = Σ_{h of group j} Σ_t P[b,h,t,s] dout[b,t,h]
//   phase 2: per row: dP[s] = dout[b,t,h]·v[b,s,h/G], D = Σ_s P dP; P ← dS = P (dP − D)
//   phase 3: grad = dq[b,t,h] = scale Σ_s dS[b,h,t,s] k[b,s,h/G]
//   phase 4: grad = dk[b,s,j] = scale Σ_{h of group j} Σ_t dS[b,h,t,s] q[b,t,h]
// Bindings (group 0):
//   0 q      storage read        f32  (B, T, NH, HS)
//   1 k      storage read        f32  (B, T, NKV, HS)
//   2 v      storage read        f32  (B, T, NKV, HS)
//   3 seg    storage read        i32  (B, T)
//   4 lse    storage read        f32  (B, NH, T)
//   5 dout   storage read        f32  (B, T, NH, HS)
//   6 scores storage read_write  f32  (B, NH, T, T): P, then dS
//   7 grad   storage read_write  f32  dv (B, T, NKV, HS) in phase 1, dq (B, T, NH, HS) in 3, dk in 4
//   8 params uniform             Params
// Work: one invocation per element of the phase's output (P or dS element; row; gradient element), 256
//   per workgroup. Dispatch per phase (min(W, 65535), ceil(W / 65535)) with W = ceil(count / 256);
//   index = (wid.y·nwg.x + wid.x)·256 + lid.x.
// Writes `=`. Limits: B·NH·T·T < 2³² and within one binding (memory O(T²)).

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
@group(0) @binding(4) var<storage, read> lse: array<f32>;
@group(0) @binding(5) var<storage, read> dout: array<f32>;
@group(0) @binding(6) var<storage, read_write> scores: array<f32>;
@group(0) @binding(7) var<storage, read_write> grad: array<f32>;
@group(0) @binding(8) var<uniform> params: Params;

fn dotRows(a: u32, kv: u32, useV: bool) -> f32 {   // q or dout row a (it is q when !useV) · k or v row kv
  var acc = 0.0;
  for (var d = 0u; d < params.HS; d++) {
    if (useV) { acc = fma(dout[a + d], v[kv + d], acc); } else { acc = fma(q[a + d], k[kv + d], acc); }
  }
  return acc;
}

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = (wid.y * nwg.x + wid.x) * 256u + lid.x;
  if (idx >= params.count) { return; }
  let T = params.T;
  let NH = params.NH;
  let NKV = params.NKV;
  let HS = params.HS;
  let G = NH / NKV;
  let phase = params.phase;
  if (phase == 0u) {                          // idx = ((b·NH + h)·T + t)·T + s
    let s = idx % T;
    let t = (idx / T) % T;
    let bh = idx / (T * T);
    let h = bh % NH;
    let b = bh / NH;
    let st = seg[b * T + t];
    var p = 0.0;
    if (s <= t && st >= 0 && seg[b * T + s] == st) {
      let dot = dotRows(((b * T + t) * NH + h) * HS, ((b * T + s) * NKV + h / G) * HS, false);
      p = exp(dot * params.scale - lse[bh * T + t]);
    }
    scores[idx] = p;
  } else if (phase == 2u) {                   // idx = (b·NH + h)·T + t: one row
    let t = idx % T;
    let h = (idx / T) % NH;
    let b = idx / (T * NH);
    let a = ((b * T + t) * NH + h) * HS;
    var D = 0.0;
    for (var s = 0u; s <= t; s++) {
      D += scores[idx * T + s] * dotRows(a, ((b * T + s) * NKV + h / G) * HS, true);
    }
    for (var s = 0u; s <= t; s++) {
      let o = idx * T + s;
      scores[o] = scores[o] * (dotRows(a, ((b * T + s) * NKV + h / G) * HS, true) - D);
    }
  } else if (phase == 3u) {                   // idx = ((b·T + t)·NH + h)·HS + d
    let d = idx % HS;
    let h = (idx / HS) % NH;
    let t = (idx / (HS * NH)) % T;
    let b = idx / (HS * NH * T);
    let row = ((b * NH + h) * T + t) * T;
    var acc = 0.0;
    for (var s = 0u; s <= t; s++) { acc = fma(scores[row + s], k[((b * T + s) * NKV + h / G) * HS + d], acc); }
    grad[idx] = acc * params.scale;
  } else {                                    // phases 1, 4: idx = ((b·T + s)·NKV + j)·HS + d
    let d = idx % HS;
    let j = (idx / HS) % NKV;
    let s = (idx / (HS * NKV)) % T;
    let b = idx / (HS * NKV * T);
    var acc = 0.0;
    for (var h = j * G; h < j * G + G; h++) {
      for (var t = s; t < T; t++) {
        let x = scores[((b * NH + h) * T + t) * T + s];
        let o = ((b * T + t) * NH + h) * HS + d;
        if (phase == 1u) { acc = fma(x, dout[o], acc); } else { acc = fma(x, q[o], acc); }
      }
    }
    if (phase == 4u) { acc *= params.scale; }
    grad[idx] = acc;
  }
}
