// attention_backward_dkdv: for key s of kv head j (query heads h = jG .. jG+G−1, allowed pairs as in the forward):
//   P[t,s] = exp(scale·q[t,h]·k[s] − lse[h,t]), dS = P (dout[t,h]·v[s] − D[h,t]),
//   dv[s] = Σ_h Σ_t P dout[t,h],  dk[s] = scale Σ_h Σ_t dS q[t,h]   (FlashAttention-2 backward, key side).
// Bindings (group 0):
//   0 q      storage read        vec4<f32> (B, T, NH, HS/4)
//   1 k      storage read        vec4<f32> (B, T, NKV, HS/4)
//   2 v      storage read        vec4<f32> (B, T, NKV, HS/4)
//   3 dout   storage read        vec4<f32> (B, T, NH, HS/4)
//   4 stats  storage read        f32       (B, NH, T, 2): (lse, D) from attention_backward_prep
//   5 seg    storage read        i32       (B, T)
//   6 dk     storage read_write  vec4<f32> (B, T, NKV, HS/4)
//   7 dv     storage read_write  vec4<f32> (B, T, NKV, HS/4)
//   8 params uniform             Params
// Work: a workgroup of 64 invocations owns 256 keys of one (b, kv head), 4 per invocation (k scaled and
//   v rows, dk and dv accumulators [d][key] in registers). It walks the query rows ρ = t·G + g (every
//   head of the group) from its first key's query on, in tiles of QT = min(64, 256/(HS/4)) rows whose
//   q and dout fill 8 KiB of workgroup memory; between two barriers an invocation takes 4 rows × its 4
//   keys per step (scores, dout·v, then P and dS, masked to 0), then adds P·dout and dS·q, 4 keys per
//   q / dout read. Fixed order: deterministic, no atomics. Dispatch (ceil(T / 256), NKV, B).
// Writes `=`. Limits: HS % 4 = 0, HS ≤ 128; ceil(T/256), NKV, B ≤ 65535.

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
@group(0) @binding(6) var<storage, read_write> dk: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> dv: array<vec4<f32>>;
@group(0) @binding(8) var<uniform> params: Params;

override HS4: u32 = 16u;  // HS / 4

const NONE: i32 = 0x7fffffff;

var<workgroup> qo: array<vec4<f32>, 512>;  // [QT][HS/4] q tile, then [QT][HS/4] dout tile

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let T = params.T;
  let NH = params.NH;
  let G = NH / params.NKV;
  let b = wid.z;
  let hk = wid.y;
  let QT = min(64u, 256u / HS4);
  let s0 = (wid.x * 64u + li) * 4u;                            // this invocation's first key
  var kpos = vec4(NONE);                                       // key positions; NONE: no key
  var kseg = vec4(-2);
  for (var c = 0u; c < 4u; c++) {
    if (s0 + c < T) {
      kpos[c] = i32(s0 + c);
      kseg[c] = seg[b * T + s0 + c];
    }
  }
  var kr: array<mat4x4<f32>, 32>;                              // [d]: column c = key c's k[4d..4d+3], pre-scaled
  var vr: array<mat4x4<f32>, 32>;                              // [d]: column c = key c's v[4d..4d+3]
  for (var d = 0u; d < HS4; d++) {
    for (var c = 0u; c < 4u; c++) {
      if (kpos[c] != NONE) {
        let o = ((b * T + s0 + c) * params.NKV + hk) * HS4 + d;
        kr[d][c] = k[o] * params.scale;
        vr[d][c] = v[o];
      }
    }
  }
  var dkAcc: array<mat4x4<f32>, 32>;                           // [d]: column c = key c's dk, dv [4d..4d+3]
  var dvAcc: array<mat4x4<f32>, 32>;
  var pp: array<vec4<f32>, 64>;                                // [row of the tile]: P for the 4 keys
  var dd: array<vec4<f32>, 64>;                                // [row of the tile]: dS for the 4 keys
  let rows = T * G;
  for (var r0 = wid.x * 256u * G; r0 < rows; r0 += QT) {       // queries before the first key see none
    for (var e = li; e < 2u * QT * HS4; e += 64u) {
      let tileO = e >= QT * HS4;
      let f = e % (QT * HS4);
      let rho = r0 + f / HS4;
      var x = vec4(0.0);
      if (rho < rows) {
        let o = ((b * T + rho / G) * NH + hk * G + rho % G) * HS4 + f % HS4;
        if (tileO) { x = dout[o]; } else { x = q[o]; }
      }
      qo[e] = x;
    }
    workgroupBarrier();
    let nr = min(QT, rows - r0);
    if (s0 < T && (r0 + nr - 1u) / G >= s0) {                  // some row of the tile may see a key
      for (var j = 0u; j < nr; j += 4u) {                      // 4 rows × 4 keys per step
        let jj = vec4(j, min(j + 1u, nr - 1u), min(j + 2u, nr - 1u), min(j + 3u, nr - 1u));
        var s = array<vec4<f32>, 4>();                         // [row]: scores of the 4 keys
        var p = array<vec4<f32>, 4>();                         // [row]: dout·v of the 4 keys
        for (var d = 0u; d < HS4; d++) {                       // q · K and dout · V: the 4 keys' dot products
          let K = kr[d];
          s[0] += qo[jj.x * HS4 + d] * K;
          s[1] += qo[jj.y * HS4 + d] * K;
          s[2] += qo[jj.z * HS4 + d] * K;
          s[3] += qo[jj.w * HS4 + d] * K;
          let V = vr[d];
          p[0] += qo[(QT + jj.x) * HS4 + d] * V;
          p[1] += qo[(QT + jj.y) * HS4 + d] * V;
          p[2] += qo[(QT + jj.z) * HS4 + d] * V;
          p[3] += qo[(QT + jj.w) * HS4 + d] * V;
        }
        for (var i = 0u; i < 4u; i++) {
          let rho = r0 + jj[i];
          let t = rho / G;
          let qseg = seg[b * T + t];
          let st = 2u * ((b * NH + hk * G + rho % G) * T + t);
          let ok = (kpos <= vec4(i32(t))) & (kseg == vec4(qseg)) & vec4(qseg >= 0 && j + i < nr);
          let P = select(vec4(0.0), exp(s[i] - stats[st]), ok);
          pp[j + i] = P;
          dd[j + i] = P * (p[i] - stats[st + 1u]);
        }
      }
      for (var d = 0u; d < HS4; d++) {                         // dv += Σ_j P[j] dout[j], dk += Σ_j dS[j] q[j], per key
        var DV = dvAcc[d];
        var DK = dkAcc[d];
        for (var j = 0u; j < nr; j++) {
          let x = qo[(QT + j) * HS4 + d];
          let P = pp[j];
          DV += mat4x4(x * P.x, x * P.y, x * P.z, x * P.w);
          let y = qo[j * HS4 + d];
          let g = dd[j];
          DK += mat4x4(y * g.x, y * g.y, y * g.z, y * g.w);
        }
        dvAcc[d] = DV;
        dkAcc[d] = DK;
      }
    }
    workgroupBarrier();
  }

  for (var c = 0u; c < 4u; c++) {
    if (s0 + c >= T) { break; }
    let o = ((b * T + s0 + c) * params.NKV + hk) * HS4;
    for (var d = 0u; d < HS4; d++) {
      dk[o + d] = dkAcc[d][c] * params.scale;
      dv[o + d] = dvAcc[d][c];
    }
  }
}
