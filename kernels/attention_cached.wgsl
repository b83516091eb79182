// attention_cached: out[b,i,h] = Σ_{s ≤ p} P[s] vCache[b,s,h/G], P = softmax_{s ≤ p}(scale·q[b,i,h]·kCache[b,s,h/G]),
//   p = len[b] − TQ + i (the query's position); rows with p < 0 give 0. Decode (TQ = 1) and chunked prefill.
// Bindings (group 0):
//   0 q      storage read        f32  (B, TQ, NH, HS)
//   1 kCache storage read        f32  (B, S, NKV, HS)
//   2 vCache storage read        f32  (B, S, NKV, HS)
//   3 len    storage read        i32  (B): valid cache length, new tokens included
//   4 out    storage read_write  f32  (B, TQ, NH, HS)
//   5 params uniform             Params
// Work: a workgroup of 16×16 invocations owns one (b, kv head) and 16 of its TQ·G rows, row ρ = i·G + g
//   (query i, head h = jG + g): the G heads of a group share each k/v tile, so decode reads the cache
//   once per kv head. It streams 16-position tiles, k then v, through one workgroup tile (16 × (HS+1) f32,
//   ≤ 8.1 KiB) beside scores and probabilities (2 KiB), with the online softmax and invocation roles of
//   attention_forward, up to its last row's position. Dispatch (ceil(TQ·G/16), NKV, B).
// Writes `=`. Limits: HS ≤ 128; ceil(TQ·G/16), NKV, B ≤ 65535; len[b] is clamped to S.

struct Params {
  TQ: u32,
  S: u32,
  NH: u32,
  NKV: u32,
  HS: u32,
  scale: f32,
}

@group(0) @binding(0) var<storage, read> q: array<f32>;
@group(0) @binding(1) var<storage, read> kCache: array<f32>;
@group(0) @binding(2) var<storage, read> vCache: array<f32>;
@group(0) @binding(3) var<storage, read> len: array<i32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;
@group(0) @binding(5) var<uniform> params: Params;

const TILE: u32 = 16u;
const MASKED: f32 = -1e30;

var<workgroup> tile: array<f32, 2064>;  // [16][HS + 1]: the k tile, then the v tile
var<workgroup> S: array<f32, 256>;      // [row][key] scaled scores, MASKED where not visible
var<workgroup> P: array<f32, 256>;      // [row][key] exp(score − running max), 0 where not visible

// Stage positions s0..s0+15 of one kv head of the k (or v) cache as tile[j * (HS+1) + d], zero past S.
fn stage(fromV: bool, base: u32, stride: u32, s0: u32, flat: u32) {
  let HS = params.HS;
  for (var e = flat; e < TILE * HS; e += TILE * TILE) {
    let j = e / HS;
    let d = e % HS;
    var x = 0.0;
    if (s0 + j < params.S) {
      let o = base + (s0 + j) * stride + d;
      if (fromV) { x = vCache[o]; } else { x = kCache[o]; }
    }
    tile[j * (HS + 1u) + d] = x;
  }
}

@compute @workgroup_size(16, 16, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let HS = params.HS;
  let ld = HS + 1u;
  let c = lid.x;
  let r = lid.y;
  let flat = r * TILE + c;
  let b = wid.z;
  let hk = wid.y;
  let G = params.NH / params.NKV;
  let rows = params.TQ * G;
  let rho = wid.x * TILE + r;
  let i = rho / G;
  let h = hk * G + rho % G;
  let n = min(len[b], i32(params.S));
  let pos = n - i32(params.TQ) + i32(i);                          // this row's position
  let valid = rho < rows && pos >= 0;
  let qBase = ((b * params.TQ + i) * params.NH + h) * HS;
  let stride = params.NKV * HS;
  let kvBase = b * params.S * stride + hk * HS;
  let last = min(wid.x * TILE + TILE, rows) - 1u;                 // the block's last row
  let kEnd = u32(clamp(n - i32(params.TQ) + i32(last / G) + 1, 0, i32(params.S)));

  var m = MASKED;
  var l = 0.0;
  var acc: array<f32, 8>;                                         // out[row, c + 16e]
  for (var k0 = 0u; k0 < kEnd; k0 += TILE) {
    let s = k0 + c;
    stage(false, kvBase, stride, k0, flat);
    workgroupBarrier();
    var sc = MASKED;
    if (valid && i32(s) <= pos) {
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
    for (var e = 0u; e < 8u; e++) { acc[e] *= corr; }
    workgroupBarrier();
    for (var j = 0u; j < TILE; j++) {
      let pj = P[r * TILE + j];
      for (var e = 0u; e < 8u; e++) {
        let d = c + TILE * e;
        if (d < HS) { acc[e] = fma(pj, tile[j * ld + d], acc[e]); }
      }
    }
    workgroupBarrier();
  }

  S[flat] = l;                                                    // the row sum: lane shares in lane order
  workgroupBarrier();
  l = 0.0;
  for (var j = 0u; j < TILE; j++) { l += S[r * TILE + j]; }

  if (rho >= rows) { return; }
  var inv = 0.0;                                                  // rows before the cache: l = 0, out = 0
  if (l > 0.0) { inv = 1.0 / l; }
  for (var e = 0u; e < 8u; e++) {
    let d = c + TILE * e;
    if (d < HS) { out[qBase + d] = acc[e] * inv; }
  }
}
