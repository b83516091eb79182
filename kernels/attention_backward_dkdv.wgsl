// attention_backward_dkdv: for key s of kv head j (query heads h = jG .. jG+G−1, allowed pairs as in the forward):
//   P[t,s] = exp(scale·q[t,h]·k[s] − lse[h,t]), dS = P (dout[t,h]·v[s] − D[h,t]),
//   dv[s] = Σ_h Σ_t P dout[t,h],  dk[s] = scale Σ_h Σ_t dS q[t,h]   (FlashAttention-2 backward, key side).
// Bindings (group 0):
//   0 q      storage read        f32  (B, T, NH, HS)
//   1 k      storage read        f32  (B, T, NKV, HS)
//   2 v      storage read        f32  (B, T, NKV, HS)
//   3 dout   storage read        f32  (B, T, NH, HS)
//   4 stats  storage read        f32  (B, NH, T, 2): (lse, D) from attention_backward_prep
//   5 seg    storage read        i32  (B, T)
//   6 dk     storage read_write  f32  (B, T, NKV, HS)
//   7 dv     storage read_write  f32  (B, T, NKV, HS)
//   8 params uniform             Params
// Work: a workgroup of 16×16 invocations owns 16 keys of one (b, kv head) and loops over the G query heads
//   of its group, then over 16-query tiles from its own block to T (fixed order: deterministic, no atomics).
//   Invocation (c, r): the pair (query c of the tile, key r) for P and dS, then dk, dv of key r at
//   d = c + 16i. The q tile, the dout tile, then the q tile again pass through one workgroup tile
//   (16 × (HS+1) f32, ≤ 8.1 KiB) beside P and dS (2 KiB); k and v rows are read from global memory.
//   Tiles without a visible pair are skipped. Dispatch (ceil(T/16), NKV, B).
// Writes `=`. Limits: HS ≤ 128; ceil(T/16), NKV, B ≤ 65535.

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
@group(0) @binding(6) var<storage, read_write> dk: array<f32>;
@group(0) @binding(7) var<storage, read_write> dv: array<f32>;
@group(0) @binding(8) var<uniform> params: Params;

const TILE: u32 = 16u;

var<workgroup> tile: array<f32, 2064>;  // [16][HS + 1]: q rows, then dout rows, then q rows
var<workgroup> Ps: array<f32, 256>;     // [query][key]
var<workgroup> dSs: array<f32, 256>;    // [query][key]
var<workgroup> anyBits: atomic<u32>;
var<workgroup> live: u32;

// Stage tokens t0..t0+15 of head h of q (or dout) as tile[i * (HS+1) + d], zero past T.
fn stage(fromDout: bool, base: u32, t0: u32, flat: u32) {
  let HS = params.HS;
  for (var e = flat; e < TILE * HS; e += TILE * TILE) {
    let i = e / HS;
    let d = e % HS;
    var x = 0.0;
    if (t0 + i < params.T) {
      let o = base + (t0 + i) * params.NH * HS + d;
      if (fromDout) { x = dout[o]; } else { x = q[o]; }
    }
    tile[i * (HS + 1u) + d] = x;
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
  let hk = wid.y;
  let G = params.NH / params.NKV;
  let k0 = wid.x * TILE;
  let s = k0 + r;
  var kseg = -1;
  if (s < T) { kseg = seg[b * T + s]; }
  let kvRow = ((b * T + s) * params.NKV + hk) * HS;

  var dkAcc: array<f32, 8>;
  var dvAcc: array<f32, 8>;
  for (var g = 0u; g < G; g++) {
    let h = hk * G + g;
    let base = b * T * params.NH * HS + h * HS;                  // token 0 of head h in q / dout
    for (var q0 = k0; q0 < T; q0 += TILE) {                      // queries before k0 see no key here
      let i = q0 + c;
      var ok = false;
      if (kseg >= 0 && i < T && i >= s) { ok = seg[b * T + i] == kseg; }
      if (ok) { atomicOr(&anyBits, 1u); }
      workgroupBarrier();
      if (flat == 0u) { live = atomicExchange(&anyBits, 0u); }
      if (workgroupUniformLoad(&live) == 0u) { continue; }

      let st = 2u * ((b * params.NH + h) * T + i);
      stage(false, base, q0, flat);
      workgroupBarrier();
      var P = 0.0;
      if (ok) {
        var dot = 0.0;
        for (var d = 0u; d < HS; d++) { dot = fma(tile[c * ld + d], k[kvRow + d], dot); }
        P = exp(dot * params.scale - stats[st]);
      }
      Ps[c * TILE + r] = P;
      workgroupBarrier();

      stage(true, base, q0, flat);
      workgroupBarrier();
      var dS = 0.0;
      if (ok) {
        var dP = 0.0;
        for (var d = 0u; d < HS; d++) { dP = fma(tile[c * ld + d], v[kvRow + d], dP); }
        dS = P * (dP - stats[st + 1u]);
      }
      dSs[c * TILE + r] = dS;
      for (var j = 0u; j < TILE; j++) {
        let p = Ps[j * TILE + r];
        for (var e = 0u; e < 8u; e++) {
          let d = c + TILE * e;
          if (d < HS) { dvAcc[e] = fma(p, tile[j * ld + d], dvAcc[e]); }
        }
      }
      workgroupBarrier();

      stage(false, base, q0, flat);
      workgroupBarrier();
      for (var j = 0u; j < TILE; j++) {
        let ds = dSs[j * TILE + r];
        for (var e = 0u; e < 8u; e++) {
          let d = c + TILE * e;
          if (d < HS) { dkAcc[e] = fma(ds, tile[j * ld + d], dkAcc[e]); }
        }
      }
      workgroupBarrier();
    }
  }

  if (s >= T) { return; }
  for (var e = 0u; e < 8u; e++) {
    let d = c + TILE * e;
    if (d < HS) {
      dk[kvRow + d] = dkAcc[e] * params.scale;
      dv[kvRow + d] = dvAcc[e];
    }
  }
}
