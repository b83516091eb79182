// A checkpoint zip imported as a new run in this browser: the zip the Runs view exports (a checkpoint
// folder with webswe-run.json) or a zipped CLI run folder (config.json, metrics.jsonl, checkpoint/).
// Every file is checked before anything is written (state.json's fields, config.json, the safetensors
// headers against the config), and the run is written in one IndexedDB transaction with the files kept
// byte for byte. It is resumable when it brings its run config, a from-scratch model preset whose shapes
// match the weights, and its tokenizer; otherwise it is listed with its checkpoint and the reason.
import { unzipSync } from 'fflate';
import { freezeConfig, parseHfConfig } from '../src/model/config.ts';
import { MODEL_PRESETS, modelPreset } from '../src/model/presets.ts';
import { bufferSource, readHeader, type TensorInfo } from '../src/model/safetensors.ts';
import { validateAgainstConfig } from '../src/model/weights.ts';
import { flattenConfig, fromSavedConfig, resolveConfig, type ConfigValue } from '../src/rl/config.ts';
import type { RunRecord, WebsweDatabase } from '../src/store/idb.browser.ts';
import type { MetricRecord, TrainerState } from '../src/store/types.ts';
import { BROWSER_DEFAULTS, type ImportedRun } from './trainer.api.ts';

/** webswe-run.json: what a checkpoint zip carries besides the checkpoint folder. */
export interface RunInfoFile {
  format: 'webswe-run';
  version: 1;
  name: string;
  preset: string;
  created: number;
  /** The resolved run config, flat (the run's config.json). */
  config: Record<string, ConfigValue> | null;
  /** Metrics rows up to the checkpoint (state.json's metricsCount). */
  metrics: MetricRecord[];
}
export const RUN_INFO_FILE = 'webswe-run.json';

export class ImportError extends Error {
  override name = 'ImportError';
}

const WHAT = 'a checkpoint zip holds config.json, model.safetensors, the tokenizer files, optimizer.safetensors, state.json and webswe-run.json, as the Runs view\'s "Checkpoint zip" export writes it';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** Where the checkpoint folder is in the zip (the shallowest state.json), and the run folder around it for a CLI layout. */
function locate(entries: Record<string, Uint8Array>, zipName: string): { dir: string; cliRun: string | null } {
  const states = Object.keys(entries).filter((p) => p === 'state.json' || p.endsWith('/state.json')).sort((a, b) => a.split('/').length - b.split('/').length);
  if (!states.length) throw new ImportError(`${zipName}: no state.json in the zip, so it is not a webswe checkpoint: ${WHAT}`);
  const dir = states[0]!.slice(0, -'state.json'.length);
  const cliRun = /(^|\/)checkpoint\/$/.test(dir) && !entries[`${dir}${RUN_INFO_FILE}`] ? dir.slice(0, -'checkpoint/'.length) : null;
  return { dir, cliRun };
}

function checkState(v: unknown, file: string): TrainerState {
  const bad = (why: string): never => {
    throw new ImportError(`${file}: ${why}; it is the trainer's resume state ({ phase, step, done, metricsCount, optimizerStep, extra })`);
  };
  if (!isObject(v)) return bad('expected a JSON object');
  if (typeof v.phase !== 'string' || !v.phase) bad('phase is missing');
  if (!isCount(v.step)) bad(`step must be a whole number, got ${JSON.stringify(v.step)}`);
  if (!Array.isArray(v.done) || v.done.some((d) => typeof d !== 'string')) bad('done must be an array of phase names');
  if (!isCount(v.metricsCount)) bad(`metricsCount must be a whole number, got ${JSON.stringify(v.metricsCount)}`);
  if (!isCount(v.optimizerStep)) bad(`optimizerStep must be a whole number, got ${JSON.stringify(v.optimizerStep)}`);
  return { ...(v as unknown as TrainerState), extra: isObject(v.extra) ? v.extra : {} };
}

const isMetricRow = (r: unknown) => isObject(r) && typeof r.phase === 'string' && typeof r.step === 'number' && isObject(r.values);

/** Why the run cannot be resumed ([] when it can), given its config, weights and tokenizer. */
function resumeProblems(config: Record<string, ConfigValue> | null, hasTokenizer: boolean, tensors: ReadonlyMap<string, TensorInfo>, hfVocab: number, file: string): string[] {
  const out: string[] = [];
  if (!hasTokenizer) out.push('tokenizer.json and tokenizer_config.json are missing, so the vocabulary the weights were trained with is unknown');
  const presetName = String(config?.['model.preset'] ?? '');
  const preset = modelPreset(presetName);
  if (config && !preset) out.push(`model.preset "${presetName}" is not a from-scratch preset (${Object.keys(MODEL_PRESETS).join(', ')}), the models browser runs train`);
  if (preset) {
    try {
      if (hfVocab > preset.config.vocabSize) throw new Error(`vocab_size ${hfVocab} is larger than preset ${presetName}'s ${preset.config.vocabSize}`);
      validateAgainstConfig(tensors, freezeConfig({ ...preset.config, vocabSize: hfVocab }), file, `model.preset ${presetName}`);
    } catch (e) {
      out.push(`the weights do not fit model.preset ${presetName}: ${(e as Error).message}`);
    }
  }
  return out;
}

export async function importCheckpoint(db: WebsweDatabase, zip: Blob, zipName: string): Promise<ImportedRun> {
  const bytes = new Uint8Array(await zip.arrayBuffer());
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) throw new ImportError(`${zipName} is not a zip file: ${WHAT}`);
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (f) => !f.name.endsWith('/') && !f.name.startsWith('__MACOSX/') });
  } catch (e) {
    throw new ImportError(`${zipName}: the zip cannot be read (${(e as Error).message}): is the file whole?`);
  }
  const { dir, cliRun } = locate(entries, zipName);
  const text = (p: string) => new TextDecoder().decode(entries[p]);
  const json = (p: string): unknown => {
    try {
      return JSON.parse(text(p));
    } catch (e) {
      throw new ImportError(`${zipName}: ${p} is not valid JSON (${(e as Error).message})`);
    }
  };
  const need = (f: string): Uint8Array => {
    const b = entries[dir + f];
    if (!b) throw new ImportError(`${zipName}: the checkpoint has no ${f}: ${WHAT}`);
    return b;
  };

  // The checkpoint folder: resume state, model config, weights (headers checked against the config).
  const state = checkState(json(`${dir}state.json`), `${zipName}: ${dir}state.json`);
  const hf = parseHfConfig(new TextDecoder().decode(need('config.json')), `${zipName}: ${dir}config.json`);
  const modelFile = `${zipName}: ${dir}model.safetensors`;
  const tensors = (await readHeader(bufferSource(need('model.safetensors'), modelFile))).tensors;
  validateAgainstConfig(tensors, hf, modelFile, `${dir}config.json`);
  const opt = entries[`${dir}optimizer.safetensors`];
  if (opt) {
    for (const n of (await readHeader(bufferSource(opt, `${zipName}: ${dir}optimizer.safetensors`))).tensors.keys()) {
      if (!/^[mv]\./.test(n) || !tensors.has(n.slice(2))) throw new ImportError(`${zipName}: ${dir}optimizer.safetensors holds ${n}, which is not an AdamW moment (m.<name> or v.<name>) of a model tensor`);
    }
  }

  // The run around it: ours (webswe-run.json) or a CLI run folder's config.json and metrics.jsonl.
  let info: Partial<RunInfoFile> = {};
  if (entries[dir + RUN_INFO_FILE]) {
    const v = json(dir + RUN_INFO_FILE);
    if (!isObject(v) || v.format !== 'webswe-run') throw new ImportError(`${zipName}: ${dir}${RUN_INFO_FILE} is not a webswe run file (format "webswe-run")`);
    info = v as Partial<RunInfoFile>;
  } else if (cliRun !== null) {
    const cfg = entries[`${cliRun}config.json`] ? json(`${cliRun}config.json`) : null;
    const rows = entries[`${cliRun}metrics.jsonl`] ? text(`${cliRun}metrics.jsonl`).split('\n').filter((l) => l.trim()).map((l, i) => {
      try {
        return JSON.parse(l) as unknown;
      } catch {
        throw new ImportError(`${zipName}: ${cliRun}metrics.jsonl line ${i + 1} is not valid JSON`);
      }
    }) : [];
    info = { name: cliRun.replace(/\/$/, '').split('/').pop() || undefined, config: isObject(cfg) ? (cfg as Record<string, ConfigValue>) : null, metrics: rows as MetricRecord[] };
  }
  const problems: string[] = [];
  let config: Record<string, ConfigValue> | null = null;
  if (!isObject(info.config)) problems.push(`the zip has no run config (${RUN_INFO_FILE}, or config.json beside checkpoint/ in a CLI run folder)`);
  else {
    try {
      // The browser's layer goes last: a CLI run's episodes ran in node processes; here they run in the worker sandbox.
      config = flattenConfig(resolveConfig(fromSavedConfig(info.config as Record<string, ConfigValue>), BROWSER_DEFAULTS));
    } catch (e) {
      problems.push(`its run config is refused: ${(e as Error).message}`);
    }
  }
  const metrics = Array.isArray(info.metrics) && info.metrics.every(isMetricRow) ? info.metrics.slice(0, state.metricsCount) : [];
  const tokenizerFiles = entries[`${dir}tokenizer.json`] && entries[`${dir}tokenizer_config.json`]
    ? { json: json(`${dir}tokenizer.json`), config: json(`${dir}tokenizer_config.json`) } : null;
  problems.push(...resumeProblems(config, tokenizerFiles !== null, tensors, hf.vocabSize, `${dir}model.safetensors`));
  const resumable = problems.length === 0;
  const phases = String(config?.['run.phases'] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const left = phases.filter((p) => !state.done.includes(p));
  const status: RunRecord['status'] = !resumable ? 'stopped' : left.length ? 'paused' : 'done';

  // Everything in one transaction, with nothing left to compute inside it: a failure leaves no half-imported run.
  const files: Record<string, Blob> = {};
  for (const [p, b] of Object.entries(entries)) {
    const f = p.slice(dir.length);
    if (p.startsWith(dir) && !f.includes('/') && f !== RUN_INFO_FILE) files[f] = new Blob([b as Uint8Array<ArrayBuffer>], { type: f.endsWith('.json') ? 'application/json' : 'application/octet-stream' });
  }
  const bytesKept = Object.values(files).reduce((a, b) => a + b.size, 0);
  const base = (typeof info.name === 'string' && info.name.trim() ? info.name.trim() : zipName.replace(/\.zip$/i, '')).slice(0, 80) || 'imported';
  const preset = typeof info.preset === 'string' ? info.preset : '';
  const tx = db.transaction(['runs', 'json', 'metrics', 'checkpoints'], 'readwrite');
  const runs = tx.objectStore('runs'), jsonStore = tx.objectStore('json');
  let name = base;
  for (let k = 1; await runs.get(name); k++) name = `${base}-imported${k > 1 ? `-${k}` : ''}`;
  const now = Date.now();
  const checkpoint = { id: 1, phase: state.phase, step: state.step, done: [...state.done], metricsCount: state.metricsCount, at: now, bytes: bytesKept };
  const put = (file: string, value: unknown) => jsonStore.put({ run: name, name: file, value });
  const results = state.extra.results;
  await Promise.all([
    runs.put({ name, status, created: now, updated: now, preset, checkpoint }),
    tx.objectStore('checkpoints').put({ run: name, id: 1, state, files }),
    // config.json is what Resume trains with: kept only when the rest fits it (else it rides in run.json for the record).
    put('run.json', { name, preset, created: now, imported: { from: zipName, at: now, original: info.name ?? null, resumable, ...(resumable ? {} : { config: info.config ?? null }) } }),
    ...(config && resumable ? [put('config.json', config)] : []),
    ...(tokenizerFiles ? [put('tokenizer-files.json', tokenizerFiles)] : []),
    ...(Array.isArray(results) ? [put('results.json', { phases: results, imported: true })] : []),
    ...metrics.map((m, i) => tx.objectStore('metrics').put({ ...m, run: name, i })),
    tx.done,
  ]);

  const where = state.step === 0 && state.done.includes(state.phase) ? `the end of ${state.phase}` : `${state.phase} step ${state.step}`;
  const what = `Imported "${name}": the checkpoint at ${where} with ${metrics.length} metrics rows${metrics.length < state.metricsCount ? ` of the ${state.metricsCount} it counted` : ''}.`;
  const next = !resumable
    ? ` It is listed with its checkpoint (export it again, compare its curves) but cannot be resumed: ${problems.join('; ')}.`
    : left.length ? ` Resume continues it with ${left.join(', ')}.` : ` Every phase of its config (${phases.join(', ')}) is done.`;
  return { name, status, resumable, note: what + next };
}
