// Collecting episodes for training and evaluation: derived seeds (a run is a pure function of its
// seed, so a resumed run replays exactly), batched rollouts with progress, trajectory → training
// tokens (RFT masks format-error turns), and per-batch rollout metrics (DAPO.md's list).
import { runEpisodes, type EpisodeOptions, type EpisodeSpec } from '../agent/episode.ts';
import type { Policy } from '../agent/policy.ts';
import type { Trajectory } from '../agent/trajectory.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import type { EpisodeTokens } from './pack.ts';

/** FNV-1a over the parts: the seed of one random choice, independent of everything before it. */
export function seedFor(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('\u0000')) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
  return h;
}

/** Run specs in batches of `batch` episodes (one cohort each); calls onBatch after each. */
export async function collect(
  specs: readonly EpisodeSpec[],
  makePolicy: (batchIndex: number) => Policy,
  sandbox: SandboxFactory,
  opts: EpisodeOptions,
  batch: number,
  onBatch?: (done: number, total: number) => void,
): Promise<Trajectory[]> {
  const out: Trajectory[] = [];
  for (let i = 0; i < specs.length; i += batch) {
    out.push(...(await runEpisodes(specs.slice(i, i + batch), makePolicy(i / batch), sandbox, opts)));
    onBatch?.(out.length, specs.length);
  }
  return out;
}

export const solved = (t: Trajectory): boolean => t.reward.tests === 1;

/** Training tokens of a trajectory. `maskFormatErrors`: turns that were format errors are not trained on. */
export function episodeTokens(t: Trajectory, opts: { maskFormatErrors: boolean; advantage?: number }): EpisodeTokens {
  if (!t.tokens) throw new Error(`trajectory ${t.task_id} has no token arrays (episodes must be rendered with the tokenizer)`);
  const mask = [...t.tokens.mask] as number[];
  if (opts.maskFormatErrors) {
    for (const s of t.tokens.segments) {
      if (s.kind === 'assistant' && t.turns[s.turn]?.format_error) for (let i = s.start; i < s.end; i++) mask[i] = 0;
    }
  }
  return { ids: t.tokens.ids, mask, logprobs: t.tokens.logprobs.map((x) => x ?? 0), ...(opts.advantage !== undefined ? { advantage: opts.advantage } : {}) };
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
  };
}

/** Seconds spent in the sandbox and tokens generated, for throughput metrics. */
export function rolloutTiming(ts: readonly Trajectory[]): { sandbox_s: number; policy_s: number; action_tokens: number } {
  return {
    sandbox_s: ts.reduce((a, t) => a + t.timing.sandbox_ms + t.timing.reward_ms, 0) / 1000,
    policy_s: ts.reduce((a, t) => a + t.timing.policy_ms, 0) / 1000,
    action_tokens: ts.reduce((a, t) => a + t.action_tokens, 0),
  };
}
