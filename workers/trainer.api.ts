// The trainer worker's interface, shared by the page (caller) and the worker (implementation).
// Exposed with comlink. Errors thrown by a call cross the boundary with their name and message
// (comlink's throw handler); errors of a run in the background arrive as a `status` event with
// `error: { name, message, stack }`. Listeners are functions wrapped with Comlink.proxy.
import type { Trajectory, TurnRecord } from '../src/agent/trajectory.ts';
import type { ConfigValue } from '../src/rl/config.ts';
import type { Progress } from '../src/rl/phases.ts';
import type { PhaseRow } from '../src/rl/trainer.ts';
import type { CheckResult, MatmulCase } from '../src/ops/selfcheck.ts';
import type { RunRecord, RunStatus } from '../src/store/idb.browser.ts';
import type { MetricRecord } from '../src/store/types.ts';

export type { RunStatus };

export interface WorkerGpuInfo {
  ok: boolean;
  /** Why there is no WebGPU, and how to enable it (when !ok). */
  reason?: string;
  adapter?: { vendor: string; architecture: string; description: string; isFallbackAdapter: boolean };
  limits?: Record<string, number>;
  features?: string[];
  inWorker: boolean;
}

export interface ErrorInfo {
  name: string;
  message: string;
  stack?: string;
}

/** A run as the run list shows it: its record plus its config and results so far. */
export interface RunSummary extends RunRecord {
  /** The resolved config, flat (config.json). */
  config: Record<string, ConfigValue> | null;
  metricsCount: number;
  results: PhaseRow[] | null;
  /** Whether this worker is training it right now (else a `running` record means `interrupted`). */
  live: boolean;
}

/** The layer the browser puts between the run preset and the user's overrides: episodes run in the
 *  worker sandbox (node processes exist only under the CLI). */
export const BROWSER_DEFAULTS: Readonly<Record<string, ConfigValue>> = Object.freeze({ 'agent.sandbox': 'worker' });

export type BackendChoice = 'auto' | 'webgpu' | 'cpu';

export interface StartRunRequest {
  /** Unique in this browser; default "<preset>-seed<seed>-<time>". */
  name?: string;
  /** A run preset (RUN_PRESETS) or '' for the config defaults. */
  preset: string;
  /** Flat config overrides (FIELDS paths), applied over the preset and the browser defaults. */
  overrides: Record<string, ConfigValue>;
  /** auto: WebGPU on a hardware adapter, the CPU backend on a software fallback or none. */
  backend?: BackendChoice;
}

export type RunEvent =
  | { type: 'status'; run: string; status: RunStatus; error?: ErrorInfo; backend?: string; resumedFrom?: { phase: string; step: number } | null }
  | { type: 'progress'; run: string; progress: Progress; at: number }
  | { type: 'metrics'; run: string; rows: MetricRecord[]; from: number }
  | { type: 'checkpoint'; run: string; checkpoint: NonNullable<RunRecord['checkpoint']> }
  | { type: 'log'; run: string; message: string };

export type RunListener = (e: RunEvent) => void;

/** One episode in a step's list (the trajectory without its turns and token arrays). */
export interface TrajectorySummary {
  index: number;
  task_id: string;
  policy: string;
  seed: number;
  turns: number;
  reward: number;
  end_reason: Trajectory['end_reason'];
  tests_passed: number;
  tests_total: number;
}

/** A trajectory as the turn-by-turn view reads it (token arrays left in the store). */
export type TrajectoryView = Omit<Trajectory, 'tokens'> & { turns: TurnRecord[] };

export interface TrainerApi {
  /** Acquire the worker's GPUDevice (once) and describe it. */
  probe(): Promise<WorkerGpuInfo>;
  /** Run matmul cases on the worker's WebGPU backend and compare with the CPU reference. */
  checkMatmul(cases: MatmulCase[], seed: number): Promise<CheckResult[]>;

  /** Receive every run's events from now on (returns the run being trained, if any, and its last progress). */
  watch(listener: RunListener): Promise<{ run: string | null; progress: Progress | null }>;
  /** The run this worker is training (null when none) and its last progress. */
  activeRun(): Promise<{ run: string | null; progress: Progress | null }>;
  /** Create a run and start training it; resolves once it has started (ConfigError names a bad field). */
  startRun(req: StartRunRequest): Promise<RunSummary>;
  /** Continue a paused, stopped or interrupted run from its last checkpoint (from the start if it has none). */
  resumeRun(name: string, backend?: BackendChoice): Promise<RunSummary>;
  /** Stop at the next step boundary; the run stays resumable from its last checkpoint. */
  pauseRun(): Promise<void>;
  /** Stop at the next step boundary and mark the run stopped (still resumable). */
  stopRun(): Promise<void>;
  listRuns(): Promise<RunSummary[]>;
  getRun(name: string): Promise<RunSummary | null>;
  deleteRun(name: string): Promise<void>;
  /** Metrics rows from row `from` on. */
  readMetrics(name: string, from?: number): Promise<MetricRecord[]>;
  listTrajectorySteps(name: string): Promise<{ phase: string; step: number }[]>;
  readTrajectories(name: string, phase: string, step: number): Promise<TrajectorySummary[]>;
  readTrajectory(name: string, phase: string, step: number, index: number): Promise<TrajectoryView | null>;
}
