// Loading and saving whole Hugging Face folders: from disk, from a URL (a fake fetch that streams),
// from picked Files; checkpoints written and read back bit-exact, and read by Python (the torch
// fixture script) when Debian's python3-torch is installed; a broken folder gives one line and exit 1.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelFileError } from '../../../src/model/errors.ts';
import { trainBpe } from '../../../src/model/bpe.ts';
import { folderUrl, loadModelFromFiles, loadModelFromUrl, loadTokenizerFilesFromUrl, type FetchLike, type Progress } from '../../../src/model/load.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { loadModelDir, saveModelDir } from '../../../src/model/load.node.ts';
import { inspectModelDir } from '../../../src/model/inspect.node.ts';
import { writeSafetensors } from '../../../src/model/safetensors.ts';
import { expectedTensors, hfFolderFiles } from '../../../src/model/weights.ts';

const MODELS = fileURLToPath(new URL('../../fixtures/models/', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../../fixtures/torch/hf_models.py', import.meta.url));
const INSPECT = fileURLToPath(new URL('../../../src/model/inspect.node.ts', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'webswe-model-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const sameBits = (a: Float32Array, b: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ModelFileError);
    expect((e as Error).message).not.toMatch(/\n/);
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

/** A fetch over in-memory files that streams in 4 KiB chunks; `lie` announces 1000 bytes more than
 *  it sends for that file; `reads` counts the chunks read per file. */
function fakeFetch(files: Record<string, Uint8Array>, opts: { lie?: string; noLength?: boolean; reads?: Record<string, number> } = {}): FetchLike {
  return async (url) => {
    const name = url.split('/').pop()!;
    const body = files[name];
    if (!body) return { ok: false, status: 404, statusText: 'Not Found', headers: { get: () => null }, body: null, arrayBuffer: async () => new ArrayBuffer(0) };
    const len = name === opts.lie ? body.length + 1000 : body.length;
    let at = 0;
    return {
      ok: true,
      status: 200,
      statusText: 'OK',
      headers: { get: (h: string) => (h.toLowerCase() === 'content-length' && !opts.noLength ? String(len) : null) },
      body: {
        getReader: () => ({
          read: async () => {
            if (opts.reads) opts.reads[name] = (opts.reads[name] ?? 0) + 1;
            return at >= body.length ? { done: true } : { done: false, value: body.subarray(at, (at += 4096)) };
          },
          cancel: async () => undefined,
        }),
      },
      arrayBuffer: async () => body.slice().buffer,
    };
  };
}

const folder = (name: string) => Object.fromEntries(readdirSync(join(MODELS, name)).map((f) => [f, new Uint8Array(readFileSync(join(MODELS, name, f)))]));

describe('Hugging Face folders on disk', () => {
  it('loads each fixture, saves it, and loads it back bit-exact (F32)', async () => {
    for (const name of ['llama', 'qwen2', 'qwen3']) {
      const a = await loadModelDir(join(MODELS, name));
      const tensors = await a.weights.readModel(a.config);
      const out = join(tmp, `${name}-f32`);
      const written = await saveModelDir(out, { config: a.config, tensors, tokenizerJson: { x: 1 }, tokenizerConfig: { y: 2 } });
      expect(written).toEqual(['config.json', 'generation_config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']);
      expect(readdirSync(out).sort()).toEqual([...written].sort()); // no temporary files left
      const b = await loadModelDir(out);
      expect(b.config).toEqual(a.config);
      expect(b.tokenizerJson).toEqual({ x: 1 });
      for (const s of expectedTensors(a.config)) expect(sameBits(await b.weights.read(s.name), tensors.get(s.name)!)).toBe(true);
      expect(readFileSync(join(out, 'model.safetensors')).equals(readFileSync(join(MODELS, name, 'model.safetensors')))).toBe(true);
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('loads BF16 weights and writes BF16 checkpoints', async () => {
    const a = await loadModelDir(join(MODELS, 'qwen2-bf16'));
    const tensors = await a.weights.readModel(a.config);
    await saveModelDir(join(tmp, 'qwen2-bf16'), { config: a.config, tensors, dtype: 'BF16' });
    expect(readFileSync(join(tmp, 'qwen2-bf16', 'model.safetensors')).equals(readFileSync(join(MODELS, 'qwen2-bf16', 'model.safetensors')))).toBe(true);
    expect(JSON.parse(readFileSync(join(tmp, 'qwen2-bf16', 'config.json'), 'utf8')).torch_dtype).toBe('bfloat16');
    await a.close();
  });

  it('loads a sharded folder through model.safetensors.index.json', async () => {
    const a = await loadModelDir(join(MODELS, 'qwen3'));
    const tensors = await a.weights.readModel(a.config);
    const dir = join(tmp, 'qwen3-sharded');
    cpSync(join(MODELS, 'qwen3'), dir, { recursive: true });
    rmSync(join(dir, 'model.safetensors'));
    const specs = expectedTensors(a.config);
    const shard = (part: typeof specs) => writeSafetensors(part.map((s) => ({ name: s.name, shape: s.shape, data: tensors.get(s.name)! })));
    writeFileSync(join(dir, 'model-00001-of-00002.safetensors'), shard(specs.slice(0, 7)));
    writeFileSync(join(dir, 'model-00002-of-00002.safetensors'), shard(specs.slice(7)));
    const weight_map = Object.fromEntries(specs.map((s, i) => [s.name, `model-0000${i < 7 ? 1 : 2}-of-00002.safetensors`]));
    writeFileSync(join(dir, 'model.safetensors.index.json'), JSON.stringify({ metadata: {}, weight_map }));
    const b = await loadModelDir(dir);
    expect(b.weights.files.length).toBe(2);
    for (const s of specs) expect(sameBits(await b.weights.read(s.name), tensors.get(s.name)!)).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses a folder without config.json or weights, or with a config for another model', async () => {
    expect(await refusal(loadModelDir(tmp))).toMatch(/has no config\.json: not a Hugging Face model folder/);
    const dir = join(tmp, 'mismatch');
    cpSync(join(MODELS, 'llama'), dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), readFileSync(join(MODELS, 'qwen3', 'config.json')));
    expect(await refusal(loadModelDir(dir))).toMatch(/^model\.safetensors: tensor .* is missing|^model\.safetensors: tensor .* has shape/);
    rmSync(join(dir, 'model.safetensors'));
    expect(await refusal(loadModelDir(dir))).toMatch(/has no model\.safetensors/);
  });
});

describe('from a URL and from picked files', () => {
  it('folderUrl maps Hub ids and keeps URLs', () => {
    expect(folderUrl('Qwen/Qwen2.5-0.5B-Instruct')).toBe('https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct/resolve/main/');
    expect(folderUrl('https://example.org/m')).toBe('https://example.org/m/');
    expect(() => folderUrl('not a repo')).toThrow(/neither a URL nor a Hugging Face repo id/);
  });

  it('streams with progress, validates, and reads the same tensors as from disk', async () => {
    const events: Progress[] = [];
    const m = await loadModelFromUrl('https://example.org/qwen3', { fetch: fakeFetch(folder('qwen3')), onProgress: (p) => events.push({ ...p }) });
    const st = events.filter((e) => e.file === 'model.safetensors');
    expect(st.length).toBeGreaterThan(10);
    expect(st.at(-1)).toEqual({ file: 'model.safetensors', loaded: st.at(-1)!.total, total: readFileSync(join(MODELS, 'qwen3', 'model.safetensors')).length });
    const disk = await loadModelDir(join(MODELS, 'qwen3'));
    for (const s of expectedTensors(m.config)) expect(sameBits(await m.weights.read(s.name), await disk.weights.read(s.name))).toBe(true);
    expect(m.tokenizerJson).toBeUndefined();
    await disk.close();
    // Without Content-Length the buffer grows; the result is the same.
    const m2 = await loadModelFromUrl('https://example.org/qwen3', { fetch: fakeFetch(folder('qwen3'), { noLength: true }) });
    expect(m2.weights.tensors.size).toBe(m.weights.tensors.size);
  });

  it('refuses a dropped download and a file whose header lies, early', async () => {
    expect(await refusal(loadModelFromUrl('https://x.org/m', { fetch: fakeFetch(folder('llama'), { lie: 'model.safetensors' }) }))).toMatch(
      /^model\.safetensors: the download stopped at \d+ of \d+ bytes: the connection dropped; try again$/,
    );
    const files = folder('llama');
    const cut = files['model.safetensors']!.subarray(0, 40_000);
    let reads: Record<string, number> = {};
    // The header promises more than Content-Length: refused after the first chunk, not at the end.
    const msg = await refusal(loadModelFromUrl('https://x.org/m', { fetch: fakeFetch({ ...files, 'model.safetensors': cut }, { lie: 'model.safetensors', reads }) }));
    expect(msg).toMatch(/^model\.safetensors: header says tensor \S+ ends at byte \d+ but the file has 41000 bytes/);
    expect(reads['model.safetensors']).toBe(1);
    expect(await refusal(loadModelFromUrl('https://x.org/m', { fetch: fakeFetch({}) }))).toMatch(/^config\.json: not found at https:\/\/x\.org\/m\//);
    // A config for another model: refused from the header, after the first chunk.
    reads = {};
    const wrong = { ...files, 'config.json': folder('qwen3')['config.json']! };
    expect(await refusal(loadModelFromUrl('https://x.org/m', { fetch: fakeFetch(wrong, { reads }) }))).toMatch(/^model\.safetensors: tensor \S+ (is missing|has shape)/);
    expect(reads['model.safetensors']).toBe(1);
  });

  it('loads tokenizer files alone, preferring chat_template.jinja', async () => {
    const bpe = trainBpe(['hello world, hello tokens'], { vocabSize: 270 });
    const enc = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));
    const served = { 'tokenizer.json': enc(bpe.tokenizerJson), 'tokenizer_config.json': enc(bpe.tokenizerConfig), 'chat_template.jinja': enc('[{{ messages[0].content }}]') };
    const files = await loadTokenizerFilesFromUrl('someone/tiny', { fetch: fakeFetch(served) });
    const tok = Tokenizer.fromJson(files.tokenizerJson, files.tokenizerConfig, files.chatTemplate);
    expect(tok.applyChatTemplate([{ role: 'user', content: 'hi' }])).toBe('[hi]');
    expect(tok.decode(tok.encode('hello world'))).toBe('hello world');
    expect(await refusal(loadTokenizerFilesFromUrl('someone/none', { fetch: fakeFetch({}) }))).toMatch(/^tokenizer\.json: not found at https:\/\/huggingface\.co\/someone\/none\/resolve\/main\//);
  });

  it('loads picked File objects', async () => {
    const files = Object.entries(folder('qwen2')).map(([name, bytes]) => new File([bytes], name));
    const m = await loadModelFromFiles([...files, new File(['{{ 1 }}'], 'chat_template.jinja')]);
    expect(m.config.modelType).toBe('qwen2');
    expect(m.chatTemplate).toBe('{{ 1 }}');
    const written = hfFolderFiles({ config: m.config, tensors: await m.weights.readModel(m.config), tokenizerConfig: { eos_token: 'x' }, chatTemplate: m.chatTemplate });
    expect(JSON.parse(new TextDecoder().decode(written.get('tokenizer_config.json')))).toEqual({ eos_token: 'x', chat_template: '{{ 1 }}' });
    expect((await m.weights.read('model.norm.weight')).length).toBe(32);
    expect(await refusal(loadModelFromFiles(files.filter((f) => f.name !== 'config.json')))).toMatch(/config\.json: was not among the chosen files/);
  });
});

const python = '/usr/bin/python3';
const torchMissing = !existsSync(python) || spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8' }).status !== 0;
describe('Python reads our checkpoints', () => {
  it('hf_models.py --check gets the reference logits from folders webswe wrote (F32 and BF16)', async (ctx) => {
    if (torchMissing) return ctx.skip("the Python cross-check needs Debian's python3-torch (/usr/bin/python3 with torch)");
    for (const [name, dtype] of [['llama', 'F32'], ['qwen2', 'F32'], ['qwen3', 'F32'], ['qwen2', 'BF16']] as const) {
      const m = await loadModelDir(join(MODELS, name));
      await saveModelDir(join(tmp, `${name}-${dtype.toLowerCase()}`), { config: m.config, tensors: await m.weights.readModel(m.config), dtype });
      await m.close();
    }
    const pairs = [['llama-f32', 'llama'], ['qwen2-f32', 'qwen2'], ['qwen3-f32', 'qwen3'], ['qwen2-bf16', 'qwen2']].flatMap(([d, n]) => [join(tmp, d!), n!]);
    const r = spawnSync(python, [SCRIPT, '--check', ...pairs], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr + r.stdout).toMatch(/^ok llama: .*\nok qwen2: .*\nok qwen3: .*\nok qwen2: .*tolerance 0\.1\)\n$/);
    expect(r.status).toBe(0);
  });
});

describe('inspect.node.ts as a script', () => {
  const run = (dir: string) => spawnSync(process.execPath, ['--import', 'tsx', INSPECT, dir], { encoding: 'utf8', timeout: 60_000 });
  it('summarises a good folder', async () => {
    const r = run(join(MODELS, 'qwen3'));
    expect(r.stdout).toMatch(/^qwen3: 0\.03 M parameters, L 2, C 32, NH 4, NKV 2, HS 16, V 96; 25 tensors \(F32\)/);
    expect(r.status).toBe(0);
    expect((await inspectModelDir(join(MODELS, 'qwen2-bf16'))).dtypes).toEqual(['BF16']);
  });
  it('a truncated file or a bad config: one line on stderr, exit 1, no stack trace', () => {
    const dir = join(tmp, 'broken');
    cpSync(join(MODELS, 'llama'), dir, { recursive: true });
    const st = readFileSync(join(dir, 'model.safetensors'));
    writeFileSync(join(dir, 'model.safetensors'), st.subarray(0, st.length - 7));
    let r = run(dir);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: model\.safetensors: header says tensor lm_head\.weight ends at byte \d+ but the file has \d+ bytes: the file is truncated or corrupt; download it again/);
    writeFileSync(join(dir, 'config.json'), '{"model_type": "llama", "vocab_size": 96,');
    r = run(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: config\.json: not valid JSON/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
