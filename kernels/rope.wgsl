// rope: Hugging Face half-rotation (`rotate_half`). For i < HS/2, θ = pos[n] · invFreq[i]:
//   (x_i, x_{i+HS/2}) → (x_i cos θ − x_{i+HS/2} sin θ, x_{i+HS/2} cos θ + x_i sin θ);
//   sinSign = −1 rotates by −θ (the inverse, which is the backward).
// Bindings (group 0):
//   0 x         storage read        f32  (N, H, HS)
//   1 positions storage read        i32  (N) absolute positions (KV-cache offset included)
//   2 invFreq   storage read        f32  (HS/2) = 1 / theta^(2i/HS) in f32, from the host
//   3 out       storage read_write  f32  (N, H, HS)
//   4 params    uniform            Params
// Work: one invocation rotates one pair (n, h, i); 256 per workgroup. The angle is one f32
//   multiply, as HF forms it; cos/sin are computed here, not by the builtins, which WGSL only
//   bounds to 2^-11 absolute (SwiftShader is that coarse): Cody–Waite reduction by π/2 (split in
//   four, exact products for |k| < 2^16) and Taylor polynomials on [−π/4, π/4] (error ~1e-7).
// Dispatch: G = ceil(N·H·HS/2 / 256) workgroups as (min(G, 65535), ceil(G / 65535)).
// Writes `=`. Limits: N·H·HS < 2^32; |angle| ≤ |pos| < 2^16·π/2 ≈ 102900 (beyond, k·A is inexact
//   and the reduction loses accuracy).

struct Params {
  N: u32,
  H: u32,
  HS: u32,
  sinSign: f32,
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read> positions: array<i32>;
@group(0) @binding(2) var<storage, read> invFreq: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;

const TWO_OVER_PI: f32 = 0.6366197723675814;
const PIO2_A: f32 = 1.5703125;                 // π/2 split in four: A, B and C have 8 significant
const PIO2_B: f32 = 0.0004825592041015625;     // bits, so k·A, k·B and k·C are exact for |k| < 2^16
const PIO2_C: f32 = 1.2665987014770508e-06;
const PIO2_D: f32 = 9.920935184482005e-10;     // π/2 − A − B − C, rounded to f32

// (sin θ, cos θ) to ~1e-7 absolute.
fn sincos(theta: f32) -> vec2<f32> {
  let k = round(theta * TWO_OVER_PI);
  let r = (((theta - k * PIO2_A) - k * PIO2_B) - k * PIO2_C) - k * PIO2_D;  // in [−π/4, π/4]
  let r2 = r * r;
  let s = r * (1.0 + r2 * (-1.0 / 6.0 + r2 * (1.0 / 120.0 + r2 * (-1.0 / 5040.0 + r2 * (1.0 / 362880.0)))));
  let c = 1.0 + r2 * (-0.5 + r2 * (1.0 / 24.0 + r2 * (-1.0 / 720.0 + r2 * (1.0 / 40320.0 + r2 * (-1.0 / 3628800.0)))));
  switch (i32(k) & 3) {  // quadrant
    case 0: { return vec2<f32>(s, c); }
    case 1: { return vec2<f32>(c, -s); }
    case 2: { return vec2<f32>(-s, -c); }
    default: { return vec2<f32>(-c, s); }
  }
}

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let half = params.HS / 2u;
  let t = (wid.y * nwg.x + wid.x) * 256u + lid.x;
  if (t >= params.N * params.H * half) { return; }
  let i = t % half;
  let nh = t / half;  // n · H + h
  let n = nh / params.H;
  let sc = sincos(f32(positions[n]) * invFreq[i]);
  let c = sc.y;
  let s = params.sinSign * sc.x;
  let o = nh * params.HS + i;
  let x1 = x[o];
  let x2 = x[o + half];
  out[o] = x1 * c - x2 * s;
  out[o + half] = x2 * c + x1 * s;
}
