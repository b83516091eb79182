// The pipeline driver: the run's phases in order (base → RFT → DAPO), each trained (phases.ts, dapo.ts) and then
// evaluated on the test split, from one resolved config, resumable. Every random choice comes from
// seedFor(config.seed, …) and state is checkpointed inside and between phases (checkpoints.ts), so a resumed run
// reproduces an uninterrupted one's metrics (wall-clock timings aside). The policy is opened in session.ts.
import type { LoadedModel } from '../model/load.ts';
import { toHfConfig } from '../model/config.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import type { Trajectory, TurnRecord } from '../agent/trajectory.ts';
import type { MetricRecord, RunStore } from '../store/types.ts';
import type { Task } from '../tasks/schema.ts';
import { RunCheckpoints } from './checkpoints.ts';
import { flattenConfig, type RunConfig } from './config.ts';
import { dapo } from './dapo.ts';
import { behaviourCloning, evaluate, rejectionFineTuning, type PhaseContext, type Progress, type RemoteRollouts, type TrainPhase } from './phases.ts';
import type { PhaseRow } from './results.ts';
import { openRunPolicy, phaseContext, runSandbox } from './session.ts';
import { loraField } from '../model/lora.ts';

/** What each phase trains before its evaluation. The base phase of a pretrained run (bc.episodes 0) trains
 *  nothing: it evaluates the model as it came. */
const TRAIN: Record<TrainPhase, <T extends Tensor>(ctx: PhaseContext<T>) => Promise<void>> = {
  base: (ctx) => (ctx.cfg.bc.episodes > 0 ? behaviourCloning(ctx) : Promise.resolve()),
  rft: rejectionFineTuning,
  dapo,
};

export interface TrainerEvents {
  progress?(p: Progress): void;
  metrics?(rows: MetricRecord[]): void;
  /** Asked before every turn and step: stop there (a partial batch is dropped; the run stays resumable). */
  shouldStop?(): boolean;
  /** Each turn of every episode as it is played (the live view follows one), with what plays it:
   *  `expert` (cloning), `rft`, `dapo`, or `eval-<phase>`. */
  turn?(e: { episode: string; task: string; playing: string; turn: TurnRecord }): void;
  /** An episode has ended and been graded. */
  episodeEnd?(e: { episode: string; task: string; playing: string; endReason: string; solved: boolean; reward: number }): void;
}

export interface TrainerEnv<T extends Tensor> {
  be: Backend<T>;
  sandbox: SandboxFactory;
  store: RunStore;
  train: readonly Task[];
  test: readonly Task[];
  events?: TrainerEvents;
  /** The pretrained model a run names in model.preset (a folder or Hub id under the CLI, a cached
   *  model in the app), loaded by the caller: the core reads no files and fetches nothing. */
  pretrained?: LoadedModel;
  /** A shared run (`--share`): DAPO's rounds go to contributors through this learner (src/share/learner.ts),
   *  started with the run's manifest before the first phase. */
  share?: RemoteRollouts & { start(manifest: { config: Record<string, unknown>; model: { config: Record<string, unknown>; tokenizerJson: object; tokenizerConfig: object } }): Promise<void> };
}

export interface TrainResult {
  phases: PhaseRow[];
  stopped: boolean;
  resumedFrom?: { phase: string; step: number };
}

export async function train<T extends Tensor>(cfg: RunConfig, env: TrainerEnv<T>): Promise<TrainResult> {
  const { store, be } = env;
  const ck = await store.loadCheckpoint();
  if (ck) await store.truncateMetrics(ck.state.metricsCount);
  // Wall time of the run so far (a resumed run continues from its last row's): every row carries it
  // in timing.elapsed_s, which the plot's x axis is (report/plot.ts).
  const before = ck ? Math.max(0, ...(await store.readMetrics()).map((m) => m.timing?.elapsed_s ?? 0)) : 0;
  const started = performance.now() - before * 1000;
  const policy = await openRunPolicy(cfg, be, { store, train: env.train, ...(env.pretrained ? { pretrained: env.pretrained } : {}) }, ck ?? undefined);
  const checkpoints = new RunCheckpoints(store, be, policy, cfg.model.preset, ck);
  const stop = () => env.events?.shouldStop?.() ?? false;
  /** Who plays the episodes now, for the turn events: expert, rft, dapo or eval-<phase>. */
  let playing = 'expert';
  const ctx: PhaseContext<T> = phaseContext(cfg, be, policy, {
    sandbox: runSandbox(cfg, env.sandbox), train: env.train, test: env.test,
    episodes: {
      shouldStop: stop,
      ...(env.events?.turn ? { onTurn: (ep, turn) => env.events!.turn!({ episode: ep.id, task: ep.task_id, playing, turn }) } : {}),
      ...(env.events?.episodeEnd ? { onEnd: (ep, t) => env.events!.episodeEnd!({ episode: ep.id, task: ep.task_id, playing, endReason: t.end_reason, solved: t.reward.tests === 1, reward: t.reward.total }) } : {}),
    },
  }, {
    async log(r) {
      const elapsed_s = (performance.now() - started) / 1000;
      r = r.map((m) => ({ ...m, timing: { ...m.timing, elapsed_s } }));
      await store.appendMetrics(r);
      checkpoints.metricsCount += r.length;
      env.events?.metrics?.(r);
    },
    trajectories: (phase, step, ts) => store.writeTrajectories(phase, step, ts),
    readTrajectories: async (phase, step) => (await store.readTrajectories(phase, step)) as Trajectory[],
    progress: (p) => env.events?.progress?.(p),
    shouldStop: stop,
    checkpoint: (phase, step, opt, firstRoundVersion) => checkpoints.within(phase, step, opt, firstRoundVersion),
    ...(env.share ? { rollouts: env.share } : {}),
  });
  // The run's record, written here only (the CLI and the app read it): its config at the start, its
  // results whenever the run returns, finished or stopped.
  await store.writeJson('config.json', flattenConfig(cfg));
  await env.share?.start({ config: flattenConfig(cfg), model: { config: toHfConfig(policy.config) as Record<string, unknown>, tokenizerJson: policy.tokenizerFiles.json, tokenizerConfig: policy.tokenizerFiles.config, ...loraField(policy.lora) } });
  const result: TrainResult = { phases: checkpoints.results, stopped: false, ...(checkpoints.resumedFrom ? { resumedFrom: checkpoints.resumedFrom } : {}) };
  const finish = async (stopped: boolean): Promise<TrainResult> => {
    result.stopped = stopped;
    await store.writeJson('results.json', { phases: result.phases, run_dir: store.location, stopped, ...(result.resumedFrom ? { resumed_from: result.resumedFrom } : {}) });
    return result;
  };

  for (const phase of cfg.run.phases.split(',').map((s) => s.trim()) as TrainPhase[]) {
    if (checkpoints.isDone(phase)) continue;
    const t0 = performance.now();
    be.memory?.().resetPeak(); // the phase's own high-water mark (reported with its evaluation)
    playing = phase === 'base' ? 'expert' : phase;
    if (!checkpoints.isTrained(phase)) {
      ctx.resume = checkpoints.resumeFor(phase);
      await TRAIN[phase](ctx);
      if (stop()) return finish(true);
    }
    playing = `eval-${phase}`;
    const ev = await evaluate(ctx, phase);
    // Stopped during the evaluation: its partial episodes are dropped; the phase's weights are kept, and a resume
    // evaluates again.
    if (!ev || stop()) {
      await checkpoints.trained(phase);
      return finish(true);
    }
    await store.writeTrajectories(`eval-${phase}`, 0, ev.trajectories);
    const row: PhaseRow = { phase, 'pass@1': ev.stats['pass@1'], 'pass@1_std': ev.stats['pass@1_std'], 'pass@k': ev.stats['pass@k'], k: ev.stats.k, tasks: ev.stats.tasks, wall_s: (performance.now() - t0) / 1000 };
    checkpoints.results.push(row);
    // On a device: the phase's peak of live buffers, the pool at its end and what its bound destroyed so far
    // (docs/gpu-h200.md).
    const mem = be.memory?.();
    const mib = (b: number) => b / 2 ** 20;
    const memTiming = mem ? { gpu_peak_mib: mib(mem.peakBytes), gpu_pooled_mib: mib(mem.pooledBytes), gpu_evicted_mib: mib(mem.evictedBytes) } : undefined;
    await ctx.log([{ phase: `eval-${phase}`, step: 0, values: { 'pass@1': row['pass@1'], 'pass@1_std': row['pass@1_std'], 'pass@k': row['pass@k'] }, ...(memTiming ? { timing: memTiming } : {}) }]);
    await checkpoints.phaseEnd(phase);
  }
  return finish(false);
}
