// Model parameters on a backend: upload by Hugging Face name, zeroed gradient buffers of the same
// shapes, and download back to f32 arrays (for checkpoints).
import type { BackendCore } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import type { ModelConfig } from './config.ts';
import { expectedTensors } from './weights.ts';

/** Parameter names and shapes of a config, lm_head left out when tied (it is the embedding). */
export function parameterSpecs(c: ModelConfig): { name: string; shape: number[] }[] {
  return expectedTensors(c)
    .filter((s) => !(c.tieWordEmbeddings && s.name === 'lm_head.weight'))
    .map((s) => ({ name: s.name, shape: [...s.shape] }));
}

export function uploadParams<T extends Tensor>(be: BackendCore<T>, c: ModelConfig, values: ReadonlyMap<string, Float32Array>): Map<string, T> {
  const out = new Map<string, T>();
  for (const s of parameterSpecs(c)) {
    const v = values.get(s.name);
    if (!v) throw new Error(`parameter ${s.name} is missing`);
    out.set(s.name, be.fromArray(v, s.shape, s.name));
  }
  return out;
}

export function zeroGrads<T extends Tensor>(be: BackendCore<T>, params: ReadonlyMap<string, T>): Map<string, T> {
  const out = new Map<string, T>();
  for (const [name, p] of params) out.set(name, be.zeros(p.shape, 'f32', `grad:${name}`));
  return out;
}

export async function downloadParams<T extends Tensor>(be: BackendCore<T>, params: ReadonlyMap<string, T>): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  for (const [name, p] of params) out.set(name, (await be.read(p)) as Float32Array);
  return out;
}
