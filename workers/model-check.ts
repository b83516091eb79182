// The checks a pretrained model passes before it is cached (Hub download or picked files): config.json
// read with the supported fields (a refusal names the field), the tokenizer built and its chat template
// rendered, every safetensors header validated and checked against the config. Each refusal is one
// ModelFileError line naming the file, what is wrong and what to do.
import { parseHfConfig, type ModelConfig } from '../src/model/config.ts';
import { utf8Decode } from '../src/model/dtypes.ts';
import { ModelFileError } from '../src/model/errors.ts';
import { shardNames } from '../src/model/load.ts';
import { blobSource, SafetensorsFile } from '../src/model/safetensors.ts';
import { summarizeModel, type ModelSummary } from '../src/model/summary.ts';
import { Tokenizer } from '../src/model/tokenizer.ts';
import { WeightSet } from '../src/model/weights.ts';

/** The files of a model folder that are kept; anything else picked (README.md, *.bin, …) is left out. */
export const KEPT_FILES = /^(config\.json|generation_config\.json|tokenizer\.json|tokenizer_config\.json|chat_template\.jinja|model\.safetensors\.index\.json|[\w.-]+\.safetensors)$/;

const FOLDER = 'config.json, tokenizer.json, tokenizer_config.json and model.safetensors (or model.safetensors.index.json and its shards)';

const text = async (b: Blob) => utf8Decode(new Uint8Array(await b.arrayBuffer()));

async function json(b: Blob, file: string): Promise<object> {
  try {
    const v: unknown = JSON.parse(await text(b));
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a JSON object');
    return v;
  } catch (e) {
    throw new ModelFileError(file, `is not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
}

export async function checkConfig(file: Blob): Promise<ModelConfig> {
  return parseHfConfig(await json(file, 'config.json'));
}

/** Builds the tokenizer, renders its chat template, and checks its ids fit the model's vocabulary. */
export async function checkTokenizer(files: ReadonlyMap<string, Blob>, config: ModelConfig): Promise<Tokenizer> {
  const tj = files.get('tokenizer.json');
  if (!tj) throw new ModelFileError('tokenizer.json', `is missing: the model's tokenizer is needed (${FOLDER}; a SentencePiece tokenizer.model alone is not read)`);
  const tc = files.get('tokenizer_config.json');
  const jinja = files.get('chat_template.jinja');
  const tok = Tokenizer.fromJson(await json(tj, 'tokenizer.json'), tc ? await json(tc, 'tokenizer_config.json') : {}, jinja ? await text(jinja) : undefined);
  if (tok.vocabSize > config.vocabSize) {
    throw new ModelFileError('tokenizer.json', `has ids up to ${tok.vocabSize - 1} but config.json's vocab_size is ${config.vocabSize}: the tokenizer is not this model's`);
  }
  let ids: number[];
  try {
    ids = tok.encodeChat([{ role: 'user', content: 'Fix the failing test.' }], { addGenerationPrompt: true });
  } catch (e) {
    throw new ModelFileError(jinja ? 'chat_template.jinja' : 'tokenizer_config.json', `the chat template fails on a one-message conversation (${(e as Error).message.split('\n')[0]})`);
  }
  if (!ids.length) throw new ModelFileError('tokenizer.json', 'encodes a chat message as no tokens: the tokenizer is broken');
  return tok;
}

/** Opens every safetensors file (headers validated) and checks the set against the config. */
export async function checkWeights(files: ReadonlyMap<string, Blob>, config: ModelConfig): Promise<WeightSet> {
  let names = ['model.safetensors'];
  if (!files.has('model.safetensors')) {
    const index = files.get('model.safetensors.index.json');
    if (!index) throw new ModelFileError('model.safetensors', `is missing (and model.safetensors.index.json too): a model folder holds ${FOLDER}`);
    names = shardNames(await json(index, 'model.safetensors.index.json'));
    for (const n of names) if (!files.has(n)) throw new ModelFileError(n, 'is listed in model.safetensors.index.json but missing: choose the whole folder');
  }
  const opened = await Promise.all(names.map((n) => SafetensorsFile.open(blobSource(files.get(n)!, n))));
  return new WeightSet(opened).validate(config);
}

export interface CheckedModel {
  config: ModelConfig;
  summary: ModelSummary;
  /** The files kept (KEPT_FILES of those given, shards not in the index left out). */
  files: Map<string, Blob>;
}

/** The whole check of a folder's files, by name (the picked-files path; the Hub path checks as it downloads). */
export async function checkFolder(given: ReadonlyMap<string, Blob>, checked?: { config: ModelConfig; tokenizer: Tokenizer }): Promise<CheckedModel> {
  const configFile = given.get('config.json');
  if (!configFile) throw new ModelFileError('config.json', `is missing: choose the model's whole folder (${FOLDER})`);
  const config = checked?.config ?? (await checkConfig(configFile));
  const tokenizer = checked?.tokenizer ?? (await checkTokenizer(given, config));
  const weights = await checkWeights(given, config);
  const used = new Set(weights.files.map((f) => f.source.name));
  const files = new Map([...given].filter(([n]) => KEPT_FILES.test(n) && (!n.endsWith('.safetensors') || used.has(n))));
  return { config, summary: summarizeModel(config, weights.tensors, tokenizer), files };
}
