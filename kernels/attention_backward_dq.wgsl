// attention_backward_dq: dq[t,h] = scale Σ_s dS[t,s] k[s],  dS = P (dout[t,h]·v[s] − D[h,t]),
//   P = exp(scale·q[t,h]·k[s] − lse[h,t]) over allowed s (as in the forward; kv head h / G).
//   (FlashAttention-2 backward, query side.)
// Bindings (group 0):
//   0 q      storage read        f32  (B, T, NH, HS)
//   1 k      storage read        f32  (B, T, NKV, HS)
//   2 v      storage read        f32  (B, T, NKV, HS)
//   3 dout   storage read        f32  (B, T, NH, HS)
//   4 stats  storage read        f32  (B, NH, T, 2): (lse, D) from attention_backward_prep
//   5 seg    storage read        i32  (B, T)
//   6 dq     storage read_write  f32  (B, T, NH, HS)
//   7 params uniform             Params
// Work: a workgroup of 16×16 invocations owns 16 query rows of one (b, h) and loops over 16-key tiles up to
//   its last row (fixed order). Invocation (c, r): the pair (row r, key c) for dP (v tile) then P and dS
//   (k tile), then dq of row r at d = c + 16i from the same k tile. The v tile, then the k tile pass through
//   one workgroup tile (16 × (HS+1) f32, ≤ 8.1 KiB) beside dS (1 KiB); q, dout rows come from global
//   memory. Tiles without a visible pair are skipped. Dispatch (ceil(T/16), NH, B).
// Writes `=`. Limits: HS ≤ 128; ceil(T/16), NH, B ≤ 65535.

struct Params {
  T: u32,
  NH: u32,
  NKV: u32,
  HS: u32,
  scale: f32,
}

@group(0) @binding(0) var<storage, read> q: array<f32>;
@group(0) @binding(1) var<storage, read> k: array<f32>;
@group(0) @binding(2) var<storage, read> v: array<f32>;
@group(0) @binding(3) var<storage, read> dout: array<f32>;
@group(0) @binding(4) var<storage, read> stats: array<f32>;
@group(0) @binding(5) var<storage, read> seg: array<i32>;
@group(0) @binding(6) var<storage, read_write> dq: array<f32>;
@group(0) @binding(7) var<uniform> params: Params;

const TILE: u32 = 16u;

var<workgroup> tile: array<f32, 2064>;  // [16][HS + 1]: v rows, then k rows
var<workgroup> dSs: array<f32, 256>;    // [row][key]
var<workgroup> anyBits: atomic<u32>;
var<workgroup> live: u32;

// Stage tokens s0..s0+15 of one kv head of k (or v) as tile[j * (HS+1) + d], zero past T.
fn stage(fromV: bool, base: u32, stride: u32, s0: u32, flat: u32) {
  let HS = params.HS;
  for (var e = flat; e < TILE * HS; e += TILE * TILE) {
    let j = e / HS;
    let d = e % HS;
    var x = 0.0;
    if (s0 + j < params.T) {
      let o = base + (s0 + j) * stride + d;
      if (fromV) { x = v[o]; } else { x = k[o]; }
    }
    tile[j * (HS + 1u) + d] = x;
  }
}

@compute @workgroup_size(16, 16, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let T = params.T;
  let HS = params.HS;
  let ld = HS + 1u;
  let c = lid.x;
  let r = lid.y;
  let flat = r * TILE + c;
  let b = wid.z;
  let h = wid.y;
  let q0 = wid.x * TILE;
  let t = q0 + r;
  var qseg = -1;
  if (t < T) { qseg = seg[b * T + t]; }
  let qRow = ((b * T + t) * params.NH + h) * HS;
  let stride = params.NKV * HS;
  let kvBase = b * T * stride + (h / (params.NH / params.NKV)) * HS;
  let st = 2u * ((b * params.NH + h) * T + t);

  var acc: array<f32, 8>;
  let kEnd = min(T, q0 + TILE);
  for (var k0 = 0u; k0 < kEnd; k0 += TILE) {
    let s = k0 + c;
    var ok = false;
    if (qseg >= 0 && s <= t) { ok = seg[b * T + s] == qseg; }
    if (ok) { atomicOr(&anyBits, 1u); }
    workgroupBarrier();
    if (flat == 0u) { live = atomicExchange(&anyBits, 0u); }
    if (workgroupUniformLoad(&live) == 0u) { continue; }

    stage(true, kvBase, stride, k0, flat);
    workgroupBarrier();
    var dP = 0.0;
    if (ok) {
      for (var d = 0u; d < HS; d++) { dP = fma(dout[qRow + d], tile[c * ld + d], dP); }
    }
    workgroupBarrier();

    stage(false, kvBase, stride, k0, flat);
    workgroupBarrier();
    var dS = 0.0;
    if (ok) {
      var dot = 0.0;
      for (var d = 0u; d < HS; d++) { dot = fma(q[qRow + d], tile[c * ld + d], dot); }
      dS = exp(dot * params.scale - stats[st]) * (dP - stats[st + 1u]);
    }
    dSs[r * TILE + c] = dS;
    workgroupBarrier();
    for (var j = 0u; j < TILE; j++) {
      let ds = dSs[r * TILE + j];
      for (var e = 0u; e < 8u; e++) {
        let d = c + TILE * e;
        if (d < HS) { acc[e] = fma(ds, tile[j * ld + d], acc[e]); }
      }
    }
    workgroupBarrier();
  }

  if (t >= T) { return; }
  for (var e = 0u; e < 8u; e++) {
    let d = c + TILE * e;
    if (d < HS) { dq[qRow + d] = acc[e] * params.scale; }
  }
}
