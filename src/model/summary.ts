// What a pretrained model is, in the numbers the Model view shows and a cached model's record keeps:
// its shape from config.json, its parameter count, how its weights are stored (dtypes, bytes) and
// what they become on the GPU (the kernels compute in f32), and its tokenizer's vocabulary.
import { paramCount, type ModelConfig, type ModelType } from './config.ts';
import { DTYPE_BYTES, type TensorInfo } from './safetensors.ts';

export interface ModelSummary {
  modelType: ModelType;
  numLayers: number; // L
  hiddenSize: number; // C
  intermediateSize: number; // F
  numHeads: number; // NH
  numKvHeads: number; // NKV
  headDim: number; // HS
  vocabSize: number; // V (the embedding's rows)
  /** One more than the tokenizer's largest id (at most V). */
  tokenizerVocab: number;
  params: number;
  /** The dtypes the weights are stored in, e.g. ['BF16']. */
  dtypes: string[];
  /** Bytes of tensor data as stored, and as f32 (what the GPU holds). */
  storedBytes: number;
  f32Bytes: number;
  tieWordEmbeddings: boolean;
  maxPositionEmbeddings: number;
  /** Whether the tokenizer files carry a chat template (else ChatML is used). */
  chatTemplate: boolean;
}

export function summarizeModel(c: ModelConfig, tensors: ReadonlyMap<string, TensorInfo>, tokenizer: { vocabSize: number; hasOwnChatTemplate: boolean }): ModelSummary {
  const dtypes = new Set<string>();
  let storedBytes = 0, f32Bytes = 0;
  for (const t of tensors.values()) {
    dtypes.add(t.dtype);
    storedBytes += t.end - t.begin;
    f32Bytes += ((t.end - t.begin) / DTYPE_BYTES[t.dtype]!) * 4;
  }
  return {
    modelType: c.modelType, numLayers: c.numLayers, hiddenSize: c.hiddenSize, intermediateSize: c.intermediateSize,
    numHeads: c.numHeads, numKvHeads: c.numKvHeads, headDim: c.headDim, vocabSize: c.vocabSize, tokenizerVocab: tokenizer.vocabSize,
    params: paramCount(c), dtypes: [...dtypes].sort(), storedBytes, f32Bytes, tieWordEmbeddings: c.tieWordEmbeddings,
    maxPositionEmbeddings: c.maxPositionEmbeddings, chatTemplate: tokenizer.hasOwnChatTemplate,
  };
}
