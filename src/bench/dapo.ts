// `webswe bench train --dapo`: one real DAPO iteration of a from-scratch model shape (the trainer's own
// dapoIteration: G episodes per task on the shortest training tasks in a real sandbox, then the
// clipped update), with small bounded settings, reported as a wall-time split: generation, sandbox
// (and the part of it that ran during generation), forward/backward, optimiser, the rest; and
// tokens/s for generation (sampled tokens per second of policy calls) and training (episode tokens
// per second of forward/backward + optimiser). Weights are freshly initialised from the seed.
// compareOverlap times the iteration's rollout batch (dapoRound: the same episodes, seeds and
// policies) with the overlap scheme (agent.overlap) on and off, alternating the order over a few
// repeats (a shared machine's load drifts), and checks every run played identical trajectories.
import { Timeline } from '../agent/timeline.ts';
import type { Trajectory } from '../agent/trajectory.ts';
import { KvGenerator } from '../model/generate.ts';
import { MODEL_PRESETS, modelPreset } from '../model/presets.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { resolveConfig, type ConfigValue, type RunConfig } from '../rl/config.ts';
import { rolloutTiming } from '../rl/collect.ts';
import { openRunPolicy, phaseContext } from '../rl/session.ts';
import { dapoIteration, dapoRound } from '../rl/dapo.ts';
import { newOptimizer, type PhaseContext, type Progress } from '../rl/phases.ts';
import { RUN_PRESETS } from '../rl/presets.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import type { MetricRecord } from '../store/types.ts';
import type { Task } from '../tasks/schema.ts';
import { selectTasks } from '../tasks/select.ts';

/** Bounds over the run preset, so that a micro iteration takes a minute or two on a 2-core CPU:
 *  2 tasks × G 4, ≤ 4 turns of ≤ 64 tokens, every group trained on (no dynamic-sampling drop). */
export const DAPO_BENCH_DEFAULTS: Readonly<Record<string, ConfigValue>> = Object.freeze({
  'dapo.tasksPerIteration': 2,
  'dapo.groupSize': 4,
  'dapo.optimizerSteps': 2,
  'dapo.filterGroups': false,
  'agent.maxTurns': 4,
  'reward.lengthThreshold': 3,
  'agent.actionTokens': 64,
  'agent.observationTokens': 128,
  'agent.contextTokens': 1536,
});

/** Tasks the tokenizer is trained on when the run preset names no tasks.maxTrain. */
const TOKENIZER_TASKS = 24;

export interface DapoBenchOptions {
  /** A from-scratch model shape (MODEL_PRESETS), with the settings of the run preset that trains it, if one does. */
  model: string;
  be: Backend<Tensor>;
  backend: string;
  sandbox: SandboxFactory;
  /** The training task file's tasks (the shortest are used). */
  tasks: readonly Task[];
  /** Config overrides over the run preset and DAPO_BENCH_DEFAULTS (agent.overlap among them). */
  overrides?: Record<string, ConfigValue>;
  onProgress?(p: Progress): void;
}

/** Seconds; the parts generation + (sandbox − sandbox_overlapped) + forward_backward + optimizer + other = total. */
export interface DapoBenchTiming {
  total_s: number;
  rollout_s: number;
  generation_s: number;
  sandbox_s: number;
  /** Of sandbox_s, the seconds during which generation was busy too. */
  sandbox_overlapped_s: number;
  forward_backward_s: number;
  optimizer_s: number;
  /** Everything else: packing, bookkeeping, writing trajectories, idle waits. */
  other_s: number;
}

export interface DapoBenchResult {
  model: string;
  backend: string;
  overlap: boolean;
  settings: { seed: number; tasks: number; group_size: number; episodes: number; max_turns: number; action_tokens: number; context_tokens: number; optimizer_steps: number };
  timing: DapoBenchTiming;
  tokens: { generated: number; trained: number };
  generation_tokens_per_s: number;
  training_tokens_per_s: number;
  /** The iteration's metrics row (values: rewards, clip fractions, …), as `webswe train` logs it. */
  metrics: MetricRecord;
}

/** The bench's config for `shape`: the run preset that trains it (micro for scratch-160k), the bench's bounds, `overrides`. */
export function dapoBenchConfig(shape: string, overrides: Record<string, ConfigValue> = {}): RunConfig {
  if (!modelPreset(shape)) throw new Error(`--model must be one of ${Object.keys(MODEL_PRESETS).join(', ')}, got "${shape}"`);
  const run = Object.values(RUN_PRESETS).find((r) => r.overrides['model.preset'] === shape);
  return resolveConfig(run?.overrides ?? {}, DAPO_BENCH_DEFAULTS, { 'model.preset': shape, 'run.phases': 'dapo' }, overrides);
}

interface Bench {
  cfg: RunConfig;
  ctx: PhaseContext<Tensor>;
  pool: Task[];
  /** The episodes the last dapoIteration played. */
  played(): Trajectory[];
  dispose(): void;
}

/** The config, fresh model and phase context of a bench, warmed up. */
async function setUp(o: DapoBenchOptions): Promise<Bench> {
  const cfg = dapoBenchConfig(o.model, o.overrides);
  // The policy as `webswe train` opens it (its tokenizer trained on the training tasks, seeded init);
  // the iteration's pool is the shortest tasksPerIteration of those tasks, so it plays each once.
  const corpusTasks = selectTasks(o.tasks, { max: cfg.tasks.maxTrain || TOKENIZER_TASKS, difficulty: cfg.tasks.difficulty });
  const pool = corpusTasks.slice(0, cfg.dapo.tasksPerIteration);
  if (pool.length < cfg.dapo.tasksPerIteration) throw new Error(`the task file has ${pool.length} task(s) of difficulty ${cfg.tasks.difficulty}; the bench needs ${cfg.dapo.tasksPerIteration} (dapo.tasksPerIteration)`);
  const noStore = { readJson: async () => null, writeJson: async () => {} };
  const policy = await openRunPolicy(cfg, o.be, { store: noStore, train: corpusTasks });
  const { model } = policy;
  let trajectories: Trajectory[] = [];
  const ctx: PhaseContext<Tensor> = phaseContext(cfg, o.be, policy, { sandbox: o.sandbox, train: pool, test: [] }, {
    trajectories: async (_phase, _step, ts) => void (trajectories = ts),
    progress: (p) => o.onProgress?.(p),
  });
  // Warm-up outside the timing (the weights are untouched): the JIT compiles the generation path,
  // WebGPU its pipelines, as after a run's first iteration.
  const warm = new KvGenerator(model, cfg.dapo.groupSize, 16);
  await warm.generate(Array.from({ length: cfg.dapo.groupSize }, () => [0, 1, 2]), { seed: 0, maxTokens: 4, stopIds: [] });
  warm.dispose();
  return { cfg, ctx, pool, played: () => trajectories, dispose: () => [...model.params.values()].forEach((t) => o.be.free(t)) };
}

const settingsOf = (cfg: RunConfig, tasks: number, episodes: number): DapoBenchResult['settings'] => ({
  seed: cfg.seed, tasks, group_size: cfg.dapo.groupSize, episodes, max_turns: cfg.agent.maxTurns,
  action_tokens: cfg.agent.actionTokens, context_tokens: cfg.agent.contextTokens, optimizer_steps: cfg.dapo.optimizerSteps,
});

/** One DAPO iteration from fresh weights; the result and the episodes it played. */
export async function benchDapo(o: DapoBenchOptions): Promise<{ result: DapoBenchResult; trajectories: Trajectory[] }> {
  const { cfg, ctx, pool, played, dispose } = await setUp(o);
  const opt = newOptimizer(ctx);
  const row = await dapoIteration(ctx, opt, { iteration: 0, optimizerStep: 0 });
  if (!row) throw new Error('the DAPO iteration was stopped'); // the bench never asks it to stop
  for (const t of [...opt.grads.values(), ...opt.m.values(), ...opt.v.values()]) o.be.free(t);
  dispose();
  const trajectories = played();

  const t = row.timing!;
  const part = (k: string) => t[k] ?? 0;
  const timing: DapoBenchTiming = {
    total_s: part('total_s'), rollout_s: part('rollout_s'), generation_s: part('generation_s'), sandbox_s: part('sandbox_s'),
    sandbox_overlapped_s: part('sandbox_overlapped_s'), forward_backward_s: part('forward_backward_s'), optimizer_s: part('optimizer_s'), other_s: 0,
  };
  const accounted = timing.generation_s + timing.sandbox_s - timing.sandbox_overlapped_s + timing.forward_backward_s + timing.optimizer_s;
  timing.other_s = Math.max(0, timing.total_s - accounted);
  const generated = trajectories.reduce((a, x) => a + x.action_tokens, 0);
  const trained = trajectories.reduce((a, x) => a + (x.tokens?.ids.length ?? 0), 0);
  const trainS = timing.forward_backward_s + timing.optimizer_s;
  return {
    trajectories,
    result: {
      model: cfg.model.preset, backend: o.backend, overlap: cfg.agent.overlap === true,
      settings: settingsOf(cfg, pool.length, trajectories.length),
      timing,
      tokens: { generated, trained },
      generation_tokens_per_s: timing.generation_s > 0 ? generated / timing.generation_s : 0,
      training_tokens_per_s: trainS > 0 ? trained / trainS : 0,
      metrics: row,
    },
  };
}

/** What must not change with the overlap scheme: everything but wall-clock timings. */
function playedContent(ts: readonly Trajectory[]): unknown[] {
  return ts.map((t) => ({ ...t, timing: undefined, turns: t.turns.map((u) => ({ ...u, timing: undefined })) }));
}

/** The first difference between two JSON-like values, as a path, or null. */
function firstDifference(a: unknown, b: unknown, path: string): string | null {
  if (Object.is(a, b)) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return `${path}: ${JSON.stringify(a)?.slice(0, 80)} ≠ ${JSON.stringify(b)?.slice(0, 80)}`;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}${Array.isArray(a) ? `[${k}]` : `.${k}`}`);
    if (d) return d;
  }
  return null;
}

export interface RolloutRun {
  overlap: boolean;
  rollout_s: number;
  generation_s: number;
  sandbox_s: number;
  sandbox_overlapped_s: number;
}

export interface OverlapComparison {
  model: string;
  backend: string;
  settings: DapoBenchResult['settings'];
  /** In the order run: repeat r runs on, off for even r and off, on for odd r. */
  runs: RolloutRun[];
  /** Median rollout wall seconds with and without overlap, and their ratio (without ÷ with). */
  median_rollout_s: { with_overlap: number; without_overlap: number };
  speedup: number;
  /** Every run played the same trajectories (else compareOverlap throws). */
  identical: true;
  sampled_tokens: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The rollout batch of the bench's DAPO iteration, `repeats` times with overlap on and off (order
 *  alternating), from the same weights; throws if any run played different trajectories. */
export async function compareOverlap(o: DapoBenchOptions, repeats = 3): Promise<OverlapComparison> {
  if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`--repeat must be a whole number ≥ 1, got ${repeats}`);
  const { cfg, ctx, pool, dispose } = await setUp(o);
  const runs: RolloutRun[] = [];
  let reference: { content: unknown[]; overlap: boolean } | undefined;
  let sampled = 0;
  for (let r = 0; r < repeats; r++) {
    for (const overlap of r % 2 ? [false, true] : [true, false]) {
      const timeline = new Timeline();
      const t0 = performance.now();
      const { trajectories } = await dapoRound(ctx, pool, { ...ctx.episodes, overlap, timeline }, 0, 0, cfg.dapo.tasksPerIteration, 0);
      const rollout = rolloutTiming(trajectories, timeline);
      runs.push({ overlap, rollout_s: (performance.now() - t0) / 1000, generation_s: rollout.generation_s, sandbox_s: rollout.sandbox_s, sandbox_overlapped_s: rollout.sandbox_overlapped_s });
      const content = playedContent(trajectories);
      reference ??= { content, overlap };
      const diff = firstDifference(reference.content, content, 'trajectories');
      if (diff) throw new Error(`the overlap scheme changed what was played (it must not): overlap ${reference.overlap ? 'on' : 'off'} vs ${overlap ? 'on' : 'off'}: ${diff}`);
      sampled = trajectories.reduce((a, t) => a + t.action_tokens, 0);
    }
  }
  dispose();
  const withOverlap = median(runs.filter((x) => x.overlap).map((x) => x.rollout_s)), without = median(runs.filter((x) => !x.overlap).map((x) => x.rollout_s));
  return {
    model: cfg.model.preset, backend: o.backend,
    settings: settingsOf(cfg, pool.length, pool.length * cfg.dapo.groupSize),
    runs,
    median_rollout_s: { with_overlap: withOverlap, without_overlap: without },
    speedup: without / Math.max(1e-9, withOverlap),
    identical: true,
    sampled_tokens: sampled,
  };
}
