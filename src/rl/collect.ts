// Collecting episodes for training and evaluation: derived seeds (a run is a pure function of its
// seed, so a resumed run replays exactly), batched rollouts with progress, trajectory → training
// tokens (RFT masks format-error turns), and per-batch rollout metrics (docs/dapo.md's list) and timings.
//
// Overlap (opts.overlap, agent.overlap): generation and the sandbox need not take turns. Two fixed
// halves take turns at the policy instead: each runs its own lockstep episode loop (runEpisodes),
// and both loops' policy calls go through one gate, one call at a time in the order asked (the
// backend is one device, or this very thread). So while half A generates, half B's commands (and,
// at its end, its grading) run in the sandbox, and vice versa:
//   A gen | B gen + A cmds | A gen + B cmds | B gen + A cmds | …
// The halves are consecutive batches 2j and 2j+1, each whole, with its own policy (each group is
// still generated as one batch); a last batch without a partner is split by index instead (its
// first ⌈n/2⌉ episodes, then the rest), both parts with the batch's policy. Timing decides only
// which half reaches the gate first, never what an episode sees: a policy call carries only its
// half's episodes, a sandbox runs only its episode's commands, and the model policy draws each
// episode's tokens from a random stream keyed by the policy seed and the episode's index in its
// batch (never by its row in a call: model-policy.ts). Same seed ⇒ the trajectories of running the
// batches one by one in lockstep, overlap or not.
import { oneAtATime, runEpisodes, type EpisodeOptions, type EpisodeSpec } from '../agent/episode.ts';
import type { Policy } from '../agent/policy.ts';
import type { Timeline } from '../agent/timeline.ts';
import { takenBack } from '../agent/tools.ts';
import type { Trajectory, TurnRecord } from '../agent/trajectory.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import type { EpisodeTokens } from './pack.ts';

/** FNV-1a over the parts: the seed of one random choice, independent of everything before it. */
export function seedFor(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('\u0000')) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
  return h;
}

/** Run specs in batches of `batch` episodes (one policy each: makePolicy(batch index)); calls
 *  onBatch as batches finish. opts.overlap: the halves scheme above. */
export async function collect(
  specs: readonly EpisodeSpec[],
  makePolicy: (batchIndex: number) => Policy,
  sandbox: SandboxFactory,
  opts: EpisodeOptions,
  batch: number,
  onBatch?: (done: number, total: number) => void,
): Promise<Trajectory[]> {
  const out: Trajectory[] = [];
  const count = Math.ceil(specs.length / batch);
  const batchSpecs = (b: number) => specs.slice(b * batch, (b + 1) * batch).map((s, index) => ({ ...s, index }));
  for (let b = 0; b < count; b += opts.overlap ? 2 : 1) {
    if (opts.shouldStop?.()) break; // the caller drops what it got (phases check ctx.shouldStop())
    // What runs now: batch b alone (no overlap), batches b and b + 1, or batch b split in two.
    let halves: { specs: EpisodeSpec[]; policy: Policy }[];
    if (!opts.overlap) halves = [{ specs: batchSpecs(b), policy: makePolicy(b) }];
    else if (b + 1 < count) halves = [b, b + 1].map((i) => ({ specs: batchSpecs(i), policy: makePolicy(i) }));
    else {
      const all = batchSpecs(b), policy = makePolicy(b), half = Math.ceil(all.length / 2);
      halves = [all.slice(0, half), all.slice(half)].filter((p) => p.length).map((p) => ({ specs: p, policy }));
    }
    const o = opts.overlap ? { ...opts, gate: oneAtATime() } : opts;
    for (const ts of await Promise.all(halves.map((h) => runEpisodes(h.specs, h.policy, sandbox, o)))) out.push(...ts);
    onBatch?.(out.length, specs.length);
  }
  return out;
}

export const solved = (t: Trajectory): boolean => t.reward.tests === 1;

/** A turn whose command the environment refused and which changed nothing: an edit whose text is not
 *  in the file, a view of a missing file (exit code 1; run_tests reports failing tests with status ok). */
export const refused = (turn: TurnRecord): boolean => turn.status === 'error' && turn.command?.name !== 'run_tests';

/** A turn's DAPO advantage given its episode's `a`. dapo.refusedTurns = blame: a command the
 *  environment refused (it changed nothing; a sub whose tests failed is not one) carries min(a, 0), so a
 *  success's refusals are not pushed up and a failure's are pushed down. */
export const turnAdvantage = (turn: TurnRecord, a: number, blame: boolean): number => (blame && refused(turn) && !takenBack(turn) ? Math.min(0, a) : a);

/** Training tokens of a trajectory. `maskFormatErrors`: turns that were format errors are not trained on; turns
 *  marked no_train (the expert's deliberate wrong edits) never are. `turnAdvantage`: each assistant turn's tokens
 *  carry its advantage (DAPO). */
export function episodeTokens(t: Trajectory, opts: { maskFormatErrors: boolean; advantage?: number; turnAdvantage?: (turn: TurnRecord) => number }): EpisodeTokens {
  if (!t.tokens) throw new Error(`trajectory ${t.task_id} has no token arrays (episodes must be rendered with the tokenizer)`);
  const mask = [...t.tokens.mask] as number[];
  const advantages = opts.turnAdvantage ? new Array<number>(mask.length).fill(0) : undefined;
  for (const s of t.tokens.segments) {
    const turn = s.kind === 'assistant' ? t.turns[s.turn] : undefined;
    if (turn && (turn.no_train || (opts.maskFormatErrors && turn.format_error))) for (let i = s.start; i < s.end; i++) mask[i] = 0;
    if (turn && advantages) advantages.fill(opts.turnAdvantage!(turn), s.start, s.end);
  }
  return { ids: t.tokens.ids, mask, logprobs: t.tokens.logprobs.map((x) => x ?? 0), ...(opts.advantage !== undefined ? { advantage: opts.advantage } : {}), ...(advantages ? { advantages } : {}) };
}

/** Rollout metrics of a set of episodes. */
export function rolloutMetrics(ts: readonly Trajectory[]): Record<string, number> {
  const n = Math.max(1, ts.length);
  const turns = ts.reduce((a, t) => a + t.turns.length, 0);
  const fmt = ts.reduce((a, t) => a + t.turns.filter((x) => x.format_error).length, 0);
  return {
    episodes: ts.length,
    reward_mean: ts.reduce((a, t) => a + t.reward.total, 0) / n,
    pass_rate: ts.filter(solved).length / n,
    turns_mean: turns / n,
    action_tokens_mean: ts.reduce((a, t) => a + t.action_tokens, 0) / n,
    format_error_rate: turns ? fmt / turns : 0,
    ended_turn_limit: ts.filter((t) => t.end_reason === 'max_turns').length / n,
    ended_context_limit: ts.filter((t) => t.end_reason === 'context_limit').length / n,
    submitted: ts.filter((t) => t.end_reason === 'submitted').length / n,
    // The share of episodes with a reward-hack flag (src/agent/hack-flags.ts): what to look at before trusting a rise.
    hack_flags: ts.filter((t) => (t.hack_flags?.length ?? 0) > 0).length / n,
  };
}

/** Wall time of rollouts from the episode loop's timeline: generation (policy calls), sandbox work
 *  (parallel sandboxes counted once) and the part of it that overlapped generation; generation
 *  tokens/s counts the sampled (action) tokens per second of generation. */
export function rolloutTiming(ts: readonly Trajectory[], timeline: Timeline): { generation_s: number; sandbox_s: number; sandbox_overlapped_s: number; gen_tokens_per_s: number } {
  const generation = timeline.busy('generation');
  const tokens = ts.reduce((a, t) => a + t.action_tokens, 0);
  return { generation_s: generation, sandbox_s: timeline.busy('sandbox'), sandbox_overlapped_s: timeline.overlap(), gen_tokens_per_s: generation > 0 ? tokens / generation : 0 };
}
