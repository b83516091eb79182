// Model-test helpers: load a fixture model folder onto a backend, build the reference batch
// (B rows of T tokens, one episode per row) and the d(loss)/d(logp) of the mean next-token loss; a small Qwen2
// shape for the LoRA and shared-run tests.
import { parseHfConfig } from '../../src/model/config.ts';
import { loadModelDir } from '../../src/model/load.node.ts';
import type { ModelShape } from '../../src/model/shapes.ts';
import { uploadParams, zeroGrads } from '../../src/model/params.ts';
import { Transformer, type PackedBatch } from '../../src/model/transformer.ts';
import type { Backend } from '../../src/ops/backend.ts';
import type { Tensor } from '../../src/ops/tensor.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MODELS_DIR = fileURLToPath(new URL('../fixtures/models/', import.meta.url));

export interface ModelReference {
  input_ids: number[][];
  loss: number;
  logprobs: { shape: number[]; data: number[] };
  logits: { shape: number[]; data: number[] };
  grads: Record<string, { shape: number[]; data: number[] }>;
}

export async function loadFixtureModel<T extends Tensor>(be: Backend<T>, name: string) {
  const dir = MODELS_DIR + name;
  const loaded = await loadModelDir(dir);
  const values = await loaded.weights.readModel(loaded.config);
  await loaded.close();
  const params = uploadParams(be, loaded.config, values);
  const ref = JSON.parse(readFileSync(`${dir}/reference.json`, 'utf8')) as ModelReference;
  return { config: loaded.config, model: new Transformer(be, loaded.config, params), ref, grads: () => zeroGrads(be, params) };
}

/** One episode per row: positions 0..T−1, segment 0, targets = the next id (last: 0, masked). */
export function referenceBatch<T extends Tensor>(be: Backend<T>, ids: number[][]): { batch: PackedBatch<T>; dlogp: T; mask: Float32Array } {
  const B = ids.length, T = ids[0]!.length, N = B * T;
  const flat = Int32Array.from(ids.flat());
  const targets = new Int32Array(N), positions = new Int32Array(N), mask = new Float32Array(N);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      positions[b * T + t] = t;
      if (t < T - 1) {
        targets[b * T + t] = ids[b]![t + 1]!;
        mask[b * T + t] = 1;
      }
    }
  }
  // loss = −mean over B·(T−1) of logp → dloss/dlogp = −1/(B·(T−1)) on predicted positions.
  const dl = mask.map((m) => -m / (B * (T - 1)));
  return {
    batch: { B, T, ids: be.fromArray(flat, [N], 'ids'), targets: be.fromArray(targets, [N], 'targets'), positions: be.fromArray(positions, [N], 'positions'), seg: be.zeros([B, T], 'i32', 'seg') },
    dlogp: be.fromArray(dl, [N], 'dlogp'),
    mask,
  };
}

/** A small Qwen2 shape (2 heads, 1 KV head, F = 2C) for the LoRA and shared-run tests; `ids` sets bos/eos ids. */
export function smallQwen2(o: { vocab: number; layers: number; hidden?: number; ids?: { bos: number; eos: number } }): ModelShape {
  const C = o.hidden ?? 32;
  return {
    name: 'small-qwen2', description: 'a small Qwen2 shape',
    config: parseHfConfig({
      architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2', vocab_size: o.vocab, hidden_size: C, intermediate_size: 2 * C, num_hidden_layers: o.layers,
      num_attention_heads: 2, num_key_value_heads: 1, max_position_embeddings: 4096, rms_norm_eps: 1e-6, rope_theta: 10000, tie_word_embeddings: true,
      ...(o.ids ? { bos_token_id: o.ids.bos, eos_token_id: o.ids.eos } : {}),
    }),
  };
}
