// The shapes a speed or memory figure is measured at: the from-scratch presets (presets.ts) and the exact shapes of
// the pretrained models users bring, with seeded random weights, so `webswe bench generate|train --model
// qwen2.5-coder-0.5b` measures a 0.5 B model offline (no Hub download: the arithmetic and the memory depend on the
// shape alone). A pretrained shape trains as its run does: LoRA rank 16 on every projection (the `qwen-coder-lora`
// run preset), the base weights frozen.
import { trainBpe, padVocab, SPECIAL_TOKENS } from './bpe.ts';
import { freezeConfig, parseHfConfig, type ModelConfig } from './config.ts';
import { initParams } from './init.ts';
import type { LoadedModel } from './load.ts';
import { parseLoraTargets, type LoraConfig } from './lora.ts';
import { MODEL_PRESETS, modelPreset } from './presets.ts';

export interface ModelShape {
  readonly name: string;
  readonly description: string;
  readonly config: ModelConfig;
  /** How a training step at this shape trains: undefined for every weight (from-scratch presets). */
  readonly lora?: LoraConfig;
  /** The Hub model whose config this is (pretrained shapes): a run naming it trains at this shape. */
  readonly hub?: string;
}

/** A Qwen2.5-Coder Instruct model's config.json as the Hub has it (the fields the model reads). */
const qwen25Coder = (hidden: number, intermediate: number, layers: number, heads: number) =>
  parseHfConfig({
    architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2', vocab_size: 151936, hidden_size: hidden, intermediate_size: intermediate,
    num_hidden_layers: layers, num_attention_heads: heads, num_key_value_heads: 2, max_position_embeddings: 32768,
    rms_norm_eps: 1e-6, rope_theta: 1000000.0, tie_word_embeddings: true, bos_token_id: 151643, eos_token_id: 151645, hidden_act: 'silu',
  });

const LORA: LoraConfig = Object.freeze({ rank: 16, alpha: 32, targets: parseLoraTargets('q,k,v,o,gate,up,down') });

/** The pretrained models' shapes: Qwen/Qwen2.5-Coder-0.5B-Instruct (0.49 B parameters) and -1.5B-Instruct (1.54 B). */
export const PRETRAINED_SHAPES: Readonly<Record<string, ModelShape>> = Object.freeze({
  'qwen2.5-coder-0.5b': { name: 'qwen2.5-coder-0.5b', description: 'Qwen2.5-Coder-0.5B-Instruct: 24 layers, C 896, 14 heads (2 KV), vocab 151936; random weights, LoRA rank 16', config: qwen25Coder(896, 4864, 24, 14), lora: LORA, hub: 'Qwen/Qwen2.5-Coder-0.5B-Instruct' },
  'qwen2.5-coder-1.5b': { name: 'qwen2.5-coder-1.5b', description: 'Qwen2.5-Coder-1.5B-Instruct: 28 layers, C 1536, 12 heads (2 KV), vocab 151936; random weights, LoRA rank 16', config: qwen25Coder(1536, 8960, 28, 12), lora: LORA, hub: 'Qwen/Qwen2.5-Coder-1.5B-Instruct' },
});

/** Every shape bench measures at, by name: the from-scratch presets, then the pretrained shapes. */
export const SHAPE_NAMES: readonly string[] = [...Object.keys(MODEL_PRESETS), ...Object.keys(PRETRAINED_SHAPES)];

/** The shape called `name`, or undefined. */
export function modelShape(name: string): ModelShape | undefined {
  const preset = modelPreset(name);
  if (preset) return preset;
  return Object.hasOwn(PRETRAINED_SHAPES, name) ? PRETRAINED_SHAPES[name] : undefined;
}

/** The shape a run's `model.preset` trains at: a from-scratch preset, or the pretrained shape of its Hub id
 *  (undefined for a model folder or another Hub model: its shape is in its files). */
export function shapeOfModel(modelPresetOrHubId: string): ModelShape | undefined {
  return modelPreset(modelPresetOrHubId) ?? Object.values(PRETRAINED_SHAPES).find((s) => s.hub === modelPresetOrHubId);
}

/** A pretrained shape as a loaded model folder would give it, for a run that needs text (a shared run's
 *  episodes, `bench dist`): seeded random weights, and a byte-level BPE trained on `corpus` (`tokenizerVocab`
 *  ids) filled up to the shape's vocabulary (bpe.ts padVocab: a random model samples every row), its stop
 *  token the tokenizer's <|im_end|>. Only the text differs from the real model; the arithmetic is the shape's. */
export function randomShapeModel(shape: ModelShape, corpus: readonly string[], seed: number, tokenizerVocab = 4096): Pick<LoadedModel, 'config' | 'tokenizerJson' | 'tokenizerConfig'> & { weights: { readModel(c: ModelConfig): Promise<Map<string, Float32Array>> } } {
  const bpe = trainBpe(corpus, { vocabSize: Math.min(tokenizerVocab, shape.config.vocabSize) });
  const files = padVocab(bpe, shape.config.vocabSize);
  const config = freezeConfig({ ...shape.config, bosTokenId: SPECIAL_TOKENS.indexOf('<|endoftext|>'), eosTokenIds: [SPECIAL_TOKENS.indexOf('<|im_end|>')] });
  return { config, tokenizerJson: files.tokenizerJson, tokenizerConfig: files.tokenizerConfig, weights: { readModel: async (c) => initParams(c, seed) } };
}
