// The model's tensors by Hugging Face name: what a config implies (names, shapes, order), the check
// of a checkpoint's headers against it, sharded checkpoints as one set, and the files of a Hugging
// Face folder (config.json, model.safetensors, tokenizer files) that transformers loads.
import { toHfConfig, type ModelConfig } from './config.ts';
import { utf8Encode } from './dtypes.ts';
import { ModelFileError } from './errors.ts';
import { READ_DTYPES, SafetensorsFile, writeSafetensors, type NamedTensor, type TensorInfo, type WriteDtype } from './safetensors.ts';

export interface TensorSpec {
  readonly name: string;
  readonly shape: readonly number[];
  /** Which config fields the shape comes from, for messages. */
  readonly from: string;
}

/** Every parameter of the model in a fixed order (embedding, layers 0..L−1, final norm, lm_head). */
export function expectedTensors(c: ModelConfig): TensorSpec[] {
  const { vocabSize: V, hiddenSize: C, intermediateSize: F, numHeads: NH, numKvHeads: NKV, headDim: HS } = c;
  const out: TensorSpec[] = [{ name: 'model.embed_tokens.weight', shape: [V, C], from: 'vocab_size, hidden_size' }];
  for (let i = 0; i < c.numLayers; i++) {
    const p = `model.layers.${i}.`;
    const add = (n: string, shape: number[], from: string) => out.push({ name: p + n, shape, from });
    add('input_layernorm.weight', [C], 'hidden_size');
    add('self_attn.q_proj.weight', [NH * HS, C], 'num_attention_heads·head_dim, hidden_size');
    add('self_attn.k_proj.weight', [NKV * HS, C], 'num_key_value_heads·head_dim, hidden_size');
    add('self_attn.v_proj.weight', [NKV * HS, C], 'num_key_value_heads·head_dim, hidden_size');
    if (c.qkvBias) {
      add('self_attn.q_proj.bias', [NH * HS], 'num_attention_heads·head_dim');
      add('self_attn.k_proj.bias', [NKV * HS], 'num_key_value_heads·head_dim');
      add('self_attn.v_proj.bias', [NKV * HS], 'num_key_value_heads·head_dim');
    }
    if (c.qkNorm) {
      add('self_attn.q_norm.weight', [HS], 'head_dim');
      add('self_attn.k_norm.weight', [HS], 'head_dim');
    }
    add('self_attn.o_proj.weight', [C, NH * HS], 'hidden_size, num_attention_heads·head_dim');
    add('post_attention_layernorm.weight', [C], 'hidden_size');
    add('mlp.gate_proj.weight', [F, C], 'intermediate_size, hidden_size');
    add('mlp.up_proj.weight', [F, C], 'intermediate_size, hidden_size');
    add('mlp.down_proj.weight', [C, F], 'hidden_size, intermediate_size');
  }
  out.push({ name: 'model.norm.weight', shape: [C], from: 'hidden_size' });
  if (!c.tieWordEmbeddings) out.push({ name: 'lm_head.weight', shape: [V, C], from: 'vocab_size, hidden_size' });
  return out;
}

const shapeStr = (s: readonly number[]) => `(${s.join(', ')})`;
const sameShape = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((d, i) => d === b[i]);
// Buffers some checkpoints carry that are not parameters.
const IGNORED = /\.rotary_emb\.inv_freq$/;

/** Checks names, shapes and dtypes of a checkpoint against the config, before any tensor is read.
 *  A tied model may still carry lm_head.weight (it is then ignored). */
export function validateAgainstConfig(tensors: ReadonlyMap<string, TensorInfo>, c: ModelConfig, file = 'model.safetensors', configFile = 'config.json'): void {
  const fail = (d: string): never => {
    throw new ModelFileError(file, d);
  };
  const specs = expectedTensors(c);
  const known = new Set(specs.map((s) => s.name));
  for (const s of specs) {
    const t = tensors.get(s.name);
    if (!t) fail(`tensor ${s.name} is missing (${configFile} describes a ${c.modelType} model with ${c.numLayers} layers${c.tieWordEmbeddings ? ', tied embeddings' : ''}): is ${configFile} the one for this file?`);
    else if (!sameShape(t.shape, s.shape)) {
      fail(`tensor ${s.name} has shape ${shapeStr(t.shape)} but ${configFile} implies ${shapeStr(s.shape)} (${s.from}): is ${configFile} the one for this file?`);
    } else if (!(READ_DTYPES as readonly string[]).includes(t.dtype)) fail(`tensor ${s.name} has dtype ${t.dtype}; only ${READ_DTYPES.join(', ')} weights are read`);
  }
  for (const [name, t] of tensors) {
    if (known.has(name) || IGNORED.test(name)) continue;
    if (name === 'lm_head.weight' && c.tieWordEmbeddings && sameShape(t.shape, [c.vocabSize, c.hiddenSize])) continue;
    fail(`unexpected tensor ${name} for a ${c.modelType} model with ${c.numLayers} layers${c.tieWordEmbeddings ? ' and tied embeddings' : ''}: is ${configFile} the one for this file?`);
  }
}

/** One or more safetensors files (shards) seen as one set of named tensors. */
export class WeightSet {
  readonly tensors: ReadonlyMap<string, TensorInfo>;
  private readonly owner = new Map<string, SafetensorsFile>();
  constructor(readonly files: readonly SafetensorsFile[]) {
    const all = new Map<string, TensorInfo>();
    for (const f of files) {
      for (const [name, t] of f.header.tensors) {
        const other = this.owner.get(name);
        if (other) throw new ModelFileError(f.source.name, `tensor ${name} is also in ${other.source.name}: the shards overlap`);
        this.owner.set(name, f);
        all.set(name, t);
      }
    }
    this.tensors = all;
  }
  /** Refuses a set that does not match the config (names, shapes, dtypes). */
  validate(c: ModelConfig, configFile = 'config.json'): this {
    validateAgainstConfig(this.tensors, c, this.files.length === 1 ? this.files[0]!.source.name : 'model.safetensors.index.json', configFile);
    return this;
  }
  async read(name: string): Promise<Float32Array> {
    const f = this.owner.get(name);
    if (!f) throw new ModelFileError('model.safetensors', `has no tensor ${name}`);
    return f.read(name);
  }
  /** Every parameter of the config, in expectedTensors order, as f32. */
  async readModel(c: ModelConfig): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    for (const s of expectedTensors(c)) out.set(s.name, await this.read(s.name));
    return out;
  }
}

export interface HfFolderInput {
  readonly config: ModelConfig;
  /** Every parameter by Hugging Face name (extra names are refused; lm_head is dropped when tied). */
  readonly tensors: ReadonlyMap<string, Float32Array>;
  readonly dtype?: WriteDtype;
  /** tokenizer.json and tokenizer_config.json contents, copied as they are. */
  readonly tokenizerJson?: string | object;
  readonly tokenizerConfig?: string | object;
  /** A chat template kept apart (chat_template.jinja): written into tokenizer_config.json's
   *  chat_template, which every transformers version reads. */
  readonly chatTemplate?: string;
}

/** The files of a Hugging Face model folder, by name, ready to write or zip. */
export function hfFolderFiles(input: HfFolderInput): Map<string, Uint8Array> {
  const { config: c } = input;
  const specs = expectedTensors(c);
  const named: NamedTensor[] = specs.map((s) => {
    const data = input.tensors.get(s.name);
    if (!data) throw new ModelFileError('model.safetensors', `cannot write the checkpoint: tensor ${s.name} is missing`);
    if (data.length !== s.shape.reduce((a, b) => a * b, 1)) {
      throw new ModelFileError('model.safetensors', `cannot write the checkpoint: tensor ${s.name} has ${data.length} values, ${shapeStr(s.shape)} expected`);
    }
    return { name: s.name, shape: s.shape, data };
  });
  const known = new Set(specs.map((s) => s.name));
  for (const name of input.tensors.keys()) {
    if (!known.has(name) && !(name === 'lm_head.weight' && c.tieWordEmbeddings)) throw new ModelFileError('model.safetensors', `cannot write the checkpoint: unexpected tensor ${name}`);
  }
  const dtype = input.dtype ?? 'F32';
  const json = (v: string | object) => utf8Encode(typeof v === 'string' ? v : JSON.stringify(v, null, 2) + '\n');
  const files = new Map<string, Uint8Array>();
  files.set('config.json', json(toHfConfig(c, dtype === 'F32' ? 'float32' : 'bfloat16')));
  const gen: Record<string, unknown> = {};
  if (c.bosTokenId !== undefined) gen.bos_token_id = c.bosTokenId;
  if (c.eosTokenIds !== undefined) gen.eos_token_id = c.eosTokenIds.length === 1 ? c.eosTokenIds[0] : [...c.eosTokenIds];
  if (Object.keys(gen).length) files.set('generation_config.json', json(gen));
  files.set('model.safetensors', writeSafetensors(named, { dtype }));
  if (input.tokenizerJson !== undefined) files.set('tokenizer.json', json(input.tokenizerJson));
  let tc = input.tokenizerConfig;
  if (input.chatTemplate !== undefined) tc = { ...(typeof tc === 'string' ? (JSON.parse(tc) as object) : tc), chat_template: input.chatTemplate };
  if (tc !== undefined) files.set('tokenizer_config.json', json(tc));
  return files;
}
