// The model's normalized config (shape alphabet of src/ops/backend.ts) and its two-way mapping to
// Hugging Face config.json for model_type llama, qwen2 and qwen3. What we do not implement (rope
// scaling, sliding windows, o_proj/MLP biases, other activations) is refused naming the field.
import { ModelFileError } from './errors.ts';

export type ModelType = 'llama' | 'qwen2' | 'qwen3';
export const MODEL_TYPES: readonly ModelType[] = ['llama', 'qwen2', 'qwen3'];

export interface ModelConfig {
  readonly modelType: ModelType;
  readonly vocabSize: number; // V
  readonly hiddenSize: number; // C
  readonly intermediateSize: number; // F
  readonly numLayers: number; // L
  readonly numHeads: number; // NH
  readonly numKvHeads: number; // NKV (divides NH)
  readonly headDim: number; // HS (even; Qwen3 may have NH·HS ≠ C)
  readonly ropeTheta: number;
  readonly rmsNormEps: number;
  readonly tieWordEmbeddings: boolean; // lm_head shares model.embed_tokens.weight
  readonly qkvBias: boolean; // q/k/v projections have biases (Qwen2)
  readonly qkNorm: boolean; // per-head RMSNorm on q and k before RoPE (Qwen3)
  readonly maxPositionEmbeddings: number;
  readonly bosTokenId?: number;
  readonly eosTokenIds?: readonly number[];
}

const ARCH: Record<ModelType, string> = { llama: 'LlamaForCausalLM', qwen2: 'Qwen2ForCausalLM', qwen3: 'Qwen3ForCausalLM' };
// transformers' defaults where config.json leaves a field out.
const DEFAULT_MAX_POS: Record<ModelType, number> = { llama: 2048, qwen2: 32768, qwen3: 32768 };

type Json = Record<string, unknown>;

/** Reads a Hugging Face config.json (parsed object or text) into a frozen ModelConfig. */
export function parseHfConfig(input: unknown, file = 'config.json'): ModelConfig {
  const fail = (detail: string): never => {
    throw new ModelFileError(file, detail);
  };
  let j: unknown = input;
  if (typeof input === 'string') {
    try {
      j = JSON.parse(input);
    } catch (e) {
      fail(`not valid JSON (${(e as Error).message.split('\n')[0]})`);
    }
  }
  if (j === null || typeof j !== 'object' || Array.isArray(j)) return fail('expected a JSON object');
  const c = j as Json;
  const has = (k: string) => c[k] !== undefined && c[k] !== null;

  const modelType = c.model_type;
  if (typeof modelType !== 'string') return fail(`model_type is missing (supported: ${MODEL_TYPES.join(', ')})`);
  if (!(MODEL_TYPES as readonly string[]).includes(modelType)) {
    return fail(`model_type "${modelType}" is not supported (supported: ${MODEL_TYPES.join(', ')})`);
  }
  const type = modelType as ModelType;

  const int = (k: string, dflt?: number): number => {
    const v = has(k) ? c[k] : dflt;
    if (v === undefined) return fail(`${k} is missing`);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) return fail(`${k} must be a positive integer, got ${JSON.stringify(v)}`);
    return v;
  };
  const num = (k: string, v: unknown, dflt: number): number => {
    if (v === undefined || v === null) return dflt;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) return fail(`${k} must be a positive number, got ${JSON.stringify(v)}`);
    return v;
  };
  const bool = (k: string, dflt: boolean): boolean => {
    if (!has(k)) return dflt;
    if (typeof c[k] !== 'boolean') return fail(`${k} must be true or false, got ${JSON.stringify(c[k])}`);
    return c[k] as boolean;
  };

  const vocabSize = int('vocab_size');
  const hiddenSize = int('hidden_size');
  const intermediateSize = int('intermediate_size');
  const numLayers = int('num_hidden_layers');
  const numHeads = int('num_attention_heads');
  const numKvHeads = int('num_key_value_heads', numHeads);
  if (numHeads % numKvHeads !== 0) {
    fail(`num_key_value_heads ${numKvHeads} does not divide num_attention_heads ${numHeads} (grouped-query attention needs NH = k·NKV)`);
  }
  let headDim: number;
  if (has('head_dim')) headDim = int('head_dim');
  else if (type === 'qwen3') headDim = 128; // Qwen3Config's default
  else {
    if (hiddenSize % numHeads !== 0) fail(`num_attention_heads ${numHeads} does not divide hidden_size ${hiddenSize} and head_dim is not given`);
    headDim = hiddenSize / numHeads;
  }
  if (headDim % 2 !== 0) fail(`head_dim ${headDim} is odd; rotary embeddings rotate pairs (i, i + head_dim/2)`);

  const act = c.hidden_act ?? c.hidden_activation ?? 'silu';
  if (act !== 'silu') fail(`hidden_act "${String(act)}" is not supported (only "silu", the SwiGLU MLP)`);
  if (bool('attention_bias', false) && type !== 'qwen2') fail('attention_bias true (biases on q/k/v/o) is not supported for this model_type');
  if (bool('mlp_bias', false)) fail('mlp_bias true is not supported (the MLP has no biases)');
  if (bool('use_sliding_window', false)) fail('use_sliding_window true is not supported (full causal attention only)');
  if (Array.isArray(c.layer_types) && c.layer_types.some((t) => t !== 'full_attention')) {
    fail('layer_types lists layers other than "full_attention" (sliding-window layers are not supported)');
  }
  const dropout = c.attention_dropout;
  if (dropout !== undefined && dropout !== null && dropout !== 0) fail(`attention_dropout ${JSON.stringify(dropout)} is not supported (0 only)`);

  // RoPE: transformers ≤ 4.x keep rope_theta and rope_scaling; 5.x keep rope_parameters.
  let ropeTheta = num('rope_theta', c.rope_theta, 10000);
  for (const key of ['rope_scaling', 'rope_parameters']) {
    const rs = c[key];
    if (rs === undefined || rs === null) continue;
    if (typeof rs !== 'object' || Array.isArray(rs)) fail(`${key} must be an object or null`);
    const r = rs as Json;
    const kind = r.rope_type ?? r.type ?? 'default';
    if (kind !== 'default') fail(`${key}.rope_type "${String(kind)}" is not supported (plain RoPE only); use a model without rope scaling`);
    if (r.rope_theta !== undefined) ropeTheta = num(`${key}.rope_theta`, r.rope_theta, ropeTheta);
  }
  const rmsNormEps = num('rms_norm_eps', c.rms_norm_eps, 1e-6);

  const optId = (k: string): number | undefined => {
    const v = c[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return fail(`${k} must be a token id, got ${JSON.stringify(v)}`);
    return v;
  };
  const bosTokenId = optId('bos_token_id');
  let eosTokenIds: number[] | undefined;
  if (Array.isArray(c.eos_token_id)) {
    eosTokenIds = c.eos_token_id.map((v) => {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return fail(`eos_token_id must hold token ids, got ${JSON.stringify(v)}`);
      return v;
    });
  } else {
    const e = optId('eos_token_id');
    if (e !== undefined) eosTokenIds = [e];
  }
  const outside = (k: string, id: number | undefined) => id !== undefined && id >= vocabSize && fail(`${k} ${id} is outside the vocabulary (vocab_size ${vocabSize})`);
  outside('bos_token_id', bosTokenId);
  for (const e of eosTokenIds ?? []) outside('eos_token_id', e);

  return freezeConfig({
    modelType: type,
    vocabSize,
    hiddenSize,
    intermediateSize,
    numLayers,
    numHeads,
    numKvHeads,
    headDim,
    ropeTheta,
    rmsNormEps,
    tieWordEmbeddings: bool('tie_word_embeddings', false),
    qkvBias: type === 'qwen2',
    qkNorm: type === 'qwen3',
    maxPositionEmbeddings: int('max_position_embeddings', DEFAULT_MAX_POS[type]),
    ...(bosTokenId !== undefined ? { bosTokenId } : {}),
    ...(eosTokenIds !== undefined ? { eosTokenIds } : {}),
  });
}

/** Checks a config built in code (presets, tests) against the rules parseHfConfig applies. */
export function freezeConfig(c: ModelConfig): ModelConfig {
  if (c.qkvBias !== (c.modelType === 'qwen2')) throw new ModelFileError('config', `qkvBias must be ${c.modelType === 'qwen2'} for ${c.modelType}`);
  if (c.qkNorm !== (c.modelType === 'qwen3')) throw new ModelFileError('config', `qkNorm must be ${c.modelType === 'qwen3'} for ${c.modelType}`);
  if (c.numHeads % c.numKvHeads !== 0) throw new ModelFileError('config', `numKvHeads ${c.numKvHeads} does not divide numHeads ${c.numHeads}`);
  if (c.headDim % 2 !== 0) throw new ModelFileError('config', `headDim ${c.headDim} must be even`);
  return Object.freeze({ ...c, ...(c.eosTokenIds ? { eosTokenIds: Object.freeze([...c.eosTokenIds]) } : {}) });
}

/** The config.json transformers' AutoModelForCausalLM expects for this model. `dtype` is the
 *  dtype the weights are written in (informational for transformers: torch_dtype). */
export function toHfConfig(c: ModelConfig, dtype: 'float32' | 'bfloat16' = 'float32'): Json {
  const out: Json = {
    architectures: [ARCH[c.modelType]],
    model_type: c.modelType,
    vocab_size: c.vocabSize,
    hidden_size: c.hiddenSize,
    intermediate_size: c.intermediateSize,
    num_hidden_layers: c.numLayers,
    num_attention_heads: c.numHeads,
    num_key_value_heads: c.numKvHeads,
    head_dim: c.headDim,
    hidden_act: 'silu',
    max_position_embeddings: c.maxPositionEmbeddings,
    rms_norm_eps: c.rmsNormEps,
    rope_theta: c.ropeTheta,
    rope_scaling: null,
    tie_word_embeddings: c.tieWordEmbeddings,
    attention_dropout: 0.0,
    initializer_range: 0.02,
    use_cache: true,
    torch_dtype: dtype,
  };
  if (c.modelType !== 'qwen2') out.attention_bias = false;
  if (c.modelType === 'llama') out.mlp_bias = false;
  else {
    out.use_sliding_window = false;
    out.max_window_layers = c.numLayers;
  }
  if (c.bosTokenId !== undefined) out.bos_token_id = c.bosTokenId;
  if (c.eosTokenIds !== undefined) out.eos_token_id = c.eosTokenIds.length === 1 ? c.eosTokenIds[0] : [...c.eosTokenIds];
  return out;
}

/** Total parameter count (tied lm_head counted once). */
/** The weights a token is multiplied by in a forward: every parameter but an untied embedding (a lookup
 *  reads one row of it). What a decode step streams, and a forward's arithmetic per token over 2. */
export function tokenWeights(c: ModelConfig): number {
  return paramCount(c) - (c.tieWordEmbeddings ? 0 : c.vocabSize * c.hiddenSize);
}

export function paramCount(c: ModelConfig): number {
  const { vocabSize: V, hiddenSize: C, intermediateSize: F, numHeads: NH, numKvHeads: NKV, headDim: HS } = c;
  const attn = C * NH * HS + 2 * C * NKV * HS + NH * HS * C + (c.qkvBias ? NH * HS + 2 * NKV * HS : 0) + (c.qkNorm ? 2 * HS : 0);
  const layer = attn + 3 * C * F + 2 * C;
  return V * C * (c.tieWordEmbeddings ? 1 : 2) + c.numLayers * layer + C;
}
