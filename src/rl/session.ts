// The composition root every front end shares: the one place a policy is opened (a from-scratch preset with
// its BPE tokenizer and seeded init, a pretrained Hugging Face folder, LoRA adapters over either, a run's
// checkpoint), and the phase context a run config, that policy and a sandbox make (the trainer, `webswe eval`
// and `bench train --dapo` build theirs here, so an episode is played the same way wherever it is played).
import { SYSTEM_PROMPT } from '../agent/prompt.ts';
import { chatFormatFor, stopIdsFor, type ChatFormat } from '../agent/render.ts';
import { episodeSketch } from '../agent/sketch.ts';
import { trainBpe } from '../model/bpe.ts';
import { freezeConfig, type ModelConfig } from '../model/config.ts';
import { initParams } from '../model/init.ts';
import type { LoadedModel } from '../model/load.ts';
import { adapterShapes, initAdapters, loraModules, parseLoraTargets, type LoraConfig } from '../model/lora.ts';
import { uploadParams } from '../model/params.ts';
import { MODEL_PRESETS, modelPreset } from '../model/presets.ts';
import { Tokenizer } from '../model/tokenizer.ts';
import { Transformer } from '../model/transformer.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { cachedFactory, RunCache } from '../sandbox/run-cache.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import type { Checkpoint, RunStore } from '../store/types.ts';
import type { Task } from '../tasks/schema.ts';
import type { RunConfig } from './config.ts';
import { episodeOptions } from './episode-options.ts';
import type { PhaseContext } from './phases.ts';
import type { EpisodeOptions } from '../agent/episode.ts';

/** A model ready to act: weights on a backend, its tokenizer, how turns are wrapped and where they stop. */
export interface PolicyModel<T extends Tensor> {
  model: Transformer<T>;
  tokenizer: Tokenizer;
  chatFormat: ChatFormat;
  /** The chat format's end of turn and the model's eos ids (stopIdsFor). */
  stopIds: number[];
}

/** tokenizer.json and tokenizer_config.json as a run keeps them beside its weights (a folder's
 *  chat_template.jinja folded into the config, where transformers also reads it). */
export interface TokenizerFiles {
  json: object;
  config: object;
}

/** A run's policy: the model, its shape, the tokenizer files its weights are saved with, and its LoRA. */
export interface RunPolicy<T extends Tensor> extends PolicyModel<T> {
  config: ModelConfig;
  tokenizerFiles: TokenizerFiles;
  lora?: LoraConfig;
}

function tokenizerFilesOf(loaded: Pick<LoadedModel, 'tokenizerJson' | 'tokenizerConfig' | 'chatTemplate'>, where: string): TokenizerFiles {
  if (!loaded.tokenizerJson) throw new Error(`${where} has no tokenizer.json: a policy needs its tokenizer files (tokenizer.json, tokenizer_config.json)`);
  return { json: loaded.tokenizerJson, config: { ...(loaded.tokenizerConfig ?? {}), ...(loaded.chatTemplate ? { chat_template: loaded.chatTemplate } : {}) } };
}

const textOf = (tokenizer: Tokenizer, config: Pick<ModelConfig, 'eosTokenIds'>): Omit<PolicyModel<Tensor>, 'model'> =>
  ({ tokenizer, chatFormat: chatFormatFor(tokenizer), stopIds: stopIdsFor(tokenizer, config.eosTokenIds) });

/** The model's tokenizer, chat format and stop ids (no weights): what rendering an episode needs. */
export function policyText(loaded: Pick<LoadedModel, 'config' | 'tokenizerJson' | 'tokenizerConfig' | 'chatTemplate'>, where: string): Omit<PolicyModel<Tensor>, 'model'> {
  const files = tokenizerFilesOf(loaded, where);
  return textOf(Tokenizer.fromJson(files.json, files.config), loaded.config);
}

/** Open a loaded model folder as a policy on `be` (its weights are read, and the folder closed). */
export async function openPolicyModel<T extends Tensor>(be: Backend<T>, loaded: LoadedModel & { close?(): Promise<void> }, where: string): Promise<PolicyModel<T>> {
  const text = policyText(loaded, where);
  const values = await loaded.weights.readModel(loaded.config);
  await loaded.close?.();
  return { ...text, model: new Transformer(be, loaded.config, uploadParams(be, loaded.config, values)) };
}

/** Text the from-scratch tokenizer is trained on: the system prompt, and per training task its files and
 *  a sketch of an episode on it (agent/sketch.ts), so the action format's words get tokens of their own. */
export function tokenizerCorpus(train: readonly Task[]): string[] {
  return [SYSTEM_PROMPT, ...train.flatMap((t) => [episodeSketch(t), ...Object.values(t.files)])];
}

/** What a run reads of a pretrained model: a loaded folder, or a shape with random weights (model/shapes.ts). */
export type PretrainedSource = Pick<LoadedModel, 'config' | 'tokenizerJson' | 'tokenizerConfig' | 'chatTemplate'> & { weights: Pick<LoadedModel['weights'], 'readModel'> };

/** The LoRA settings of a run (model.loraRank 0: none, every weight trains). */
export function loraOf(cfg: RunConfig): LoraConfig | undefined {
  const rank = cfg.model.loraRank;
  if (!rank) return undefined;
  return { rank, alpha: cfg.model.loraAlpha, targets: parseLoraTargets(cfg.model.loraTargets) };
}

/**
 * A run's policy on `be`: a from-scratch preset (its BPE tokenizer trained on the run's tasks once and kept in
 * the run as tokenizer-files.json; seeded init) or the pretrained model the caller loaded, plus LoRA adapters when
 * model.loraRank > 0 (pretrained only: a from-scratch preset trains every weight, as src/rl/fit.ts plans it).
 * Resuming from `ck`, a full fine-tune takes every weight from the checkpoint; a LoRA run takes its base weights
 * from where they first came (the pretrained files or the seeded init) and only the adapters from the checkpoint.
 */
export async function openRunPolicy<T extends Tensor>(
  cfg: RunConfig,
  be: Backend<T>,
  from: { store: Pick<RunStore, 'readJson' | 'writeJson'>; train: readonly Task[]; pretrained?: PretrainedSource },
  ck?: Pick<Checkpoint, 'params' | 'adapters'>,
): Promise<RunPolicy<T>> {
  const preset = modelPreset(cfg.model.preset);
  const lora = preset ? undefined : loraOf(cfg);
  let config: ModelConfig, files: TokenizerFiles | null, tokenizer: Tokenizer, base: Map<string, Float32Array> | undefined;
  if (preset) {
    files = await from.store.readJson<TokenizerFiles>('tokenizer-files.json');
    if (!files) {
      const bpe = trainBpe(tokenizerCorpus(from.train), { vocabSize: preset.tokenizerVocab });
      files = { json: bpe.tokenizerJson, config: bpe.tokenizerConfig };
      await from.store.writeJson('tokenizer-files.json', files);
    }
    // The vocabulary is the trained tokenizer's: on a small corpus BPE may stop before the preset's
    // size, and ids it does not have must not be sampled.
    tokenizer = Tokenizer.fromJson(files.json, files.config);
    config = freezeConfig({ ...preset.config, vocabSize: Math.min(preset.config.vocabSize, tokenizer.vocabSize) });
  } else {
    const p = from.pretrained;
    if (!p) {
      throw new Error(`model.preset "${cfg.model.preset}" is not a from-scratch preset (${Object.keys(MODEL_PRESETS).join(', ')}) and no pretrained model was loaded for it: under the CLI give a Hugging Face folder or Hub id, in the app a model cached in the Model view`);
    }
    config = p.config;
    files = tokenizerFilesOf(p, `the pretrained model "${cfg.model.preset}"`);
    tokenizer = Tokenizer.fromJson(files.json, files.config);
    if (tokenizer.vocabSize > config.vocabSize) throw new Error(`the pretrained model's tokenizer has ${tokenizer.vocabSize} tokens but config.json's vocab_size is ${config.vocabSize}`);
    if (!ck || lora) base = await p.weights.readModel(config);
  }
  if (!base) base = ck && !lora ? ck.params : initParams(config, cfg.seed);
  const values = new Map(base);
  if (lora) {
    const adapters = ck?.adapters ?? initAdapters(loraModules(config, lora), lora.rank, cfg.seed);
    for (const [n, v] of adapters) values.set(n, v);
  }
  const params = uploadParams(be, config, values);
  if (lora) for (const [n, shape] of adapterShapes(config, lora)) params.set(n, be.fromArray(values.get(n)!, shape, n));
  const model = new Transformer(be, config, params, lora);
  model.recompute = Boolean(cfg.model.recompute);
  return { ...textOf(tokenizer, config), model, config, tokenizerFiles: files, ...(lora ? { lora } : {}) };
}

/** The sandboxes a run's episodes and gradings use: `create`'s, answered from one run cache when
 *  agent.cacheTests (a repository state already run is not run again). The trainer and `webswe eval` both
 *  take theirs from here, so a phase evaluated again runs as it did in its run. */
export function runSandbox(cfg: RunConfig, create: SandboxFactory): SandboxFactory {
  return cfg.agent.cacheTests ? cachedFactory(create, new RunCache()) : create;
}

/** The phase context of a config, a policy model and a sandbox; `extra` replaces any part (the trainer
 *  adds its metrics log, checkpoints and resume point). Without them, nothing is recorded. */
export function phaseContext<T extends Tensor>(
  cfg: RunConfig,
  be: Backend<T>,
  policy: Omit<PolicyModel<T>, 'chatFormat'> & { chatFormat?: ChatFormat },
  o: { sandbox: SandboxFactory; train: readonly Task[]; test: readonly Task[]; episodes?: Partial<EpisodeOptions> },
  extra: Partial<PhaseContext<T>> = {},
): PhaseContext<T> {
  const chatFormat = policy.chatFormat ?? chatFormatFor(policy.tokenizer);
  return {
    cfg, be, model: policy.model, tokenizer: policy.tokenizer, stopIds: policy.stopIds,
    sandbox: o.sandbox, train: o.train, test: o.test,
    episodes: episodeOptions(cfg, { tokenizer: policy.tokenizer, chatFormat, ...o.episodes }),
    log: async () => {},
    trajectories: async () => {},
    progress: () => {},
    shouldStop: () => false,
    ...extra,
  };
}
