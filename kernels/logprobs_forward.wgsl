// logprobs_forward: lse[n] = log Σ_v exp(logits[n, v]); logp[n] = logits[n, targets[n]] − lse[n];
//   entropy[n] = −Σ_v p·log p = lse[n] − Σ_v p·logits[n, v], with p = exp(logits[n, :] − lse[n]).
// Bindings (group 0):
//   0 logits   storage read        f32  (N, V) row-major
//   1 targets  storage read        i32  (N); a target outside [0, V) gives logp 0 (the loss masks it)
//   2 logp     storage read_write  f32  (N)
//   3 entropy  storage read_write  f32  (N)
//   4 lse      storage read_write  f32  (N)
//   5 params   uniform            Params
// Work: one workgroup of 256 invocations per row. Invocation i streams the columns i, i + 256, …
//   (the row in chunks of 256, in increasing order) with an online state (m = running max,
//   s = Σ e^(x−m), t = Σ e^(x−m)·(x−m)); the 256 states are merged by a fixed tree in workgroup
//   memory (3 KiB). No (N, V) probabilities are kept; each logit is read once (plus the target).
// Dispatch (min(N, 65535), ceil(N / 65535)): row = wid.y · num_workgroups.x + wid.x.
// Writes `=`. Limits: any V ≥ 1; N·V < 2^32 (one binding holds at most 2^30 f32 anyway). Finite logits.

struct Params {
  N: u32,
  V: u32,
}

@group(0) @binding(0) var<storage, read> logits: array<f32>;
@group(0) @binding(1) var<storage, read> targets: array<i32>;
@group(0) @binding(2) var<storage, read_write> logp: array<f32>;
@group(0) @binding(3) var<storage, read_write> entropy: array<f32>;
@group(0) @binding(4) var<storage, read_write> lse: array<f32>;
@group(0) @binding(5) var<uniform> params: Params;

const WG: u32 = 256u;
const LOWEST: f32 = -3.0e38;  // running max before any column (finite: WGSL does not promise infinities)

var<workgroup> sm: array<f32, 256>;
var<workgroup> ss: array<f32, 256>;
var<workgroup> st: array<f32, 256>;

// Merge two states (m, s, t) by rescaling both to the larger max; an empty state (s = 0) is neutral.
fn merge(a: vec3<f32>, b: vec3<f32>) -> vec3<f32> {
  if (b.y == 0.0) { return a; }
  if (a.y == 0.0) { return b; }
  let m = max(a.x, b.x);
  let ea = exp(a.x - m);
  let eb = exp(b.x - m);
  return vec3(m, ea * a.y + eb * b.y, ea * (a.z + a.y * (a.x - m)) + eb * (b.z + b.y * (b.x - m)));
}

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = wid.y * nwg.x + wid.x;
  if (row >= params.N) { return; }
  let V = params.V;
  let base = row * V;

  var m = LOWEST;
  var s = 0.0;
  var t = 0.0;
  for (var j = li; j < V; j += WG) {
    let x = logits[base + j];
    if (x <= m) {
      let e = exp(x - m);
      s += e;
      t += e * (x - m);
    } else {  // new max: rescale what was summed so far (one exp either way)
      let r = exp(m - x);
      t = r * (t + s * (m - x));
      s = r * s + 1.0;
      m = x;
    }
  }
  sm[li] = m;
  ss[li] = s;
  st[li] = t;
  workgroupBarrier();
  for (var k = WG / 2u; k > 0u; k >>= 1u) {
    if (li < k) {
      let r = merge(vec3(sm[li], ss[li], st[li]), vec3(sm[li + k], ss[li + k], st[li + k]));
      sm[li] = r.x;
      ss[li] = r.y;
      st[li] = r.z;
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    let logs = log(ss[0]);
    lse[row] = sm[0] + logs;
    entropy[row] = logs - st[0] / ss[0];
    let tg = targets[row];
    var lp = 0.0;
    if (tg >= 0 && u32(tg) < V) { lp = logits[base + u32(tg)] - sm[0] - logs; }
    logp[row] = lp;
  }
}
