// DAPO, the pipeline's last phase (Yu et al. 2025, as the paper uses it): each iteration draws tasks, plays G
// episodes of each (or has contributors play them: a shared run, src/share/learner.ts), keeps the groups whose
// rewards differ (dynamic sampling, refilling up to dapo.maxGenBatches rounds), gives each episode its group
// advantage, and updates in mini-batches with the clipped token-level loss and no KL. A metrics row splits the
// iteration's wall time into generation, sandbox (and the part of it hidden behind generation),
// forward/backward and optimiser.
import type { EpisodeOptions } from '../agent/episode.ts';
import { Timeline } from '../agent/timeline.ts';
import type { Trajectory } from '../agent/trajectory.ts';
import type { Transformer } from '../model/transformer.ts';
import type { Tensor } from '../ops/tensor.ts';
import { Rng } from '../random.ts';
import type { MetricRecord } from '../store/types.ts';
import type { Task } from '../tasks/schema.ts';
import { dynamicSample, groupAdvantages } from './advantages.ts';
import { collect, episodeTokens, rolloutMetrics, rolloutTiming, seedFor, turnAdvantage } from './collect.ts';
import type { RunConfig } from './config.ts';
import type { AdamW } from './optimizer.ts';
import { packEpisodes, type EpisodeTokens } from './pack.ts';
import { averageSteps, modelPolicy, newOptimizer, restoreOptimizer, rolloutBatch, rowCap, rowLength, sum, type PhaseContext, type RoundRequest } from './phases.ts';
import { constantWithWarmup } from './schedule.ts';
import { dapoStep, type StepMetrics } from './steps.ts';

/** The DAPO learning rate at optimiser step `step` (0-based, counted over the whole phase): linear
 *  warm-up over dapo.warmupSteps, then dapo.lr. AdamW's first updates are about lr × sign(g) for every
 *  weight, whatever its gradient: without warm-up a rate that moves the policy at all wrecks it at once. */
export const dapoLr = (cfg: RunConfig, step: number): number => constantWithWarmup(step, cfg.dapo.warmupSteps, cfg.dapo.lr);

export interface DapoState {
  iteration: number;
  optimizerStep: number;
  /** The policy version the iteration's first round was issued at, when it was issued during the previous
   *  iteration's update (a shared run with dist.maxOffPolicy 1); else it plays at optimizerStep. */
  firstRoundVersion?: number;
}

/** δ in Â = (R − mean) / (std + δ) [verl's epsilon]. */
const ADVANTAGE_EPS = 1e-6;

interface Group {
  task: Task;
  trajs: Trajectory[];
  rewards: number[];
}

/** A DAPO iteration's update: its episodes in `optimizerSteps` mini-batches in a seeded order. Every step's ratio is
 *  to the rollouts' behaviour log-probs, so after the first step the clip bounds how far a token moves from the
 *  policy that played it. */
export async function dapoUpdate<T extends Tensor>(
  model: Transformer<T>,
  opt: AdamW<T>,
  eps: readonly EpisodeTokens[],
  o: { seed: number; iteration: number; optimizerSteps: number; lr: (step: number) => number; firstStep: number; clip: { epsLow: number; epsHigh: number }; temperature: number; passTokens: number; trainRows?: number; rowCap?: number },
): Promise<{ steps: StepMetrics[]; lastLr: number }> {
  const steps: StepMetrics[] = [];
  let lastLr = 0;
  const nb = Math.min(o.optimizerSteps, eps.length);
  const order = new Rng(seedFor(o.seed, 'dapo-minibatch', o.iteration)).shuffle(eps.map((_, i) => i));
  for (let b = 0; b < nb; b++) {
    const mb = order.filter((_, i) => i % nb === b).map((i) => eps[i]!);
    if (!mb.some((e) => e.mask.some(Boolean))) continue;
    lastLr = o.lr(o.firstStep + steps.length);
    steps.push(await dapoStep(model, opt, packEpisodes(mb, rowLength(mb, o.trainRows, o.rowCap)), lastLr, o.clip, o.temperature, o.passTokens));
  }
  return { steps, lastLr };
}

/** Round `round` of DAPO iteration `it`: `count` tasks drawn from `pool` (seeded by the iteration and round), G
 *  episodes each, as work others can play (one cohort per group, its own policy seed) at policy version `version`. */
export function roundRequest(cfg: RunConfig, pool: readonly Task[], episodes: EpisodeOptions, it: number, round: number, count: number, version: number): RoundRequest {
  return {
    label: `dapo/${it}/${round}`, tasks: new Rng(seedFor(cfg.seed, 'dapo', it, round)).shuffle([...pool]).slice(0, count), groupSize: cfg.dapo.groupSize,
    episodeSeed: (g, k) => seedFor(cfg.seed, 'dapo', it, round, g, k),
    policySeed: (g) => seedFor(cfg.seed, 'dapo-policy', it, round, 'group', g),
    version, temperature: cfg.dapo.temperature, maxTurns: episodes.maxTurns, contextTokens: episodes.contextTokens,
  };
}

/** One generation round of a DAPO iteration (roundRequest's tasks and seeds), G episodes each from the current
 *  weights (policy version `version`), or in a shared run from contributors; trajectories group by group. */
export async function dapoRound<T extends Tensor>(ctx: PhaseContext<T>, pool: readonly Task[], episodes: EpisodeOptions, it: number, round: number, count: number, version: number, behind = false): Promise<{ tasks: Task[]; trajectories: Trajectory[] }> {
  const { cfg } = ctx, G = cfg.dapo.groupSize;
  const req = { ...roundRequest(cfg, pool, episodes, it, round, count, version), ...(behind ? { behind } : {}) };
  const tasks = [...req.tasks];
  // A shared run: one cohort per group (its own policy seed), played by contributors, verified here.
  if (ctx.rollouts) return { tasks, trajectories: await ctx.rollouts.play(ctx, req) };
  const specs = tasks.flatMap((task, g) => Array.from({ length: G }, (_, k) => ({ task, seed: req.episodeSeed(g, k) })));
  const trajectories = await collect(specs, (b) => modelPolicy(ctx, seedFor(cfg.seed, 'dapo-policy', it, round, b), version, cfg.dapo.temperature), ctx.sandbox, episodes, rolloutBatch(cfg, G), (done, total) => ctx.progress({ phase: 'dapo', stage: `rollouts (iteration ${it + 1}, round ${round + 1})`, done, total }));
  return { tasks, trajectories };
}

/** One DAPO iteration: groups, dynamic sampling, mini-batch updates; returns metrics, or null when the run was
 *  stopped during its rollouts (nothing recorded, nothing trained). */
export async function dapoIteration<T extends Tensor>(ctx: PhaseContext<T>, opt: AdamW<T>, st: DapoState): Promise<MetricRecord | null> {
  const { cfg } = ctx;
  const it = st.iteration, G = cfg.dapo.groupSize, target = cfg.dapo.tasksPerIteration;
  const timeline = new Timeline();
  const episodes = { ...ctx.episodes, timeline };
  const t0 = performance.now();
  let generated: Trajectory[] = [];
  const ds = await dynamicSample<Group>(
    target,
    async (count, round) => {
      const version = round === 0 && st.firstRoundVersion !== undefined ? st.firstRoundVersion : st.optimizerStep;
      const { tasks, trajectories: ts } = await dapoRound(ctx, ctx.train, episodes, it, round, count, version, version !== st.optimizerStep);
      generated = generated.concat(ts);
      return tasks.map((task, g) => {
        const trajs = ts.slice(g * G, (g + 1) * G);
        return { task, trajs, rewards: trajs.map((t) => t.reward.total) };
      });
    },
    { enabled: cfg.dapo.filterGroups, mode: cfg.dapo.filterMode, maxRounds: cfg.dapo.maxGenBatches },
  );
  const rolloutS = (performance.now() - t0) / 1000;
  if (ctx.shouldStop()) return null;
  await ctx.trajectories('dapo', it, generated);
  // Overlapping rounds (a shared run, dist.maxOffPolicy 1): the next iteration's first round goes out now, at the
  // weights that played this one, and contributors play it while this update runs. Its episodes are then one
  // iteration behind the weights that train on them; the update's ratio is to their behaviour log-probs, so the
  // clip bounds the mismatch as it does within an iteration's mini-batches.
  st.firstRoundVersion = undefined;
  if (ctx.rollouts?.prefetch && cfg.dist.maxOffPolicy >= 1 && it + 1 < cfg.dapo.iterations) {
    await ctx.rollouts.prefetch(ctx, roundRequest(cfg, ctx.train, episodes, it + 1, 0, target, st.optimizerStep));
    st.firstRoundVersion = st.optimizerStep;
  }
  // Each episode's tokens carry its group advantage Â = (R − mean) / (std + 1e-6); dapo.refusedTurns = blame keeps a
  // refused command's only when negative. Mini-batches in a fixed order.
  const blame = cfg.dapo.refusedTurns === 'blame';
  const eps = ds.kept.flatMap((g) => {
    const adv = groupAdvantages(g.rewards, ADVANTAGE_EPS);
    return g.trajs.map((t, i) => episodeTokens(t, { maskFormatErrors: false, turnAdvantage: (turn) => turnAdvantage(turn, adv[i]!, blame) }));
  });
  const steps: StepMetrics[] = [];
  const t1 = performance.now();
  const clip = { epsLow: cfg.dapo.clipRatioLow, epsHigh: cfg.dapo.clipRatioHigh };
  let lastLr = 0;
  if (eps.length) {
    const u = await dapoUpdate(ctx.model, opt, eps, {
      seed: cfg.seed, iteration: it, optimizerSteps: cfg.dapo.optimizerSteps, lr: (step) => dapoLr(cfg, step),
      firstStep: st.optimizerStep, clip, temperature: cfg.dapo.temperature, passTokens: cfg.model.passTokens, trainRows: cfg.model.trainRows, rowCap: rowCap(ctx),
    });
    steps.push(...u.steps);
    st.optimizerStep += u.steps.length;
    lastLr = u.lastLr;
  }
  const trainS = (performance.now() - t1) / 1000;
  const rollout = rolloutTiming(generated, timeline);
  return {
    phase: 'dapo',
    step: it,
    values: {
      ...rolloutMetrics(generated),
      ...(ctx.rollouts ? ctx.rollouts.metrics() : {}),
      groups_kept: ds.kept.length,
      groups_dropped_frac: ds.generated ? ds.dropped / ds.generated : 0,
      generation_rounds: ds.rounds,
      ...averageSteps(steps),
      optimizer_steps: steps.length,
      ...(steps.length ? { lr: lastLr } : {}),
    },
    // Wall seconds: total = rollout (generation ∪ sandbox, and glue) + writing trajectories + train
    // (forward/backward, optimiser, packing); sandbox_overlapped_s of sandbox_s ran during generation.
    timing: {
      total_s: (performance.now() - t0) / 1000,
      rollout_s: rolloutS, ...rollout,
      train_s: trainS, forward_backward_s: sum(steps.map((m) => m.seconds.forwardBackward)), optimizer_s: sum(steps.map((m) => m.seconds.optimizer)),
      train_tokens_per_s: eps.reduce((a, e) => a + e.ids.length, 0) / Math.max(1e-9, trainS),
      ...(ctx.rollouts?.timing ? ctx.rollouts.timing() : {}),
    },
  };
}

/** DAPO: dapo.iterations iterations (from ctx.resume's, AdamW as its checkpoint left it), a checkpoint every
 *  run.checkpointEvery iterations but after the last (the phase's end writes that one). */
export async function dapo<T extends Tensor>(ctx: PhaseContext<T>): Promise<void> {
  const { cfg } = ctx;
  const opt = newOptimizer(ctx);
  const st: DapoState = { iteration: 0, optimizerStep: 0 };
  if (ctx.resume?.phase === 'dapo') {
    restoreOptimizer(ctx, opt, ctx.resume);
    st.iteration = ctx.resume.step;
    st.optimizerStep = ctx.resume.optimizerStep;
    // The round that went out ahead before the stop is played at its version (a shared run fetches those weights).
    if (ctx.rollouts && ctx.resume.firstRoundVersion !== undefined) st.firstRoundVersion = ctx.resume.firstRoundVersion;
  }
  const total = cfg.dapo.iterations;
  try {
    await dapoIterations(ctx, opt, st, total);
  } finally {
    ctx.rollouts?.release?.(ctx); // a round issued ahead of a stop
  }
}

async function dapoIterations<T extends Tensor>(ctx: PhaseContext<T>, opt: AdamW<T>, st: DapoState, total: number): Promise<void> {
  const { cfg } = ctx;
  for (; st.iteration < total; st.iteration++) {
    if (ctx.shouldStop()) return;
    const row = await dapoIteration(ctx, opt, st);
    if (!row) return; // stopped during its rollouts
    await ctx.log([row]);
    ctx.progress({ phase: 'dapo', stage: 'iterations', done: st.iteration + 1, total });
    opt.step = st.optimizerStep;
    if ((st.iteration + 1) % cfg.run.checkpointEvery === 0 && st.iteration + 1 < total) await ctx.checkpoint?.('dapo', st.iteration + 1, opt, st.firstRoundVersion);
  }
}

