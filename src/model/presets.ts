// The from-scratch model shapes (docs/architecture.md "Models"), in one place, named by their parameter count
// (`scratch-160k`) apart from the run presets (`micro`: a whole run's settings, src/rl/presets.ts). All are
// Qwen2-style (q/k/v biases, tied embeddings, ChatML special tokens), the same family as the pretrained Qwen2.5
// targets, so one code path serves both. Their tokenizer is our byte-level BPE (bpe.ts) trained on the task
// world with `tokenizerVocab` entries; the model's vocabSize may be larger (padding rows, as Qwen does).
import { freezeConfig, type ModelConfig } from './config.ts';
import { SPECIAL_TOKENS } from './bpe.ts';

export interface ModelPreset {
  readonly name: 'scratch-30k' | 'scratch-160k' | 'scratch-400k' | 'scratch-5m';
  readonly description: string;
  readonly config: ModelConfig;
  /** Vocabulary the BPE trainer is asked for (specials + 256 bytes + merges); ≤ config.vocabSize. */
  readonly tokenizerVocab: number;
}

const ids = { bos: SPECIAL_TOKENS.indexOf('<|endoftext|>'), imEnd: SPECIAL_TOKENS.indexOf('<|im_end|>') };

const common = {
  modelType: 'qwen2',
  qkvBias: true,
  qkNorm: false,
  tieWordEmbeddings: true, // at this size the embedding is a large share of the parameters
  rmsNormEps: 1e-6,
  ropeTheta: 10000,
  bosTokenId: ids.bos,
  eosTokenIds: [ids.imEnd, ids.bos], // generation stops at <|im_end|> (or <|endoftext|>)
} as const;

/** ≈ 0.16 M parameters: learns on a CPU-only machine in minutes. F = 172 ≈ 8/3·C (SwiGLU's usual
 *  ratio) rounded up to a multiple of 4. */
export const scratch160k: ModelPreset = Object.freeze({
  name: 'scratch-160k',
  description: '2 layers, C 64, 4 heads (2 KV), vocab 1024: CPU-only, minutes',
  tokenizerVocab: 1024,
  config: freezeConfig({
    ...common,
    vocabSize: 1024,
    hiddenSize: 64,
    intermediateSize: 172,
    numLayers: 2,
    numHeads: 4,
    numKvHeads: 2,
    headDim: 16,
    maxPositionEmbeddings: 2048,
  }),
});

/** ≈ 0.40 M parameters: scratch-160k with a third layer and 1.5× the width (C 96, 6 heads of 16, 3 KV; F 256 ≈
 *  8/3·C), the same tokenizer size; ~2.5× scratch-160k's cost a token. */
export const scratch400k: ModelPreset = Object.freeze({
  name: 'scratch-400k',
  description: '3 layers, C 96, 6 heads (3 KV) of 16, vocab 1024: CPU-only, ~2.5x scratch-160k',
  tokenizerVocab: 1024,
  config: freezeConfig({
    ...common,
    vocabSize: 1024,
    hiddenSize: 96,
    intermediateSize: 256,
    numLayers: 3,
    numHeads: 6,
    numKvHeads: 3,
    headDim: 16,
    maxPositionEmbeddings: 2048,
  }),
});

/** ≈ 4.9 M parameters: the default in-browser demo on a laptop GPU. F = 688 ≈ 8/3·C rounded up to
 *  a multiple of 16; HS 64 as in most pretrained models. */
export const scratch5m: ModelPreset = Object.freeze({
  name: 'scratch-5m',
  description: '6 layers, C 256, 4 heads (2 KV) of 64, vocab 2048: laptop GPU',
  tokenizerVocab: 2048,
  config: freezeConfig({
    ...common,
    vocabSize: 2048,
    hiddenSize: 256,
    intermediateSize: 688,
    numLayers: 6,
    numHeads: 4,
    numKvHeads: 2,
    headDim: 64,
    maxPositionEmbeddings: 4096,
  }),
});

/** ≈ 30 k parameters: a smoke-test model (pipeline tests, resume/determinism checks); learns nothing useful. */
export const scratch30k: ModelPreset = Object.freeze({
  name: 'scratch-30k',
  description: '1 layer, C 32, 2 heads (1 KV) of 16, vocab 512: tests and smoke runs',
  tokenizerVocab: 512,
  config: freezeConfig({
    ...common,
    vocabSize: 512,
    hiddenSize: 32,
    intermediateSize: 64,
    numLayers: 1,
    numHeads: 2,
    numKvHeads: 1,
    headDim: 16,
    maxPositionEmbeddings: 4096,
  }),
});

export const MODEL_PRESETS: Readonly<Record<ModelPreset['name'], ModelPreset>> = Object.freeze({
  'scratch-30k': scratch30k,
  'scratch-160k': scratch160k,
  'scratch-400k': scratch400k,
  'scratch-5m': scratch5m,
});

/** The shapes' names before they were told apart from the run presets (a run saved with one still opens). */
export const RENAMED_PRESETS: Readonly<Record<string, ModelPreset['name']>> = Object.freeze({ nano: 'scratch-30k', micro: 'scratch-160k', mini: 'scratch-400k', tiny: 'scratch-5m' });

/** The from-scratch preset called `name` (undefined for any other name, a Hugging Face folder or Hub id). */
export const modelPreset = (name: string): ModelPreset | undefined => (Object.hasOwn(MODEL_PRESETS, name) ? MODEL_PRESETS[name as ModelPreset['name']] : undefined);
