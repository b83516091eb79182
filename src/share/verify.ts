// Verification before any update: a contributor's group of episodes enters a DAPO batch only when the
// learner has checked, with its own sandbox and its own forward pass, that
//   1. the message is well formed: one trajectory per episode of the item, each for the item's task and
//      episode seed, token arrays of matching lengths and sane values, within the context budget;
//   2. replaying the claimed sampled ids in the learner's sandbox (token-replay.ts) gives the same token
//      arrays (so every observation was the sandbox's, not the contributor's) and the same reward (so the
//      tests really passed; the learner's grading on a fresh copy is the one used);
//   3. every sampled id is the draw of the seeded sampler: with u = philox(policy seed, counter, stream)
//      the id's interval of the inverse CDF over softmax(logits/τ), recomputed by the learner, holds u
//      (to ε of probability mass, for the float differences between backends). The counter of a draw is
//      the cohort's draws before it: in the group's lockstep each policy call draws max(live turns'
//      lengths) times for every row (model/generate.ts), so D(t) = Σ_{t' < t} max_e |turn t' of e|
//      and token j of turn t draws at D(t) + j, on the episode's stream k (its index in the item);
//   4. each claimed behaviour log-prob is within the tolerance of the learner's recomputed one.
// Check 3 is what makes forged episodes useless: a contributor cannot choose its actions (the gold fix, a
// cherry-picked sample), only play what the seed and the weights draw; check 2 makes it report what the
// sandbox said and what the tests gave. All four run on every episode by default; the forward of 3 and 4 is
// most of the cost at the from-scratch shapes (docs/sharing.md), so a learner may audit a share of results
// instead (dist.auditShare, learner.ts): 1 and 2 on every result, 3 and 4 on the audited ones.
import { runEpisodes, type EpisodeOptions, type Gate } from '../agent/episode.ts';
import type { TokenizerLike } from '../agent/render.ts';
import type { Trajectory } from '../agent/trajectory.ts';
import type { Transformer } from '../model/transformer.ts';
import type { Tensor } from '../ops/tensor.ts';
import { sampleUniform } from '../ops/reference/philox.ts';
import { episodeTokens } from '../rl/collect.ts';
import { packEpisodes } from '../rl/pack.ts';
import { scoreActions } from '../rl/steps.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import type { Task } from '../tasks/schema.ts';
import { ResultError, type ResultLimits, type ResultMessage, type WorkItem } from './protocol.ts';
import { claimedTurns, TokenReplayPolicy, type ClaimedTurn } from './token-replay.ts';

export interface VerifierEnv<T extends Tensor> {
  /** The weights of the item's policy version. */
  model: Transformer<T>;
  tokenizer: TokenizerLike;
  stopIds: readonly number[];
  sandbox: SandboxFactory;
  /** The run's episode options (the item's max_turns and context_tokens replace theirs). */
  episodes: EpisodeOptions;
  limits: ResultLimits;
  /** Probability mass by which u may miss a sampled id's interval (float differences between backends). */
  samplingSlack?: number;
  /** Forward passes of concurrent verifications take turns through it (one backend). */
  gate?: Gate;
  /** Checks 3 and 4 (the forward pass): true unless the learner audits a share of results and this one was
   *  not drawn; checks 1 and 2 run on every result. */
  audit?: boolean;
}

/** What verification found, besides the verdict: how close the claims came. */
export interface VerifyStats {
  episodes: number;
  actionTokens: number;
  maxLogprobError: number;
  /** Draws whose u fell outside the id's interval by less than the slack (accepted). */
  nearBoundary: number;
  /** Where the time went (ms): the sandbox replay with its grading (check 2), the learner's forward pass
   *  (waiting for the gate included), and the sampler and log-prob checks over its logits (3 and 4). */
  timing: { replay_ms: number; forward_ms: number; check_ms: number };
  /** Whether checks 3 and 4 ran (an audit), or only 1 and 2. */
  audited: boolean;
}

/** The lowest behaviour log-prob a result may claim for a sampled token. A draw that unlikely (e⁻³⁰ ≈ 10⁻¹³; below
 *  10⁻⁸ per draw summed over a 150 k vocabulary) does not happen in honest sampling; an unaudited claim (audits)
 *  can then move DAPO's ratio π/π_old by at most e³⁰, finite in f32, and the update's gradient-norm clip bounds
 *  what it does to one step. */
export const MIN_CLAIMED_LOGPROB = -30;

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);

/** Claimed trajectory k of an item, shape-checked; throws a ResultError('malformed' | 'wrong_episodes'). */
export function checkClaimed(x: unknown, item: WorkItem, k: number, vocab: number, maxTokens: number): Trajectory {
  const bad = (msg: string) => new ResultError('malformed', `trajectory ${k}: ${msg}`);
  if (!isObj(x) || x.format !== 'webswe-trajectory') throw bad('not a webswe-trajectory object');
  if (x.task_id !== item.task.instance_id) throw new ResultError('wrong_episodes', `trajectory ${k} is for task ${String(x.task_id)}, the item's is ${item.task.instance_id}`);
  if (x.seed !== item.episodes[k]!.seed) throw new ResultError('wrong_episodes', `trajectory ${k} has seed ${String(x.seed)}, the item's episode ${k} has ${item.episodes[k]!.seed}`);
  if (!Array.isArray(x.turns)) throw bad('turns must be an array');
  if (!isObj(x.reward) || typeof x.reward.total !== 'number') throw bad('reward.total must be a number');
  const tok = x.tokens;
  if (!isObj(tok)) throw bad('tokens are missing');
  const { ids, mask, logprobs, segments } = tok;
  if (!Array.isArray(ids) || !Array.isArray(mask) || !Array.isArray(logprobs) || !Array.isArray(segments)) throw bad('tokens.ids, mask, logprobs and segments must be arrays');
  if (ids.length > maxTokens) throw bad(`${ids.length} tokens, more than an episode can hold (${maxTokens})`);
  if (mask.length !== ids.length || logprobs.length !== ids.length) throw bad('tokens.ids, mask and logprobs differ in length');
  for (let i = 0; i < ids.length; i++) {
    if (!isInt(ids[i]) || ids[i] < 0 || ids[i] >= vocab) throw bad(`token ${i} is not an id in 0..${vocab - 1}`);
    if (mask[i] !== 0 && mask[i] !== 1) throw bad(`mask ${i} is not 0 or 1`);
    const lp = logprobs[i];
    if (mask[i] === 1 && !(typeof lp === 'number' && lp >= MIN_CLAIMED_LOGPROB && lp <= 0)) throw bad(`action token ${i} has no log-prob in [${MIN_CLAIMED_LOGPROB}, 0]`);
  }
  let at = 0;
  for (const s of segments) {
    if (!isObj(s) || !['prompt', 'assistant', 'observation'].includes(s.kind as string) || !isInt(s.turn) || s.start !== at || !isInt(s.end) || s.end < at) throw bad('segments must tile the tokens in order');
    at = s.end;
  }
  if (at !== ids.length) throw bad('segments must tile the tokens in order');
  return x as unknown as Trajectory;
}

/** The cohort's draw counter before each turn: D(t) = Σ_{t' < t} max over episodes of |turn t'|. */
export function drawCounters(groups: readonly (readonly ClaimedTurn[])[]): number[] {
  const turns = Math.max(0, ...groups.map((g) => g.length));
  const D = [0];
  for (let t = 0; t < turns; t++) D.push(D[t]! + Math.max(0, ...groups.map((g) => g[t]?.ids.length ?? 0)));
  return D;
}

/** Where u falls against id's interval [lo, hi) of the inverse CDF over softmax(row) (index order, f64):
 *  0 inside, else the probability mass by which it misses. */
export function samplingMiss(row: Float32Array, id: number, u: number): number {
  let m = -Infinity;
  for (let j = 0; j < row.length; j++) m = Math.max(m, row[j]!);
  let Z = 0, lo = 0;
  for (let j = 0; j < row.length; j++) {
    const e = Math.exp(row[j]! - m);
    if (j < id) lo += e;
    Z += e;
  }
  const p = Math.exp(row[id]! - m) / Z;
  lo /= Z;
  const hi = lo + p;
  return u < lo ? lo - u : u >= hi ? u - hi : 0;
}

/**
 * Verify one result against the learner's own copy of its work item (`task`: with its gold patch, which
 * grading does not use). Returns the trajectories to train on (the learner's replay: its observations,
 * its grading, the claimed behaviour log-probs that passed check 4) or throws a ResultError naming the
 * first check that failed.
 */
export async function verifyResult<T extends Tensor>(item: WorkItem, task: Task, msg: ResultMessage, env: VerifierEnv<T>): Promise<{ trajectories: Trajectory[]; stats: VerifyStats }> {
  if (msg.item !== item.item || msg.run !== item.run) throw new ResultError('unknown_item', `result for ${msg.run}/${msg.item}, checked against ${item.run}/${item.item}`);
  if (msg.policy_version !== item.policy_version) throw new ResultError('stale', `played with policy version ${msg.policy_version}, the item asked for ${item.policy_version}`);
  const G = item.episodes.length;
  if (msg.trajectories.length !== G) throw new ResultError('wrong_episodes', `${msg.trajectories.length} trajectories for an item of ${G} episodes`);
  const capacity = item.context_tokens + env.episodes.actionTokens;
  const vocab = env.model.c.vocabSize;
  // An episode may end past its budget by the last turn's observation (and its chat template).
  const longest = capacity + env.episodes.observationTokens + 64;
  const claimed = msg.trajectories.map((x, k) => checkClaimed(x, item, k, vocab, longest));
  const turns = claimed.map(claimedTurns);

  // 2. Replay in the learner's sandbox.
  const t0 = performance.now();
  const policy = new TokenReplayPolicy(new Map(turns.map((t, k) => [k, t])), env.tokenizer, { stopIds: env.stopIds, capacity, version: item.policy_version });
  const { shouldStop: _s, onTurn: _t, onEnd: _e, timeline: _tl, gate: _g, ...quiet } = env.episodes as EpisodeOptions & Record<string, unknown>;
  const rebuilt = await runEpisodes(
    item.episodes.map((e, k) => ({ task, seed: e.seed, index: k })),
    policy,
    env.sandbox,
    { ...(quiet as EpisodeOptions), overlap: false, maxTurns: item.max_turns, contextTokens: item.context_tokens },
  );
  for (let k = 0; k < G; k++) {
    const r = rebuilt[k]!, c = claimed[k]!;
    if (r.end_reason === 'error') throw new ResultError('replay_mismatch', `episode ${k}: ${r.error ?? 'the replay failed'}`);
    const a = r.tokens!, b = c.tokens!;
    const same = a.ids.length === b.ids.length && a.ids.every((id, i) => id === b.ids[i] && a.mask[i] === b.mask[i]);
    if (!same || r.turns.length !== c.turns.length || r.end_reason !== c.end_reason) {
      const first = a.ids.findIndex((id, i) => id !== b.ids[i] || a.mask[i] !== b.mask[i]);
      throw new ResultError('replay_mismatch', `episode ${k}: the learner's replay differs (${a.ids.length} vs ${b.ids.length} tokens, first difference at ${first < 0 ? Math.min(a.ids.length, b.ids.length) : first}; end ${r.end_reason} vs ${c.end_reason})`);
    }
    if (Math.abs(r.reward.total - c.reward.total) > 1e-9) throw new ResultError('reward_mismatch', `episode ${k}: claimed reward ${c.reward.total}, the learner's grading gives ${r.reward.total}`);
  }

  // 3 and 4. One forward pass over the replayed episodes at the sampling temperature (unless not audited: then the
  // behaviour log-probs trained on are the contributor's claims, unchecked).
  const t1 = performance.now();
  if (env.audit === false) return { trajectories: rebuilt, stats: { episodes: G, actionTokens: 0, maxLogprobError: 0, nearBoundary: 0, timing: { replay_ms: t1 - t0, forward_ms: 0, check_ms: 0 }, audited: false } };
  const eps = rebuilt.map((t) => episodeTokens(t, { maskFormatErrors: false }));
  const rows = packEpisodes(eps, Math.max(8, ...eps.map((e) => e.ids.length)));
  const score = () => scoreActions(env.model, rows, item.temperature);
  const scored = await (env.gate ? env.gate(score) : score());
  const t2 = performance.now();
  const D = drawCounters(turns);
  const next = new Array<number>(G).fill(0); // action tokens of each episode seen so far
  const slack = env.samplingSlack ?? 1e-3;
  const stats: VerifyStats = { episodes: G, actionTokens: scored.at.length, maxLogprobError: 0, nearBoundary: 0, timing: { replay_ms: t1 - t0, forward_ms: t2 - t1, check_ms: 0 }, audited: true };
  // The action tokens of episode k in order: turn by turn, token by token (their counters).
  const draws = turns.map((ts) => ts.flatMap((t, ti) => t.ids.map((id, j) => ({ id, counter: D[ti]! + j, claimed: t.logprobs[j]! }))));
  for (let j = 0; j < scored.at.length; j++) {
    const o = scored.at[j]!;
    const k = rows.episode[o]!;
    const d = draws[k]![next[k]!++]!;
    if (rows.targets[o] !== d.id) throw new Error(`internal: scored target ${rows.targets[o]} is not episode ${k}'s action ${d.id}`);
    const miss = samplingMiss(scored.logits.subarray(j * scored.V, (j + 1) * scored.V), d.id, sampleUniform(item.policy_seed, d.counter, k));
    if (miss > slack) throw new ResultError('not_sampled', `episode ${k}: action token ${next[k]! - 1} (id ${d.id}) is not what the seeded sampler draws there (u misses its interval by ${miss.toExponential(2)})`);
    if (miss > 0) stats.nearBoundary++;
    const err = Math.abs(d.claimed - scored.logp[j]!);
    if (!(err <= env.limits.logprobTolerance)) throw new ResultError('logprob_mismatch', `episode ${k}: action token ${next[k]! - 1} claims log-prob ${d.claimed}, the learner computes ${scored.logp[j]} (tolerance ${env.limits.logprobTolerance})`);
    stats.maxLogprobError = Math.max(stats.maxLogprobError, err);
  }
  if (next.some((n, k) => n !== draws[k]!.length)) throw new ResultError('replay_mismatch', 'the scored action tokens do not match the claimed turns');
  stats.timing.check_ms = performance.now() - t2;
  return { trajectories: rebuilt, stats };
}
