// Node side of model I/O: a safetensors file as a ByteSource (positioned reads, nothing loaded whole),
// a Hugging Face folder loaded from disk, and a checkpoint folder written (each file via a temporary
// name and a rename, so a crash never leaves a half-written checkpoint under the real name).
import { open, mkdir, readFile, rename, writeFile, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { parseHfConfig } from './config.ts';
import { ModelFileError } from './errors.ts';
import { shardNames, type LoadedModel } from './load.ts';
import { SafetensorsFile, type ByteSource } from './safetensors.ts';
import { hfFolderFiles, WeightSet, type HfFolderInput } from './weights.ts';

export interface FileSource extends ByteSource {
  close(): Promise<void>;
}

/** A file on disk as a ByteSource; `name` (for messages) defaults to the path. */
export async function fileSource(path: string, name = path): Promise<FileSource> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    throw new ModelFileError(name, `cannot be opened (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const { size } = await fh.stat();
  return {
    name,
    size,
    async read(b, e) {
      const buf = new Uint8Array(e - b);
      let got = 0;
      while (got < buf.byteLength) {
        const { bytesRead } = await fh.read(buf, got, buf.byteLength - got, b + got);
        if (bytesRead === 0) throw new ModelFileError(name, `ended at byte ${b + got} while reading bytes ${b}–${e}: the file changed or is truncated`);
        got += bytesRead;
      }
      return buf;
    },
    close: () => fh.close(),
  };
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

async function readJson(path: string, name: string): Promise<object> {
  const text = await readFile(path, 'utf8');
  try {
    const v: unknown = JSON.parse(text);
    if (v === null || typeof v !== 'object') throw new Error('not an object');
    return v;
  } catch (e) {
    throw new ModelFileError(name, `is not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
}

export interface LoadedModelDir extends LoadedModel {
  /** Closes the weight files; tensors cannot be read after. */
  close(): Promise<void>;
}

/** Loads a Hugging Face folder: config.json, model.safetensors (or shards + index), tokenizer files.
 *  Headers are validated against the config before anything else is read. */
export async function loadModelDir(dir: string): Promise<LoadedModelDir> {
  const cfgPath = join(dir, 'config.json');
  if (!(await exists(cfgPath))) throw new ModelFileError(dir, 'has no config.json: not a Hugging Face model folder');
  const config = parseHfConfig(await readFile(cfgPath, 'utf8'));
  let names: string[];
  if (await exists(join(dir, 'model.safetensors'))) names = ['model.safetensors'];
  else if (await exists(join(dir, 'model.safetensors.index.json'))) names = shardNames(await readJson(join(dir, 'model.safetensors.index.json'), 'model.safetensors.index.json'));
  else throw new ModelFileError(dir, 'has no model.safetensors (nor model.safetensors.index.json)');
  const sources: FileSource[] = [];
  const closeAll = () => Promise.all(sources.map((s) => s.close())).then(() => undefined);
  try {
    const files: SafetensorsFile[] = [];
    for (const n of names) {
      const src = await fileSource(join(dir, n), n);
      sources.push(src);
      files.push(await SafetensorsFile.open(src));
    }
    const weights = new WeightSet(files).validate(config);
    const opt = async (n: string) => ((await exists(join(dir, n))) ? readJson(join(dir, n), n) : undefined);
    const tokenizerJson = await opt('tokenizer.json');
    const tokenizerConfig = await opt('tokenizer_config.json');
    const chatTemplate = (await exists(join(dir, 'chat_template.jinja'))) ? await readFile(join(dir, 'chat_template.jinja'), 'utf8') : undefined;
    return {
      config,
      weights,
      ...(tokenizerJson ? { tokenizerJson } : {}),
      ...(tokenizerConfig ? { tokenizerConfig } : {}),
      ...(chatTemplate !== undefined ? { chatTemplate } : {}),
      close: closeAll,
    };
  } catch (e) {
    await closeAll();
    throw e;
  }
}

/** Writes a checkpoint as a Hugging Face folder that transformers' from_pretrained loads. */
export async function saveModelDir(dir: string, input: HfFolderInput): Promise<string[]> {
  const files = hfFolderFiles(input);
  await mkdir(dir, { recursive: true });
  for (const [name, bytes] of files) {
    const tmp = join(dir, `.${name}.tmp`);
    await writeFile(tmp, bytes);
    await rename(tmp, join(dir, name));
  }
  return [...files.keys()];
}
