// Pretrained models in the trainer worker (ModelApi, models.api.ts): a Hub repository downloaded with
// progress (model-fetch.ts) or picked files, checked (model-check.ts), then kept in IndexedDB
// (`models`, one record of Blobs per model) so a second load needs no network; each load answers with
// the model's summary and its memory plan on this worker's adapter (model-fit.ts). Runs name a cached
// model `idb:models/<id>` in model.preset; loadCachedModel is that source.
import { ENABLE_WEBGPU_HELP } from '../src/gpu/adapter.browser.ts';
import type { GpuContext } from '../src/gpu/context.ts';
import { limitsRecord } from '../src/gpu/device.ts';
import { ModelFileError } from '../src/model/errors.ts';
import { folderUrl, loadModelFromFiles, type LoadedModel } from '../src/model/load.ts';
import { formatBytes } from '../src/model/planner.ts';
import { summarizeModel } from '../src/model/summary.ts';
import { flattenConfig, resolveConfig } from '../src/rl/config.ts';
import { RUN_PRESETS } from '../src/rl/presets.ts';
import { openWebsweDb, type ModelRecord, type WebsweDatabase } from '../src/store/idb.browser.ts';
import type { Tokenizer } from '../src/model/tokenizer.ts';
import { checkConfig, checkFolder, checkTokenizer, KEPT_FILES } from './model-check.ts';
import { downloadHubFolder, ModelLoadCancelled, normalizeHubId, ProgressBoard } from './model-fetch.ts';
import { modelFit } from './model-fit.ts';
import type { GpuFacts } from './models.api.ts';
import type { CachedModelInfo, ModelApi, ModelReport } from './models.api.ts';
import { BROWSER_DEFAULTS } from './trainer.api.ts';

/** The model.preset prefix of a cached model: `idb:models/Qwen/Qwen2.5-0.5B-Instruct`. */
export const CACHED_MODELS = 'idb:models/';
/** Picked files are cached under this owner: `local/<name>`. */
const LOCAL = 'local/';

export class ModelLoadError extends Error {
  override name = 'ModelLoadError';
}

let dbp: Promise<WebsweDatabase> | null = null;
const database = () => (dbp ??= openWebsweDb());

const info = (r: ModelRecord): CachedModelInfo => ({
  id: r.id, path: CACHED_MODELS + r.id, source: r.source, created: r.created, bytes: r.bytes,
  files: Object.entries(r.files).map(([name, b]) => ({ name, bytes: b.size })), summary: r.summary,
});

/** Whether model.preset names a cached model. */
export const isCachedModel = (preset: string) => preset.startsWith(CACHED_MODELS);

/** The files of `idb:models/<id>` as File objects (name + Blob), the input of loadModelFromFiles. */
export async function cachedModelFiles(path: string): Promise<File[]> {
  const id = path.slice(CACHED_MODELS.length);
  const rec = await (await database()).get('models', id);
  if (!rec) {
    const have = (await (await database()).getAllKeys('models')).map((k) => CACHED_MODELS + k);
    throw new ModelFileError(path, `no cached model "${id}" in this browser (${have.length ? `cached: ${have.join(', ')}` : 'none cached yet'}): load it in the Model view (#/model)`);
  }
  return Object.entries(rec.files).map(([name, blob]) => new File([blob], name));
}

/** `idb:models/<id>` loaded as a run loads a model: config, weights read on demand from the Blobs, tokenizer files. */
export async function loadCachedModel(path: string): Promise<LoadedModel> {
  return loadModelFromFiles(await cachedModelFiles(path));
}

/** The New run form's defaults: its first preset over the browser layer. */
function newRunDefaults() {
  const preset = Object.keys(RUN_PRESETS)[0]!;
  return { preset, flat: flattenConfig(resolveConfig(RUN_PRESETS[preset]!.overrides, BROWSER_DEFAULTS)) };
}

async function gpuFacts(context: () => Promise<GpuContext>): Promise<GpuFacts> {
  try {
    const c = await context();
    const a = c.adapter;
    return { ok: true, adapter: [a.vendor, a.architecture, a.description].filter(Boolean).join(' · ') || 'unknown adapter', fallback: a.isFallbackAdapter, limits: limitsRecord(c.limits), features: [...c.features].sort() };
  } catch (e) {
    return { ok: false, reason: (e as Error).message, help: ENABLE_WEBGPU_HELP };
  }
}

export function modelApi(context: () => Promise<GpuContext>): ModelApi {
  let active: { what: string; controller: AbortController } | null = null;

  const report = async (rec: ModelRecord, fromCache: boolean): Promise<ModelReport> =>
    ({ model: info(rec), fromCache, fit: modelFit(rec.config, rec.summary, newRunDefaults(), await gpuFacts(context)) });

  /** One load at a time: they share the network, the memory and the progress display. */
  async function exclusive<T>(what: string, f: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (active) throw new ModelLoadError(`${active.what} is loading: wait for it or cancel it first`);
    const me = (active = { what, controller: new AbortController() });
    try {
      return await f(me.controller.signal);
    } finally {
      active = null;
    }
  }

  async function store(rec: ModelRecord, signal: AbortSignal, board: ProgressBoard): Promise<void> {
    if (signal.aborted) throw new ModelLoadCancelled();
    board.setStage('store', `Keeping ${formatBytes(rec.bytes)} in this browser (IndexedDB)…`);
    const tx = (await database()).transaction('models', 'readwrite');
    try {
      // add (not put): a model cached meanwhile under the same id is not replaced.
      await Promise.all([tx.store.add(rec), tx.done]);
    } catch (e) {
      const name = (e as DOMException).name;
      if (name === 'ConstraintError') throw new ModelLoadError(`a model ${rec.id} is already cached: delete it first${rec.source === 'files' ? ' or choose another name' : ''}`);
      if (name === 'QuotaExceededError') throw new ModelLoadError(`the browser refused to keep ${formatBytes(rec.bytes)} (QuotaExceededError): delete cached models or runs to free space, then load it again`);
      throw e;
    }
  }

  const record = (id: string, source: ModelRecord['source'], checked: Awaited<ReturnType<typeof checkFolder>>): ModelRecord => {
    const files = Object.fromEntries(checked.files);
    return { id, source, created: Date.now(), bytes: Object.values(files).reduce((a, b) => a + b.size, 0), files, config: checked.config, summary: checked.summary };
  };

  return {
    async loadHubModel(input, listener) {
      const id = normalizeHubId(input);
      const cached = await (await database()).get('models', id);
      if (cached) return report(cached, true);
      return exclusive(id, async (signal) => {
        const board = new ProgressBoard(listener);
        board.setStage('download', `Downloading ${id} from the Hugging Face Hub…`);
        let early: { config: Awaited<ReturnType<typeof checkConfig>>; tokenizer: Tokenizer } | undefined;
        const files = await downloadHubFolder(folderUrl(id), signal, board, {
          config: checkConfig,
          tokenizer: async (files, config) => void (early = { config, tokenizer: await checkTokenizer(files, config) }),
        });
        board.setStage('validate', 'Checking the weights against config.json…');
        const rec = record(id, 'hub', await checkFolder(files, early));
        await store(rec, signal, board);
        return report(rec, false);
      });
    },

    async importModelFiles(picked, name, listener) {
      const label = (name ?? '').trim() || 'model';
      if (!/^[\w.-]{1,100}$/.test(label)) throw new ModelLoadError(`name "${label}": use 1 to 100 letters, digits, '.', '_' or '-' (the model is cached as ${LOCAL}<name>)`);
      const id = LOCAL + label;
      if (await (await database()).get('models', id)) throw new ModelLoadError(`a model ${id} is already cached: delete it first or choose another name`);
      return exclusive(id, async (signal) => {
        const board = new ProgressBoard(listener);
        const given = new Map<string, Blob>();
        for (const f of picked) {
          if (given.has(f.name)) throw new ModelFileError(f.name, 'was chosen twice (two folders?): choose one model folder');
          given.set(f.name, f);
        }
        board.waiting([...given.keys()].sort());
        for (const [n, f] of given) {
          if (KEPT_FILES.test(n)) board.start(n, f.size), board.bytes(n, f.size), board.done(n);
          else board.missing(n, 'skipped');
        }
        board.setStage('validate', `Checking ${given.size} files…`);
        const rec = record(id, 'files', await checkFolder(given));
        await store(rec, signal, board);
        return report(rec, false);
      });
    },

    async cancelModelLoad() {
      if (!active) return false;
      active.controller.abort();
      return true;
    },

    async listModels() {
      return (await (await database()).getAll('models')).map(info).sort((a, b) => b.created - a.created);
    },

    async describeModel(id) {
      const rec = await (await database()).get('models', id);
      if (!rec) throw new ModelLoadError(`no cached model "${id}" in this browser`);
      // Loaded as a run loads it, so a record that no longer reads is found here rather than in a run.
      const loaded = await loadCachedModel(CACHED_MODELS + id);
      const tokenizer = await checkTokenizer(new Map(Object.entries(rec.files)), loaded.config);
      return report({ ...rec, config: loaded.config, summary: summarizeModel(loaded.config, loaded.weights.tensors, tokenizer) }, true);
    },

    async deleteModel(id) {
      if (active?.what === id) throw new ModelLoadError(`${id} is loading: cancel it first`);
      await (await database()).delete('models', id);
    },
  };
}
