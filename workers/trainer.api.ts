// The trainer worker's interface, shared by the page (caller) and the worker (implementation).
// Exposed with comlink. Errors thrown by a call cross the boundary with their name and message
// (comlink's throw handler); errors of a run in the background arrive as a `status` event with
// `error: { name, message, stack }`. Listeners are functions wrapped with Comlink.proxy.
import type { Trajectory, TurnRecord } from '../src/agent/trajectory.ts';
import type { ConfigValue } from '../src/rl/config.ts';
import type { Progress } from '../src/rl/phases.ts';
import type { PhaseRow } from '../src/rl/results.ts';
import type { CheckResult, MatmulCase } from '../src/ops/selfcheck.ts';
import type { MemoryBudget } from '../src/rl/fit.ts';
import type { ExportFormat } from '../src/store/export.ts';
import type { DeviceRates, RunEstimate } from '../src/rl/estimate.ts';
import type { MeasuredIteration } from '../src/rl/iteration.ts';
import type { RunRecord, RunStatus } from '../src/store/idb.browser.ts';
import type { MetricRecord } from '../src/store/types.ts';
import type { ModelApi } from './models.api.ts';
import type { ContributeSummary, ContributorEvent } from '../src/share/contributor.ts';
import type { FileMap, Sandbox, SandboxOptions } from '../src/sandbox/types.ts';

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
  /** The device rates the first screen measured when it started the run (run.json), which the live view's time
   *  left is priced at; null where none were measured. */
  rates: DeviceRates | null;
  /** Whether this worker is training it right now (else a `running` record means `interrupted`). */
  live: boolean;
}

/** The layer the browser puts between the run preset and the user's overrides: episodes run in the
 *  worker sandbox (node processes exist only under the CLI). */
export const BROWSER_DEFAULTS: Readonly<Record<string, ConfigValue>> = Object.freeze({ 'agent.sandbox': 'worker' });

export type BackendChoice = 'auto' | 'webgpu' | 'wasm' | 'fast-cpu';

/** A run's duration on this device, measured and priced (workers/estimate.ts). */
export interface DeviceEstimate extends RunEstimate {
  preset: string;
  /** The backend measured, as a run page names it. */
  backend: string;
  rates: DeviceRates;
  /** Seconds the measurement itself took. */
  measuredInS: number;
}

/** One DAPO iteration of a run on a pretrained model, measured at its shape and priced (workers/estimate.ts). */
export type IterationEstimate = MeasuredIteration;

export interface StartRunRequest {
  /** Unique in this browser; default "<preset>-seed<seed>-<time>". */
  name?: string;
  /** A run preset (RUN_PRESETS) or '' for the config defaults. */
  preset: string;
  /** Flat config overrides (FIELDS paths), applied over the preset and the browser defaults. */
  overrides: Record<string, ConfigValue>;
  /** auto: WebGPU on a hardware adapter, the WASM CPU backend (every core) on a software fallback or none; wasm; fast-cpu: JS on one thread. */
  backend?: BackendChoice;
  /** The page's navigator.storage.persist() answer when it started the run (workers cannot ask; null: no
   *  answer yet, the browser is asking the user); kept in run.json. */
  persisted?: boolean | null;
  /** The device rates measured before the start (the first screen's estimate), kept in run.json: the live view
   *  prices the run's time left at them, so it says what the first screen said, counting down. */
  rates?: DeviceRates;
  /** Share the run (docs/sharing.md): contributors play its DAPO rounds through this server, which the
   *  worker reaches over its WebSocket listener as the learner user. Kept in run.json for resuming. */
  share?: ShareSettings;
}

export interface ShareSettings {
  /** ws://HOST:PORT (the server's WebSocket listener). */
  server: string;
  user: string;
  password: string;
}

export type RunEvent =
  | { type: 'status'; run: string; status: RunStatus; error?: ErrorInfo; backend?: string; resumedFrom?: { phase: string; step: number } | null }
  | { type: 'progress'; run: string; progress: Progress; at: number }
  | { type: 'metrics'; run: string; rows: MetricRecord[]; from: number }
  | { type: 'checkpoint'; run: string; checkpoint: NonNullable<RunRecord['checkpoint']> }
  | { type: 'log'; run: string; message: string }
  /** A turn of the episode the worker follows (workers/follow.ts): one at a time, from its first turn. */
  | { type: 'turn'; run: string; episode: string; task: string; playing: string; turn: EpisodeTurn }
  | { type: 'episode-end'; run: string; episode: string; task: string; playing: string; endReason: string; solved: boolean; reward: number };

/** A turn as the live view shows it (text and observation cut to a readable size). */
export interface EpisodeTurn {
  index: number;
  text: string;
  observation: string;
  status: string;
  formatError: string | null;
}

export type RunListener = (e: RunEvent) => void;

/** Sandboxes that only a page can make: WebContainers boot from the page, never from a worker. */
export type PageSandboxKind = 'webcontainer';

/** What the page gives the worker (wrapped with Comlink.proxy) for a PageSandboxKind; workers/page-sandboxes.ts uses it. */
export interface PageSandboxProvider {
  /** Boot the page's sandbox host (once), or reject with why it cannot (the run is then refused). */
  ready(): Promise<void>;
  /** A sandbox in the page, returned wrapped with Comlink.proxy: the worker calls its methods through comlink. */
  create(files: FileMap, options?: SandboxOptions): Promise<Sandbox>;
}

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
  /** False when the tests were not run (an episode that did not submit: agent.gradeUnsubmitted off). */
  tests_graded: boolean;
  /** Reward-hack flags (src/agent/hack-flags.ts); [] when none. */
  hack_flags: string[];
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
  /** Continue a paused, stopped or interrupted run from its last checkpoint (from the start if it has none),
   *  on `backend`, or else the backend choice it last started with (run.json). */
  resumeRun(name: string, backend?: BackendChoice): Promise<RunSummary>;
  /** The page's sandboxes of `kind`, given once as the page loads (src/app/client.ts): runs whose
   *  agent.sandbox is `kind` run their episodes there, and are refused when `provider.ready()` fails. */
  provideSandbox(kind: PageSandboxKind, provider: PageSandboxProvider): Promise<void>;
  /** How long a run of `preset` would take here: a few seconds of measurement on the backend `backend`
   *  would open and in the worker sandbox, priced over the preset's config (workers/estimate.ts). */
  estimateRun(preset: string, backend: BackendChoice, overrides?: Record<string, ConfigValue>): Promise<DeviceEstimate>;
  /** One DAPO iteration of a run preset on a pretrained model, priced here: its Hub model's shape measured with
   *  random weights (under a minute and ~2 GB on a CPU), its episodes at their budgets (an upper bound). */
  estimateIteration(preset: string, backend: BackendChoice): Promise<IterationEstimate>;
  /** The memory budget of the backend `backend` would open (src/rl/fit.ts): the New run form's estimate. */
  memoryBudget(backend: BackendChoice): Promise<MemoryBudget>;
  /** Test-only: destroy the GPUDevice the WebGPU backend trains on, as a lost device (the device-loss browser test). */
  loseDeviceForTest(): Promise<void>;
  /** Stop after the current turn (a partial batch is dropped); the run stays resumable from its last checkpoint. */
  pauseRun(): Promise<void>;
  /** Stop after the current turn and mark the run stopped (still resumable). */
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

/** A file the worker made for the page to save (a download). */
export interface ExportedFile {
  fileName: string;
  blob: Blob;
}

/** An imported task set (its text stays in the store; readTaskSet gives it). */
export interface TaskSetInfo {
  name: string;
  /** What tasks.train / tasks.test take to use it: `idb:tasks/<name>`. */
  path: string;
  created: number;
  count: number;
  repos: string[];
}

/** A checkpoint zip imported as a run. */
export interface ImportedRun {
  name: string;
  status: RunStatus;
  /** Whether Resume continues it (it brought its run config, tokenizer and matching weights). */
  resumable: boolean;
  /** What was imported, and why the run cannot be resumed when it cannot. */
  note: string;
}

/** Export and import (workers/export.ts, workers/task-sets.ts). */
export interface ExportApi {
  /** Every episode the run stored, as ATIF JSON (an array of documents) or SFT JSONL (one line each). */
  exportTrajectories(name: string, format: ExportFormat): Promise<ExportedFile>;
  /** The run's last checkpoint as a zip: the Hugging Face folder plus optimizer.safetensors, state.json and webswe-run.json. */
  exportCheckpoint(name: string): Promise<ExportedFile>;
  /** A checkpoint zip (exportCheckpoint's, or a zipped CLI run folder) as a new run in this browser. */
  importCheckpoint(zip: Blob, fileName: string): Promise<ImportedRun>;
  /** Check a .jsonl task file with the task schema and keep it; every bad line refuses the file (TaskSetError lists them). */
  importTaskSet(name: string, text: string): Promise<TaskSetInfo>;
  listTaskSets(): Promise<TaskSetInfo[]>;
  readTaskSet(name: string): Promise<string | null>;
  deleteTaskSet(name: string): Promise<void>;
}

/** Contributing to a shared run from this tab (workers/contribute.ts). */
export interface ContributeRequest {
  /** The server's WebSocket address, e.g. ws://127.0.0.1:8080. */
  server: string;
  run: string;
  user: string;
  password: string;
  backend?: BackendChoice;
}

export type ContributeListener = (e: ContributorEvent | { kind: 'backend'; name: string }) => void;

export interface ContributeApi {
  /** Play the run's work items until stopContributing(); resolves with what was done. */
  contribute(req: ContributeRequest, listener: ContributeListener): Promise<ContributeSummary>;
  stopContributing(): Promise<void>;
}

/** Everything the trainer worker exposes (the page wraps this). */
export type WorkerApi = TrainerApi & ExportApi & ModelApi & ContributeApi;
