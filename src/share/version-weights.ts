// A policy version's weights as a model on a backend, read from the model.safetensors bytes the learner published
// for it (a contributor playing an item; a resumed learner verifying a round that went out before its stop), and
// its parameters freed when it is no longer needed.
import type { ModelConfig } from '../model/config.ts';
import { uploadParams } from '../model/params.ts';
import { bufferSource, SafetensorsFile } from '../model/safetensors.ts';
import { Transformer } from '../model/transformer.ts';
import { WeightSet } from '../model/weights.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';

export async function modelOfVersion<T extends Tensor>(be: Backend<T>, c: ModelConfig, bytes: Uint8Array, version: number): Promise<Transformer<T>> {
  const file = await SafetensorsFile.open(bufferSource(bytes, `weights v${version}`));
  return new Transformer(be, c, uploadParams(be, c, await new WeightSet([file]).validate(c).readModel(c)));
}

export function freeModel<T extends Tensor>(be: Backend<T>, model: Transformer<T>): void {
  for (const p of model.params.values()) be.free(p);
}
