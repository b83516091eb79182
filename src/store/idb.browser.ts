// The run store on IndexedDB (idb), for the trainer worker and the page: one database, `webswe`,
// holding every run under its name, with the record shapes of the CLI's run folders (fs.node.ts):
//   runs          name → RunRecord (status, times, and the pointer to the current checkpoint)
//   json          [run, file] → a JSON document (config.json, run.json, tokenizer-files.json, results.json)
//   metrics       [run, i] → MetricRecord (row i of metrics.jsonl)
//   trajectories  [run, phase, step] → the episodes of one step (trajectories/<phase>-<step>.jsonl)
//   checkpoints   [run, id] → state.json plus the checkpoint folder's files as Blobs (model.safetensors,
//                 config.json, tokenizer files, optimizer.safetensors)
//   weights       [run, phase] → each finished phase's weights, the files of a Hugging Face folder as Blobs
//   tasksets      name → an imported task file (.jsonl text, validated on import; workers/task-sets.ts)
//   models        id → a pretrained model's files as Blobs (validated on load; workers/models.ts)
//   measurements  key → auto's measured rates of both backends at one adapter and shape (src/rl/auto-backend.ts)
// A checkpoint is written under a new id in one transaction with the run's pointer (and the deletion
// of the previous one): IndexedDB commits all of it or none, so a reload mid-write leaves the previous
// checkpoint and its pointer as they were.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { blobSource, SafetensorsFile, writeSafetensors } from '../model/safetensors.ts';
import { hfFolderFiles } from '../model/weights.ts';
import { ADAPTER_FILE, adapterFiles, adaptersFromPeft } from './adapters.ts';
import type { ModelConfig } from '../model/config.ts';
import type { ModelSummary } from '../model/summary.ts';
import type { PhaseWeights, Checkpoint, MetricRecord, RunStore, TrainerState } from './types.ts';

export const DB_NAME = 'webswe';
export const DB_VERSION = 5;

/** running: a worker holds the run; interrupted: it was running when its page went away. */
export type RunStatus = 'running' | 'paused' | 'stopped' | 'done' | 'failed' | 'interrupted';

export interface RunRecord {
  name: string;
  status: RunStatus;
  created: number;
  updated: number;
  /** The run preset it started from ('' for none). */
  preset: string;
  /** The backend it last ran on, e.g. "cpu (software adapter)". */
  backend?: string;
  error?: { name: string; message: string; stack?: string };
  /** The current checkpoint: its id in `checkpoints` and what it holds. */
  checkpoint?: { id: number; phase: string; step: number; done: string[]; metricsCount: number; at: number; bytes: number };
}

interface CheckpointRecord {
  run: string;
  id: number;
  state: TrainerState;
  /** The checkpoint folder's files by name, as in the CLI's run folder. */
  files: Record<string, Blob>;
}

/** An imported task file, kept as its text: runs name it `idb:tasks/<name>` in tasks.train / tasks.test. */
export interface TaskSetRecord {
  name: string;
  created: number;
  /** Tasks in it, and the libraries they come from. */
  count: number;
  repos: string[];
  text: string;
}

/** A pretrained model kept in this browser (Hub download or picked files): runs name it `idb:models/<id>`. */
export interface ModelRecord {
  /** The Hub id (owner/name) or `local/<name>` for picked files. */
  id: string;
  source: 'hub' | 'files';
  created: number;
  /** Sum of the files' sizes. */
  bytes: number;
  /** config.json, tokenizer files, model.safetensors or the index and its shards, by name. */
  files: Record<string, Blob>;
  config: ModelConfig;
  summary: ModelSummary;
}

interface WebsweDb extends DBSchema {
  runs: { key: string; value: RunRecord };
  json: { key: [string, string]; value: { run: string; name: string; value: unknown } };
  metrics: { key: [string, number]; value: MetricRecord & { run: string; i: number } };
  trajectories: { key: [string, string, number]; value: { run: string; phase: string; step: number; records: unknown[] } };
  checkpoints: { key: [string, number]; value: CheckpointRecord };
  tasksets: { key: string; value: TaskSetRecord };
  models: { key: string; value: ModelRecord };
  weights: { key: [string, string]; value: { run: string; phase: string; at: number; files: Record<string, Blob> } };
  /** auto's measured rates (src/rl/auto-backend.ts): read back through autoRatesOf, which refuses what is not rates. */
  measurements: { key: string; value: { key: string; at: number; value: unknown } };
}

export type WebsweDatabase = IDBPDatabase<WebsweDb>;

/** Open (and create or upgrade) the database. Each schema version adds its stores in its own step. */
export async function openWebsweDb(name = DB_NAME): Promise<WebsweDatabase> {
  let db: WebsweDatabase | undefined = undefined;
  db = await openDB<WebsweDb>(name, DB_VERSION, {
    upgrade(db, oldVersion) {
      // Every version after the one the database had adds its stores, in order.
      if (oldVersion < 1) {
        db.createObjectStore('runs', { keyPath: 'name' });
        db.createObjectStore('json', { keyPath: ['run', 'name'] });
        db.createObjectStore('metrics', { keyPath: ['run', 'i'] });
        db.createObjectStore('trajectories', { keyPath: ['run', 'phase', 'step'] });
        db.createObjectStore('checkpoints', { keyPath: ['run', 'id'] });
      }
      if (oldVersion < 2) db.createObjectStore('tasksets', { keyPath: 'name' });
      if (oldVersion < 3) db.createObjectStore('models', { keyPath: 'id' });
      if (oldVersion < 4) db.createObjectStore('weights', { keyPath: ['run', 'phase'] });
      if (oldVersion < 5) db.createObjectStore('measurements', { keyPath: 'key' });
    },
    blocking() {
      // Another tab opened a newer schema: close ours so its upgrade can run.
      db?.close();
    },
  });
  return db;
}

/** Every key [run, …]: arrays sort after numbers and strings, so [run, []] bounds them above. */
const runRange = (run: string) => IDBKeyRange.bound([run], [run, []]);
const blob = (bytes: Uint8Array, type = 'application/octet-stream') => new Blob([bytes as Uint8Array<ArrayBuffer>], { type });
const mapTensors = (m: Map<string, Float32Array>, prefix = '') => [...m].map(([name, data]) => ({ name: prefix + name, shape: [data.length], data }));

async function readTensors(b: Blob, file: string): Promise<Map<string, Float32Array>> {
  const f = await SafetensorsFile.open(blobSource(b, file));
  const out = new Map<string, Float32Array>();
  for (const name of f.names) out.set(name, await f.read(name));
  return out;
}

export async function listRunRecords(db: WebsweDatabase): Promise<RunRecord[]> {
  return (await db.getAll('runs')).sort((a, b) => b.created - a.created);
}

export async function getRunRecord(db: WebsweDatabase, name: string): Promise<RunRecord | null> {
  return (await db.get('runs', name)) ?? null;
}

/** Read-modify-write of a run record in one transaction (so a concurrent checkpoint pointer move is never lost). */
export async function updateRunRecord(db: WebsweDatabase, name: string, patch: Partial<Omit<RunRecord, 'name' | 'checkpoint'>>): Promise<RunRecord> {
  const tx = db.transaction('runs', 'readwrite');
  const cur = await tx.store.get(name);
  if (!cur) throw new Error(`no run named "${name}" in this browser's store`);
  const next = { ...cur, ...patch, updated: Date.now() };
  if ('error' in patch && patch.error === undefined) delete next.error;
  await tx.store.put(next);
  await tx.done;
  return next;
}

/** Delete a run and everything it holds. */
export async function deleteRun(db: WebsweDatabase, name: string): Promise<void> {
  const tx = db.transaction(['runs', 'json', 'metrics', 'trajectories', 'checkpoints', 'weights'], 'readwrite');
  await Promise.all([
    tx.objectStore('weights').delete(runRange(name)),
    tx.objectStore('runs').delete(name),
    tx.objectStore('json').delete(runRange(name)),
    tx.objectStore('metrics').delete(runRange(name)),
    tx.objectStore('trajectories').delete(runRange(name)),
    tx.objectStore('checkpoints').delete(runRange(name)),
    tx.done,
  ]);
}

export class IdbRunStore implements RunStore {
  readonly location: string;
  /** Told after each checkpoint commits (the worker forwards it to the page). */
  onCheckpoint?: (c: NonNullable<RunRecord['checkpoint']>) => void;
  private constructor(readonly db: WebsweDatabase, readonly run: string, private count: number) {
    this.location = `idb:${run}`;
  }
  /** Metrics rows written so far. */
  get metricsCount(): number {
    return this.count;
  }

  /** The store of an existing run, or of a new one (`create` gives its record). */
  static async open(db: WebsweDatabase, run: string, create?: Omit<RunRecord, 'name' | 'created' | 'updated'>): Promise<IdbRunStore> {
    const tx = db.transaction('runs', 'readwrite');
    const cur = await tx.store.get(run);
    if (!cur) {
      if (!create) throw new Error(`no run named "${run}" in this browser's store`);
      const now = Date.now();
      await tx.store.put({ ...create, name: run, created: now, updated: now });
    }
    await tx.done;
    return new IdbRunStore(db, run, await db.count('metrics', runRange(run)));
  }

  async writeJson(name: string, value: unknown): Promise<void> {
    await this.db.put('json', { run: this.run, name, value });
  }
  async readJson<T>(name: string): Promise<T | null> {
    return ((await this.db.get('json', [this.run, name]))?.value as T | undefined) ?? null;
  }

  async appendMetrics(rows: readonly MetricRecord[]): Promise<void> {
    if (!rows.length) return;
    const tx = this.db.transaction('metrics', 'readwrite');
    const at = this.count;
    await Promise.all([...rows.map((r, k) => tx.store.put({ ...r, run: this.run, i: at + k })), tx.done]);
    this.count = at + rows.length;
  }
  async readMetrics(from = 0): Promise<MetricRecord[]> {
    const rows = await this.db.getAll('metrics', IDBKeyRange.bound([this.run, from], [this.run, Infinity]));
    return rows.map(({ run: _run, i: _i, ...r }) => r);
  }
  async truncateMetrics(count: number): Promise<void> {
    await this.db.delete('metrics', IDBKeyRange.bound([this.run, count], [this.run, Infinity]));
    this.count = Math.min(this.count, count);
  }

  async writeTrajectories(phase: string, step: number, records: readonly unknown[]): Promise<void> {
    await this.db.put('trajectories', { run: this.run, phase, step, records: [...records] });
  }
  async readTrajectories(phase: string, step: number): Promise<unknown[]> {
    return (await this.db.get('trajectories', [this.run, phase, step]))?.records ?? [];
  }
  async listTrajectorySteps(): Promise<{ phase: string; step: number }[]> {
    const keys = await this.db.getAllKeys('trajectories', runRange(this.run));
    return keys.map(([, phase, step]) => ({ phase, step })).sort((a, b) => a.phase.localeCompare(b.phase) || a.step - b.step);
  }

  /** A checkpoint's model part as the files of a Hugging Face folder. */
  private modelFiles(ck: PhaseWeights): Record<string, Blob> {
    const files: Record<string, Blob> = {};
    if (ck.model) {
      const hf = hfFolderFiles({ config: ck.model.config, tensors: ck.params, tokenizerJson: ck.model.tokenizerJson, tokenizerConfig: ck.model.tokenizerConfig });
      for (const [name, bytes] of hf) files[name] = blob(bytes, name.endsWith('.json') ? 'application/json' : undefined);
    } else files['model.safetensors'] = blob(writeSafetensors(mapTensors(ck.params)));
    if (ck.adapters && ck.lora && ck.model) for (const [name, bytes] of adapterFiles(ck.model.config, ck.lora, ck.adapters)) files[name] = blob(bytes, name.endsWith('.json') ? 'application/json' : undefined);
    return files;
  }

  async savePhaseWeights(phase: string, w: PhaseWeights): Promise<void> {
    await this.db.put('weights', { run: this.run, phase, at: Date.now(), files: this.modelFiles(w) });
  }

  async listPhaseWeights(): Promise<string[]> {
    return (await this.db.getAllKeys('weights', runRange(this.run))).map(([, phase]) => phase).sort();
  }

  /** The files of a phase's kept weights (a Hugging Face folder), or null. */
  async phaseWeightFiles(phase: string): Promise<Record<string, Blob> | null> {
    return (await this.db.get('weights', [this.run, phase]))?.files ?? null;
  }

  async saveCheckpoint(ck: Checkpoint): Promise<void> {
    // Serialise first: an IndexedDB transaction commits as soon as it has nothing to wait for.
    const files = this.modelFiles(ck);
    if (ck.adamM && ck.adamV) files['optimizer.safetensors'] = blob(writeSafetensors([...mapTensors(ck.adamM, 'm.'), ...mapTensors(ck.adamV, 'v.')]));
    files['state.json'] = new Blob([JSON.stringify(ck.state, null, 2) + '\n'], { type: 'application/json' });
    const bytes = Object.values(files).reduce((a, b) => a + b.size, 0);

    const tx = this.db.transaction(['runs', 'checkpoints'], 'readwrite');
    const runs = tx.objectStore('runs'), cks = tx.objectStore('checkpoints');
    const rec = await runs.get(this.run);
    if (!rec) throw new Error(`run "${this.run}" was deleted while it was training`);
    const prev = rec.checkpoint?.id;
    const id = (prev ?? 0) + 1;
    const s = ck.state;
    await cks.put({ run: this.run, id, state: s, files });
    const pointer = { id, phase: s.phase, step: s.step, done: [...s.done], metricsCount: s.metricsCount, at: Date.now(), bytes };
    await runs.put({ ...rec, updated: Date.now(), checkpoint: pointer });
    if (prev !== undefined) await cks.delete([this.run, prev]);
    await tx.done;
    this.onCheckpoint?.(pointer);
  }

  async loadCheckpoint(): Promise<Checkpoint | null> {
    const tx = this.db.transaction(['runs', 'checkpoints'], 'readonly');
    const rec = await tx.objectStore('runs').get(this.run);
    const ckr = rec?.checkpoint ? await tx.objectStore('checkpoints').get([this.run, rec.checkpoint.id]) : undefined;
    await tx.done;
    if (!ckr) return null;
    const model = ckr.files['model.safetensors'];
    if (!model) throw new Error(`checkpoint ${ckr.id} of run "${this.run}" has no model.safetensors`);
    const ck: Checkpoint = { state: ckr.state, params: await readTensors(model, `idb:${this.run}/checkpoint/model.safetensors`) };
    const adapters = ckr.files[ADAPTER_FILE];
    if (adapters) ck.adapters = adaptersFromPeft(await readTensors(adapters, `idb:${this.run}/checkpoint/${ADAPTER_FILE}`));
    const opt = ckr.files['optimizer.safetensors'];
    if (opt) {
      const all = await readTensors(opt, `idb:${this.run}/checkpoint/optimizer.safetensors`);
      ck.adamM = new Map([...all].filter(([k]) => k.startsWith('m.')).map(([k, v]) => [k.slice(2), v]));
      ck.adamV = new Map([...all].filter(([k]) => k.startsWith('v.')).map(([k, v]) => [k.slice(2), v]));
    }
    return ck;
  }

  /** The current checkpoint's files (a Hugging Face folder plus optimizer.safetensors and state.json), for export. */
  async checkpointFiles(): Promise<Record<string, Blob> | null> {
    const rec = await this.db.get('runs', this.run);
    if (!rec?.checkpoint) return null;
    return (await this.db.get('checkpoints', [this.run, rec.checkpoint.id]))?.files ?? null;
  }
}
