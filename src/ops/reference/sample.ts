// CPU reference of sample (Philox4x32-10 uniform → inverse CDF over the tempered, optionally
// top-k/top-p filtered softmax, in index order) and of argmax. Plain loops in f64. The oracle for
// kernels/sample.wgsl, kernels/sample_filter.wgsl and kernels/argmax.wgsl.
import { rowsDims, sampleDims, type ResolvedSample, type SampleOptions } from '../sample.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { sampleUniform } from './philox.ts';

/**
 * Log-probabilities of the distribution row `x` is sampled from (−Infinity where filtered out):
 * softmax(x / T), then top-k (keep x ≥ the k-th largest), then top-p on the renormalised
 * probabilities (keep a token when the mass of strictly larger logits is < topP), renormalised.
 * Hugging Face's TopK/TopP warpers in this order, with ties at a threshold kept.
 */
export function sampledLogProbs(x: ArrayLike<number>, o: Pick<ResolvedSample, 'temperature' | 'topK' | 'topP'>): Float64Array {
  const V = x.length, T = o.temperature;
  let m = -Infinity;
  for (let j = 0; j < V; j++) m = Math.max(m, x[j]!);
  const order = Array.from({ length: V }, (_, j) => j).sort((a, b) => x[b]! - x[a]! || a - b); // descending
  let tau = -Infinity;
  if (o.topK > 0 && o.topK < V) tau = x[order[o.topK - 1]!]!;
  const e = new Float64Array(V);
  let Z = 0;
  for (let j = 0; j < V; j++) if (x[j]! >= tau) Z += e[j] = Math.exp((x[j]! - m) / T);
  if (o.topP < 1) {
    let above = 0; // mass of the logits strictly larger than the group of equal logits at r
    for (let r = 0; r < V && x[order[r]!]! >= tau; ) {
      const v = x[order[r]!]!;
      if (above >= o.topP * Z) {
        for (let j = 0; j < V; j++) if (x[j]! <= v) e[j] = 0; // drop this group and all below
        break;
      }
      for (; r < V && x[order[r]!]! === v; r++) above += e[order[r]!]!;
    }
  }
  let Zk = 0;
  for (let j = 0; j < V; j++) Zk += e[j]!;
  const out = new Float64Array(V);
  for (let j = 0; j < V; j++) out[j] = e[j]! > 0 ? (x[j]! - m) / T - Math.log(Zk) : -Infinity;
  return out;
}

/** Inverse CDF: the first index whose running sum of probabilities (index order) exceeds u. */
export function inverseCdf(logq: Float64Array, u: number): number {
  let Z = 0, last = -1;
  for (let j = 0; j < logq.length; j++) if (logq[j]! > -Infinity) Z += Math.exp(logq[j]!);
  const target = u * Z;
  let cum = 0;
  for (let j = 0; j < logq.length; j++) {
    if (logq[j]! === -Infinity) continue;
    cum += Math.exp(logq[j]!);
    last = j;
    if (cum > target) return j;
  }
  return last; // rounding: u·Z beyond the running sum
}

export function sample(logits: CpuTensor, counters: CpuTensor, opts: SampleOptions): { ids: CpuTensor; logp: CpuTensor } {
  const { B, V, o } = sampleDims(logits, counters, opts);
  const ids = new Int32Array(B), logp = new Float32Array(B);
  for (let b = 0; b < B; b++) {
    const logq = sampledLogProbs(logits.data.subarray(b * V, (b + 1) * V), o);
    const id = inverseCdf(logq, sampleUniform(o.seed, counters.data[b]!, b));
    ids[b] = id;
    logp[b] = logq[id]!;
  }
  return { ids: { shape: [B], dtype: 'i32', label: 'sample.ids', data: ids }, logp: { shape: [B], dtype: 'f32', label: 'sample.logp', data: logp } };
}

/** Greedy: the first maximum of each row and its log-probability at temperature 1. */
export function argmax(logits: CpuTensor): { ids: CpuTensor; logp: CpuTensor } {
  const { B, V } = rowsDims('argmax', logits);
  const x = logits.data, ids = new Int32Array(B), logp = new Float32Array(B);
  for (let b = 0; b < B; b++) {
    const o = b * V;
    let best = 0;
    for (let j = 1; j < V; j++) if (x[o + j]! > x[o + best]!) best = j;
    let s = 0;
    for (let j = 0; j < V; j++) s += Math.exp(x[o + j]! - x[o + best]!);
    ids[b] = best;
    logp[b] = -Math.log(s);
  }
  return { ids: { shape: [B], dtype: 'i32', label: 'argmax.ids', data: ids }, logp: { shape: [B], dtype: 'f32', label: 'argmax.logp', data: logp } };
}
