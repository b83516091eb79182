// sample: ids[b] ~ softmax(logits[b, :] / T) restricted to logits ≥ τ_b (τ from sample_filter when
//   FILTERED, else all), by inverse CDF in index order at u = philox4x32-10(key = (keyLo, keyHi),
//   counter = (counters[b], b, 0, 0)).x >> 8 · 2^-24 ∈ [0, 1); logp[b] = log q(ids[b]) under that distribution.
//   The logits and threshold bindings hold rows [row0, row0 + B) of the whole batch, counters, ids
//   and logp all B_all rows; b above is the row in the whole batch (split logits: one dispatch per
//   buffer; whole: row0 = 0).
// Bindings (group 0):
//   0 logits     storage read        f32  (B, V)
//   1 counters   storage read        i32  (B_all), used as u32 bits
//   2 threshold  storage read        f32  (B): smallest kept logit per row; read only when FILTERED
//   3 ids        storage read_write  i32  (B_all)
//   4 logp       storage read_write  f32  (B_all)
//   5 params     uniform            Params
// Work: one workgroup of 256 invocations per row: (1) row max by a fixed tree (with subgroups: each
//   subgroup's max, one barrier, then every subgroup the max of red[l], red[l + n], …, l its lane's rank among
//   its n active lanes: a cover of all 256 whatever invocations form a subgroup, full or not; max is exact,
//   so the same bits); (2) invocation i sums
//   e = exp((x − max) / T) over its contiguous chunk [i·C, (i+1)·C), C = ceil(V / 256); invocation 0
//   scans the 256 sums in order (exclusive prefixes, total Z) and draws u; (3) the one invocation
//   whose [prefix, prefix + sum) holds u·Z walks its chunk to the first running sum > u·Z.
// Dispatch (min(B, 65535), ceil(B / 65535)): row = wid.y · num_workgroups.x + wid.x.
// Writes `=`. Limits: V < 2^31; finite logits; T > 0. Same words as src/ops/reference/philox.ts.

struct Params {
  B: u32,
  V: u32,
  keyLo: u32,
  keyHi: u32,
  temperature: f32,
  row0: u32,  // row of the whole batch where the logits binding starts
}

@group(0) @binding(0) var<storage, read> logits: array<f32>;
@group(0) @binding(1) var<storage, read> counters: array<i32>;
@group(0) @binding(2) var<storage, read> threshold: array<f32>;
@group(0) @binding(3) var<storage, read_write> ids: array<i32>;
@group(0) @binding(4) var<storage, read_write> logp: array<f32>;
@group(0) @binding(5) var<uniform> params: Params;

override FILTERED: bool = false;

const WG: u32 = 256u;
const LOWEST: f32 = -3.0e38;

// ---- philox4x32-10 (Random123); the test extracts this block and checks the known-answer vectors
fn mulhilo(a: u32, b: u32) -> vec2<u32> {  // (high, low) 32 bits of a·b, by 16-bit halves
  let al = a & 0xffffu;
  let ah = a >> 16u;
  let bl = b & 0xffffu;
  let bh = b >> 16u;
  let m1 = ah * bl;
  let m2 = al * bh;
  let carry = (((al * bl) >> 16u) + (m1 & 0xffffu) + (m2 & 0xffffu)) >> 16u;
  return vec2(ah * bh + (m1 >> 16u) + (m2 >> 16u) + carry, a * b);
}

fn philox4x32(counter: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
  var c = counter;
  var k = key;
  for (var r = 0u; r < 10u; r++) {
    if (r > 0u) { k += vec2(0x9e3779b9u, 0xbb67ae85u); }
    let p0 = mulhilo(0xd2511f53u, c.x);
    let p1 = mulhilo(0xcd9e8d57u, c.z);
    c = vec4(p1.x ^ c.y ^ k.x, p1.y, p0.x ^ c.w ^ k.y, p0.y);
  }
  return c;
}
// ---- end philox

var<workgroup> red: array<f32, 256>;
var<workgroup> prefix: array<f32, 256>;
var<workgroup> total: f32;
var<workgroup> uni: f32;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = wid.y * nwg.x + wid.x;
  if (row >= params.B) { return; }
  let V = params.V;
  let base = row * V;
  let T = params.temperature;

  var m = LOWEST;
  for (var j = li; j < V; j += WG) { m = max(m, logits[base + j]); }
  // ---- subgroups
  red[li] = subgroupMax(m);                                      // each subgroup's max…
  workgroupBarrier();
  let lane = subgroupExclusiveAdd(1u);                           // this lane among the subgroup's active ones
  let nLanes = subgroupAdd(1u);
  var ms = LOWEST;                                               // …then each subgroup's lanes cover all of red
  for (var j = lane; j < WG; j += nLanes) { ms = max(ms, red[j]); }
  m = subgroupMax(ms);
  // ---- no subgroups
  red[li] = m;
  workgroupBarrier();
  for (var k = WG / 2u; k > 0u; k >>= 1u) {
    if (li < k) { red[li] = max(red[li], red[li + k]); }
    workgroupBarrier();
  }
  m = red[0];
  // ---- end subgroups
  var tau = LOWEST;
  if (FILTERED) { tau = threshold[row]; }

  let chunk = (V + WG - 1u) / WG;
  let j0 = min(li * chunk, V);
  let j1 = min(j0 + chunk, V);
  var s = 0.0;
  for (var j = j0; j < j1; j++) {
    let x = logits[base + j];
    if (x >= tau) { s += exp((x - m) / T); }
  }
  prefix[li] = s;
  workgroupBarrier();
  if (li == 0u) {
    var acc = 0.0;
    for (var i = 0u; i < WG; i++) {
      let t = prefix[i];
      prefix[i] = acc;
      acc += t;
    }
    total = acc;
    let b = params.row0 + row;
    let w = philox4x32(vec4(bitcast<u32>(counters[b]), b, 0u, 0u), vec2(params.keyLo, params.keyHi)).x;
    uni = f32(w >> 8u) * 5.9604644775390625e-8;  // 2^-24
  }
  workgroupBarrier();
  let Z = total;
  let goal = uni * Z;
  let p0 = prefix[li];
  if (s > 0.0 && p0 <= goal && goal < p0 + s) {
    var cum = p0;
    var pick = j0;
    var last = j0;
    var found = false;
    for (var j = j0; j < j1; j++) {
      let x = logits[base + j];
      if (x < tau) { continue; }
      let e = exp((x - m) / T);
      if (e == 0.0) { continue; }
      cum += e;
      last = j;
      if (cum > goal) { pick = j; found = true; break; }
    }
    if (!found) { pick = last; }  // rounding: the walk's running sum stayed ≤ u·Z
    ids[params.row0 + row] = i32(pick);
    logp[params.row0 + row] = (logits[base + pick] - m) / T - log(Z);
  }
}
