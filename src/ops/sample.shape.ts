// Argument rules of sample / argmax (SamplingOps), shared by the CPU reference and the WebGPU
// dispatchers; the options resolved once (temperature default 1, filters off when they keep all).
import { expectDtype, expectShape, shapeStr, type Tensor } from './tensor.ts';

export interface SampleOptions {
  /** Integer in [0, 2^53): Philox key = (low 32 bits, high bits). */
  seed: number;
  /** > 0; default 1 (training rollouts: 1, no top-k, no top-p — docs/dapo.md). */
  temperature?: number;
  /** Evaluation only: keep the logits ≥ the k-th largest (ties kept). */
  topK?: number;
  /** Evaluation only: keep the tokens whose strictly-more-probable mass is < topP, in (0, 1]. */
  topP?: number;
}

export interface ResolvedSample {
  seed: number;
  temperature: number;
  /** 0 when off (absent, or ≥ V). */
  topK: number;
  /** 1 when off. */
  topP: number;
}

export function rowsDims(op: string, logits: Tensor): { B: number; V: number } {
  expectDtype(op, 'logits', logits, 'f32');
  if (logits.shape.length !== 2 || logits.shape[1]! < 1) throw new Error(`${op}: logits must be (B, V) with V ≥ 1, got ${shapeStr(logits.shape)}`);
  const [B, V] = logits.shape as [number, number];
  return { B, V };
}

export function sampleDims(logits: Tensor, counters: Tensor, opts: SampleOptions): { B: number; V: number; o: ResolvedSample } {
  const { B, V } = rowsDims('sample', logits);
  expectDtype('sample', 'counters', counters, 'i32');
  expectShape('sample', 'counters', counters.shape, [B]);
  if (!Number.isSafeInteger(opts.seed) || opts.seed < 0) throw new Error(`sample: seed must be an integer in [0, 2^53), got ${opts.seed}`);
  const temperature = opts.temperature ?? 1;
  if (!(temperature > 0 && Number.isFinite(temperature))) throw new Error(`sample: temperature must be > 0 (use argmax for greedy), got ${temperature}`);
  if (opts.topK !== undefined && !(Number.isInteger(opts.topK) && opts.topK >= 1)) throw new Error(`sample: topK must be an integer ≥ 1, got ${opts.topK}`);
  if (opts.topP !== undefined && !(opts.topP > 0 && opts.topP <= 1)) throw new Error(`sample: topP must be in (0, 1], got ${opts.topP}`);
  const topK = opts.topK !== undefined && opts.topK < V ? opts.topK : 0;
  return { B, V, o: { seed: opts.seed, temperature, topK, topP: opts.topP ?? 1 } };
}
