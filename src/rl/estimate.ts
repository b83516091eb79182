// How long a run will take on this device, before it starts: the work a resolved config asks for
// (episodes, turns, test runs, training tokens per phase), priced at three rates measured on the device
// in a few seconds (training tokens/s at the cloning batch, action tokens/s of batched generation with
// its prefill, seconds per test run in the run's sandbox). How many tokens an episode has depends on the
// model that plays it: for a from-scratch preset the constants below (tokens per episode, share of turns
// that run the tests, overlap of sandbox and generation, DAPO's refill rounds) come from the micro
// preset's metrics on the token rung of level 0, and the estimate is an "about" (the calibration test
// holds it to a measured CLI run); for a pretrained model nothing here has measured its episodes, so
// they are priced at the config's budgets, and every figure is an "at most" (EpisodeTokens.bound).
import { tokenWeights, type ModelConfig } from '../model/config.ts';
import { modelPreset } from '../model/presets.ts';
import type { RunConfig } from './config.ts';

export interface DeviceRates {
  /** Training tokens/s (forward, backward, AdamW) at the cloning batch. */
  trainTokensPerS: number;
  /** Sampled action tokens/s of a rollout batch, prefill of the observations included. */
  genTokensPerS: number;
  /** Seconds of one test run in the run's sandbox. */
  testRunS: number;
}

/** The rates of the calibration run (micro, seed 1, fast CPU backend and node sandbox on a 2-core
 *  machine): where nothing was measured, the relative prices of the parts; the live ETA corrects the
 *  absolute pace from the run's own progress. */
export const CALIBRATION_RATES: DeviceRates = Object.freeze({ trainTokensPerS: 2066, genTokensPerS: 193, testRunS: 0.079 });

/** `x` as device rates when it is one (three positive, finite numbers), else null: rates kept in a run's record
 *  or sent by a page are checked before a time is priced at them. */
export function ratesOf(x: unknown): DeviceRates | null {
  if (typeof x !== 'object' || x === null) return null;
  const r = x as Record<string, unknown>;
  const ok = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > 0;
  return ok(r.trainTokensPerS) && ok(r.genTokensPerS) && ok(r.testRunS) ? { trainTokensPerS: r.trainTokensPerS as number, genTokensPerS: r.genTokensPerS as number, testRunS: r.testRunS as number } : null;
}

export interface EstimatePart {
  /** What is done: expert episodes, copy drills, cloning updates, RFT rollouts, RFT updates, DAPO, evaluation of <phase>. */
  name: string;
  /** The pipeline phase it belongs to (base, rft, dapo); evaluations belong to the phase they evaluate. */
  phase: string;
  seconds: number;
}

export interface RunEstimate {
  totalS: number;
  /** True where the episodes were priced at their budgets (a pretrained model): the total is an upper bound. */
  bound: boolean;
  /** Seconds per part, in run order. */
  parts: EstimatePart[];
}

/** Tokens of an expert episode on level 0 (prompt, file view, four short turns). */
const EXPERT_EPISODE_TOKENS = 380;
/** Tokens of a copy drill: an expert episode cut after its view, and one `sub` turn. */
const DRILL_TOKENS = 300;
/** Drill steps a stage stopped by the copy probe (bc.drillUntil) takes: 1,100-3,100 over six val seeds, mean ~1,900; at most
 *  bc.drillSteps. */
const DRILL_STEPS_UNTIL = 1900;
/** Held-out tasks priced where the config keeps every test task (tasks.maxTest 0) and the caller did not count them. */
const TEST_TASKS_UNKNOWN = 48;
/** Training tasks RFT samples where neither rft.tasks nor tasks.maxTrain bounds them: the bundled library's training file. */
const TRAIN_TASKS_UNKNOWN = 1680;
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
/** Episodes a pass-rate probe plays (phases.ts). */
const PASS_PROBE_EPISODES = 8;
/** Share of RFT episodes that pass (the base's pass rate on training tasks). */
const RFT_KEPT = 0.07;
/** Whether a config trains LoRA adapters (a pretrained model with model.loraRank > 0) rather than every weight. */
const trainsLora = (cfg: RunConfig) => !modelPreset(cfg.model.preset) && cfg.model.loraRank > 0;

/** Training tokens/s of a config at a measured rate (measured without recompute). Under model.recompute the
 *  backward rebuilds each layer's forward: a forward is about a third of a full fine-tune's step (2 of 6 flops
 *  a weight: forward, then dX and dW) and half of a LoRA step's (frozen weights get no dW: 2 of 4). */
const trainRate = (cfg: RunConfig, r: DeviceRates) => r.trainTokensPerS / (cfg.model.recompute ? (trainsLora(cfg) ? 3 / 2 : 4 / 3) : 1);

/** The tokens of a policy episode, a turn at a time: measured (micro's) or the config's budgets. */
export interface EpisodeTokens {
  /** Tokens the policy samples a turn. */
  action: number;
  /** Tokens a turn adds to the episode (observation, template, action): what an update trains on. */
  perTurn: number;
  /** Test runs an episode makes. */
  testRuns: number;
  /** Share of the sandbox's time not hidden behind generation. */
  sandboxExposed: number;
  /** True where these are the budgets: every figure priced from them is an upper bound. */
  bound: boolean;
}

/** Chat-template tokens around an observation and the next assistant header (ChatML: ≤ 10), with margin. */
const TURN_TEMPLATE_TOKENS = 16;

/**
 * A run's episode in tokens. A from-scratch preset's are micro's measured level-0 episodes. Any other model's
 * are its budgets. An episode ends once its context (agent.contextTokens, prompt included) is full, checked
 * after each action and each observation (agent/episode.ts), so it holds at most contextTokens plus the larger
 * of an action and an observation (agent.actionTokens, agent.observationTokens and its template); every token
 * passes through the model once (the policy keeps each episode's KV cache across turns, rl/model-policy.ts)
 * and is trained on once; every one is priced as sampled (a decode step costs more than a prompt token), and
 * every turn runs the tests, none overlapped with generation, plus the grading run.
 */
export function episodeTokens(cfg: RunConfig): EpisodeTokens {
  const turns = cfg.agent.maxTurns;
  if (modelPreset(cfg.model.preset)) {
    return { action: ACTION_TOKENS_PER_TURN, perTurn: POLICY_TOKENS_PER_TURN, testRuns: turns / 2 + 1, sandboxExposed: SANDBOX_EXPOSED, bound: false };
  }
  const episode = cfg.agent.contextTokens + Math.max(cfg.agent.actionTokens, cfg.agent.observationTokens + TURN_TEMPLATE_TOKENS);
  return { action: episode / turns, perTurn: episode / turns, testRuns: turns + 1, sandboxExposed: 1, bound: true };
}

/** Seconds of one policy episode at `r`: its generation plus the part of its test runs not overlapped. */
function episodeSeconds(cfg: RunConfig, e: EpisodeTokens, r: DeviceRates): number {
  return (cfg.agent.maxTurns * e.action) / r.genTokensPerS + e.sandboxExposed * e.testRuns * r.testRunS;
}

/** One DAPO iteration: a generation round of tasksPerIteration × groupSize episodes, the rounds dynamic
 *  sampling takes (refill: micro's measured mean, or at most dapo.maxGenBatches for a bound), and the update
 *  over every token of the batch. */
export interface DapoIteration {
  episodes: number;
  /** Seconds of one generation round (episodes played, tests run). */
  roundS: number;
  rounds: number;
  /** Seconds of the update (every optimiser step of the iteration). */
  updateS: number;
  /** rounds × roundS + updateS. */
  seconds: number;
}

export function dapoIteration(cfg: RunConfig, r: DeviceRates, e: EpisodeTokens = episodeTokens(cfg)): DapoIteration {
  const episodes = cfg.dapo.tasksPerIteration * cfg.dapo.groupSize;
  const rounds = !cfg.dapo.filterGroups ? 1 : e.bound ? cfg.dapo.maxGenBatches : Math.min(DAPO_ROUNDS, cfg.dapo.maxGenBatches);
  const roundS = episodes * episodeSeconds(cfg, e, r);
  const updateS = (episodes * cfg.agent.maxTurns * e.perTurn) / trainRate(cfg, r);
  return { episodes, roundS, rounds, updateS, seconds: rounds * roundS + updateS };
}

/**
 * The arithmetic a token costs at a context of `contextTokens`, over what it costs at the few positions a rate
 * measurement runs (throughput.ts: 128 for a large shape, 384 for a small one). A forward multiplies a token by
 * its weights (2·W flops, W = tokenWeights) and attends to the c positions before it (QKᵀ and PV: A = 4·c·NH·HS
 * flops a layer); over an episode that fills its context c averages contextTokens / 2, so the forward's factor
 * is 1 + A/2W = 1 + L·NH·HS·contextTokens / W (Qwen2.5-0.5B at 8,192 tokens: 1.36). A full fine-tune's backward
 * doubles both terms (4W + 2A), so its step scales alike; a LoRA step's backward has no dW for the frozen weights
 * (2W + 2A), so its factor is (4W + 3A) / 4W: `lora` gives 1 + 1.5·(that excess). Arithmetic only: the KV-cache
 * reads of a decode step at a small batch (bandwidth, not flops) are not in it; grouped KV heads keep them small.
 */
export function contextFactor(c: ModelConfig, contextTokens: number, lora = false): number {
  return 1 + (lora ? 1.5 : 1) * (c.numLayers * c.numHeads * c.headDim * contextTokens) / tokenWeights(c);
}

/** The estimate of a resolved config at measured device rates; `testTasks`: the held-out tasks the
 *  evaluations will play (after tasks.maxTest), where the caller has counted them. */
export function estimateRun(cfg: RunConfig, r: DeviceRates, testTasks?: number): RunEstimate {
  const phases = cfg.run.phases.split(',').map((s) => s.trim());
  const turns = cfg.agent.maxTurns;
  const e = episodeTokens(cfg);
  const episodeS = episodeSeconds(cfg, e, r);
  const trainS = (tokens: number) => tokens / trainRate(cfg, r);
  const parts: EstimatePart[] = [];
  const evalS = (testTasks ?? (cfg.tasks.maxTest || TEST_TASKS_UNKNOWN)) * cfg.eval.samples * episodeS;
  if (phases.includes('base')) {
    const n = cfg.bc.episodes;
    parts.push({ name: 'expert episodes', phase: 'base', seconds: (n * EXPERT_TESTS * r.testRunS) / EXPERT_PARALLEL });
    const drillSteps = cfg.bc.drillUntil > 0 ? Math.min(cfg.bc.drillSteps, DRILL_STEPS_UNTIL) : cfg.bc.drillSteps;
    if (drillSteps > 0) parts.push({ name: 'copy drills', phase: 'base', seconds: trainS(drillSteps * cfg.bc.batchEpisodes * DRILL_TOKENS) });
    // The pass-rate probe's episodes (eval.probeEvery) are priced with the updates they interleave.
    const cloningSteps = Math.ceil((n + cfg.bc.copyDrills) / cfg.bc.batchEpisodes) * cfg.bc.epochs;
    const probes = cfg.eval.probeEvery > 0 ? Math.floor((drillSteps + cloningSteps) / cfg.eval.probeEvery) * PASS_PROBE_EPISODES * episodeS : 0;
    parts.push({ name: 'cloning updates', phase: 'base', seconds: trainS(n * cfg.bc.epochs * EXPERT_EPISODE_TOKENS + cfg.bc.copyDrills * cfg.bc.epochs * DRILL_TOKENS) + probes });
    parts.push({ name: 'evaluation of base', phase: 'base', seconds: evalS });
  }
  if (phases.includes('rft')) {
    // rft.tasks 0 samples every training task (tasks.maxTrain of them where it is set).
    const tasks = cfg.rft.tasks > 0 ? Math.min(cfg.rft.tasks, cfg.tasks.maxTrain || Infinity) : cfg.tasks.maxTrain || TRAIN_TASKS_UNKNOWN;
    const n = tasks * cfg.rft.samplesPerTask;
    parts.push({ name: 'RFT rollouts', phase: 'rft', seconds: n * episodeS });
    // A bound keeps every episode (none is known to fail).
    parts.push({ name: 'RFT updates', phase: 'rft', seconds: trainS(n * (e.bound ? 1 : RFT_KEPT) * cfg.rft.epochs * turns * e.perTurn) });
    parts.push({ name: 'evaluation of RFT', phase: 'rft', seconds: evalS });
  }
  if (phases.includes('dapo')) {
    parts.push({ name: 'DAPO', phase: 'dapo', seconds: cfg.dapo.iterations * dapoIteration(cfg, r, e).seconds });
    parts.push({ name: 'evaluation of DAPO', phase: 'dapo', seconds: evalS });
  }
  return { totalS: parts.reduce((a, p) => a + p.seconds, 0), bound: e.bound, parts };
}

/** Phase by phase (cloning with its evaluation, and so on), for a short summary. */
export function phaseTotals(e: RunEstimate): { phase: string; seconds: number }[] {
  const out: { phase: string; seconds: number }[] = [];
  for (const p of e.parts) {
    const last = out.at(-1);
    if (last?.phase === p.phase) last.seconds += p.seconds;
    else out.push({ phase: p.phase, seconds: p.seconds });
  }
  return out;
}

/** Which part a progress report is in, and how far through it (0..1); null when it names none.
 *  `dapoIterations` places a DAPO rollout report ("rollouts (iteration i, round r)") in its iteration. */
export function partOf(e: RunEstimate, p: { phase: string; stage: string; done: number; total: number }, dapoIterations: number): { index: number; fraction: number } | null {
  const f = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
  const phase = p.phase;
  const named: Record<string, string> = { base: 'base', rft: 'RFT', dapo: 'DAPO' };
  let name: string | undefined, fraction = f;
  if (p.stage === 'eval') name = `evaluation of ${named[phase] ?? phase}`;
  else if (phase === 'base') name = p.stage === 'expert episodes' || p.stage === 'copy drills' ? p.stage : 'cloning updates';
  else if (phase === 'rft') name = p.stage === 'rollouts' ? 'RFT rollouts' : 'RFT updates';
  else if (phase === 'dapo') {
    name = 'DAPO';
    const it = /iteration (\d+)/.exec(p.stage);
    if (it) fraction = Math.min(1, (Number(it[1]) - 1 + 0.5 * f) / Math.max(1, dapoIterations));
  }
  const index = name === undefined ? -1 : e.parts.findIndex((x) => x.name === name);
  return index < 0 ? null : { index, fraction };
}

/** Estimated seconds of work done by the time of a progress report (priced as the estimate prices it). */
export function workDone(e: RunEstimate, at: { index: number; fraction: number }): number {
  return e.parts.slice(0, at.index).reduce((a, x) => a + x.seconds, 0) + at.fraction * (e.parts[at.index]?.seconds ?? 0);
}

/**
 * The whole run's time left, from the estimate's prices corrected by how fast the work has really gone
 * since `start` (the first report seen): left = (estimated work left) × (seconds taken / estimated work
 * done in them). Cumulative, so one slow batch moves it only by its share. Null until at least 20 s
 * and 1 % of the estimated work separate the two reports.
 */
export function runTimeLeft(e: RunEstimate, start: { atMs: number; workS: number }, now: { atMs: number; workS: number }): number | null {
  const took = (now.atMs - start.atMs) / 1000, done = now.workS - start.workS;
  if (took < 20 || done < 0.01 * e.totalS) return null;
  return Math.max(0, e.totalS - now.workS) * (took / done);
}

/** A DAPO iteration of a run priced on a device: its parts, and how they were priced. */
export interface IterationPrice extends DapoIteration {
  /** True where episodes were priced at their budgets: every figure is an "at most". */
  bound: boolean;
  /** Tokens an episode has at most (bound) or on average. */
  tokensPerEpisode: number;
  /** Test runs an episode makes (at most, for a bound). */
  testRuns: number;
  /** contextFactor at an episode's bound, by which a bound divides the measured generation rate (1 otherwise)… */
  contextFactor: number;
  /** …and the training rate (a LoRA step's attention weighs more: contextFactor's `lora`). */
  trainContextFactor: number;
}

/** What a DAPO iteration of `cfg` costs at `r`, rates measured at `model`'s shape over a few positions
 *  (ratesAtContext). */
export function priceIteration(cfg: RunConfig, r: DeviceRates, model: ModelConfig): IterationPrice {
  const e = episodeTokens(cfg);
  const { rates, factor, trainFactor } = ratesAtContext(cfg, r, model);
  return { ...dapoIteration(cfg, rates, e), bound: e.bound, tokensPerEpisode: cfg.agent.maxTurns * e.perTurn, testRuns: e.testRuns, contextFactor: factor, trainContextFactor: trainFactor };
}

/** Rates measured at a few positions as a bound prices them: divided by contextFactor at the run's context
 *  (micro's measured episodes are as short as the rows they are measured at: unchanged). */
export function ratesAtContext<R extends { trainTokensPerS: number; genTokensPerS: number }>(cfg: RunConfig, r: R, model: ModelConfig): { rates: R; factor: number; trainFactor: number } {
  const e = episodeTokens(cfg);
  if (!e.bound) return { rates: r, factor: 1, trainFactor: 1 };
  const tokens = cfg.agent.maxTurns * e.perTurn;
  const factor = contextFactor(model, tokens), trainFactor = contextFactor(model, tokens, trainsLora(cfg));
  return { rates: { ...r, trainTokensPerS: r.trainTokensPerS / trainFactor, genTokensPerS: r.genTokensPerS / factor }, factor, trainFactor };
}

/** Seconds as a person reads a duration: "42 s", "3 min 5 s", "2 h 10 min"; "…" where it is not a time. */
export function duration(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '…';
  const sec = Math.round(s);
  if (sec < 60) return `${sec} s`;
  if (sec < 3600) return `${Math.floor(sec / 60)} min ${sec % 60} s`;
  const min = Math.round(s / 60);
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}
