// A policy version's weights as a model on a backend, read from the safetensors bytes the learner published for it
// (a contributor playing an item; a resumed learner verifying a round that went out before its stop), and its
// parameters freed when it is no longer needed. A full run publishes every weight per version; a LoRA run
// publishes its frozen base once and then only each version's adapters (35 MB against 2 GB at the 0.5 B shape,
// rank 16), which sit on the base's tensors already on the backend.
import type { ModelConfig } from '../model/config.ts';
import { adapterShapes, parseLoraTargets, type LoraConfig } from '../model/lora.ts';
import { uploadParams } from '../model/params.ts';
import { bufferSource, SafetensorsFile, writeSafetensors } from '../model/safetensors.ts';
import { Transformer } from '../model/transformer.ts';
import { WeightSet } from '../model/weights.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';

/** A LoRA run's frozen base on the backend (every base tensor by name; extra names are ignored). */
export interface LoraBase<T extends Tensor> {
  lora: LoraConfig;
  params: ReadonlyMap<string, T>;
}

export async function modelOfVersion<T extends Tensor>(be: Backend<T>, c: ModelConfig, bytes: Uint8Array, version: number, base?: LoraBase<T>): Promise<Transformer<T>> {
  const file = await SafetensorsFile.open(bufferSource(bytes, base ? `adapters v${version}` : `weights v${version}`));
  if (!base) return new Transformer(be, c, uploadParams(be, c, await new WeightSet([file]).validate(c).readModel(c)));
  const shapes = adapterShapes(c, base.lora);
  const extra = file.names.find((n) => !shapes.has(n));
  if (extra !== undefined) throw new Error(`adapters v${version}: unexpected tensor ${extra} (not an adapter of this run's LoRA)`);
  const params = new Map([...base.params].filter(([n]) => !shapes.has(n)));
  try {
    for (const [name, shape] of shapes) {
      const info = file.header.tensors.get(name);
      if (!info) throw new Error(`adapters v${version}: tensor ${name} is missing`);
      if (info.shape.length !== shape.length || info.shape.some((d, i) => d !== shape[i])) throw new Error(`adapters v${version}: tensor ${name} is [${info.shape.join(', ')}], [${shape.join(', ')}] expected`);
      params.set(name, be.fromArray(await file.read(name), shape, name));
    }
  } catch (e) {
    for (const name of shapes.keys()) if (params.has(name)) be.free(params.get(name)!);
    throw e;
  }
  return new Transformer(be, c, params, base.lora);
}

/** A LoRA run's base, read from the bytes the learner published once, on the backend. */
export async function loraBaseOf<T extends Tensor>(be: Backend<T>, c: ModelConfig, bytes: Uint8Array, lora: LoraConfig): Promise<LoraBase<T>> {
  const file = await SafetensorsFile.open(bufferSource(bytes, 'base weights'));
  return { lora, params: uploadParams(be, c, await new WeightSet([file]).validate(c).readModel(c)) };
}

/** A manifest's LoRA settings, checked (a malformed manifest names the field). */
export function manifestLora(m: { rank: unknown; alpha: unknown; targets: unknown } | undefined): LoraConfig | undefined {
  if (m === undefined) return undefined;
  if (!Number.isInteger(m.rank) || (m.rank as number) < 1) throw new Error(`the run's manifest has LoRA rank ${String(m.rank)}: a positive integer expected`);
  if (typeof m.alpha !== 'number' || !Number.isFinite(m.alpha) || m.alpha <= 0) throw new Error(`the run's manifest has LoRA alpha ${String(m.alpha)}: a positive number expected`);
  if (!Array.isArray(m.targets) || !m.targets.every((t) => typeof t === 'string')) throw new Error("the run's manifest has LoRA targets that are not a list of names");
  return { rank: m.rank as number, alpha: m.alpha, targets: parseLoraTargets(m.targets.join(',')) };
}

/** A version's adapters as the bytes a LoRA run publishes (our tensor names, F32). */
export function adapterBytes(c: ModelConfig, lora: LoraConfig, values: ReadonlyMap<string, Float32Array>): Uint8Array {
  return writeSafetensors([...adapterShapes(c, lora)].map(([name, shape]) => {
    const data = values.get(name);
    if (!data) throw new Error(`the adapter ${name} is missing`);
    return { name, shape, data };
  }));
}

/** Free a model's parameters, except the ones it shares with `keep` (a LoRA base, the learner's own model). */
export function freeModel<T extends Tensor>(be: Backend<T>, model: Transformer<T>, keep?: ReadonlyMap<string, T>): void {
  for (const [name, p] of model.params) if (keep?.get(name) !== p) be.free(p);
}
