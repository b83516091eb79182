// CPU reference of dapoLoss: DAPO's token-level clipped surrogate (DAPO, Yu et al. 2025; verl's compute_policy_loss, token-mean) with its
// gradient, clip fractions and k3 KL, one plain loop in f64. The oracle for kernels/dapo_loss.wgsl
// and kernels/dapo_loss_reduce.wgsl.
import { dapoLossDims, type DapoLossOptions } from '../dapo_loss.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { f32 } from '../recycle.ts';

/**
 * ρ = exp(logp − oldLogp); ℓ = −min(ρA, clip(ρ, 1−εlow, 1+εhigh)A)·mask; loss = Σℓ / denom.
 * → dlogp (N) = ∂loss/∂logp, stats (4) = [loss, clipfrac_low, clipfrac_high, approx_kl (k3)].
 * Tokens with mask 0 are skipped outright (their logp may be anything). denom defaults to Σ mask
 * (1 when that is 0).
 */
export function dapoLoss(logp: CpuTensor, oldLogp: CpuTensor, adv: CpuTensor, mask: CpuTensor, opts: DapoLossOptions): { dlogp: CpuTensor; stats: CpuTensor } {
  const { N } = dapoLossDims(logp, oldLogp, adv, mask, opts);
  const lo = 1 - opts.epsLow, hi = 1 + opts.epsHigh;
  let msum = 0;
  for (let i = 0; i < N; i++) msum += mask.data[i]!;
  const denom = opts.denom ?? (msum === 0 ? 1 : msum);
  const g = f32(N);
  let loss = 0, low = 0, high = 0, kl = 0;
  for (let i = 0; i < N; i++) {
    const w = mask.data[i]!;
    if (w === 0) continue;
    const d = logp.data[i]! - oldLogp.data[i]!, r = Math.exp(d), A = adv.data[i]!;
    const clipLow = r < lo && A < 0, clipHigh = r > hi && A > 0;
    loss -= Math.min(r * A, Math.min(Math.max(r, lo), hi) * A) * w;
    if (clipLow) low += w;
    if (clipHigh) high += w;
    kl += (r - 1 - d) * w;
    g[i] = clipLow || clipHigh ? 0 : (-r * A * w) / denom;
  }
  const stats = Float32Array.of(loss / denom, low / denom, high / denom, kl / denom);
  return { dlogp: { shape: [N], dtype: 'f32', label: 'dapoLoss.dlogp', data: g }, stats: { shape: [4], dtype: 'f32', label: 'dapoLoss.stats', data: stats } };
}
