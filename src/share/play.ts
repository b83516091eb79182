// A contributor plays one work item: the item's G episodes as one cohort of the model policy (seed
// item.policy_seed, episode k on stream k), in its own sandbox, with the weights of the item's policy
// version; the result carries every trajectory with its token arrays and behaviour log-probs, which the
// learner then verifies (verify.ts) before any of it can be trained on.
import { runEpisodes, type EpisodeOptions } from '../agent/episode.ts';
import type { TokenizerLike } from '../agent/render.ts';
import type { Transformer } from '../model/transformer.ts';
import type { Tensor } from '../ops/tensor.ts';
import { ModelPolicy } from '../rl/model-policy.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import type { ResultMessage, WorkItem } from './protocol.ts';

export interface PlayEnv<T extends Tensor> {
  model: Transformer<T>;
  tokenizer: TokenizerLike;
  stopIds: readonly number[];
  sandbox: SandboxFactory;
  /** The run's episode options (from its manifest's config); the item's max_turns and context_tokens replace theirs. */
  episodes: EpisodeOptions;
}

export async function playItem<T extends Tensor>(item: WorkItem, env: PlayEnv<T>): Promise<ResultMessage> {
  const episodes: EpisodeOptions = { ...env.episodes, overlap: false, maxTurns: item.max_turns, contextTokens: item.context_tokens };
  const policy = new ModelPolicy(env.model, env.tokenizer, {
    contextTokens: item.context_tokens + episodes.actionTokens,
    stopIds: [...env.stopIds],
    sampling: { temperature: item.temperature },
    seed: item.policy_seed,
    name: 'model',
    version: item.policy_version,
  });
  const trajectories = await runEpisodes(item.episodes.map((e, k) => ({ task: item.task, seed: e.seed, index: k })), policy, env.sandbox, episodes);
  return { format: 'webswe-result', version: 1, run: item.run, item: item.item, attempt: item.attempt, policy_version: item.policy_version, trajectories };
}
