// CPU reference of logprobs (fused log-softmax → log p(target), entropy, lse) and its backward:
// plain loops over each row in f64, rounded to f32 on store. The oracle for
// kernels/logprobs_forward.wgsl and kernels/logprobs_backward.wgsl.
import { logprobsBackwardDims, logprobsDims } from '../logprobs.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { f32 } from '../recycle.ts';

const vec = (label: string, data: Float32Array, n: number): CpuTensor => ({ shape: [n], dtype: 'f32', label, data });

/** logits (N, V), targets (N) i32 → logp, entropy, lse (N). */
export function logprobs(logits: CpuTensor, targets: CpuTensor): { logp: CpuTensor; entropy: CpuTensor; lse: CpuTensor } {
  const { N, V } = logprobsDims('logprobs', logits, targets);
  const x = logits.data, tg = targets.data;
  const logp = f32(N), entropy = f32(N), lse = f32(N);
  for (let n = 0; n < N; n++) {
    const o = n * V;
    let m = -Infinity;
    for (let j = 0; j < V; j++) m = Math.max(m, x[o + j]!);
    let s = 0, sx = 0; // Σ e^(x−m), Σ e^(x−m)·(x−m)
    for (let j = 0; j < V; j++) {
      const d = x[o + j]! - m, e = Math.exp(d);
      s += e;
      sx += e * d;
    }
    const logs = Math.log(s);
    lse[n] = m + logs;
    entropy[n] = logs - sx / s; // H = lse − Σ p·x
    const t = tg[n]!;
    logp[n] = t >= 0 && t < V ? x[o + t]! - m - logs : 0;
  }
  return { logp: vec('logprobs.logp', logp, N), entropy: vec('logprobs.entropy', entropy, N), lse: vec('logprobs.lse', lse, N) };
}

/** dlogits = dlogp·(onehot − p) + dentropy·(−p·(log p + H)), p = exp(x − lse); into `out` (may be logits). */
export function logprobsBackward(
  logits: CpuTensor,
  targets: CpuTensor,
  lse: CpuTensor,
  entropy: CpuTensor,
  dlogp: CpuTensor,
  dentropy?: CpuTensor,
  out?: CpuTensor,
): CpuTensor {
  const { N, V } = logprobsBackwardDims(logits, targets, lse, entropy, dlogp, dentropy, out);
  const dst = out ?? { shape: [N, V], dtype: 'f32' as const, label: 'logprobsBackward.dlogits', data: f32(N * V) };
  const x = logits.data, y = dst.data, tg = targets.data;
  for (let n = 0; n < N; n++) {
    const o = n * V, L = lse.data[n]!, H = entropy.data[n]!, gl = dlogp.data[n]!, gh = dentropy ? dentropy.data[n]! : 0;
    const t = tg[n]!;
    for (let j = 0; j < V; j++) {
      const lp = x[o + j]! - L, p = Math.exp(lp);
      y[o + j] = gl * ((j === t ? 1 : 0) - p) - gh * p * (lp + H);
    }
  }
  return dst;
}
