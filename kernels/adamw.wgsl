// adamw: AdamW in place, per element (PyTorch's order of operations):
//   g' = g·c, c = min(1, maxNorm / (norm[0] + 1e-6)) when HAS_CLIP (the global norm is read here: no readback);
//   m = β1·m + (1 − β1)·g';  v = β2·v + (1 − β2)·g'²;
//   p = p·decay − stepSize·m / (√v / bc2Sqrt + eps), decay = 1 − lr·wd, stepSize = lr / (1 − β1^t),
//   bc2Sqrt = √(1 − β2^t) (scalars computed once per step on the CPU, in f64).
// Bindings (group 0):
//   0 param   storage read_write  f32  (n)
//   1 grad    storage read        f32  (n) (not modified)
//   2 m       storage read_write  f32  (n) first moment
//   3 v       storage read_write  f32  (n) second moment
//   4 norm    storage read        f32  (1); read only when HAS_CLIP
//   5 params  uniform            Params
// Work: one invocation per element, workgroups of 256.
// Dispatch (min(G, 65535), ceil(G / 65535)), G = ceil(n / 256): element = (wid.y · num_workgroups.x + wid.x) · 256 + i.
// Writes `=` (in place on param, m, v). Limits: n < 2^32.

struct Params {
  n: u32,
  beta1: f32,
  beta2: f32,
  eps: f32,
  decay: f32,
  stepSize: f32,
  bc2Sqrt: f32,
  maxNorm: f32,
}

@group(0) @binding(0) var<storage, read_write> param: array<f32>;
@group(0) @binding(1) var<storage, read> grad: array<f32>;
@group(0) @binding(2) var<storage, read_write> m: array<f32>;
@group(0) @binding(3) var<storage, read_write> v: array<f32>;
@group(0) @binding(4) var<storage, read> norm: array<f32>;
@group(0) @binding(5) var<uniform> params: Params;

override HAS_CLIP: bool = false;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = (wid.y * nwg.x + wid.x) * 256u + li;
  if (i >= params.n) { return; }
  var g = grad[i];
  if (HAS_CLIP) { g = g * min(1.0, params.maxNorm / (norm[0] + 1e-6)); }
  let mi = params.beta1 * m[i] + (1.0 - params.beta1) * g;
  let vi = params.beta2 * v[i] + (1.0 - params.beta2) * g * g;
  m[i] = mi;
  v[i] = vi;
  param[i] = param[i] * params.decay - params.stepSize * mi / (sqrt(vi) / params.bc2Sqrt + params.eps);
}
