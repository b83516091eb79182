// Loading a Hugging Face model folder in any runtime: from a URL or Hub id (fetch, streamed with
// progress; the header is checked as soon as it arrives so a bad file stops the download early) or
// from File/Blob objects (a file picker). Node paths are in load.node.ts.
import { parseHfConfig, type ModelConfig } from './config.ts';
import { utf8Decode } from './dtypes.ts';
import { ModelFileError } from './errors.ts';
import { blobSource, bufferSource, headerLength, parseHeader, SafetensorsFile, type BlobLike, type ByteSource } from './safetensors.ts';
import { validateAgainstConfig, WeightSet } from './weights.ts';

export interface LoadedModel {
  readonly config: ModelConfig;
  readonly weights: WeightSet;
  /** Parsed tokenizer.json / tokenizer_config.json when the folder has them. */
  readonly tokenizerJson?: object;
  readonly tokenizerConfig?: object;
  /** chat_template.jinja, where the folder keeps the template outside tokenizer_config.json. */
  readonly chatTemplate?: string;
}

export interface Progress {
  file: string;
  loaded: number;
  /** From Content-Length; undefined when the server does not say. */
  total?: number;
}

// The parts of fetch this module uses (the core is compiled without DOM types).
interface ReaderLike {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(): Promise<void>;
}
interface ResponseLike {
  ok: boolean;
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  body: { getReader(): ReaderLike } | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}
export type FetchLike = (url: string) => Promise<ResponseLike>;

export interface UrlOptions {
  onProgress?: (p: Progress) => void;
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
  /** Hub revision when `source` is a repo id. */
  revision?: string;
}

/** `Qwen/Qwen2.5-0.5B-Instruct` → its Hub URL prefix; a URL is kept (with a trailing slash). */
export function folderUrl(source: string, revision = 'main'): string {
  if (/^(https?:|file:|blob:|\/|\.)/.test(source)) return source.endsWith('/') ? source : `${source}/`;
  if (!/^[\w.-]+\/[\w.-]+$/.test(source)) throw new ModelFileError(source, 'is neither a URL nor a Hugging Face repo id (owner/name)');
  return `https://huggingface.co/${source}/resolve/${encodeURIComponent(revision)}/`;
}

function getFetch(opts: UrlOptions): FetchLike {
  const f = opts.fetch ?? (globalThis as unknown as { fetch?: FetchLike }).fetch;
  if (!f) throw new Error('no fetch in this runtime: pass options.fetch');
  return f;
}

/** Downloads one file; `null` on 404. `check(bytesSoFar, total)` may throw to stop early. */
async function download(url: string, file: string, opts: UrlOptions, check?: (got: Uint8Array, total?: number) => void): Promise<Uint8Array | null> {
  let res: ResponseLike;
  try {
    res = await getFetch(opts)(url);
  } catch (e) {
    throw new ModelFileError(file, `could not be fetched from ${url} (${(e as Error).message}): check the address and the network`);
  }
  if (res.status === 404) return null;
  if (!res.ok) throw new ModelFileError(file, `fetching ${url} failed: HTTP ${res.status} ${res.statusText}`);
  const len = res.headers.get('content-length');
  const total = len !== null && /^\d+$/.test(len) ? Number(len) : undefined;
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  let buf = new Uint8Array(total ?? 1 << 20);
  let loaded = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || !value) break;
      if (loaded + value.byteLength > buf.byteLength) {
        if (total !== undefined) throw new ModelFileError(file, `the server sent more than the ${total} bytes it announced: the download is corrupt; try again`);
        const grown = new Uint8Array(Math.max(buf.byteLength * 2, loaded + value.byteLength));
        grown.set(buf.subarray(0, loaded));
        buf = grown;
      }
      buf.set(value, loaded);
      loaded += value.byteLength;
      opts.onProgress?.({ file, loaded, ...(total !== undefined ? { total } : {}) });
      check?.(buf.subarray(0, loaded), total);
    }
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    throw e;
  }
  if (total !== undefined && loaded !== total) {
    throw new ModelFileError(file, `the download stopped at ${loaded} of ${total} bytes: the connection dropped; try again`);
  }
  return buf.subarray(0, loaded);
}

/** Checks a safetensors header while it streams in (needs Content-Length to check offsets), and
 *  against the config when the file holds the whole model, so a wrong file stops the download. */
function earlyHeaderCheck(file: string, config?: ModelConfig) {
  let done = false;
  return (got: Uint8Array, total?: number) => {
    if (done || total === undefined || got.byteLength < 8) return;
    const n = headerLength(got.subarray(0, 8), total, file);
    if (got.byteLength < 8 + n) return;
    const header = parseHeader(got.subarray(8, 8 + n), total, file, true);
    if (config) validateAgainstConfig(header.tensors, config, file);
    done = true;
  };
}

const decodeJson = (bytes: Uint8Array, file: string): object => {
  try {
    const v: unknown = JSON.parse(utf8Decode(bytes));
    if (v === null || typeof v !== 'object') throw new Error('not an object');
    return v;
  } catch (e) {
    throw new ModelFileError(file, `is not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
};

/** The shard file names of a model.safetensors.index.json, in first-use order. */
export function shardNames(index: object, file = 'model.safetensors.index.json'): string[] {
  const map = (index as { weight_map?: unknown }).weight_map;
  if (!map || typeof map !== 'object') throw new ModelFileError(file, 'has no weight_map object');
  const names = [...new Set(Object.values(map as Record<string, unknown>))];
  if (!names.every((n): n is string => typeof n === 'string' && /^[\w.-]+\.safetensors$/.test(n))) throw new ModelFileError(file, 'weight_map names a file that is not *.safetensors');
  return names;
}

type TokenizerFiles = Pick<LoadedModel, 'tokenizerJson' | 'tokenizerConfig' | 'chatTemplate'>;

/** tokenizer.json, tokenizer_config.json and chat_template.jinja where the folder has them. */
async function tokenizerFilesFromUrl(base: string, opts: UrlOptions): Promise<TokenizerFiles> {
  const get = (f: string) => download(base + f, f, opts);
  const [tj, tc, jinja] = await Promise.all([get('tokenizer.json'), get('tokenizer_config.json'), get('chat_template.jinja')]);
  return {
    ...(tj ? { tokenizerJson: decodeJson(tj, 'tokenizer.json') } : {}),
    ...(tc ? { tokenizerConfig: decodeJson(tc, 'tokenizer_config.json') } : {}),
    ...(jinja ? { chatTemplate: utf8Decode(jinja) } : {}),
  };
}

/** Tokenizer files alone from a URL folder or Hub id (build with Tokenizer.fromJson). */
export async function loadTokenizerFilesFromUrl(source: string, opts: UrlOptions = {}): Promise<TokenizerFiles & { tokenizerJson: object }> {
  const files = await tokenizerFilesFromUrl(folderUrl(source, opts.revision), opts);
  if (!files.tokenizerJson) throw new ModelFileError('tokenizer.json', `not found at ${folderUrl(source, opts.revision)}`);
  return { ...files, tokenizerJson: files.tokenizerJson };
}

/** Loads config, weights (single file or shards) and tokenizer files from a URL folder or Hub id. */
export async function loadModelFromUrl(source: string, opts: UrlOptions = {}): Promise<LoadedModel> {
  const base = folderUrl(source, opts.revision);
  const json = async (file: string, required: boolean): Promise<object | undefined> => {
    const bytes = await download(base + file, file, opts);
    if (!bytes) {
      if (required) throw new ModelFileError(file, `not found at ${base}: is this a Hugging Face model folder?`);
      return undefined;
    }
    return decodeJson(bytes, file);
  };
  const config = parseHfConfig(await json('config.json', true));
  const st = async (file: string) => {
    const bytes = await download(base + file, file, opts, earlyHeaderCheck(file, file === 'model.safetensors' ? config : undefined));
    return bytes && SafetensorsFile.open(bufferSource(bytes, file));
  };
  let files: SafetensorsFile[];
  const single = await st('model.safetensors');
  if (single) files = [single];
  else {
    const index = await json('model.safetensors.index.json', false);
    if (!index) throw new ModelFileError('model.safetensors', `not found at ${base} (nor model.safetensors.index.json)`);
    files = [];
    for (const name of shardNames(index)) {
      const f = await st(name);
      if (!f) throw new ModelFileError(name, `listed in model.safetensors.index.json but not found at ${base}`);
      files.push(f);
    }
  }
  const weights = new WeightSet(files).validate(config);
  return { config, weights, ...(await tokenizerFilesFromUrl(base, opts)) };
}

export type NamedBlob = BlobLike & { readonly name: string };

/** Loads a model from picked files (File objects): config.json, model.safetensors or its shards with
 *  the index, and optionally tokenizer.json / tokenizer_config.json. Weights stay in the Blobs. */
export async function loadModelFromFiles(picked: readonly NamedBlob[]): Promise<LoadedModel> {
  const byName = new Map(picked.map((f) => [f.name.split('/').pop()!, f]));
  const bytesOf = async (f: BlobLike) => new Uint8Array(await f.slice(0, f.size).arrayBuffer());
  const json = async (name: string): Promise<object | undefined> => {
    const f = byName.get(name);
    return f && decodeJson(await bytesOf(f), name);
  };
  const cfg = await json('config.json');
  if (!cfg) throw new ModelFileError('config.json', 'was not among the chosen files: pick the whole model folder');
  const config = parseHfConfig(cfg);
  let sources: ByteSource[];
  const single = byName.get('model.safetensors');
  if (single) sources = [blobSource(single, 'model.safetensors')];
  else {
    const index = await json('model.safetensors.index.json');
    if (!index) throw new ModelFileError('model.safetensors', 'was not among the chosen files (nor model.safetensors.index.json)');
    sources = shardNames(index).map((n) => {
      const f = byName.get(n);
      if (!f) throw new ModelFileError(n, 'is listed in model.safetensors.index.json but was not among the chosen files');
      return blobSource(f, n);
    });
  }
  const files = await Promise.all(sources.map((s) => SafetensorsFile.open(s)));
  const weights = new WeightSet(files).validate(config);
  const tokenizerJson = await json('tokenizer.json');
  const tokenizerConfig = await json('tokenizer_config.json');
  const jinja = byName.get('chat_template.jinja');
  const chatTemplate = jinja && utf8Decode(await bytesOf(jinja));
  return { config, weights, ...(tokenizerJson ? { tokenizerJson } : {}), ...(tokenizerConfig ? { tokenizerConfig } : {}), ...(chatTemplate ? { chatTemplate } : {}) };
}
