// Fast CPU sample. Without top-k / top-p (training rollouts sample at a temperature only) the
// reference's per-row sort of the whole vocabulary (it only serves the filters) is skipped; every
// other step is the reference's arithmetic in the reference's order (reference/sample.ts), so ids
// and logp are bit-identical to CpuBackend's. With a filter it is the reference.
import { sampleUniform } from '../reference/philox.ts';
import { inverseCdf, sample as referenceSample } from '../reference/sample.ts';
import { sampleDims, type SampleOptions } from '../sample.shape.ts';
import type { CpuTensor } from '../tensor.ts';

export function sample(logits: CpuTensor, counters: CpuTensor, opts: SampleOptions): { ids: CpuTensor; logp: CpuTensor } {
  const { B, V, o } = sampleDims(logits, counters, opts);
  if (o.topK > 0 || o.topP < 1) return referenceSample(logits, counters, opts);
  const x = logits.data, T = o.temperature;
  const ids = new Int32Array(B), logp = new Float32Array(B), e = new Float64Array(V), logq = new Float64Array(V);
  for (let b = 0; b < B; b++) {
    const r = b * V;
    let m = -Infinity;
    for (let j = 0; j < V; j++) m = Math.max(m, x[r + j]!);
    e.fill(0);
    for (let j = 0; j < V; j++) if (x[r + j]! >= -Infinity) e[j] = Math.exp((x[r + j]! - m) / T); // NaN stays 0, as in the reference
    let Z = 0;
    for (let j = 0; j < V; j++) Z += e[j]!;
    const logZ = Math.log(Z);
    for (let j = 0; j < V; j++) logq[j] = e[j]! > 0 ? (x[r + j]! - m) / T - logZ : -Infinity;
    const id = inverseCdf(logq, sampleUniform(o.seed, counters.data[b]!, b));
    ids[b] = id;
    logp[b] = logq[id]!;
  }
  return { ids: { shape: [B], dtype: 'i32', label: 'sample.ids', data: ids }, logp: { shape: [B], dtype: 'f32', label: 'sample.logp', data: logp } };
}
