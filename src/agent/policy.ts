// The Policy interface the episode loop calls: batched over the live episodes of a group, it returns
// one turn each. A model returns the exact ids it sampled and their behaviour log-probs; the scripted
// expert and the replay policy return text only. Also: parsing a `--policy` string.
import type { ChatMessage } from '../model/tokenizer.ts';
import type { Task } from '../tasks/schema.ts';
import type { TurnRecord } from './trajectory.ts';

/** What a policy may see of one live episode before its next turn. */
export interface EpisodeView {
  /** Unique among the live episodes (default ids are unique in the process); stateful policies key on it. */
  readonly id: string;
  /** Position of the episode in its batch (EpisodeSpec.index), whichever episodes share a policy
   *  call with it (the model policy keys the episode's random stream on it, not on its row in a call). */
  readonly index?: number;
  /** The task. The expert reads the gold patch; a model policy must use only messages/tokenIds. */
  readonly task: Task;
  readonly seed: number;
  /** The conversation so far: system, user (the issue), then assistant / user (observation) pairs. */
  readonly messages: readonly ChatMessage[];
  readonly turns: readonly TurnRecord[];
  /** The context as token ids, ending in the generation prompt (only when a tokenizer renders the episode). */
  readonly tokenIds?: readonly number[];
  /** This turn's budget: agent.actionTokens, or less when the context budget is nearly spent
   *  (in tokens with a tokenizer, else in characters / 4). */
  readonly maxTokens: number;
}

export interface TurnOutput {
  text: string;
  /** The sampled ids, verbatim (with the end-of-turn token when it was sampled). */
  tokenIds?: number[];
  /** Behaviour log-prob of each sampled id (same length as tokenIds). */
  logprobs?: number[];
  /** 'length': cut at maxTokens; 'exhausted': the policy has nothing more to say (replay ran out),
   *  and the episode ends without this turn. */
  finish?: 'stop' | 'length' | 'exhausted';
  /** The scripted expert's deliberate mistake: recorded and run, never imitated (TurnRecord.no_train). */
  noTrain?: boolean;
}

export interface Policy {
  /** Shown in records, e.g. "expert(noise=0.3)", "replay:turns.json", "model:runs/x@12". */
  readonly name: string;
  /** The weights' version (DAPO step) for model policies; 0 for scripted ones. */
  readonly version: number;
  /** One turn for each of `states`, in the same order. */
  act(states: readonly EpisodeView[]): Promise<TurnOutput[]>;
  /** Called when an episode ends, so a stateful policy can drop what it kept for it. */
  release?(id: string): void;
}

export type PolicySpec = { kind: 'expert' } | { kind: 'replay'; file: string } | { kind: 'model'; dir: string };

export const POLICY_FORMS = 'expert, replay:FILE (a JSON array of assistant turn texts) or model:DIR';

/** Parse `expert`, `replay:FILE` or `model:DIR`; throws an Error whose message names the forms. */
export function parsePolicySpec(spec: string): PolicySpec {
  if (spec === 'expert') return { kind: 'expert' };
  const m = /^(replay|model):(.+)$/.exec(spec);
  if (m) return m[1] === 'replay' ? { kind: 'replay', file: m[2]! } : { kind: 'model', dir: m[2]! };
  if (spec === 'replay' || spec === 'model') throw new Error(`--policy ${spec} needs a path: ${spec}:${spec === 'replay' ? 'FILE' : 'DIR'}`);
  throw new Error(`unknown policy "${spec}"; use ${POLICY_FORMS}`);
}
