// sample_filter: per row, the smallest logit τ that top-k then top-p (Hugging Face's warper order)
//   keep: top-k keeps x ≥ the k-th largest logit; top-p keeps, of those, the tokens whose mass of
//   strictly larger logits is < topP under q = softmax(x / T) renormalised over the top-k set.
//   Both are "the largest key t with W(t) ≥ goal", W(t) = Σ_{key(x) ≥ t, kept so far} w:
//   top-k: w = 1, goal = k; top-p: w = exp((x − max) / T), goal = topP · W(τk).
// Bindings (group 0):
//   0 logits     storage read        f32  (B, V)
//   1 threshold  storage read_write  f32  (B): τ, read by sample.wgsl (FILTERED)
//   2 params     uniform            Params (topK 0: off; topP ≥ 1: off)
// Work: one workgroup of 256 invocations per row; each search is a 32-step bisection over the
//   order-preserving u32 key of f32, each step one pass over the row (invocation i: columns i, i+256, …)
//   and a fixed tree in workgroup memory. Evaluation-only: ≤ 64 passes over the row.
// Dispatch (min(B, 65535), ceil(B / 65535)): row = wid.y · num_workgroups.x + wid.x.
// Writes `=`. Limits: V < 2^24 (counts in f32); finite logits.

struct Params {
  B: u32,
  V: u32,
  topK: u32,
  topP: f32,
  temperature: f32,
}

@group(0) @binding(0) var<storage, read> logits: array<f32>;
@group(0) @binding(1) var<storage, read_write> threshold: array<f32>;
@group(0) @binding(2) var<uniform> params: Params;

const WG: u32 = 256u;

var<workgroup> red: array<f32, 256>;

fn key(x: f32) -> u32 {  // monotone: x < y ⇔ key(x) < key(y) (apart from −0 < +0)
  let b = bitcast<u32>(x);
  return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
}

fn unkey(k: u32) -> f32 {
  return bitcast<f32>(select(~k, k & 0x7fffffffu, (k & 0x80000000u) != 0u));
}

// Σ over the row of w(x) for key(x) ≥ max(t, lo), summed by a fixed tree; the same value in every invocation.
fn rowSum(li: u32, base: u32, t: u32, lo: u32, mass: bool, m: f32) -> f32 {
  var s = 0.0;
  for (var j = li; j < params.V; j += WG) {
    let x = logits[base + j];
    let k = key(x);
    if (k >= t && k >= lo) { s += select(1.0, exp((x - m) / params.temperature), mass); }
  }
  red[li] = s;
  workgroupBarrier();
  for (var h = WG / 2u; h > 0u; h >>= 1u) {
    if (li < h) { red[li] += red[li + h]; }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();  // everyone has read red[0] before the next call writes it
  return r;
}

// The largest key t with rowSum(t) ≥ goal (rowSum(lo) ≥ goal is given).
fn search(li: u32, base: u32, lo: u32, mass: bool, m: f32, goal: f32) -> u32 {
  var t = 0u;
  for (var bit = 31i; bit >= 0i; bit--) {
    let cand = t | (1u << u32(bit));
    if (rowSum(li, base, cand, lo, mass, m) >= goal) { t = cand; }
  }
  return t;
}

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = wid.y * nwg.x + wid.x;
  if (row >= params.B) { return; }
  let base = row * params.V;
  var m = -3.0e38;
  for (var j = li; j < params.V; j += WG) { m = max(m, logits[base + j]); }
  red[li] = m;
  workgroupBarrier();
  for (var h = WG / 2u; h > 0u; h >>= 1u) {
    if (li < h) { red[li] = max(red[li], red[li + h]); }
    workgroupBarrier();
  }
  m = red[0];
  workgroupBarrier();

  var lo = 0u;
  if (params.topK > 0u && params.topK < params.V) { lo = search(li, base, 0u, false, m, f32(params.topK)); }
  if (params.topP < 1.0) {
    let goal = params.topP * rowSum(li, base, lo, lo, true, m);
    lo = search(li, base, lo, true, m, goal);
  }
  if (li == 0u) { threshold[row] = unkey(lo); }
}
