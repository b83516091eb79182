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

/** A LoRA run's frozen base on the backend (every base tensor by name; extra names are ignored), and the SHA-256
 *  of the base file it was read from (a contributor's: each version's adapters name the base they sit on). */
export interface LoraBase<T extends Tensor> {
  lora: LoraConfig;
  params: ReadonlyMap<string, T>;
  sha256?: string;
}

/** The metadata key of an adapters file that names its base (hex SHA-256 of the base's model.safetensors). */
const BASE_KEY = 'webswe_base_sha256';

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The base a version's adapters were published on (undefined in a file that does not say). */
export async function adaptersBase(bytes: Uint8Array, version: number): Promise<string | undefined> {
  return (await SafetensorsFile.open(bufferSource(bytes, `adapters v${version}`))).header.metadata[BASE_KEY];
}

export async function modelOfVersion<T extends Tensor>(be: Backend<T>, c: ModelConfig, bytes: Uint8Array, version: number, base?: LoraBase<T>): Promise<Transformer<T>> {
  const file = await SafetensorsFile.open(bufferSource(bytes, base ? `adapters v${version}` : `weights v${version}`));
  if (!base) return new Transformer(be, c, uploadParams(be, c, await new WeightSet([file]).validate(c).readModel(c)));
  const on = file.header.metadata[BASE_KEY];
  if (base.sha256 !== undefined && on !== undefined && on !== base.sha256) throw new Error(`adapters v${version} sit on base ${on.slice(0, 12)}…, not on the base read (${base.sha256.slice(0, 12)}…)`);
  const shapes = adapterShapes(c, base.lora);
  const extra = file.names.find((n) => !shapes.has(n));
  if (extra !== undefined) throw new Error(`adapters v${version}: unexpected tensor ${extra} (not an adapter of this run's LoRA)`);
  const values = new Map<string, Float32Array>();
  for (const [name, shape] of shapes) {
    const info = file.header.tensors.get(name);
    if (!info) throw new Error(`adapters v${version}: tensor ${name} is missing`);
    if (info.shape.length !== shape.length || info.shape.some((d, i) => d !== shape[i])) throw new Error(`adapters v${version}: tensor ${name} is [${info.shape.join(', ')}], [${shape.join(', ')}] expected`);
    values.set(name, await file.read(name));
  }
  return withAdapters(be, c, base, values);
}

/** A model of `base`'s tensors (shared, not copied) and adapters uploaded from `values` (every adapter of its LoRA). */
export function withAdapters<T extends Tensor>(be: Backend<T>, c: ModelConfig, base: LoraBase<T>, values: ReadonlyMap<string, Float32Array>): Transformer<T> {
  const { base: params } = splitLora(base.params, c, base.lora);
  for (const [name, shape] of adapterShapes(c, base.lora)) params.set(name, be.fromArray(values.get(name)!, shape, name));
  return new Transformer(be, c, params, base.lora);
}

/** A LoRA model's parameters by part: the frozen base's and the adapters'. */
export function splitLora<V>(params: ReadonlyMap<string, V>, c: ModelConfig, lora: LoraConfig): { base: Map<string, V>; adapters: Map<string, V> } {
  const shapes = adapterShapes(c, lora);
  const base = new Map<string, V>(), adapters = new Map<string, V>();
  for (const [n, v] of params) (shapes.has(n) ? adapters : base).set(n, v);
  return { base, adapters };
}

/** A LoRA run's base, read from the bytes the learner published once, on the backend. */
export async function loraBaseOf<T extends Tensor>(be: Backend<T>, c: ModelConfig, bytes: Uint8Array, lora: LoraConfig): Promise<LoraBase<T>> {
  const file = await SafetensorsFile.open(bufferSource(bytes, 'base weights'));
  return { lora, params: uploadParams(be, c, await new WeightSet([file]).validate(c).readModel(c)), sha256: await sha256Hex(bytes) };
}

/** A manifest's LoRA settings, checked (a malformed manifest names the field). */
export function manifestLora(m: unknown): LoraConfig | undefined {
  if (m === undefined) return undefined;
  if (m === null || typeof m !== 'object') throw new Error(`the run's manifest has model.lora ${JSON.stringify(m)}: an object {rank, alpha, targets} expected`);
  const { rank, alpha, targets } = m as { rank?: unknown; alpha?: unknown; targets?: unknown };
  if (!Number.isInteger(rank) || (rank as number) < 1) throw new Error(`the run's manifest has LoRA rank ${String(rank)}: a positive integer expected`);
  if (typeof alpha !== 'number' || !Number.isFinite(alpha) || alpha <= 0) throw new Error(`the run's manifest has LoRA alpha ${String(alpha)}: a positive number expected`);
  if (!Array.isArray(targets) || !targets.length || !targets.every((t) => typeof t === 'string')) throw new Error("the run's manifest has LoRA targets that are not a non-empty list of projection names");
  try {
    return { rank: rank as number, alpha, targets: parseLoraTargets(targets.join(',')) };
  } catch (e) {
    throw new Error(`the run's manifest has LoRA targets ${JSON.stringify(targets)}: ${(e as Error).message}`);
  }
}

/** A version's adapters as the bytes a LoRA run publishes (our tensor names, F32), naming the base they sit on. */
export function adapterBytes(c: ModelConfig, lora: LoraConfig, values: ReadonlyMap<string, Float32Array>, baseSha256: string): Uint8Array {
  const tensors = [...adapterShapes(c, lora)].map(([name, shape]) => {
    const data = values.get(name);
    if (!data) throw new Error(`the adapter ${name} is missing`);
    return { name, shape, data };
  });
  return writeSafetensors(tensors, { metadata: { format: 'pt', [BASE_KEY]: baseSha256 } });
}

/** Free a model's parameters, except the ones it shares with `keep` (a LoRA base, the learner's own model). */
export function freeModel<T extends Tensor>(be: Backend<T>, model: Transformer<T>, keep?: ReadonlyMap<string, T>): void {
  for (const [name, p] of model.params) if (keep?.get(name) !== p) be.free(p);
}
