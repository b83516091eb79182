// dapo_loss_reduce: pass 2 of dapo_loss. stats = [Σℓ, Σ clip low, Σ clip high, Σ k3] / denom over the
//   per-workgroup partials of pass 1, with denom = params.denom, or Σ mask (1 if that is 0) when
//   params.denom is 0, in which case dlogp is divided by that denom here.
// Bindings (group 0):
//   0 partials  storage read        f32  (P, 5) from dapo_loss (P = ceil(N / 1024))
//   1 dlogp     storage read_write  f32  (N); divided by denom in place only when params.denom = 0
//   2 stats     storage read_write  f32  (4) = [loss, clipfrac_low, clipfrac_high, approx_kl]
//   3 params    uniform            Params
// Work: a single workgroup of 256 invocations; invocation i sums partials i, i+256, … in order, then
//   a fixed tree in workgroup memory (5 KiB); then (default denom only) invocation i scales dlogp
//   i, i+256, … Deterministic: one fixed order for every sum.
// Dispatch (1). Writes `=` (stats; dlogp /= denom). Limits: P ≤ 65535.

struct Params {
  N: u32,
  P: u32,
  denom: f32,
}

@group(0) @binding(0) var<storage, read> partials: array<f32>;
@group(0) @binding(1) var<storage, read_write> dlogp: array<f32>;
@group(0) @binding(2) var<storage, read_write> stats: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

const WG: u32 = 256u;

var<workgroup> sums: array<vec4<f32>, 256>;
var<workgroup> msum: array<f32, 256>;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_index) li: u32) {
  var acc = vec4<f32>(0.0);
  var mw = 0.0;
  for (var p = li; p < params.P; p += WG) {
    acc += vec4(partials[p * 5u], partials[p * 5u + 1u], partials[p * 5u + 2u], partials[p * 5u + 3u]);
    mw += partials[p * 5u + 4u];
  }
  sums[li] = acc;
  msum[li] = mw;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (li < s) {
      sums[li] += sums[li + s];
      msum[li] += msum[li + s];
    }
    workgroupBarrier();
  }
  var denom = params.denom;
  if (denom == 0.0) { denom = select(msum[0], 1.0, msum[0] == 0.0); }
  if (li == 0u) {
    stats[0] = sums[0].x / denom;
    stats[1] = sums[0].y / denom;
    stats[2] = sums[0].z / denom;
    stats[3] = sums[0].w / denom;
  }
  if (params.denom == 0.0) {
    for (var i = li; i < params.N; i += WG) { dlogp[i] = dlogp[i] / denom; }
  }
}
