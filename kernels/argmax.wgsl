// argmax: ids[b] = the first v with logits[b, v] = max_v logits[b, :];
//   logp[b] = logits[b, ids[b]] − lse[b] = −log Σ_v exp(logits[b, v] − max) (temperature 1).
//   The logits binding holds rows [row0, row0 + B) of the whole batch, ids and logp all B_all rows
//   (split logits: one dispatch per buffer; whole: row0 = 0).
// Bindings (group 0):
//   0 logits  storage read        f32  (B, V)
//   1 ids     storage read_write  i32  (B_all)
//   2 logp    storage read_write  f32  (B_all)
//   3 params  uniform            Params
// Work: one workgroup of 256 invocations per row; invocation i scans columns i, i + 256, … keeping the
//   first maximum, then a fixed tree on (value, index) (ties: the smaller index); a second pass sums
//   exp(x − max) the same way. 2 KiB of workgroup memory. With subgroups the (value, index) tree is two
//   subgroup rounds (largest value, then the smallest index holding it) around one barrier, every
//   subgroup covering all 256 entries (lane ranks among its active lanes, full subgroup or not): the same
//   winner, exactly; the sum keeps its tree (its order is its bits).
// Dispatch (min(B, 65535), ceil(B / 65535)): row = wid.y · num_workgroups.x + wid.x.
// Writes `=`. Limits: V < 2^31; finite logits.

struct Params {
  B: u32,
  V: u32,
  row0: u32,  // row of the whole batch where the logits binding starts
}

@group(0) @binding(0) var<storage, read> logits: array<f32>;
@group(0) @binding(1) var<storage, read_write> ids: array<i32>;
@group(0) @binding(2) var<storage, read_write> logp: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

const WG: u32 = 256u;
const NONE: u32 = 0xffffffffu;
const LOWEST_F32: f32 = -3.40282346638528859812e38;  // below every finite logit but its own value

var<workgroup> val: array<f32, 256>;
var<workgroup> idx: array<u32, 256>;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = wid.y * nwg.x + wid.x;
  if (row >= params.B) { return; }
  let V = params.V;
  let base = row * V;

  var best = -3.0e38;
  var bi = NONE;         // no column yet (V < 256): loses every tie
  for (var j = li; j < V; j += WG) {
    let x = logits[base + j];
    if (x > best || bi == NONE) { best = x; bi = j; }
  }
  // ---- subgroups
  // The subgroup's largest value, then the smallest column holding it (lanes without a column offer none).
  let sm = subgroupMax(select(best, LOWEST_F32, bi == NONE));
  val[li] = sm;
  idx[li] = subgroupMin(select(NONE, bi, bi != NONE && best == sm));
  workgroupBarrier();
  let lane = subgroupExclusiveAdd(1u);                           // this lane among the subgroup's active ones
  let nLanes = subgroupAdd(1u);
  var b2 = LOWEST_F32;                                           // every subgroup covers all 256 entries
  var i2 = NONE;
  for (var j = lane; j < WG; j += nLanes) {
    if (idx[j] != NONE && (val[j] > b2 || (val[j] == b2 && idx[j] < i2) || i2 == NONE)) {
      b2 = val[j];
      i2 = idx[j];
    }
  }
  let m = subgroupMax(select(b2, LOWEST_F32, i2 == NONE));
  let id = subgroupMin(select(NONE, i2, i2 != NONE && b2 == m));
  // ---- no subgroups
  val[li] = best;
  idx[li] = bi;
  workgroupBarrier();
  for (var k = WG / 2u; k > 0u; k >>= 1u) {
    if (li < k) {
      let v2 = val[li + k];
      let i2 = idx[li + k];
      if (i2 != NONE && (v2 > val[li] || (v2 == val[li] && i2 < idx[li]) || idx[li] == NONE)) {
        val[li] = v2;
        idx[li] = i2;
      }
    }
    workgroupBarrier();
  }
  let m = val[0];
  let id = idx[0];
  // ---- end subgroups
  workgroupBarrier();

  var s = 0.0;
  for (var j = li; j < V; j += WG) { s += exp(logits[base + j] - m); }
  val[li] = s;
  workgroupBarrier();
  for (var k = WG / 2u; k > 0u; k >>= 1u) {
    if (li < k) { val[li] += val[li + k]; }
    workgroupBarrier();
  }
  if (li == 0u) {
    ids[params.row0 + row] = i32(id);
    logp[params.row0 + row] = -log(val[0]);
  }
}
