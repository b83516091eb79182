// A run's checkpoints: what a stopped run resumes from, so that it ends with the metrics and weights of an
// uninterrupted one (wall-clock timings aside). One is written at each phase's end (its weights also kept for
// good in weights/<phase>/), inside cloning and RFT every run.checkpointSteps steps and when asked to stop, and
// inside DAPO every run.checkpointEvery iterations, and when a run stops during a phase's evaluation (the phase
// trained: a resume evaluates it and goes on). Each holds the weights as a Hugging Face folder keeps them,
// AdamW's moments when inside a phase, and the trainer state (phase, next step, phases done, metrics rows
// written, results so far).
import { mergeAdapters } from '../model/lora.ts';
import { downloadParams } from '../model/params.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import type { Checkpoint, PhaseWeights, RunStore, TrainerState } from '../store/types.ts';
import type { AdamW } from './optimizer.ts';
import type { PhaseResume, TrainPhase } from './phases.ts';
import type { PhaseRow } from './results.ts';
import type { RunPolicy } from './session.ts';

export class RunCheckpoints<T extends Tensor> {
  private state: TrainerState;
  /** The results so far (the trainer appends a row per evaluated phase; every checkpoint keeps them). */
  readonly results: PhaseRow[];
  /** Metrics rows written so far (the trainer's log counts them; a resume truncates the ones after). */
  metricsCount: number;

  /** `ck`: the checkpoint the run resumes from (null: a new run). */
  constructor(
    private readonly store: RunStore,
    private readonly be: Backend<T>,
    private readonly policy: RunPolicy<T>,
    /** model.preset, recorded with LoRA adapters as the weights they adapt. */
    private readonly base: string,
    private readonly ck: Checkpoint | null,
  ) {
    this.state = ck?.state ?? { phase: 'base', step: 0, done: [], metricsCount: 0, optimizerStep: 0, extra: {} };
    this.results = (this.state.extra.results as PhaseRow[] | undefined) ?? [];
    this.metricsCount = this.state.metricsCount;
  }

  /** Where the run resumed (undefined: a new run). */
  get resumedFrom(): { phase: string; step: number } | undefined {
    return this.ck ? { phase: this.ck.state.phase, step: this.ck.state.step } : undefined;
  }

  isDone(phase: TrainPhase): boolean {
    return this.state.done.includes(phase);
  }

  /** `phase` trained to its end, its evaluation not yet done (the run stopped during it): resume evaluates. */
  isTrained(phase: TrainPhase): boolean {
    return this.state.phase === phase && this.state.extra.trained === phase;
  }

  /** Where `phase` continues when the run stopped inside it (its step, AdamW's moments and step). */
  resumeFor(phase: TrainPhase): PhaseResume | undefined {
    const { ck, state } = this;
    if (!ck || state.phase !== phase || state.done.includes(phase) || this.isTrained(phase)) return undefined;
    const firstRoundVersion = state.extra.firstRoundVersion;
    return {
      phase, step: state.step, optimizerStep: state.optimizerStep, ...(ck.adamM && ck.adamV ? { adam: { m: ck.adamM, v: ck.adamV } } : {}),
      ...(typeof firstRoundVersion === 'number' ? { firstRoundVersion } : {}),
    };
  }

  /** The weights as a Hugging Face folder holds them. Under LoRA: the merged weights (W + s·B·A: what
   *  transformers loads as it is) and the adapters beside them (what a resume continues from). */
  async weights(): Promise<PhaseWeights> {
    const { policy } = this;
    const all = await downloadParams(this.be, policy.model.params);
    const lora = policy.lora;
    return {
      params: lora ? mergeAdapters(policy.config, lora, all) : all,
      ...(lora ? { adapters: new Map([...all].filter(([n]) => n.includes('.lora_'))), lora: { ...lora, base: this.base } } : {}),
      model: { config: policy.config, tokenizerJson: policy.tokenizerFiles.json, tokenizerConfig: policy.tokenizerFiles.config },
    };
  }

  /** Inside `phase`: `step` is the next to run; AdamW's moments and step as they are; DAPO: the version the next
   *  iteration's first round was issued at, when it went out ahead (overlapping rounds). */
  async within(phase: TrainPhase, step: number, opt: AdamW<T>, firstRoundVersion?: number): Promise<void> {
    await this.save({ phase, step, done: this.state.done, optimizerStep: opt.step }, opt, undefined, firstRoundVersion === undefined ? {} : { firstRoundVersion });
  }

  /** `phase` trained, stopped during its evaluation: the weights, so that a resume only evaluates. */
  async trained(phase: TrainPhase): Promise<void> {
    await this.save({ phase, step: 0, done: this.state.done, optimizerStep: 0 }, undefined, undefined, { trained: phase });
  }

  /** At `phase`'s end (after its evaluation): its weights kept for good, the phase marked done. */
  async phaseEnd(phase: TrainPhase): Promise<void> {
    const w = await this.weights();
    await this.store.savePhaseWeights(phase, w);
    await this.save({ phase, step: 0, done: [...this.state.done, phase], optimizerStep: 0 }, undefined, w);
  }

  private async save(s: Pick<TrainerState, 'phase' | 'step' | 'done' | 'optimizerStep'>, adam?: { m: Map<string, T>; v: Map<string, T> }, w?: PhaseWeights, extra: Record<string, unknown> = {}): Promise<void> {
    this.state = { ...s, metricsCount: this.metricsCount, extra: { results: this.results, ...extra } };
    await this.store.saveCheckpoint({
      state: this.state,
      ...(w ?? (await this.weights())),
      ...(adam ? { adamM: await downloadParams(this.be, adam.m), adamV: await downloadParams(this.be, adam.v) } : {}),
    });
  }
}
