// attention_cached: out[b,i,h] = Σ_{s ≤ p} P[s] vCache[b,s,h/G], P = softmax_{s ≤ p}(scale·q[b,i,h]·kCache[b,s,h/G]),
//   p = len[b] − TQ + i (the query's position); rows with p < 0 give 0. Decode (TQ = 1) and chunked prefill.
//   Flash-decoding: the cache is cut into nsplit spans; pass 1 (COMBINE = false) gives per span the
//   partial state (m = max score, l = Σ e^(score−m), acc = Σ e^(score−m)·v); pass 2 (COMBINE = true)
//   merges the spans in span order: out = Σ e^(m_s−M) acc_s / Σ e^(m_s−M) l_s, M = max m_s.
// Bindings (group 0):
//   0 q      storage read        vec4<f32> (B, TQ, NH, HS/4)
//   1 kCache storage read        vec4<f32> (B, S, NKV, HS/4)
//   2 vCache storage read        vec4<f32> (B, S, NKV, HS/4)
//   3 len    storage read        i32       (B): valid cache length, new tokens included
//   4 part   storage read_write  vec4<f32> (B, TQ, NH, nsplit, HS/4 + 1): acc, then (m, l, 0, 0)
//   5 out    storage read_write  vec4<f32> (B, TQ, NH, HS/4); written by pass 2 only
//   6 params uniform             Params
// Work: workgroups of 64 invocations, no barriers. Pass 1: one invocation per (b, kv head, block of 4
//   query rows, span); rows ρ = i·G + g (query i, head g of the kv head) are packed 4 at a time, so
//   decode reads each k and v row once for G heads and prefill for up to 4 (query, head) pairs. It keeps
//   the 4 rows' scaled q and accumulators ([d][row] vec4s, ≤ 2 × 2 KiB) and walks its span up to the
//   block's last position in chunks of 32 keys: scores of 4 keys × 4 rows per step from vec4 loads of k
//   (held in registers), masked past each row's own position; the chunk max; one rescale of acc per
//   chunk; then acc += e^(score−m)·v, 4 rows per v load. Spans past a row's position leave it empty
//   (l = 0). Pass 2: one invocation per (b, i, h, 4 output columns), nsplit steps in span order.
//   Dispatch (min(W, 65535), ceil(W / 65535)), W = ceil(count / 64), count = B·NKV·nblk·nsplit with
//   nblk = ceil(TQ·G / 4) (pass 1), or B·TQ·NH·HS/4 (pass 2); index = (wid.y·num_workgroups.x + wid.x)·64 + li.
// Writes `=` (part, then out). Limits: HS % 4 = 0, HS ≤ 128; count < 2³²; len[b] is clamped to S;
//   scores above −1e30 (the mask value). attention_cached.ts picks span and nsplit from the shapes alone.

struct Params {
  count: u32,
  TQ: u32,
  S: u32,
  NH: u32,
  NKV: u32,
  nblk: u32,
  nsplit: u32,
  span: u32,
  scale: f32,
}

@group(0) @binding(0) var<storage, read> q: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> kCache: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> vCache: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> len: array<i32>;
@group(0) @binding(4) var<storage, read_write> part: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> out: array<vec4<f32>>;
@group(0) @binding(6) var<uniform> params: Params;

override COMBINE: bool = false;
override HS4: u32 = 16u;  // HS / 4

const CH: u32 = 32u;      // keys per chunk (one rescale per chunk)
const MASKED: f32 = -1e30;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = (wid.y * nwg.x + wid.x) * 64u + li;
  if (idx >= params.count) { return; }
  if (COMBINE) { combine(idx); } else { partial(idx); }
}

fn partial(idx: u32) {
  let NH = params.NH;
  let G = NH / params.NKV;
  let sp = idx % params.nsplit;
  var rest = idx / params.nsplit;
  let blk = rest % params.nblk;
  rest /= params.nblk;
  let hk = rest % params.NKV;
  let b = rest / params.NKV;
  let n = min(len[b], i32(params.S));
  var rowOf = vec4(0u);                                        // the block's rows as indices into out / q
  var pos = vec4(-1);                                          // their positions (−1: no row)
  for (var r = 0u; r < 4u; r++) {
    let rho = blk * 4u + r;                                    // ρ = i·G + g within (b, kv head)
    if (rho < params.TQ * G) {
      let i = rho / G;
      rowOf[r] = (b * params.TQ + i) * NH + hk * G + rho % G;
      pos[r] = n - i32(params.TQ) + i32(i);
    }
  }
  let k0 = sp * params.span;
  let kEnd = u32(clamp(max(max(pos.x, pos.y), max(pos.z, pos.w)) + 1, 0, i32(min(k0 + params.span, params.S))));

  let last = min(pos, vec4(i32(kEnd) - 1));                    // a row sees keys up to its position, in this span

  var qr: array<mat4x4<f32>, 32>;                              // [d]: column r = row r's q[4d..4d+3], pre-scaled
  for (var d = 0u; d < HS4; d++) {
    for (var r = 0u; r < 4u; r++) {
      if (pos[r] >= 0) { qr[d][r] = q[rowOf[r] * HS4 + d] * params.scale; }
    }
  }
  var acc: array<mat4x4<f32>, 32>;                             // [d]: column r = row r's acc[4d..4d+3]
  var m = vec4(MASKED);                                        // per row
  var l = vec4(0.0);
  var sc: array<vec4<f32>, 32>;                                // [key of the chunk]: the 4 rows' scores, then e^(score − m)
  let stride = params.NKV * HS4;                               // between positions of the cache
  let kv0 = (b * params.S * params.NKV + hk) * HS4;
  for (var c0 = k0; c0 < kEnd; c0 += CH) {
    let nk = min(CH, kEnd - c0);
    var mc = vec4(MASKED);
    for (var j = 0u; j < nk; j += 4u) {                         // 4 keys × 4 rows per step
      let o0 = kv0 + (c0 + j) * stride;
      let o1 = kv0 + (c0 + min(j + 1u, nk - 1u)) * stride;     // keys past the end repeat the last one
      let o2 = kv0 + (c0 + min(j + 2u, nk - 1u)) * stride;
      let o3 = kv0 + (c0 + min(j + 3u, nk - 1u)) * stride;
      var s0 = vec4(0.0);
      var s1 = vec4(0.0);
      var s2 = vec4(0.0);
      var s3 = vec4(0.0);
      for (var d = 0u; d < HS4; d++) {                         // k · Q: the 4 rows' dot products
        let Q = qr[d];
        s0 += kCache[o0 + d] * Q;
        s1 += kCache[o1 + d] * Q;
        s2 += kCache[o2 + d] * Q;
        s3 += kCache[o3 + d] * Q;
      }
      let key = vec4(i32(c0 + j));
      s0 = select(vec4(MASKED), s0, key <= last);
      s1 = select(vec4(MASKED), s1, key + 1 <= last);
      s2 = select(vec4(MASKED), s2, key + 2 <= last);
      s3 = select(vec4(MASKED), s3, key + 3 <= last);
      sc[j] = s0;
      sc[j + 1u] = s1;
      sc[j + 2u] = s2;
      sc[j + 3u] = s3;
      mc = max(max(mc, max(s0, s1)), max(s2, s3));
    }
    let mNew = max(m, mc);
    let corr = exp(m - mNew);                                  // 0 on the first chunk
    m = mNew;
    var lc = vec4(0.0);
    for (var j = 0u; j < nk; j++) {
      let p = select(vec4(0.0), exp(sc[j] - m), sc[j] > vec4(MASKED));
      sc[j] = p;
      lc += p;
    }
    l = fma(l, corr, lc);
    for (var d = 0u; d < HS4; d++) {                           // acc = corr·acc + Σ_j p[j] v[j], per row
      let A = acc[d];
      var a0 = A[0] * corr.x;
      var a1 = A[1] * corr.y;
      var a2 = A[2] * corr.z;
      var a3 = A[3] * corr.w;
      for (var j = 0u; j < nk; j++) {
        let v = vCache[kv0 + (c0 + j) * stride + d];
        let p = sc[j];
        a0 = fma(vec4(p.x), v, a0);
        a1 = fma(vec4(p.y), v, a1);
        a2 = fma(vec4(p.z), v, a2);
        a3 = fma(vec4(p.w), v, a3);
      }
      acc[d] = mat4x4(a0, a1, a2, a3);
    }
  }
  for (var r = 0u; r < 4u; r++) {
    if (blk * 4u + r >= params.TQ * G) { break; }
    let o = (rowOf[r] * params.nsplit + sp) * (HS4 + 1u);
    for (var d = 0u; d < HS4; d++) { part[o + d] = acc[d][r]; }
    part[o + HS4] = vec4(m[r], l[r], 0.0, 0.0);
  }
}

fn combine(idx: u32) {
  let d = idx % HS4;
  let row = idx / HS4;                                         // (b, i, h)
  let o = row * params.nsplit * (HS4 + 1u);
  var M = MASKED;
  for (var s = 0u; s < params.nsplit; s++) {
    let st = part[o + s * (HS4 + 1u) + HS4];
    if (st.y > 0.0) { M = max(M, st.x); }
  }
  var L = 0.0;
  var acc = vec4(0.0);
  for (var s = 0u; s < params.nsplit; s++) {
    let st = part[o + s * (HS4 + 1u) + HS4];
    if (st.y > 0.0) {                                          // empty spans add nothing
      let w = exp(st.x - M);
      L = fma(w, st.y, L);
      acc = fma(vec4(w), part[o + s * (HS4 + 1u) + d], acc);
    }
  }
  var inv = 0.0;                                               // rows before the cache: L = 0, out = 0
  if (L > 0.0) { inv = 1.0 / L; }
  out[idx] = acc * inv;
}
