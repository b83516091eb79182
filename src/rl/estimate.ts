// How long a run will take on this device, before it starts: the work a resolved config asks for
// (episodes, turns, test runs, training tokens per phase), priced at three rates measured on the device
// in a few seconds (training tokens/s at the cloning batch, action tokens/s of batched generation with
// its prefill, seconds per test run in the run's sandbox). The shape constants below (tokens per
// episode, share of turns that run the tests, overlap of sandbox and generation, DAPO's refill rounds)
// come from the micro preset's metrics on the token rung of level 0; the estimate is an "about", and
// the calibration test holds it to a measured CLI run.
import type { RunConfig } from './config.ts';

export interface DeviceRates {
  /** Training tokens/s (forward, backward, AdamW) at the cloning batch. */
  trainTokensPerS: number;
  /** Sampled action tokens/s of a rollout batch, prefill of the observations included. */
  genTokensPerS: number;
  /** Seconds of one test run in the run's sandbox. */
  testRunS: number;
}

export interface RunEstimate {
  totalS: number;
  /** Seconds per part, in run order: cloning, the evaluations, RFT, DAPO. */
  parts: { name: string; seconds: number }[];
}

/** Tokens of an expert episode on level 0 (prompt, file view, four short turns). */
const EXPERT_EPISODE_TOKENS = 380;
/** Tokens of a policy episode, which mostly runs to the turn limit. */
const POLICY_TOKENS_PER_TURN = 100;
/** Action tokens the policy writes a turn (one short command). */
const ACTION_TOKENS_PER_TURN = 8;
/** Test runs of an expert episode (run_tests, then the grading run). */
const EXPERT_TESTS = 2;
/** Expert episodes run 16 at once; their test runs overlap about this much. */
const EXPERT_PARALLEL = 1.6;
/** Share of sandbox time not hidden behind generation (measured: 84 of 325 s in an RFT pass). */
const SANDBOX_EXPOSED = 0.26;
/** Generation rounds per DAPO iteration with refill (measured: 64 + 48 + 24 episodes for a batch of 64). */
const DAPO_ROUNDS = 2.1;
/** Share of RFT episodes that pass (the base's pass rate on training tasks). */
const RFT_KEPT = 0.07;

/** The estimate of a resolved config at measured device rates. */
export function estimateRun(cfg: RunConfig, r: DeviceRates): RunEstimate {
  const phases = String(cfg.run.phases).split(',').map((s) => s.trim());
  const turns = cfg.agent.maxTurns as number;
  const testsPerEpisode = turns / 2 + 1;
  /** Seconds of one policy episode: its generation plus the part of its test runs not overlapped. */
  const episodeS = (turns * ACTION_TOKENS_PER_TURN) / r.genTokensPerS + SANDBOX_EXPOSED * testsPerEpisode * r.testRunS;
  const trainS = (tokens: number) => tokens / r.trainTokensPerS;
  const parts: { name: string; seconds: number }[] = [];
  const evalS = (cfg.tasks.maxTest as number || 48) * (cfg.eval.samples as number) * episodeS;
  if (phases.includes('base')) {
    const n = cfg.bc.episodes as number;
    parts.push({ name: 'cloning', seconds: (n * EXPERT_TESTS * r.testRunS) / EXPERT_PARALLEL + trainS(n * (cfg.bc.epochs as number) * EXPERT_EPISODE_TOKENS) });
    parts.push({ name: 'evaluation of base', seconds: evalS });
  }
  if (phases.includes('rft')) {
    const n = (cfg.rft.tasks as number) * (cfg.rft.samplesPerTask as number);
    parts.push({ name: 'RFT', seconds: n * episodeS + trainS(n * RFT_KEPT * (cfg.rft.epochs as number) * turns * POLICY_TOKENS_PER_TURN) });
    parts.push({ name: 'evaluation of RFT', seconds: evalS });
  }
  if (phases.includes('dapo')) {
    const perIteration = (cfg.dapo.tasksPerIteration as number) * (cfg.dapo.groupSize as number);
    const rounds = cfg.dapo.filterGroups ? Math.min(DAPO_ROUNDS, cfg.dapo.maxGenBatches as number) : 1;
    parts.push({ name: 'DAPO', seconds: (cfg.dapo.iterations as number) * (perIteration * rounds * episodeS + trainS(perIteration * turns * POLICY_TOKENS_PER_TURN)) });
    parts.push({ name: 'evaluation of DAPO', seconds: evalS });
  }
  return { totalS: parts.reduce((a, p) => a + p.seconds, 0), parts };
}
