// The composition root every front end shares: a policy model opened from a loaded Hugging Face folder
// (weights on the backend, tokenizer, chat format and stop ids derived once), and the phase context a
// run config, that model and a sandbox make (the trainer, `webswe eval` and `bench train --dapo` build
// theirs here, so an episode is played the same way wherever it is played).
import { chatFormatFor, stopIdsFor, type ChatFormat } from '../agent/render.ts';
import type { LoadedModel } from '../model/load.ts';
import { uploadParams } from '../model/params.ts';
import { Tokenizer } from '../model/tokenizer.ts';
import { Transformer } from '../model/transformer.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { cachedFactory, RunCache } from '../sandbox/run-cache.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
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

/** The model's tokenizer, chat format and stop ids (no weights): what rendering an episode needs. */
export function policyText(loaded: Pick<LoadedModel, 'config' | 'tokenizerJson' | 'tokenizerConfig'>, where: string): Omit<PolicyModel<Tensor>, 'model'> {
  if (!loaded.tokenizerJson) throw new Error(`${where} has no tokenizer.json: a policy needs its tokenizer files (tokenizer.json, tokenizer_config.json)`);
  const tokenizer = Tokenizer.fromJson(loaded.tokenizerJson, loaded.tokenizerConfig ?? {});
  return { tokenizer, chatFormat: chatFormatFor(tokenizer), stopIds: stopIdsFor(tokenizer, loaded.config.eosTokenIds) };
}

/** Open a loaded model folder as a policy on `be` (its weights are read, and the folder closed). */
export async function openPolicyModel<T extends Tensor>(be: Backend<T>, loaded: LoadedModel & { close?(): Promise<void> }, where: string): Promise<PolicyModel<T>> {
  const text = policyText(loaded, where);
  const values = await loaded.weights.readModel(loaded.config);
  await loaded.close?.();
  return { ...text, model: new Transformer(be, loaded.config, uploadParams(be, loaded.config, values)) };
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
