// Downloading a model repository from the Hugging Face Hub in the trainer worker: config.json first
// (refused before any weights are fetched), then the tokenizer files (checked too), then
// model.safetensors or model.safetensors.index.json and its shards, each streamed with progress into a
// Blob, cancellable (AbortSignal), the safetensors header checked as soon as it has arrived so a
// wrong or truncated file stops its download early.
import type { ModelConfig } from '../src/model/config.ts';
import { utf8Decode } from '../src/model/dtypes.ts';
import { ModelFileError } from '../src/model/errors.ts';
import { shardNames } from '../src/model/load.ts';
import { headerLength, parseHeader } from '../src/model/safetensors.ts';
import { validateAgainstConfig } from '../src/model/weights.ts';
import type { ModelFileProgress, ModelLoadProgress, ModelProgressListener } from './models.api.ts';

/** The error a cancelled load rejects with. */
export class ModelLoadCancelled extends Error {
  override name = 'AbortError';
  constructor() {
    super('the load was cancelled: nothing was stored');
  }
}

/** `Qwen/Qwen2.5-0.5B-Instruct`, or its huggingface.co page or resolve URL, as the repo id. */
export function normalizeHubId(input: string): string {
  const s = input.trim();
  const m = /^https:\/\/huggingface\.co\/([^/?#]+\/[^/?#]+)/.exec(s);
  const id = m ? m[1]! : s;
  if (!/^[\w.-]+\/[\w.-]+$/.test(id) || id.includes('..')) {
    throw new ModelFileError(input || '(empty)', 'is not a Hugging Face model id: write owner/name, e.g. Qwen/Qwen2.5-0.5B-Instruct');
  }
  return id;
}

/** Per-file and overall progress of one load, sent to the page's listener (throttled to ~10 a second). */
export class ProgressBoard {
  private readonly files = new Map<string, ModelFileProgress>();
  private stage: ModelLoadProgress['stage'] = 'download';
  private message = '';
  private last = 0;
  /** Shards not started yet: their bytes per the index's total_size, so the overall bar has a total early. */
  private expected = { names: new Set<string>(), bytes: 0 };
  constructor(private readonly listener?: ModelProgressListener) {}

  waiting(names: readonly string[]): void {
    for (const name of names) if (!this.files.has(name)) this.files.set(name, { name, loaded: 0, state: 'waiting' });
    this.send(true);
  }
  expect(shards: readonly string[], totalBytes: number): void {
    this.expected = { names: new Set(shards), bytes: totalBytes };
    this.waiting(shards);
  }
  start(name: string, total?: number): void {
    this.files.set(name, { name, loaded: 0, state: 'loading', ...(total !== undefined ? { total } : {}) });
    this.send(true);
  }
  bytes(name: string, loaded: number): void {
    const f = this.files.get(name)!;
    f.loaded = loaded;
    this.send(false);
  }
  done(name: string): void {
    const f = this.files.get(name)!;
    f.state = 'done';
    f.total = f.loaded; // a compressed transfer announces fewer bytes than it delivers
    this.send(true);
  }
  missing(name: string, state: 'missing' | 'skipped' = 'missing'): void {
    this.files.set(name, { name, loaded: 0, state });
    this.send(true);
  }
  setStage(stage: ModelLoadProgress['stage'], message: string): void {
    this.stage = stage;
    this.message = message;
    this.send(true);
  }
  snapshot(): ModelLoadProgress {
    const files = [...this.files.values()].map((f) => ({ ...f }));
    const loaded = files.reduce((a, f) => a + f.loaded, 0);
    let total = files.reduce((a, f) => a + (f.total ?? f.loaded), 0);
    const startedShards = files.filter((f) => this.expected.names.has(f.name) && f.state !== 'waiting').reduce((a, f) => a + (f.total ?? f.loaded), 0);
    total += Math.max(0, this.expected.bytes - startedShards);
    return { stage: this.stage, message: this.message, files, loaded, total };
  }
  private send(force: boolean): void {
    if (!this.listener) return;
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    // A comlink proxy returns a promise; a page that went away must not fail the load.
    void Promise.resolve(this.listener(this.snapshot())).catch(() => undefined);
  }
}

type Watch = (chunk: Uint8Array, total: number | undefined) => void;

/** Checks a safetensors header while it streams in (against the config when the file holds the whole model). */
export function headerWatch(file: string, config?: ModelConfig): Watch {
  let head = new Uint8Array(0);
  let checked = false;
  return (chunk, total) => {
    // Offsets can only be checked against an announced size.
    if (checked || total === undefined) return;
    const grown = new Uint8Array(head.byteLength + chunk.byteLength);
    grown.set(head);
    grown.set(chunk, head.byteLength);
    head = grown;
    if (head.byteLength < 8) return;
    const n = headerLength(head.subarray(0, 8), total, file);
    if (head.byteLength < 8 + n) return;
    const header = parseHeader(head.subarray(8, 8 + n), total, file, true);
    if (config) validateAgainstConfig(header.tensors, config, file);
    checked = true;
    head = new Uint8Array(0);
  };
}

/** Streams base + name into a Blob with progress; null on 404. */
export async function fetchFile(base: string, name: string, signal: AbortSignal, board: ProgressBoard, watch?: Watch): Promise<Blob | null> {
  const url = base + name;
  if (signal.aborted) throw new ModelLoadCancelled();
  board.start(name);
  let res: Response;
  try {
    res = await fetch(url, { signal });
  } catch (e) {
    if (signal.aborted) throw new ModelLoadCancelled();
    throw new ModelFileError(name, `could not be fetched from ${url} (${(e as Error).message}): check the network connection`);
  }
  if (res.status === 404) {
    board.missing(name);
    return null;
  }
  if (res.status === 401 || res.status === 403) {
    throw new ModelFileError(name, `the Hub refused ${url} (HTTP ${res.status}): the model is gated or private; accept its licence on huggingface.co, download its files there and choose them under "From files"`);
  }
  if (!res.ok) throw new ModelFileError(name, `fetching ${url} failed: HTTP ${res.status} ${res.statusText}`);
  const len = res.headers.get('content-length');
  const total = len !== null && /^\d+$/.test(len) ? Number(len) : undefined;
  board.start(name, total);
  if (!res.body) {
    const b = await res.blob();
    board.bytes(name, b.size);
    board.done(name);
    return b;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let loaded = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.byteLength;
      watch?.(value, total);
      board.bytes(name, loaded);
    }
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    if (signal.aborted) throw new ModelLoadCancelled();
    throw e instanceof ModelFileError ? e : new ModelFileError(name, `the download from ${url} failed (${(e as Error).message}): try again`);
  }
  // More than announced is a compressed transfer (Content-Length counts the compressed bytes); fewer is a cut.
  if (total !== undefined && loaded < total) throw new ModelFileError(name, `the download stopped at ${loaded} of ${total} bytes: the connection dropped; try again`);
  board.done(name);
  return new Blob(chunks);
}

export interface HubChecks {
  /** config.json as soon as it arrives: refuses before any weights are fetched. */
  config(file: Blob): Promise<ModelConfig>;
  /** The tokenizer files (tokenizer.json, tokenizer_config.json, chat_template.jinja) once fetched. */
  tokenizer(files: ReadonlyMap<string, Blob>, config: ModelConfig): Promise<void>;
}

const TOKENIZER_FILES = ['tokenizer_config.json', 'tokenizer.json', 'chat_template.jinja'];

/** Fetches a model repository's files (by name) from `base` (…/resolve/main/), checking as they arrive. */
export async function downloadHubFolder(base: string, signal: AbortSignal, board: ProgressBoard, checks: HubChecks): Promise<Map<string, Blob>> {
  const files = new Map<string, Blob>();
  board.waiting(['config.json', ...TOKENIZER_FILES, 'model.safetensors']);
  const get = async (name: string, watch?: Watch) => {
    const b = await fetchFile(base, name, signal, board, watch);
    if (b) files.set(name, b);
    return b;
  };
  const configBlob = await get('config.json');
  if (!configBlob) throw new ModelFileError('config.json', `not found at ${base}: is this the id of a Hugging Face model repository?`);
  const config = await checks.config(configBlob);
  for (const name of TOKENIZER_FILES) await get(name);
  if (!files.has('tokenizer.json')) throw new ModelFileError('tokenizer.json', `not found at ${base}: the model's tokenizer is needed (a SentencePiece tokenizer.model alone is not read)`);
  await checks.tokenizer(files, config);

  if (await get('model.safetensors', headerWatch('model.safetensors', config))) return files;
  const indexBlob = await get('model.safetensors.index.json');
  if (!indexBlob) throw new ModelFileError('model.safetensors', `not found at ${base} (nor model.safetensors.index.json): the repository has no safetensors weights (a PyTorch .bin checkpoint is not read)`);
  let index: { metadata?: { total_size?: unknown } };
  try {
    index = JSON.parse(utf8Decode(new Uint8Array(await indexBlob.arrayBuffer())));
    if (index === null || typeof index !== 'object') throw new Error('not a JSON object');
  } catch (e) {
    throw new ModelFileError('model.safetensors.index.json', `is not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
  const shards = shardNames(index);
  const totalSize = index.metadata?.total_size;
  board.expect(shards, typeof totalSize === 'number' ? totalSize : 0);
  for (const shard of shards) {
    if (!(await get(shard, headerWatch(shard)))) throw new ModelFileError(shard, `is listed in model.safetensors.index.json but not found at ${base}`);
  }
  return files;
}
