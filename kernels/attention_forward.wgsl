// attention_forward: out[b,t,h] = Σ_s P[t,s] v[b,s,h/G], P[t,:] = softmax over allowed s of scale·q[b,t,h]·k[b,s,h/G];
//   lse[b,h,t] = log Σ_allowed exp(scale·q·k). Allowed: s ≤ t and seg[b,s] = seg[b,t] ≥ 0 (G = NH/NKV).
//   Padding rows (seg −1): out = 0, lse = LSE_PAD. FlashAttention-2 online softmax: memory O(T·HS).
// Bindings (group 0):
//   0 q      storage read        f32  (B, T, NH, HS)
//   1 k      storage read        f32  (B, T, NKV, HS)
//   2 v      storage read        f32  (B, T, NKV, HS)
//   3 seg    storage read        i32  (B, T)
//   4 out    storage read_write  f32  (B, T, NH, HS)
//   5 lse    storage read_write  f32  (B, NH, T)
//   6 params uniform             Params
// Work: a workgroup of 16×16 invocations owns 16 query rows of one (b, h) and streams 16-key tiles, k then
//   v, through one workgroup tile (16 × (HS+1) f32: ≤ 8.1 KiB, padded against bank conflicts) beside 16×16
//   scores and probabilities (2 KiB). Invocation (c, r): score and probability of row r with key c of the
//   tile (q read from global memory), then out[r, d] for d = c + 16i. The 16 lanes of a row keep the same
//   running max (each reads the row's scores) and each its share of the row sum, added in lane order at
//   the end. Tiles no (row, key) pair may see are skipped (a workgroup flag: causal, other segments).
//   Dispatch (ceil(T/16), NH, B).
// Writes `=`. Limits: HS ≤ 128 (16-key tiles: k and v side by side, 2 × 8.1 KiB, would pass the 16 KiB
//   default, so they take turns); ceil(T/16), NH, B ≤ 65535; scores above −1e30 (the mask value).

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
@group(0) @binding(3) var<storage, read> seg: array<i32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;
@group(0) @binding(5) var<storage, read_write> lse: array<f32>;
@group(0) @binding(6) var<uniform> params: Params;

const TILE: u32 = 16u;
const MASKED: f32 = -1e30;
const LSE_PAD: f32 = 0.0;

var<workgroup> tile: array<f32, 2064>;  // [16][HS + 1]: the k tile, then the v tile
var<workgroup> S: array<f32, 256>;      // [row][key] scaled scores, MASKED where not allowed
var<workgroup> P: array<f32, 256>;      // [row][key] exp(score − running max), 0 where not allowed
var<workgroup> anyBits: atomic<u32>;
var<workgroup> live: u32;

// Stage tokens s0..s0+15 of one kv head of k (or v) as tile[j * (HS+1) + d], zero past T.
fn stage(fromV: bool, base: u32, stride: u32, s0: u32, flat: u32) {
  let HS = params.HS;
  for (var i = flat; i < TILE * HS; i += TILE * TILE) {
    let j = i / HS;
    let d = i % HS;
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
  let qBase = ((b * T + t) * params.NH + h) * HS;
  let stride = params.NKV * HS;                                  // between tokens of k / v
  let kvBase = b * T * stride + (h / (params.NH / params.NKV)) * HS;

  var m = MASKED;
  var l = 0.0;
  var acc: array<f32, 8>;                                         // out[t, c + 16i]
  let kEnd = min(T, q0 + TILE);
  for (var k0 = 0u; k0 < kEnd; k0 += TILE) {
    let s = k0 + c;
    var ok = false;
    if (qseg >= 0 && s <= t) { ok = seg[b * T + s] == qseg; }
    if (ok) { atomicOr(&anyBits, 1u); }
    workgroupBarrier();
    if (flat == 0u) { live = atomicExchange(&anyBits, 0u); }
    if (workgroupUniformLoad(&live) == 0u) { continue; }        // nothing visible in this tile

    stage(false, kvBase, stride, k0, flat);
    workgroupBarrier();
    var sc = MASKED;
    if (ok) {
      var dot = 0.0;
      for (var d = 0u; d < HS; d++) { dot = fma(q[qBase + d], tile[c * ld + d], dot); }
      sc = dot * params.scale;
    }
    S[r * TILE + c] = sc;
    workgroupBarrier();

    stage(true, kvBase, stride, k0, flat);
    var mNew = m;
    for (var j = 0u; j < TILE; j++) { mNew = max(mNew, S[r * TILE + j]); }
    let corr = exp(m - mNew);                                     // 0 on the first visible tile
    m = mNew;
    var p = 0.0;
    if (sc != MASKED) { p = exp(sc - m); }                        // this lane's key only
    P[r * TILE + c] = p;
    l = l * corr + p;                                             // this lane's share of the row sum
    for (var i = 0u; i < 8u; i++) { acc[i] *= corr; }
    workgroupBarrier();
    for (var j = 0u; j < TILE; j++) {
      let pj = P[r * TILE + j];
      for (var i = 0u; i < 8u; i++) {
        let d = c + TILE * i;
        if (d < HS) { acc[i] = fma(pj, tile[j * ld + d], acc[i]); }
      }
    }
    workgroupBarrier();
  }

  S[flat] = l;                                                    // the row sum: lane shares in lane order
  workgroupBarrier();
  l = 0.0;
  for (var j = 0u; j < TILE; j++) { l += S[r * TILE + j]; }

  if (t >= T) { return; }
  var inv = 0.0;                                                  // padding rows: l = 0, out = 0
  if (l > 0.0) { inv = 1.0 / l; }
  for (var i = 0u; i < 8u; i++) {
    let d = c + TILE * i;
    if (d < HS) { out[qBase + d] = acc[i] * inv; }
  }
  if (c == 0u) {
    var v_lse = LSE_PAD;
    if (l > 0.0) { v_lse = m + log(l); }
    lse[(b * params.NH + h) * T + t] = v_lse;
  }
}
