// The run store: what a run keeps (config, metrics per step, trajectories, checkpoints, results)
// and the one interface both implementations provide — files under a run folder for the CLI
// (fs.node.ts) and IndexedDB in the browser. The record shapes are the same, so a run exported
// from one imports into the other.

/** One metrics row: phase, step within the phase, and named values (docs/dapo.md's list and more). */
export interface MetricRecord {
  phase: string;
  step: number;
  /** Wall-clock values (seconds, tokens/s) are kept apart: they differ between identical runs. */
  values: Record<string, number>;
  timing?: Record<string, number>;
}

/** Everything needed to continue a run exactly where it stopped (at a step boundary). */
export interface TrainerState {
  phase: string;
  /** Steps completed in `phase`. */
  step: number;
  /** Phases completed before `phase`. */
  done: string[];
  /** Metrics rows written so far (a resumed run truncates any written after the checkpoint). */
  metricsCount: number;
  /** Optimiser step count (AdamW bias correction). */
  optimizerStep: number;
  /** What else a run keeps across a resume (the results so far). */
  extra: Record<string, unknown>;
}

export interface Checkpoint {
  state: TrainerState;
  /** When given, the checkpoint folder is a Hugging Face model folder (config.json, shaped
   *  model.safetensors, tokenizer files) that transformers loads as it is. */
  model?: { config: import('../model/config.ts').ModelConfig; tokenizerJson?: object; tokenizerConfig?: object };
  /** Model parameters by Hugging Face name. */
  params: Map<string, Float32Array>;
  /** Under LoRA: `params` are the merged weights and these the adapters (adapter_model.safetensors). */
  adapters?: Map<string, Float32Array>;
  lora?: import('./adapters.ts').CheckpointLora;
  /** AdamW moments by parameter name (absent between phases that reset the optimiser). */
  adamM?: Map<string, Float32Array>;
  adamV?: Map<string, Float32Array>;
}

/** What savePhaseWeights keeps: a checkpoint's model part (no optimiser, no trainer state). */
export type PhaseWeights = Pick<Checkpoint, 'model' | 'params' | 'adapters' | 'lora'>;

export interface RunStore {
  /** Where the run lives (a folder, or `idb:<name>`). */
  readonly location: string;
  writeJson(name: string, value: unknown): Promise<void>;
  readJson<T>(name: string): Promise<T | null>;
  appendMetrics(rows: readonly MetricRecord[]): Promise<void>;
  readMetrics(): Promise<MetricRecord[]>;
  /** Drop metrics rows after the first `count` (resume from a checkpoint). */
  truncateMetrics(count: number): Promise<void>;
  /** Trajectories of one phase step, as JSON records. */
  writeTrajectories(phase: string, step: number, records: readonly unknown[]): Promise<void>;
  readTrajectories(phase: string, step: number): Promise<unknown[]>;
  listTrajectorySteps(): Promise<{ phase: string; step: number }[]>;
  /** Atomic: a crash mid-write leaves the previous checkpoint intact. */
  saveCheckpoint(ck: Checkpoint): Promise<void>;
  /** A phase's final weights, kept for good (the run folder's weights/<phase>/, a Hugging Face folder),
   *  so any phase can be evaluated again later; a later call for the same phase replaces them. */
  savePhaseWeights(phase: string, w: PhaseWeights): Promise<void>;
  /** The phases whose weights are kept. */
  listPhaseWeights(): Promise<string[]>;
  loadCheckpoint(): Promise<Checkpoint | null>;
}
