// attention_backward_dq: dq[t,h] = scale Σ_s dS[t,s] k[s],  dS = P (dout[t,h]·v[s] − D[h,t]),
//   P = exp(scale·q[t,h]·k[s] − lse[h,t]) over allowed s (as in the forward; kv head h / G).
//   (FlashAttention-2 backward, query side.)
// Bindings (group 0):
//   0 q      storage read        vec4<f32> (B, T, NH, HS/4)
//   1 k      storage read        vec4<f32> (B, T, NKV, HS/4)
//   2 v      storage read        vec4<f32> (B, T, NKV, HS/4)
//   3 dout   storage read        vec4<f32> (B, T, NH, HS/4)
//   4 stats  storage read        f32       (B, NH, T, 2): (lse, D) from attention_backward_prep
//   5 seg    storage read        i32       (B, T)
//   6 dq     storage read_write  vec4<f32> (B, T, NH, HS/4)
//   7 params uniform             Params
// Work: as attention_forward: a workgroup of 64 invocations owns 256 query rows ρ = t·G + g of one
//   (b, kv head), 4 per invocation, and stages k and v tiles of KT = min(64, 256/(HS/4)) keys in
//   8 KiB of workgroup memory up to its last query. Between two barriers an invocation takes 4 keys ×
//   its 4 rows per step: scores (scaled q rows in registers) and dout·v, then P and dS (masked to 0),
//   and adds dS·k to its dq accumulators ([d][row]), 4 rows per k read. Dispatch (ceil(T·G / 256), NKV, B).
// Writes `=`. Limits: HS % 4 = 0, HS ≤ 128; ceil(T·G/256), NKV, B ≤ 65535.

struct Params {
  T: u32,
  NH: u32,
  NKV: u32,
  scale: f32,
}

@group(0) @binding(0) var<storage, read> q: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> k: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> v: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> dout: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> stats: array<f32>;
@group(0) @binding(5) var<storage, read> seg: array<i32>;
@group(0) @binding(6) var<storage, read_write> dq: array<vec4<f32>>;
@group(0) @binding(7) var<uniform> params: Params;

override HS4: u32 = 16u;  // HS / 4

var<workgroup> kv: array<vec4<f32>, 512>;  // [KT][HS/4] k tile, then [KT][HS/4] v tile

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let T = params.T;
  let NH = params.NH;
  let G = NH / params.NKV;
  let b = wid.z;
  let hk = wid.y;
  let KT = min(64u, 256u / HS4);
  var rowOf = vec4(0u);                                        // (b, t, h) of each row
  var tpos = vec4(-1);                                         // query position; −1: no row or padding
  var rseg = vec4(-2);
  var lse = vec4(0.0);
  var D = vec4(0.0);
  for (var r = 0u; r < 4u; r++) {
    let rho = (wid.x * 64u + li) * 4u + r;
    if (rho < T * G) {
      let t = rho / G;
      let h = hk * G + rho % G;
      rowOf[r] = (b * T + t) * NH + h;
      rseg[r] = seg[b * T + t];
      if (rseg[r] >= 0) { tpos[r] = i32(t); }
      let st = 2u * ((b * NH + h) * T + t);
      lse[r] = stats[st];
      D[r] = stats[st + 1u];
    }
  }
  var qr: array<mat4x4<f32>, 32>;                              // [d]: column r = row r's q[4d..4d+3], pre-scaled
  var dor: array<mat4x4<f32>, 32>;                             // [d]: column r = row r's dout[4d..4d+3]
  for (var d = 0u; d < HS4; d++) {
    for (var r = 0u; r < 4u; r++) {
      if (tpos[r] >= 0) {
        qr[d][r] = q[rowOf[r] * HS4 + d] * params.scale;
        dor[d][r] = dout[rowOf[r] * HS4 + d];
      }
    }
  }
  var acc: array<mat4x4<f32>, 32>;                             // [d]: column r = row r's dq[4d..4d+3]
  var ds: array<vec4<f32>, 64>;                                // [key of the tile]: the 4 rows' dS
  let myEnd = max(max(tpos.x, tpos.y), max(tpos.z, tpos.w)) + 1;
  let wgEnd = min(T, (wid.x * 256u + 255u) / G + 1u);          // keys the workgroup's last query may see
  for (var k0 = 0u; k0 < wgEnd; k0 += KT) {
    for (var e = li; e < 2u * KT * HS4; e += 64u) {
      let tileV = e >= KT * HS4;
      let f = e % (KT * HS4);
      let s = k0 + f / HS4;
      var x = vec4(0.0);
      if (s < T) {
        let o = ((b * T + s) * params.NKV + hk) * HS4 + f % HS4;
        if (tileV) { x = v[o]; } else { x = k[o]; }
      }
      kv[e] = x;
    }
    workgroupBarrier();
    let nk = u32(clamp(myEnd - i32(k0), 0, i32(KT)));
    if (nk > 0u) {
      for (var j = 0u; j < nk; j += 4u) {                      // 4 keys × 4 rows per step
        var jj = vec4(j, min(j + 1u, nk - 1u), min(j + 2u, nk - 1u), min(j + 3u, nk - 1u));
        var s0 = vec4(0.0);                                    // scores of key j (4 rows), then P
        var s1 = vec4(0.0);
        var s2 = vec4(0.0);
        var s3 = vec4(0.0);
        var p0 = vec4(0.0);                                    // dout·v of key j (4 rows)
        var p1 = vec4(0.0);
        var p2 = vec4(0.0);
        var p3 = vec4(0.0);
        for (var d = 0u; d < HS4; d++) {                       // k · Q and v · dO: the 4 rows' dot products
          let Q = qr[d];
          s0 += kv[jj.x * HS4 + d] * Q;
          s1 += kv[jj.y * HS4 + d] * Q;
          s2 += kv[jj.z * HS4 + d] * Q;
          s3 += kv[jj.w * HS4 + d] * Q;
          let O = dor[d];
          p0 += kv[(KT + jj.x) * HS4 + d] * O;
          p1 += kv[(KT + jj.y) * HS4 + d] * O;
          p2 += kv[(KT + jj.z) * HS4 + d] * O;
          p3 += kv[(KT + jj.w) * HS4 + d] * O;
        }
        let key = vec4(i32(k0 + j)) + vec4(0, 1, 2, 3);
        let sb = b * T + k0;
        let ks = vec4(seg[sb + jj.x], seg[sb + jj.y], seg[sb + jj.z], seg[sb + jj.w]);
        let live = vec4(j, j + 1u, j + 2u, j + 3u) < vec4(nk);
        ds[j] = select(vec4(0.0), exp(s0 - lse) * (p0 - D), (vec4(key.x) <= tpos) & (vec4(ks.x) == rseg));
        ds[j + 1u] = select(vec4(0.0), exp(s1 - lse) * (p1 - D), (vec4(key.y) <= tpos) & (vec4(ks.y) == rseg) & vec4(live.y));
        ds[j + 2u] = select(vec4(0.0), exp(s2 - lse) * (p2 - D), (vec4(key.z) <= tpos) & (vec4(ks.z) == rseg) & vec4(live.z));
        ds[j + 3u] = select(vec4(0.0), exp(s3 - lse) * (p3 - D), (vec4(key.w) <= tpos) & (vec4(ks.w) == rseg) & vec4(live.w));
      }
      for (var d = 0u; d < HS4; d++) {                         // acc += Σ_j dS[j] k[j], per row
        var A = acc[d];
        for (var j = 0u; j < nk; j++) {
          let x = kv[j * HS4 + d];
          let g = ds[j];
          A += mat4x4(x * g.x, x * g.y, x * g.z, x * g.w);
        }
        acc[d] = A;
      }
    }
    workgroupBarrier();
  }

  for (var r = 0u; r < 4u; r++) {
    if ((wid.x * 64u + li) * 4u + r >= T * G) { break; }
    for (var d = 0u; d < HS4; d++) { dq[rowOf[r] * HS4 + d] = acc[d][r] * params.scale; }
  }
}
