// dapo_loss: pass 1 of DAPO's token-level clipped surrogate (docs/dapo.md; pass 2: dapo_loss_reduce).
//   ρ = exp(logp − oldLogp); ℓ = −min(ρA, clip(ρ, 1−εlow, 1+εhigh)·A)·mask;
//   dlogp = −ρ·A·mask (/ denom when given) where the unclipped term is active, else 0;
//   per workgroup: Σℓ, Σ mask·[ρ < 1−εlow, A < 0], Σ mask·[ρ > 1+εhigh, A > 0], Σ mask·(ρ − 1 − log ρ), Σ mask.
// Bindings (group 0):
//   0 logp      storage read        f32  (N)
//   1 oldLogp   storage read        f32  (N)
//   2 adv       storage read        f32  (N)
//   3 mask      storage read        f32  (N); tokens with mask 0 are skipped (their logp may be anything)
//   4 dlogp     storage read_write  f32  (N)
//   5 partials  storage read_write  f32  (ceil(N / 1024), 5): the five sums above, per workgroup
//   6 params    uniform            Params (denom 0: the default Σ mask, applied by pass 2)
// Work: one workgroup of 256 invocations per 1024 tokens; invocation i takes tokens i, i+256, i+512,
//   i+768 of the tile; the sums are reduced by a fixed tree in workgroup memory (5 KiB).
// Dispatch (ceil(N / 1024)). Writes `=` (dlogp, partials). Limits: N ≤ 65535·1024.

struct Params {
  N: u32,
  epsLow: f32,
  epsHigh: f32,
  denom: f32,
}

@group(0) @binding(0) var<storage, read> logp: array<f32>;
@group(0) @binding(1) var<storage, read> oldLogp: array<f32>;
@group(0) @binding(2) var<storage, read> adv: array<f32>;
@group(0) @binding(3) var<storage, read> mask: array<f32>;
@group(0) @binding(4) var<storage, read_write> dlogp: array<f32>;
@group(0) @binding(5) var<storage, read_write> partials: array<f32>;
@group(0) @binding(6) var<uniform> params: Params;

const WG: u32 = 256u;
const TILE: u32 = 1024u;

var<workgroup> sums: array<vec4<f32>, 256>;  // (Σℓ, Σ clip low, Σ clip high, Σ k3)
var<workgroup> msum: array<f32, 256>;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let lo = 1.0 - params.epsLow;
  let hi = 1.0 + params.epsHigh;
  var acc = vec4<f32>(0.0);
  var mw = 0.0;
  for (var k = 0u; k < TILE; k += WG) {
    let i = wid.x * TILE + k + li;
    if (i >= params.N) { break; }
    let w = mask[i];
    var g = 0.0;
    if (w != 0.0) {
      let d = logp[i] - oldLogp[i];
      let r = exp(d);
      let A = adv[i];
      let clipLow = r < lo && A < 0.0;
      let clipHigh = r > hi && A > 0.0;
      acc.x -= min(r * A, clamp(r, lo, hi) * A) * w;
      acc.y += select(0.0, w, clipLow);
      acc.z += select(0.0, w, clipHigh);
      acc.w += (r - 1.0 - d) * w;
      mw += w;
      if (!(clipLow || clipHigh)) {
        g = -r * A * w;
        if (params.denom > 0.0) { g = g / params.denom; }
      }
    }
    dlogp[i] = g;
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
  if (li == 0u) {
    let o = wid.x * 5u;
    partials[o] = sums[0].x;
    partials[o + 1u] = sums[0].y;
    partials[o + 2u] = sums[0].z;
    partials[o + 3u] = sums[0].w;
    partials[o + 4u] = msum[0];
  }
}
