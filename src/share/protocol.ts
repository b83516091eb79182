// The shared run's wire format and names (docs/sharing.md): what the learner publishes (a manifest, each
// policy version's weights, work items) and what a contributor sends back (the result of one work item).
// Core code: no NATS, no Node; the transport (bus.ts) moves these as JSON.
//
// Subjects and streams on the server (one set for every run; the run id is a subject token):
//   webswe.work.<run>                 work items        stream WEBSWE_WORK (work queue), consumer work_<run>
//   webswe.results.<run>.<user>       results           stream WEBSWE_RESULTS, consumer learner_<run>
//   object store "webswe":  <run>/manifest.json, <run>/v<N>/model.safetensors
//                           (a LoRA run: <run>/base/model.safetensors once, <run>/v<N>/adapters.safetensors)
// A contributor may publish only on its own results subject (the server's permissions: server-config.ts),
// so the subject's last token is who sent a result, whatever the result says.
import { utf8Decode } from '../model/dtypes.ts';
import type { Task } from '../tasks/schema.ts';

export const WORK_STREAM = 'WEBSWE_WORK';
export const RESULTS_STREAM = 'WEBSWE_RESULTS';
export const OBJECT_BUCKET = 'webswe';
export const workSubject = (run: string) => `webswe.work.${run}`;
export const resultsSubject = (run: string, user: string) => `webswe.results.${run}.${user}`;
export const workConsumer = (run: string) => `work_${run}`;
export const learnerConsumer = (run: string) => `learner_${run}`;
export const manifestName = (run: string) => `${run}/manifest.json`;
export const weightsName = (run: string, version: number) => `${run}/v${version}/model.safetensors`;
/** A LoRA run's frozen base weights (published once) and each version's adapters (our tensor names). */
export const baseWeightsName = (run: string) => `${run}/base/model.safetensors`;
export const adaptersName = (run: string, version: number) => `${run}/v${version}/adapters.safetensors`;
/** The learner's per-contributor counts (accepted, rejected by reason), rewritten after every round. */
export const talliesName = (run: string) => `${run}/contributors.json`;

/** Run ids and user names are subject tokens: letters, digits, '-' and '_' only. */
export const TOKEN_RE = /^[A-Za-z0-9_-]{1,64}$/;

export function checkToken(what: string, s: string): string {
  if (!TOKEN_RE.test(s)) throw new Error(`${what} "${s}" must be 1-64 letters, digits, '-' or '_' (it is a NATS subject token)`);
  return s;
}

/** What a contributor needs once per run: the run's config (flattened, as config.json), the model's
 *  config and tokenizer files, and the limits the learner will check results against. */
export interface RunManifest {
  format: 'webswe-run-manifest';
  version: 1;
  run: string;
  /** The run config, flattened (section.key → value). */
  config: Record<string, unknown>;
  model: {
    config: Record<string, unknown>;
    tokenizerJson: object;
    tokenizerConfig: object;
    /** A LoRA run: its adapters' rank, alpha and targets (the weights are the base once, then adapters per version). */
    lora?: { rank: number; alpha: number; targets: string[] };
  };
  limits: ResultLimits;
}

export interface ResultLimits {
  /** A result message larger than this is refused unread. */
  maxResultBytes: number;
  /** |claimed − recomputed| behaviour log-prob allowed per action token. */
  logprobTolerance: number;
}

/** One group of episodes to play: the learner picks the task, the seeds and the policy version. */
export interface WorkItem {
  format: 'webswe-work';
  version: 1;
  run: string;
  /** Unique in the run, e.g. "dapo/3/0/5" (phase, iteration, round, group). */
  item: string;
  /** 0 on first issue; reissued items count up (a lease that expired, a rejected result). */
  attempt: number;
  policy_version: number;
  /** The task without its gold patch (a contributor needs none of it to play). */
  task: Task;
  /** The sampling seed (Philox key) of the group's episodes. */
  policy_seed: number;
  /** Episode k: its seed and its random stream (EpisodeView.index = k). */
  episodes: { seed: number }[];
  temperature: number;
  max_turns: number;
  context_tokens: number;
}

/** A contributor's answer to one work item: the group's trajectories, with token arrays and behaviour log-probs. */
export interface ResultMessage {
  format: 'webswe-result';
  version: 1;
  run: string;
  item: string;
  attempt: number;
  policy_version: number;
  trajectories: unknown[];
}

/** The task as a work item carries it: the gold patch is withheld. */
export const taskForWork = (t: Task): Task => ({ ...t, patch: '' });

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isNat = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/** A result message's envelope checked (the trajectories are checked one by one in verify.ts); throws naming the field. */
export function parseResultMessage(bytes: Uint8Array, limits: ResultLimits): ResultMessage {
  if (bytes.length > limits.maxResultBytes) throw new ResultError('oversized', `${bytes.length} bytes, over the limit of ${limits.maxResultBytes}`);
  let v: unknown;
  try {
    v = JSON.parse(utf8Decode(bytes, true));
  } catch (e) {
    throw new ResultError('malformed', `not UTF-8 JSON (${(e as Error).message})`);
  }
  if (!isObj(v)) throw new ResultError('malformed', 'not a JSON object');
  if (v.format !== 'webswe-result' || v.version !== 1) throw new ResultError('malformed', 'format must be "webswe-result", version 1');
  for (const k of ['run', 'item'] as const) if (typeof v[k] !== 'string') throw new ResultError('malformed', `${k} must be a string`);
  for (const k of ['attempt', 'policy_version'] as const) if (!isNat(v[k])) throw new ResultError('malformed', `${k} must be a non-negative integer`);
  if (!Array.isArray(v.trajectories)) throw new ResultError('malformed', 'trajectories must be an array');
  return v as unknown as ResultMessage;
}

/** Why a result was not used: counted per contributor and per reason in the learner's metrics. */
export type RejectReason =
  | 'oversized'
  | 'malformed'
  | 'unknown_item'
  | 'duplicate'
  | 'stale'
  | 'wrong_episodes'
  | 'replay_mismatch'
  | 'reward_mismatch'
  | 'logprob_mismatch'
  | 'not_sampled'
  | 'banned';

export const REJECT_REASONS: readonly RejectReason[] = ['oversized', 'malformed', 'unknown_item', 'duplicate', 'stale', 'wrong_episodes', 'replay_mismatch', 'reward_mismatch', 'logprob_mismatch', 'not_sampled', 'banned'];

/** What each rejection means, in words for the contributor who sent the result. */
export const REJECT_WORDS: Readonly<Record<RejectReason, string>> = Object.freeze({
  oversized: 'larger than the server takes',
  malformed: 'not a well-formed result',
  unknown_item: 'for a work item the learner did not hand out',
  duplicate: 'the item was answered already',
  stale: 'played with an older policy version than the item asked for',
  wrong_episodes: 'not the episodes of the item (task, seed or count)',
  replay_mismatch: "the learner's replay in its own sandbox gave other tokens",
  reward_mismatch: "the learner's grading gave another reward",
  logprob_mismatch: "a behaviour log-prob differs from the learner's beyond the tolerance",
  not_sampled: "a token is not the seeded sampler's draw (a different backend or build can cause this)",
  banned: 'an audit caught a forged token or log-prob from this contributor earlier: its results are refused',
});

export class ResultError extends Error {
  constructor(
    readonly reason: RejectReason,
    message: string,
  ) {
    super(`${reason}: ${message}`);
  }
}

/** Parse a work item (a contributor checks what it is asked to run); throws naming the field. */
export function parseWorkItem(bytes: Uint8Array): WorkItem {
  const v = JSON.parse(utf8Decode(bytes)) as unknown;
  if (!isObj(v) || v.format !== 'webswe-work' || v.version !== 1) throw new Error('not a webswe work item (format "webswe-work", version 1)');
  for (const k of ['run', 'item'] as const) if (typeof v[k] !== 'string') throw new Error(`work item: ${k} must be a string`);
  for (const k of ['attempt', 'policy_version', 'policy_seed', 'max_turns', 'context_tokens'] as const) if (!isNat(v[k])) throw new Error(`work item: ${k} must be a non-negative integer`);
  if (typeof v.temperature !== 'number' || !(v.temperature > 0)) throw new Error('work item: temperature must be > 0');
  if (!Array.isArray(v.episodes) || !v.episodes.length || !v.episodes.every((e) => isObj(e) && isNat(e.seed))) throw new Error('work item: episodes must be a non-empty array of { seed }');
  if (!isObj(v.task)) throw new Error('work item: task must be an object');
  return v as unknown as WorkItem;
}
