// The phases of the paper's pipeline on our model: behaviour cloning on scripted-expert episodes
// (base of from-scratch presets), RFT (keep the policy's own successes, SFT on them with
// format-error turns masked) and evaluation (pass@1 mean ± std over K samples, pass@K); DAPO is in
// dapo.ts. Here too: the context every phase runs in, and the helpers the phases share.
import type { EpisodeOptions } from '../agent/episode.ts';
import { ExpertPolicy } from '../agent/expert.ts';
import { Timeline } from '../agent/timeline.ts';
import type { Trajectory } from '../agent/trajectory.ts';
import type { Tokenizer } from '../model/tokenizer.ts';
import type { Transformer } from '../model/transformer.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { Rng } from '../random.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import type { MetricRecord } from '../store/types.ts';
import type { Task } from '../tasks/schema.ts';
import { collect, episodeTokens, rolloutMetrics, rolloutTiming, seedFor, solved } from './collect.ts';
import type { RunConfig } from './config.ts';
import { ModelPolicy } from './model-policy.ts';
import { AdamW } from './optimizer.ts';
import { copyProbe, copyProbeItems } from './copy-probe.ts';
import { copyDrills } from './drills.ts';
import { packEpisodes, trainRowLength, type EpisodeTokens } from './pack.ts';
import { passStats, type PassStats } from './passk.ts';
import { constantWithWarmup, cosineWithWarmup } from './schedule.ts';
import { sftStep, type StepMetrics } from './steps.ts';

export interface Progress {
  phase: string;
  /** What is being done: "rollouts", "update", "eval", "expert". */
  stage: string;
  done: number;
  total: number;
}

export interface PhaseContext<T extends Tensor> {
  cfg: RunConfig;
  be: Backend<T>;
  model: Transformer<T>;
  tokenizer: Tokenizer;
  stopIds: number[];
  sandbox: SandboxFactory;
  train: readonly Task[];
  test: readonly Task[];
  episodes: EpisodeOptions;
  /** Record metrics rows (store + listeners). */
  log(rows: MetricRecord[]): Promise<void>;
  trajectories(phase: string, step: number, ts: Trajectory[]): Promise<void>;
  progress(p: Progress): void;
  /** Checked between steps; a truthy answer ends the phase early at a step boundary. */
  shouldStop(): boolean;
  /** Where an interrupted phase continues: cloning and RFT read their rollouts back from the run (not played
   *  again) and skip their steps before `step`; DAPO starts at iteration `step`; AdamW as it was. */
  resume?: PhaseResume;
  /** A checkpoint inside a phase (checkpoints.ts): the weights now, the next step, AdamW's state. */
  checkpoint?(phase: TrainPhase, step: number, opt: AdamW<T>, firstRoundVersion?: number): Promise<void>;
  /** Trajectories written earlier in this run (a resumed phase reads its rollouts back). */
  readTrajectories?(phase: string, step: number): Promise<Trajectory[]>;
  /** A shared run: DAPO's rounds are played by contributors and verified here (src/share/learner.ts). */
  rollouts?: RemoteRollouts;
}

/** One DAPO generation round as work for others: group g is task g, with its episode seeds and its
 *  policy seed (one cohort per group, so a contributor can play a group alone). */
export interface RoundRequest {
  /** e.g. "dapo/3/0": the round's items are "<label>/<g>". */
  label: string;
  /** The round is to be played at an earlier version than the model's weights (a resumed run's round that went out
   *  ahead before the stop): whoever plays it here needs that version's weights. */
  behind?: boolean;
  tasks: readonly Task[];
  groupSize: number;
  episodeSeed(g: number, k: number): number;
  policySeed(g: number): number;
  version: number;
  temperature: number;
  maxTurns: number;
  contextTokens: number;
}

/** Who plays DAPO's rounds in a shared run: the trajectories in group order, each verified. */
export interface RemoteRollouts {
  play<T extends Tensor>(ctx: PhaseContext<T>, req: RoundRequest): Promise<Trajectory[]>;
  /** Issue a round now, at the model's present weights (`req.version`), and return at once: contributors play it
   *  while the learner trains; the `play` of the same label later verifies it against these weights, kept. */
  prefetch?<T extends Tensor>(ctx: PhaseContext<T>, req: RoundRequest): Promise<void>;
  /** Drop what prefetch keeps for rounds that will not be played (the phase ends or stops). */
  release?<T extends Tensor>(ctx: PhaseContext<T>): void;
  /** Counts since the last call (accepted, rejected by reason, played by the learner), as dist_* metric values. */
  metrics(): Record<string, number>;
  /** Wall seconds since the last call (the learner waiting for results), for the metrics row's timing. */
  timing?(): Record<string, number>;
}

/** The phases of a run, in their order. */
export type TrainPhase = 'base' | 'rft' | 'dapo';

export interface PhaseResume {
  phase: TrainPhase;
  /** The first step (DAPO: iteration) still to run. */
  step: number;
  optimizerStep: number;
  adam?: { m: Map<string, Float32Array>; v: Map<string, Float32Array> };
  /** DAPO with overlapping rounds: the version the first round of iteration `step` was issued at. */
  firstRoundVersion?: number;
}

/** What trains: under LoRA only the adapters (frozen weights get no gradient buffer), else every weight. */
export const trainableParams = <T extends Tensor>(model: PhaseContext<T>['model']): Map<string, T> =>
  new Map([...model.params].filter(([n]) => !model.lora || n.includes('.lora_')));

export const newOptimizer = <T extends Tensor>(ctx: PhaseContext<T>, params = trainableParams(ctx.model)) =>
  new AdamW(ctx.be, params, new Map([...params].map(([n, p]) => [n, ctx.be.zeros(p.shape, 'f32', `grad:${n}`)])), {
    beta1: ctx.cfg.optim.beta1, beta2: ctx.cfg.optim.beta2, eps: ctx.cfg.optim.eps, weightDecay: ctx.cfg.optim.weightDecay, maxGradNorm: ctx.cfg.optim.maxGradNorm,
  });

/** AdamW's moments and step as a checkpoint kept them. */
export function restoreOptimizer<T extends Tensor>(ctx: PhaseContext<T>, opt: AdamW<T>, resume: PhaseResume): void {
  if (resume.adam) {
    for (const [n, m] of opt.m) ctx.be.free(m), opt.m.set(n, ctx.be.fromArray(resume.adam.m.get(n)!, m.shape, `adam.m:${n}`));
    for (const [n, v] of opt.v) ctx.be.free(v), opt.v.set(n, ctx.be.fromArray(resume.adam.v.get(n)!, v.shape, `adam.v:${n}`));
  }
  opt.step = resume.optimizerStep;
}

export const modelPolicy = <T extends Tensor>(ctx: PhaseContext<T>, seed: number, version: number, temperature = 1) =>
  new ModelPolicy(ctx.model, ctx.tokenizer, { contextTokens: ctx.episodes.contextTokens + ctx.episodes.actionTokens, stopIds: ctx.stopIds, sampling: { temperature }, seed, name: 'model', version });

/** A step's row length: model.trainRows balanced rows, at most the context an episode can reach (pack.ts). */
export const rowLength = (eps: readonly EpisodeTokens[], rows = 0, cap = Infinity) => trainRowLength(eps.map((e) => e.ids.length), rows, cap);
export const rowCap = <T extends Tensor>(ctx: PhaseContext<T>) => ctx.episodes.contextTokens + ctx.episodes.actionTokens;

/** Episodes generated together: agent.rolloutBatch rounded down to whole groups of `group` (at least one). */
export const rolloutBatch = (cfg: RunConfig, group: number) => group * Math.max(1, Math.floor(cfg.agent.rolloutBatch / group));

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
export function averageSteps(ms: StepMetrics[]): Record<string, number> {
  const keys = ['loss', 'gradNorm', 'entropy', 'clipFracLow', 'clipFracHigh', 'approxKl', 'logpDrift'] as const;
  const names: Record<string, string> = { gradNorm: 'grad_norm', clipFracLow: 'clipfrac_low', clipFracHigh: 'clipfrac_high', approxKl: 'approx_kl', logpDrift: 'logp_drift' };
  const out: Record<string, number> = {};
  for (const k of keys) {
    const xs = ms.map((m) => m[k]).filter((v): v is number => v !== undefined);
    if (xs.length) out[names[k] ?? k] = mean(xs);
  }
  return out;
}

/**
 * SFT over episodes for `epochs` in batches, cosine schedule with warm-up; returns the step count.
 * With `checkpoint` (base's cloning and RFT) the phase is resumable: a checkpoint every
 * run.checkpointSteps steps and when asked to stop, and a resumed call skips the steps before
 * ctx.resume.step (same shuffles, same schedule) with AdamW's moments restored, so it ends with the
 * weights and metrics of an uninterrupted one.
 */
async function supervised<T extends Tensor>(
  ctx: PhaseContext<T>,
  phase: string,
  eps: EpisodeTokens[],
  o: { epochs: number; batch: number; lr: number; warmup: number; seed: number; firstStep?: number; checkpoint?: 'base' | 'rft'; temperature?: number; stage?: string; constantLr?: boolean; probe?: Probe; probes?: readonly Probe[] },
): Promise<{ steps: number; reached: boolean }> {
  const opt = newOptimizer(ctx);
  const perEpoch = Math.ceil(eps.length / o.batch);
  const total = o.epochs * perEpoch;
  const first = o.firstStep ?? 0;
  // The phase's steps are numbered on across its calls (base: the drills-only stage, then cloning from
  // firstStep), and so are its checkpoints: a checkpoint past this call's steps means it had finished.
  const at = o.checkpoint && ctx.resume?.phase === o.checkpoint ? ctx.resume.step - first : -1;
  if (at >= total) return { steps: first + total, reached: false };
  const resume = at >= 0 ? { ...ctx.resume!, step: at } : undefined;
  if (resume) restoreOptimizer(ctx, opt, resume);
  const every = ctx.cfg.run.checkpointSteps;
  let step = 0;
  for (let e = 0; e < o.epochs; e++) {
    const order = new Rng(seedFor(o.seed, phase, 'epoch', e)).shuffle(eps.map((_, i) => i));
    for (let b = 0; b < perEpoch; b++) {
      const batch = order.slice(b * o.batch, (b + 1) * o.batch).map((i) => eps[i]!);
      if (!batch.some((x) => x.mask.some(Boolean))) continue;
      if (resume && step < resume.step) {
        step++; // done before the checkpoint
        continue;
      }
      if (ctx.shouldStop()) {
        if (o.checkpoint) await ctx.checkpoint?.(o.checkpoint, first + step, opt);
        return { steps: first + step, reached: false };
      }
      if (o.checkpoint && step > 0 && step % every === 0 && step !== resume?.step) await ctx.checkpoint?.(o.checkpoint, first + step, opt);
      const t0 = performance.now();
      const lr = o.constantLr ? constantWithWarmup(step, o.warmup, o.lr) : cosineWithWarmup(step, total, o.warmup, o.lr);
      const m = await sftStep(ctx.model, opt, packEpisodes(batch, rowLength(batch, ctx.cfg.model.trainRows, rowCap(ctx))), lr, ctx.cfg.model.passTokens, o.temperature);
      const secs = (performance.now() - t0) / 1000;
      const timing = { train_s: secs, forward_backward_s: m.seconds.forwardBackward, optimizer_s: m.seconds.optimizer, train_tokens_per_s: batch.reduce((a, x) => a + x.ids.length, 0) / secs };
      const read = o.probe && (first + step + 1) % o.probe.every === 0 ? await o.probe.run(first + step + 1) : undefined;
      // Readings that only watch (no stopping rule), each on its own schedule.
      const watched: Record<string, number> = {};
      for (const p of o.probes ?? []) if ((first + step + 1) % p.every === 0) watched[p.name] = await p.run(first + step + 1);
      await ctx.log([{ phase, step: first + step, values: { loss: m.loss, grad_norm: m.gradNorm, entropy: m.entropy, lr, action_tokens: m.actionTokens, epoch: e, ...(read !== undefined && { [o.probe!.name]: read }), ...watched }, timing }]);
      ctx.progress({ phase, stage: o.stage ?? 'update', done: ++step, total });
      if (read !== undefined && o.probe!.until !== undefined && read >= o.probe!.until) return { steps: first + step, reached: true };
    }
  }
  return { steps: first + step, reached: false };
}

/** A measurement taken every `every` steps of a supervised phase (after the step), logged as `name`; with `until`,
 *  the phase ends at the first reading at or above it. */
export interface Probe {
  name: string;
  every: number;
  /** The reading after the phase's step `step` (counted from 1). */
  run(step: number): Promise<number>;
  until?: number;
}

/** Tasks the copy probe plays (cloning's unused training tasks), and how often it reads. */
const PROBE_TASKS = 64;
const PROBE_EVERY = 100;

/** The copy probe (copy-probe.ts) of a base phase that drills the list's last candidate, on expert episodes of
 *  `tasks`; undefined where cloning drills no such copy or no task is left over. */
async function copyProbeFor<T extends Tensor>(ctx: PhaseContext<T>, tasks: readonly Task[]): Promise<Probe | undefined> {
  const { cfg } = ctx;
  if (!tasks.length || (cfg.bc.copyDrills <= 0 && cfg.bc.drillSteps <= 0)) return undefined;
  const expert = new ExpertPolicy({ noise: 0, style: cfg.bc.expertStyle, editCommand: cfg.agent.editCommand, guesses: 0, retryFixes: cfg.agent.retryFixes });
  const specs = tasks.map((task, i) => ({ task, seed: seedFor(cfg.seed, 'copy-probe', i) }));
  const ts = await collect(specs, () => expert, ctx.sandbox, { ...ctx.episodes, overlap: false }, 16);
  const items = copyProbeItems(ts, new Map(tasks.map((t) => [t.instance_id, t])), ctx.tokenizer);
  return items.length ? { name: 'copy_probe', every: PROBE_EVERY, run: () => copyProbe(ctx.model, items) } : undefined;
}

/** Held-out tasks the pass-rate probe plays (eval.probeEvery), one episode each. */
const PASS_PROBE_TASKS = 8;

/** The pass-rate probe of the base phase (eval.probeEvery): one episode on each of the first PASS_PROBE_TASKS
 *  held-out tasks at evaluation's temperature, seeded apart from every other draw, so that the run's own metrics
 *  and weights are those of a run without it. */
function passProbeFor<T extends Tensor>(ctx: PhaseContext<T>): Probe[] {
  const { cfg } = ctx;
  const tasks = ctx.test.slice(0, PASS_PROBE_TASKS);
  if (cfg.eval.probeEvery <= 0 || !tasks.length) return [];
  // Its episodes are not the run's: the live view does not follow them, and a stop waits for the few of them.
  const { shouldStop: _stop, onTurn: _turn, onEnd: _end, ...episodes } = ctx.episodes;
  return [{
    name: 'probe_pass_rate',
    every: cfg.eval.probeEvery,
    async run(step) {
      const specs = tasks.map((task, i) => ({ task, seed: seedFor(cfg.seed, 'pass-probe', step, i) }));
      const ts = await collect(specs, (b) => modelPolicy(ctx, seedFor(cfg.seed, 'pass-probe-policy', step, b), 0, cfg.eval.temperature), ctx.sandbox, episodes, specs.length);
      return ts.filter(solved).length / ts.length;
    },
  }];
}

/** Behaviour cloning on scripted-expert episodes (SFT over action tokens only). */
export async function behaviourCloning<T extends Tensor>(ctx: PhaseContext<T>): Promise<void> {
  const { cfg } = ctx;
  const order = new Rng(seedFor(cfg.seed, 'bc', 'tasks')).shuffle([...ctx.train]);
  const specs = Array.from({ length: cfg.bc.episodes }, (_, i) => ({ task: order[i % order.length]!, seed: seedFor(cfg.seed, 'bc', i) }));
  const expert = new ExpertPolicy({ noise: cfg.bc.expertNoise, style: cfg.bc.expertStyle, editCommand: cfg.agent.editCommand, guesses: cfg.bc.expertGuesses, retryFixes: cfg.agent.retryFixes, refusals: cfg.bc.expertRefusals });
  // A resumed phase reads its expert episodes back (they and their metrics row precede its checkpoints).
  let ts = ctx.resume?.phase === 'base' ? ((await ctx.readTrajectories?.('bc', 0)) ?? []) : [];
  if (ts.length !== specs.length) {
    // No overlap: the scripted expert generates nothing for the sandbox work to hide behind, and
    // pairing batches would only double the sandboxes running at once.
    ts = await collect(specs, () => expert, ctx.sandbox, { ...ctx.episodes, overlap: false }, 16, (done, total) => ctx.progress({ phase: 'base', stage: 'expert episodes', done, total }));
    if (ctx.shouldStop()) return; // a part of the episodes: dropped (the phase starts over on resume)
    await ctx.trajectories('bc', 0, ts);
    await ctx.log([{ phase: 'base', step: -1, values: { expert_pass_rate: ts.filter(solved).length / Math.max(1, ts.length), ...rolloutMetrics(ts) } }]);
  }
  const eps = ts.map((t) => episodeTokens(t, { maskFormatErrors: true }));
  if (cfg.bc.copyDrills > 0 && cfg.agent.editCommand !== 'sub') throw new Error(`bc.copyDrills drills the one-token \`sub\` command, but agent.editCommand is ${cfg.agent.editCommand}: set agent.editCommand=sub or bc.copyDrills=0`);
  const tasksById = new Map(ctx.train.map((t) => [t.instance_id, t]));
  // A drills-only stage first (bc.drillSteps): the copy a `sub` needs forms in a sudden rise of the copy probe
  // (copy-probe.ts) at a step that varies with the seed, and cloning's decaying rate does not form it when the stage
  // ended before it (docs/learning.md). With bc.drillUntil the stage runs until the probe reads at least that
  // (every 100 steps), at most bc.drillSteps. A constant rate after warm-up; its steps are the base phase's first,
  // and cloning's are numbered on from bc.drillSteps whatever step the stage ended at (so a resumed run finds them),
  // checkpointed and resumed like cloning's.
  const drillSteps = cfg.bc.drillSteps;
  const probe = await copyProbeFor(ctx, order.slice(specs.length, specs.length + PROBE_TASKS));
  const probes = passProbeFor(ctx);
  if (drillSteps > 0) {
    const stage = copyDrills(ts, tasksById, ctx.tokenizer, drillSteps * cfg.bc.batchEpisodes, seedFor(cfg.seed, 'drill-stage'), cfg.agent.retryFixes);
    const until = probe && cfg.bc.drillUntil > 0 ? { ...probe, until: cfg.bc.drillUntil } : probe;
    const r = await supervised(ctx, 'base', stage, { epochs: 1, batch: cfg.bc.batchEpisodes, lr: cfg.bc.lr, warmup: cfg.bc.warmupSteps, seed: seedFor(cfg.seed, 'drill-stage'), checkpoint: 'base', stage: 'copy drills', constantLr: true, ...(until && { probe: until }), probes });
    if (!r.reached && r.steps < drillSteps) return; // stopped inside the stage, its checkpoint written (a stop after its last step: cloning's first checkpoints)
    if (r.reached) await ctx.log([{ phase: 'base', step: -1, values: { drill_steps: r.steps } }]);
  }
  const drills = cfg.bc.copyDrills > 0 ? copyDrills(ts, tasksById, ctx.tokenizer, cfg.bc.copyDrills, seedFor(cfg.seed, 'copy-drills'), cfg.agent.retryFixes) : [];
  await supervised(ctx, 'base', [...eps, ...drills], { epochs: cfg.bc.epochs, batch: cfg.bc.batchEpisodes, lr: cfg.bc.lr, warmup: cfg.bc.warmupSteps, seed: cfg.seed, firstStep: drillSteps, checkpoint: 'base', ...(probe && { probe }), probes });
}

/** RFT: K episodes per training task from the current policy; SFT on the successful ones. */
export async function rejectionFineTuning<T extends Tensor>(ctx: PhaseContext<T>): Promise<void> {
  const { cfg } = ctx;
  const K = cfg.rft.samplesPerTask;
  const all = ctx.train;
  const pool = cfg.rft.tasks > 0 ? new Rng(seedFor(cfg.seed, 'rft', 'tasks')).shuffle([...all]).slice(0, cfg.rft.tasks) : all;
  const specs = pool.flatMap((task) => Array.from({ length: K }, (_, k) => ({ task, seed: seedFor(cfg.seed, 'rft', task.instance_id, k) })));
  // A resumed phase reads its rollouts back: they were played by the weights the phase began with.
  let ts = ctx.resume?.phase === 'rft' ? ((await ctx.readTrajectories?.('rft', 0)) ?? []) : [];
  if (ts.length !== specs.length) {
    const timeline = new Timeline();
    const t0 = performance.now();
    ts = await collect(specs, (b) => modelPolicy(ctx, seedFor(cfg.seed, 'rft', 'policy', b), 0, cfg.rft.temperature), ctx.sandbox, { ...ctx.episodes, timeline }, rolloutBatch(cfg, K), (done, total) => ctx.progress({ phase: 'rft', stage: 'rollouts', done, total }));
    const rolloutS = (performance.now() - t0) / 1000;
    if (ctx.shouldStop()) return; // a part of the rollouts: dropped
    await ctx.trajectories('rft', 0, ts);
    await ctx.log([{ phase: 'rft', step: -1, values: { ...rolloutMetrics(ts), kept: ts.filter(solved).length }, timing: { rollout_s: rolloutS, ...rolloutTiming(ts, timeline) } }]);
  }
  const kept = ts.filter(solved);
  if (!kept.length) return; // nothing to learn from: the phase leaves the weights as they were
  const eps = kept.map((t) => episodeTokens(t, { maskFormatErrors: true }));
  // The loss scores softmax(logits/τ) at the rollouts' temperature, the distribution they were drawn from: the policy at τ
  // moves towards its own successes (docs/learning.md finding 33).
  await supervised(ctx, 'rft', eps, { epochs: cfg.rft.epochs, batch: cfg.rft.batchEpisodes, lr: cfg.rft.lr, warmup: cfg.rft.warmupSteps, seed: cfg.seed, checkpoint: 'rft', temperature: cfg.rft.temperature });
}

/** pass@1 (mean ± std over K samples per held-out task) and pass@K on the test split; null when the run was
 *  stopped before every sample was played (the partial episodes are dropped; a resumed run evaluates again). */
export async function evaluate<T extends Tensor>(ctx: PhaseContext<T>, phase: string): Promise<{ stats: PassStats; trajectories: Trajectory[] } | null> {
  const { cfg } = ctx;
  const K = cfg.eval.samples;
  const specs = ctx.test.flatMap((task) => Array.from({ length: K }, (_, k) => ({ task, seed: seedFor(cfg.seed, 'eval', task.instance_id, k) })));
  const ts = await collect(specs, (b) => modelPolicy(ctx, seedFor(cfg.seed, 'eval-policy', phase, b), 0, cfg.eval.temperature), ctx.sandbox, ctx.episodes, rolloutBatch(cfg, K), (done, total) => ctx.progress({ phase, stage: 'eval', done, total }));
  if (ts.length < specs.length || ctx.shouldStop()) return null;
  const byTask = ctx.test.map((_, i) => ts.slice(i * K, (i + 1) * K).map(solved));
  return { stats: passStats(byTask), trajectories: ts };
}
