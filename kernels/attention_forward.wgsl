// attention_forward: out[b,t,h] = Σ_s P[t,s] v[b,s,h/G], P[t,:] = softmax over allowed s of scale·q[b,t,h]·k[b,s,h/G];
//   lse[b,h,t] = log Σ_allowed exp(scale·q·k). Allowed: s ≤ t and seg[b,s] = seg[b,t] ≥ 0 (G = NH/NKV).
//   Padding rows (seg −1): out = 0, lse = LSE_PAD. FlashAttention-2 online softmax: memory O(T·HS).
// Bindings (group 0):
//   0 q      storage read        vec4<f32> (B, T, NH, HS/4)
//   1 k      storage read        vec4<f32> (B, T, NKV, HS/4)
//   2 v      storage read        vec4<f32> (B, T, NKV, HS/4)
//   3 seg    storage read        i32       (B, T)
//   4 out    storage read_write  vec4<f32> (B, T, NH, HS/4)
//   5 lse    storage read_write  f32       (B, NH, T)
//   6 params uniform             Params
// Work: a workgroup of 64 invocations owns 256 query rows of one (b, kv head), rows ρ = t·G + g (query t,
//   head g of the group), 4 per invocation: the G heads of a query share keys and mask. Per tile of KT
//   keys (KT = min(64, 256/(HS/4)): the k and v tiles fill 8 KiB of workgroup memory, staged by all)
//   each invocation, between two barriers, scores 4 keys × its 4 rows per step (q rows, scaled, and
//   the accumulators [d][row] in registers), masks, takes the tile max, rescales acc once, and adds
//   e^(score−m)·v for its 4 rows per v read. Tiles past the workgroup's last query are not visited.
//   Dispatch (ceil(T·G / 256), NKV, B).
// Writes `=`. Limits: HS % 4 = 0, HS ≤ 128; ceil(T·G/256), NKV, B ≤ 65535; scores above −1e30 (the mask).

struct Params {
  T: u32,
  NH: u32,
  NKV: u32,
  scale: f32,
}

@group(0) @binding(0) var<storage, read> q: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> k: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> v: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> seg: array<i32>;
@group(0) @binding(4) var<storage, read_write> out: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> lse: array<f32>;
@group(0) @binding(6) var<uniform> params: Params;

override HS4: u32 = 16u;  // HS / 4

const MASKED: f32 = -1e30;
const LSE_PAD: f32 = 0.0;

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
  for (var r = 0u; r < 4u; r++) {
    let rho = (wid.x * 64u + li) * 4u + r;
    if (rho < T * G) {
      let t = rho / G;
      rowOf[r] = (b * T + t) * NH + hk * G + rho % G;
      rseg[r] = seg[b * T + t];
      if (rseg[r] >= 0) { tpos[r] = i32(t); }
    }
  }
  var qr: array<mat4x4<f32>, 32>;                              // [d]: column r = row r's q[4d..4d+3], pre-scaled
  for (var d = 0u; d < HS4; d++) {
    for (var r = 0u; r < 4u; r++) {
      if (tpos[r] >= 0) { qr[d][r] = q[rowOf[r] * HS4 + d] * params.scale; }
    }
  }
  var acc: array<mat4x4<f32>, 32>;                             // [d]: column r = row r's out[4d..4d+3]
  var sc: array<vec4<f32>, 64>;                                // [key of the tile]: the 4 rows' scores, then e^(score − m)
  var m = vec4(MASKED);
  var l = vec4(0.0);
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
      var mc = vec4(MASKED);
      for (var j = 0u; j < nk; j += 4u) {                       // 4 keys × 4 rows per step
        let j1 = min(j + 1u, nk - 1u);                         // keys past the end repeat the last one
        let j2 = min(j + 2u, nk - 1u);
        let j3 = min(j + 3u, nk - 1u);
        var s0 = vec4(0.0);
        var s1 = vec4(0.0);
        var s2 = vec4(0.0);
        var s3 = vec4(0.0);
        for (var d = 0u; d < HS4; d++) {                       // k · Q: the 4 rows' dot products
          let Q = qr[d];
          s0 += kv[j * HS4 + d] * Q;
          s1 += kv[j1 * HS4 + d] * Q;
          s2 += kv[j2 * HS4 + d] * Q;
          s3 += kv[j3 * HS4 + d] * Q;
        }
        let key = i32(k0 + j);
        let sb = b * T + k0;
        s0 = select(vec4(MASKED), s0, (vec4(key) <= tpos) & (vec4(seg[sb + j]) == rseg));
        s1 = select(vec4(MASKED), s1, (vec4(key + 1) <= tpos) & (vec4(seg[sb + j1]) == rseg) & vec4(j + 1u < nk));
        s2 = select(vec4(MASKED), s2, (vec4(key + 2) <= tpos) & (vec4(seg[sb + j2]) == rseg) & vec4(j + 2u < nk));
        s3 = select(vec4(MASKED), s3, (vec4(key + 3) <= tpos) & (vec4(seg[sb + j3]) == rseg) & vec4(j + 3u < nk));
        sc[j] = s0;
        sc[j + 1u] = s1;
        sc[j + 2u] = s2;
        sc[j + 3u] = s3;
        mc = max(max(mc, max(s0, s1)), max(s2, s3));
      }
      let mNew = max(m, mc);
      let corr = exp(m - mNew);                                // 0 on the first visible tile
      m = mNew;
      var lc = vec4(0.0);
      for (var j = 0u; j < nk; j++) {
        let p = select(vec4(0.0), exp(sc[j] - m), sc[j] > vec4(MASKED));
        sc[j] = p;
        lc += p;
      }
      l = fma(l, corr, lc);
      for (var d = 0u; d < HS4; d++) {                         // acc = corr·acc + Σ_j p[j] v[j], per row
        let A = acc[d];
        var a0 = A[0] * corr.x;
        var a1 = A[1] * corr.y;
        var a2 = A[2] * corr.z;
        var a3 = A[3] * corr.w;
        for (var j = 0u; j < nk; j++) {
          let x = kv[(KT + j) * HS4 + d];
          let p = sc[j];
          a0 = fma(vec4(p.x), x, a0);
          a1 = fma(vec4(p.y), x, a1);
          a2 = fma(vec4(p.z), x, a2);
          a3 = fma(vec4(p.w), x, a3);
        }
        acc[d] = mat4x4(a0, a1, a2, a3);
      }
    }
    workgroupBarrier();
  }

  for (var r = 0u; r < 4u; r++) {
    let rho = (wid.x * 64u + li) * 4u + r;
    if (rho >= T * G) { break; }
    var inv = 0.0;                                             // padding rows: l = 0, out = 0
    if (l[r] > 0.0) { inv = 1.0 / l[r]; }
    for (var d = 0u; d < HS4; d++) { out[rowOf[r] * HS4 + d] = acc[d][r] * inv; }
    var x = LSE_PAD;
    if (l[r] > 0.0) { x = m[r] + log(l[r]); }
    lse[(b * NH + hk * G + rho % G) * T + rho / G] = x;
  }
}
