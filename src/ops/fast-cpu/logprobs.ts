// Fast CPU logprobs and its backward (the math of reference/logprobs.ts): one pass over each row of
// logits in blocks of 64, with a running max (a block's max is found first; when it raises the
// running max, the sums so far are rescaled), e^x by fexp, sums in f64 in a fixed order.
import { logprobsBackwardDims, logprobsDims } from '../logprobs.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { fexp } from './exp.ts';

const BLOCK = 64;
const vec = (label: string, data: Float32Array, n: number): CpuTensor => ({ shape: [n], dtype: 'f32', label, data });

/** logits (N, V), targets (N) i32 → logp, entropy, lse (N). */
export function logprobs(logits: CpuTensor, targets: CpuTensor): { logp: CpuTensor; entropy: CpuTensor; lse: CpuTensor } {
  const { N, V } = logprobsDims('logprobs', logits, targets);
  const x = logits.data as Float32Array, tg = targets.data as Int32Array;
  const logp = new Float32Array(N), entropy = new Float32Array(N), lse = new Float32Array(N);
  for (let n = 0; n < N; n++) {
    const o = n * V;
    let m = -Infinity, s = 0, sx = 0; // Σ e^(x−m), Σ e^(x−m)·(x−m) over the row so far
    for (let j0 = 0; j0 < V; j0 += BLOCK) {
      const j1 = Math.min(V, j0 + BLOCK);
      let bm = m;
      for (let j = j0; j < j1; j++) bm = Math.max(bm, x[o + j]!);
      if (bm > m) {
        if (s > 0) {
          // e^(x−bm) = e^(x−m)·α and (x−bm) = (x−m) − δ, with δ = bm − m, α = e^−δ
          const delta = bm - m, alpha = fexp(-delta);
          sx = alpha * (sx - delta * s);
          s *= alpha;
        }
        m = bm;
      }
      for (let j = o + j0; j < o + j1; j++) {
        const d = x[j]! - m, e = fexp(d);
        s += e;
        sx += e * d;
      }
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
  const dst = out ?? { shape: [N, V], dtype: 'f32' as const, label: 'logprobsBackward.dlogits', data: new Float32Array(N * V) };
  const x = logits.data as Float32Array, y = dst.data as Float32Array, tg = targets.data as Int32Array;
  for (let n = 0; n < N; n++) {
    const o = n * V, L = lse.data[n]!, H = entropy.data[n]!, gl = dlogp.data[n]!, gh = dentropy ? dentropy.data[n]! : 0;
    const t = tg[n]!, hit = t >= 0 && t < V, xt = hit ? x[o + t]! : 0; // read before y (maybe x) is written
    if (gh === 0) {
      for (let j = o; j < o + V; j++) y[j] = -gl * fexp(x[j]! - L);
    } else {
      for (let j = o; j < o + V; j++) {
        const lp = x[j]! - L, p = fexp(lp);
        y[j] = -gl * p - gh * p * (lp + H);
      }
    }
    if (hit) {
      const lp = xt - L, p = fexp(lp);
      y[o + t] = gl * (1 - p) - gh * p * (lp + H);
    }
  }
  return dst;
}
