// The Model view's part of the trainer worker's interface (implemented in models.ts): load a pretrained
// model from the Hugging Face Hub or from picked files, validated, into this browser's cache; list,
// describe and delete cached models. Runs name a cached model `idb:models/<id>` in model.preset.
import type { ModelSummary } from '../src/model/summary.ts';
import type { MemoryPlan } from '../src/model/planner.ts';

/** One file of a load: bytes so far, and its size once known. */
export interface ModelFileProgress {
  name: string;
  loaded: number;
  total?: number;
  /** waiting: not started; missing: an optional file the repository does not have; skipped: a picked
   *  file that is not part of a model (README.md, *.bin, …), left out. */
  state: 'waiting' | 'loading' | 'done' | 'missing' | 'skipped';
}

/** A snapshot of a load (sent at most ~10 times a second, and at each change of file or stage). */
export interface ModelLoadProgress {
  stage: 'download' | 'validate' | 'store';
  /** What is happening, in words. */
  message: string;
  files: ModelFileProgress[];
  /** Overall bytes so far, and the total as far as it is known. */
  loaded: number;
  total: number;
}

export type ModelProgressListener = (p: ModelLoadProgress) => void;

/** A cached model without its Blobs. */
export interface CachedModelInfo {
  id: string;
  /** What model.preset takes to train it: `idb:models/<id>`. */
  path: string;
  source: 'hub' | 'files';
  created: number;
  bytes: number;
  files: { name: string; bytes: number }[];
  summary: ModelSummary;
}

export interface ModelReport {
  model: CachedModelInfo;
  /** The load found it in the cache and made no request. */
  fromCache: boolean;
  fit: ModelFit;
}

export interface ModelApi {
  /** Download `owner/name` (or its huggingface.co URL) from the Hub, validate and cache it; a cached id
   *  loads from the cache without the network. Refusals are ModelFileError (the file and the reason). */
  loadHubModel(id: string, listener?: ModelProgressListener): Promise<ModelReport>;
  /** Validate picked files (a model folder's) and cache them as `local/<name>` (default: their folder's name). */
  importModelFiles(files: File[], name?: string, listener?: ModelProgressListener): Promise<ModelReport>;
  /** Cancel the load in progress (it rejects with an AbortError and stores nothing); false when none runs. */
  cancelModelLoad(): Promise<boolean>;
  listModels(): Promise<CachedModelInfo[]>;
  /** A cached model loaded as a run would load it (idb:models/<id>), with its memory plan on this adapter. */
  describeModel(id: string): Promise<ModelReport>;
  deleteModel(id: string): Promise<void>;
}

/** The trainer worker's WebGPU, as the fit needs it. */
export type GpuFacts =
  | { ok: true; adapter: string; fallback: boolean; limits: Record<string, number>; features: readonly string[] }
  | { ok: false; reason: string; /** How to enable WebGPU (ENABLE_WEBGPU_HELP). */ help: string };

export interface PlanRow {
  training: 'full' | 'lora';
  loraRank?: number;
  plan: MemoryPlan;
  ok: boolean;
  /** The planner's refusal: the numbers and what to lower. */
  message?: string;
}

export interface ModelFit {
  /** ok: fits the adapter's limits; no-webgpu: no adapter in the worker; refused: see `problems`. */
  verdict: 'ok' | 'no-webgpu' | 'refused';
  gpu: GpuFacts;
  /** The run preset the plan assumes (the New run form's default) and the shape it gives. */
  preset: string;
  context: number;
  trainShape: string;
  generateShape: string;
  /** Full fine-tuning (model.loraRank 0, the default), then LoRA. */
  rows: PlanRow[];
  /** Why the model cannot train here, each with what to do (one line each). */
  problems: string[];
  /** Worth knowing: dtype conversion and 'shader-f16', a software adapter, GPU memory WebGPU does not report. */
  notes: string[];
}
