// logprobs_forward: lse[n] = log Σ_v exp(logits[n, v]); logp[n] = logits[n, targets[n]] − lse[n];
//   entropy[n] = −Σ_v p·log p = lse[n] − Σ_v p·logits[n, v], with p = exp(logits[n, :] − lse[n]).
//   The logits binding holds rows [row0, row0 + N) of the whole (N_all, V) logits, the per-row
//   vectors all N_all rows (logits split across buffers: one dispatch per buffer; whole: row0 = 0).
// Bindings (group 0):
//   0 logits   storage read        f32  (N, V) row-major
//   1 logits4  storage read        vec4<f32> the same buffer seen as (N·V / 4); read only when VEC4
//   2 targets  storage read        i32  (N_all); a target outside [0, V) gives logp 0 (the loss masks it)
//   3 logp     storage read_write  f32  (N_all), rows row0 .. row0 + N written
//   4 entropy  storage read_write  f32  (N_all)
//   5 lse      storage read_write  f32  (N_all)
//   6 params   uniform            Params
// Work: workgroups of 64 invocations, TPR (override, a power of two ≤ 64) per row, 64 / TPR rows per
//   workgroup. Lane i of a row owns the contiguous chunk [i·c, (i+1)·c) of it (c = ceil(V / TPR)
//   rounded up to 4) and sweeps it twice in groups of 4 logits (one vec4 load when VEC4: V % 4 = 0):
//   its max m, then s = Σ e^(x−m) and t = Σ e^(x−m)·(x−m) (one exp per logit, no rescaling). After
//   the one barrier, lane 0 merges the row's TPR chunk states in chunk order (workgroup memory 768 B).
//   No (N, V) probabilities are kept.
// Dispatch (min(W, 65535), ceil(W / 65535)), W = ceil(N·TPR / 64): first row of a workgroup =
//   (wid.y · num_workgroups.x + wid.x) · 64 / TPR.
// Writes `=`. Limits: any V ≥ 1; N·V < 2^32 (one binding holds at most 2^30 f32 anyway). Finite logits.

struct Params {
  N: u32,
  V: u32,
  row0: u32,  // row of the whole logits where this binding starts
}

@group(0) @binding(0) var<storage, read> logits: array<f32>;
@group(0) @binding(1) var<storage, read> logits4: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> targets: array<i32>;
@group(0) @binding(3) var<storage, read_write> logp: array<f32>;
@group(0) @binding(4) var<storage, read_write> entropy: array<f32>;
@group(0) @binding(5) var<storage, read_write> lse: array<f32>;
@group(0) @binding(6) var<uniform> params: Params;

override TPR: u32 = 64u;
override VEC4: bool = false;

const WG: u32 = 64u;
const LOWEST: f32 = -3.0e38;  // stands in for logits past the chunk (finite: WGSL has no promised ∞)

var<workgroup> sm: array<f32, 64>;
var<workgroup> ss: array<f32, 64>;
var<workgroup> st: array<f32, 64>;

// Logits e..e+3 (flat index, e 4-aligned within the row); those at or past `end` read as LOWEST.
fn load4(e: u32, end: u32) -> vec4<f32> {
  if (VEC4) { return logits4[e / 4u]; }
  var x = vec4(LOWEST);
  for (var k = 0u; k < 4u; k++) {
    if (e + k < end) { x[k] = logits[e + k]; }
  }
  return x;
}

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = (wid.y * nwg.x + wid.x) * (WG / TPR) + li / TPR;
  let lane = li % TPR;
  let V = params.V;
  let base = row * V;
  let chunk = ((V + TPR - 1u) / TPR + 3u) / 4u * 4u;
  let j0 = base + min(lane * chunk, V);
  var j1 = base + min(lane * chunk + chunk, V);
  if (row >= params.N) { j1 = j0; }                              // surplus rows: empty chunks

  var m = vec4(LOWEST);
  for (var e = j0; e < j1; e += 4u) { m = max(m, load4(e, j1)); }
  let mc = max(max(m.x, m.y), max(m.z, m.w));
  var s = vec4(0.0);
  var t = vec4(0.0);
  for (var e = j0; e < j1; e += 4u) {
    let d = load4(e, j1) - mc;
    let p = exp(d);                                              // 0 for the LOWEST fill
    s += p;
    t = fma(p, d, t);
  }
  sm[li] = mc;
  ss[li] = (s.x + s.y) + (s.z + s.w);
  st[li] = (t.x + t.y) + (t.z + t.w);
  workgroupBarrier();
  if (lane != 0u || row >= params.N) { return; }

  var M = LOWEST;
  for (var k = li; k < li + TPR; k++) { M = max(M, sm[k]); }
  var S = 0.0;
  var Tx = 0.0;                                                  // Σ e^(x−M)·(x−M)
  for (var k = li; k < li + TPR; k++) {
    let sk = ss[k];
    if (sk > 0.0) {                                              // empty chunks add nothing
      let dm = sm[k] - M;
      let r = exp(dm);
      S = fma(r, sk, S);
      Tx = fma(r, fma(sk, dm, st[k]), Tx);
    }
  }
  let logs = log(S);
  let r = params.row0 + row;
  lse[r] = M + logs;
  entropy[r] = logs - Tx / S;
  let tg = targets[r];
  var lp = 0.0;
  if (tg >= 0 && u32(tg) < V) { lp = logits[base + u32(tg)] - M - logs; }
  logp[r] = lp;
}
