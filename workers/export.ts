// Export and import in the trainer worker: a run's episodes as ATIF JSON or SFT JSONL (src/agent/export.ts),
// its last checkpoint as a zip, and a checkpoint zip back in as a new run (checkpoint-import.ts).
// The zip's root is the CLI's checkpoint/ folder: a Hugging Face model folder (config.json,
// model.safetensors, tokenizer.json, tokenizer_config.json) that transformers loads as it is, plus
// optimizer.safetensors and state.json (the trainer's resume state), plus webswe-run.json (the run's
// name, preset, resolved config and metrics rows up to the checkpoint), so that an import resumes.
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { ExportError, exportEpisodes } from '../src/store/export.ts';
import type { ConfigValue } from '../src/rl/config.ts';
import { getRunRecord, IdbRunStore, openWebsweDb, type WebsweDatabase } from '../src/store/idb.browser.ts';
import type { TrainerState } from '../src/store/types.ts';
import { importCheckpoint, RUN_INFO_FILE, type RunInfoFile } from './checkpoint-import.ts';
import { deleteTaskSet, importTaskSet, listTaskSets, readTaskSet } from './task-sets.ts';
import type { ExportApi, ExportedFile } from './trainer.api.ts';

// One error class for every export refusal, the episodes' (src/store/export.ts) and the checkpoint's.
export { ExportError };

/** A run name as part of a file name. */
const fileStem = (name: string) => name.replace(/[^\w.-]+/g, '_').slice(0, 100) || 'run';

/** Zip entries in order; weights (random-looking floats that barely compress) are stored, JSON deflated. */
export async function zipFiles(entries: readonly [string, Blob | Uint8Array][]): Promise<Blob> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let failure: Error | null = null;
  // The sync streams hand their output to this callback before push() returns.
  const zip = new Zip((err, chunk) => {
    if (err) failure = err;
    else chunks.push(chunk as Uint8Array<ArrayBuffer>);
  });
  for (const [path, data] of entries) {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(await data.arrayBuffer());
    const file = path.endsWith('.safetensors') ? new ZipPassThrough(path) : new ZipDeflate(path, { level: 6 });
    zip.add(file);
    file.push(bytes, true);
  }
  zip.end();
  if (failure) throw failure;
  return new Blob(chunks, { type: 'application/zip' });
}

export function exportApi(): ExportApi {
  let dbp: Promise<WebsweDatabase> | null = null;
  const database = () => (dbp ??= openWebsweDb());

  return {
    async exportTrajectories(name, format) {
      const store = await IdbRunStore.open(await database(), name);
      // The same export as `webswe export` (src/store/export.ts).
      const parts = await exportEpisodes(store, name, format);
      if (format === 'atif') return { fileName: `${fileStem(name)}.atif.json`, blob: new Blob(parts, { type: 'application/json' }) };
      return { fileName: `${fileStem(name)}.sft.jsonl`, blob: new Blob(parts, { type: 'application/jsonl' }) };
    },

    async exportCheckpoint(name): Promise<ExportedFile> {
      const db = await database();
      const rec = await getRunRecord(db, name);
      if (!rec) throw new ExportError(`no run named "${name}" in this browser's store`);
      const store = await IdbRunStore.open(db, name);
      const files = await store.checkpointFiles();
      const stateBlob = files?.['state.json'];
      if (!files || !stateBlob) throw new ExportError(`run "${name}" has no checkpoint yet: one is written at the end of each phase and every run.checkpointEvery DAPO iterations`);
      const state = JSON.parse(await stateBlob.text()) as TrainerState;
      const info: RunInfoFile = {
        format: 'webswe-run', version: 1, name, preset: rec.preset, created: rec.created,
        config: await store.readJson<Record<string, ConfigValue>>('config.json'),
        metrics: (await store.readMetrics()).slice(0, state.metricsCount),
      };
      const order = (f: string) => (f === 'config.json' ? 0 : f === 'model.safetensors' ? 1 : f === 'state.json' ? 3 : 2);
      const entries: [string, Blob | Uint8Array][] = Object.keys(files).sort((a, b) => order(a) - order(b) || a.localeCompare(b)).map((f) => [f, files[f]!]);
      entries.push([RUN_INFO_FILE, new TextEncoder().encode(JSON.stringify(info, null, 2) + '\n')]);
      return { fileName: `${fileStem(name)}-${state.phase}-${state.step}.zip`, blob: await zipFiles(entries) };
    },

    async importCheckpoint(zip, fileName) {
      return importCheckpoint(await database(), zip, fileName);
    },

    importTaskSet,
    listTaskSets,
    readTaskSet,
    deleteTaskSet,
  };
}
