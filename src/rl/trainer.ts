// The pipeline driver: base → RFT → DAPO → evaluation after each phase, from one
// resolved config, resumable. Every random choice comes from seedFor(config.seed, …), and state is
// checkpointed at phase ends and every run.checkpointEvery DAPO iterations (weights, AdamW moments,
// results so far), so a resumed run reproduces an uninterrupted one's metrics
// (wall-clock timings aside).
import { SYSTEM_PROMPT } from '../agent/prompt.ts';
import { episodeSketch } from '../agent/sketch.ts';
import { stopIdsFor } from '../agent/render.ts';
import { trainBpe } from '../model/bpe.ts';
import { freezeConfig, toHfConfig, type ModelConfig } from '../model/config.ts';
import { initParams } from '../model/init.ts';
import type { LoadedModel } from '../model/load.ts';
import { adapterShapes, initAdapters, loraModules, mergeAdapters, parseLoraTargets, type LoraConfig } from '../model/lora.ts';
import { downloadParams, uploadParams } from '../model/params.ts';
import { MODEL_PRESETS as PRESETS, type ModelPreset } from '../model/presets.ts';
import { Tokenizer } from '../model/tokenizer.ts';
import { Transformer } from '../model/transformer.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import type { Trajectory, TurnRecord } from '../agent/trajectory.ts';
import type { MetricRecord, PhaseWeights, RunStore, TrainerState } from '../store/types.ts';
import type { Task } from '../tasks/schema.ts';
import { flattenConfig, type RunConfig } from './config.ts';
import { gainText, phaseGains } from './gains.ts';
import { phaseContext, runSandbox } from './session.ts';
import { behaviourCloning, dapoIteration, evaluate, newOptimizer, rejectionFineTuning, type PhaseContext, type Progress, type RemoteRollouts } from './phases.ts';

export interface PhaseRow {
  phase: 'base' | 'rft' | 'dapo';
  'pass@1': number;
  'pass@1_std': number;
  'pass@k': number;
  k: number;
  tasks: number;
  wall_s: number;
}

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

export const MODEL_PRESETS: Readonly<Record<string, ModelPreset>> = PRESETS;

/** Text the from-scratch tokenizer is trained on: the system prompt, and per training task its files and
 *  a sketch of an episode on it (agent/sketch.ts), so the action format's words get tokens of their own. */
export function tokenizerCorpus(train: readonly Task[]): string[] {
  return [SYSTEM_PROMPT, ...train.flatMap((t) => [episodeSketch(t), ...Object.values(t.files)])];
}

interface Loaded<T extends Tensor> {
  config: ModelConfig;
  tokenizer: Tokenizer;
  tokenizerFiles: { json: object; config: object };
  model: Transformer<T>;
  lora?: LoraConfig;
}

/** The LoRA settings of a run (model.loraRank 0: none, every weight trains). */
export function loraOf(cfg: RunConfig): LoraConfig | undefined {
  const rank = cfg.model.loraRank;
  if (!rank) return undefined;
  return { rank, alpha: cfg.model.loraAlpha, targets: parseLoraTargets(cfg.model.loraTargets) };
}

/**
 * The policy: a from-scratch preset (BPE tokenizer trained on the run's tasks, seeded init) or the
 * pretrained model the caller loaded, plus LoRA adapters when model.loraRank > 0 (pretrained only). Resuming, a full
 * fine-tune takes every weight from the checkpoint; a LoRA run takes its base weights from where they
 * first came (the pretrained files or the seeded init) and only the adapters from the checkpoint.
 */
async function setupModel<T extends Tensor>(cfg: RunConfig, env: TrainerEnv<T>, ck?: { params: Map<string, Float32Array>; adapters?: Map<string, Float32Array> }): Promise<Loaded<T>> {
  const preset = MODEL_PRESETS[cfg.model.preset];
  // LoRA is for pretrained models; a from-scratch preset trains every weight (as src/rl/fit.ts plans it).
  const lora = preset ? undefined : loraOf(cfg);
  let config: ModelConfig, base: Map<string, Float32Array> | undefined, files: { json: object; config: object } | null, tokenizer: Tokenizer;
  if (preset) {
    files = await env.store.readJson<{ json: object; config: object }>('tokenizer-files.json');
    if (!files) {
      const bpe = trainBpe(tokenizerCorpus(env.train), { vocabSize: preset.tokenizerVocab });
      files = { json: bpe.tokenizerJson, config: bpe.tokenizerConfig };
      await env.store.writeJson('tokenizer-files.json', files);
    }
    tokenizer = Tokenizer.fromJson(files.json, files.config);
    // The vocabulary is the trained tokenizer's: on a small corpus BPE may stop before the preset's
    // size, and ids it does not have must not be sampled.
    config = freezeConfig({ ...preset.config, vocabSize: Math.min(preset.config.vocabSize, tokenizer.vocabSize) });
  } else {
    const p = env.pretrained;
    if (!p) {
      throw new Error(`model.preset "${cfg.model.preset}" is not a from-scratch preset (${Object.keys(MODEL_PRESETS).join(', ')}) and no pretrained model was loaded for it: under the CLI give a Hugging Face folder or Hub id, in the app a model cached in the Model view`);
    }
    if (!p.tokenizerJson) throw new Error(`the pretrained model "${cfg.model.preset}" has no tokenizer.json: an agent needs its tokenizer and chat template`);
    config = p.config;
    files = { json: p.tokenizerJson, config: { ...(p.tokenizerConfig ?? {}), ...(p.chatTemplate ? { chat_template: p.chatTemplate } : {}) } };
    tokenizer = Tokenizer.fromJson(files.json, files.config);
    if (tokenizer.vocabSize > config.vocabSize) throw new Error(`the pretrained model's tokenizer has ${tokenizer.vocabSize} tokens but config.json's vocab_size is ${config.vocabSize}`);
    if (!ck || lora) base = await p.weights.readModel(config);
  }
  if (!base) base = ck && !lora ? ck.params : initParams(config, cfg.seed);
  const values = new Map(base);
  if (lora) {
    const adapters = ck?.adapters ?? initAdapters(loraModules(config, lora), lora.rank, cfg.seed);
    for (const [n, v] of adapters) values.set(n, v);
  }
  const params = uploadParams(env.be, config, values);
  if (lora) for (const [n, shape] of adapterShapes(config, lora)) params.set(n, env.be.fromArray(values.get(n)!, shape, n));
  const model = new Transformer(env.be, config, params, lora);
  model.recompute = Boolean(cfg.model.recompute);
  return { config, tokenizer, tokenizerFiles: files, model, ...(lora ? { lora } : {}) };
}


export async function train<T extends Tensor>(cfg: RunConfig, env: TrainerEnv<T>): Promise<TrainResult> {
  const { store } = env;
  const ck = await store.loadCheckpoint();
  let state: TrainerState = ck?.state ?? { phase: 'base', step: 0, done: [], metricsCount: 0, optimizerStep: 0, extra: {} };
  if (ck) await store.truncateMetrics(state.metricsCount);
  // Wall time of the run so far (a resumed run continues from its last row's): every row carries it
  // in timing.elapsed_s, which the plot's x axis is (report/plot.ts).
  const before = ck ? Math.max(0, ...(await store.readMetrics()).map((m) => m.timing?.elapsed_s ?? 0)) : 0;
  const started = performance.now() - before * 1000;
  const loaded = await setupModel(cfg, env, ck ?? undefined);
  const { model, tokenizer } = loaded;
  const stopIds = stopIdsFor(tokenizer, loaded.config.eosTokenIds);
  let metricsCount = state.metricsCount;
  const rows = (state.extra.results as PhaseRow[] | undefined) ?? [];
  const stop = () => env.events?.shouldStop?.() ?? false;
  /** Who plays the episodes now, for the turn events: expert, rft, dapo or eval-<phase>. */
  let playing = 'expert';
  const sandbox = runSandbox(cfg, env.sandbox);
  const ctx: PhaseContext<T> = phaseContext(cfg, env.be, { model, tokenizer, stopIds }, {
    sandbox, train: env.train, test: env.test,
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
      metricsCount += r.length;
      env.events?.metrics?.(r);
    },
    trajectories: (phase, step, ts) => store.writeTrajectories(phase, step, ts),
    readTrajectories: async (phase, step) => (await store.readTrajectories(phase, step)) as Trajectory[],
    progress: (p) => env.events?.progress?.(p),
    shouldStop: stop,
    // Mid-phase checkpoints of cloning and RFT: the weights, the next step, AdamW's state.
    ...(env.share ? { rollouts: env.share } : {}),
    checkpointSft: (phase, step, opt) => checkpoint({ phase, step, done: state.done, metricsCount, optimizerStep: opt.step, extra: { sft: true } }, opt),
  });
  /** The weights as a Hugging Face folder holds them. Under LoRA: the merged weights (W + s·B·A: what
   *  transformers loads as it is) and the adapters beside them (what a resume continues from). */
  const weights = async (): Promise<PhaseWeights> => {
    const all = await downloadParams(env.be, model.params);
    const lora = loaded.lora;
    return {
      params: lora ? mergeAdapters(loaded.config, lora, all) : all,
      ...(lora ? { adapters: new Map([...all].filter(([n]) => n.includes('.lora_'))), lora: { ...lora, base: cfg.model.preset } } : {}),
      model: { config: loaded.config, tokenizerJson: loaded.tokenizerFiles.json, tokenizerConfig: loaded.tokenizerFiles.config },
    };
  };
  const checkpoint = async (s: TrainerState, adam?: { m: Map<string, T>; v: Map<string, T> }, w?: PhaseWeights) => {
    state = { ...s, metricsCount, extra: { ...s.extra, results: rows } };
    await store.saveCheckpoint({
      state,
      ...(w ?? (await weights())),
      ...(adam ? { adamM: await downloadParams(env.be, adam.m), adamV: await downloadParams(env.be, adam.v) } : {}),
    });
  };
  // The run's record, written here only (the CLI and the app read it): its config at the start, its
  // results whenever the run returns, finished or stopped.
  await store.writeJson('config.json', flattenConfig(cfg));
  await env.share?.start({ config: flattenConfig(cfg), model: { config: toHfConfig(loaded.config) as Record<string, unknown>, tokenizerJson: loaded.tokenizerFiles.json, tokenizerConfig: loaded.tokenizerFiles.config } });
  const finish = async (): Promise<TrainResult> => {
    await store.writeJson('results.json', { phases: rows, run_dir: store.location, stopped: result.stopped, ...(result.resumedFrom ? { resumed_from: result.resumedFrom } : {}) });
    return result;
  };
  const result: TrainResult = { phases: rows, stopped: false, ...(ck ? { resumedFrom: { phase: state.phase, step: state.step } } : {}) };
  const phases = cfg.run.phases.split(',').map((s) => s.trim()) as PhaseRow['phase'][];

  for (const phase of phases) {
    if (state.done.includes(phase)) continue;
    const t0 = performance.now();
    ctx.be.memory?.().resetPeak(); // the phase's own high-water mark (reported with its evaluation)
    const resumeStep = state.phase === phase ? state.step : 0;
    playing = phase === 'base' ? 'expert' : phase;
    // Cloning and RFT resume inside the phase when their checkpoint was written there (extra.sft).
    ctx.resume = state.phase === phase && state.extra.sft && ck && (phase === 'base' || phase === 'rft')
      ? { phase, step: state.step, optimizerStep: state.optimizerStep, ...(ck.adamM && ck.adamV ? { adam: { m: ck.adamM, v: ck.adamV } } : {}) }
      : undefined;
    // Base: clone the scripted expert (from-scratch presets); with bc.episodes 0 (the pretrained
    // presets) the base phase only evaluates the model as it came.
    if (phase === 'base' && cfg.bc.episodes > 0) await behaviourCloning(ctx);
    if (phase === 'rft') await rejectionFineTuning(ctx);
    if (phase === 'dapo') {
      const opt = newOptimizer(ctx);
      const dst = { iteration: resumeStep, optimizerStep: 0 };
      if (resumeStep > 0 && ck) {
        if (ck.adamM && ck.adamV) {
          for (const [n, m] of opt.m) env.be.free(m), opt.m.set(n, env.be.fromArray(ck.adamM.get(n)!, m.shape, `adam.m:${n}`));
          for (const [n, v] of opt.v) env.be.free(v), opt.v.set(n, env.be.fromArray(ck.adamV.get(n)!, v.shape, `adam.v:${n}`));
        }
        opt.step = state.optimizerStep;
        dst.optimizerStep = state.optimizerStep;
      }
      const total = cfg.dapo.iterations;
      for (; dst.iteration < total; dst.iteration++) {
        if (stop()) break;
        const row = await dapoIteration(ctx, opt, dst);
        if (!row) break; // stopped during its rollouts
        await ctx.log([row]);
        ctx.progress({ phase: 'dapo', stage: 'iterations', done: dst.iteration + 1, total });
        opt.step = dst.optimizerStep;
        if ((dst.iteration + 1) % cfg.run.checkpointEvery === 0 && dst.iteration + 1 < total) {
          await checkpoint({ phase: 'dapo', step: dst.iteration + 1, done: state.done, metricsCount, optimizerStep: dst.optimizerStep, extra: {} }, opt);
        }
      }
    }
    if (stop()) {
      result.stopped = true;
      return finish();
    }
    playing = `eval-${phase}`;
    const ev = await evaluate(ctx, phase);
    if (stop()) {
      // Stopped during the evaluation: its partial episodes are dropped; resume evaluates again.
      result.stopped = true;
      return finish();
    }
    await store.writeTrajectories(`eval-${phase}`, 0, ev.trajectories);
    const row: PhaseRow = { phase, 'pass@1': ev.stats['pass@1'], 'pass@1_std': ev.stats['pass@1_std'], 'pass@k': ev.stats['pass@k'], k: ev.stats.k, tasks: ev.stats.tasks, wall_s: (performance.now() - t0) / 1000 };
    rows.push(row);
    // On a device: the phase's peak of live buffers, the pool at its end and what its bound destroyed so far
    // (docs/gpu-h200.md).
    const mem = ctx.be.memory?.();
    const mib = (b: number) => b / 2 ** 20;
    const memTiming = mem ? { gpu_peak_mib: mib(mem.peakBytes), gpu_pooled_mib: mib(mem.pooledBytes), gpu_evicted_mib: mib(mem.evictedBytes) } : undefined;
    await ctx.log([{ phase: `eval-${phase}`, step: 0, values: { 'pass@1': row['pass@1'], 'pass@1_std': row['pass@1_std'], 'pass@k': row['pass@k'] }, ...(memTiming ? { timing: memTiming } : {}) }]);
    // The phase's final weights stay in the run (weights/<phase>/) whatever later phases do to them.
    const w = await weights();
    await store.savePhaseWeights(phase, w);
    await checkpoint({ phase, step: 0, done: [...state.done, phase], metricsCount, optimizerStep: 0, extra: {} }, undefined, w);
  }
  return finish();
}

/** The paper-style table: phase, pass@1 ± std, pass@K, wall time, and each step's gain against its bar. */
export function resultsTable(rows: readonly PhaseRow[]): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const gains = phaseGains(rows);
  const lines = ['| phase | pass@1 (mean ± std) | pass@K | K | test tasks | wall time | gain (bar: 2 × the larger std) |', '|---|---|---|---|---|---|---|'];
  rows.forEach((r, i) => {
    const step = i > 0 ? gainText(gains[i - 1]!) : '';
    lines.push(`| ${r.phase} | ${pct(r['pass@1'])} ± ${pct(r['pass@1_std'])} | ${pct(r['pass@k'])} | ${r.k} | ${r.tasks} | ${r.wall_s.toFixed(0)} s | ${step} |`);
  });
  return lines.join('\n');
}
