// The Model view in chromium: a pretrained model downloaded from the Hugging Face Hub (served here by
// page.route from the tiny random folders test/fixtures/torch/hf_models.py wrote, copied and resharded
// into a temporary folder, no network), with per-file and overall progress, then cached in IndexedDB
// so that a load after a reload makes no request; a model folder picked from disk (webkitdirectory);
// refusals in one line (unsupported model_type, truncated safetensors on both paths); a cancelled
// download; deleting from the cache; the message in a browser without WebGPU. Screenshots in
// test-results/screenshots/model-*.png.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium, type Browser, type Page, type Route } from 'playwright-core';
import { bufferSource, SafetensorsFile, writeSafetensors } from '../../src/model/safetensors.ts';
import { CHATML_TEMPLATE } from '../../src/model/tokenizer.ts';
import { CHROMIUM, CHROMIUM_ARGS, launchChromium, noBrowserReason } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const SHOTS = 'test-results/screenshots';
const MODELS = 'test/fixtures/models';
const HUB = 'https://huggingface.co';

/** A character-level BPE tokenizer with exactly the fixtures' 96 ids: 3 ChatML specials, then the 93
 *  characters from ' ' on (the fixtures' vocab_size is 96, so a byte-level BPE, ≥ 259 ids, would not fit). */
function charTokenizer(chatTemplate?: string): Record<string, Buffer> {
  const specials = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'];
  const vocab = Object.fromEntries([...specials, ...Array.from({ length: 93 }, (_, i) => String.fromCharCode(32 + i))].map((t, i) => [t, i]));
  const tokenizer = {
    version: '1.0', truncation: null, padding: null,
    added_tokens: specials.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: null, pre_tokenizer: null, post_processor: null, decoder: { type: 'Fuse' },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, vocab, merges: [] },
  };
  const config = { eos_token: '<|im_end|>', pad_token: '<|endoftext|>', ...(chatTemplate ? { chat_template: chatTemplate } : {}) };
  return { 'tokenizer.json': Buffer.from(JSON.stringify(tokenizer)), 'tokenizer_config.json': Buffer.from(JSON.stringify(config)) };
}

const read = (dir: string) => Object.fromEntries(readdirSync(dir).filter((f) => f !== 'reference.json').map((f) => [f, readFileSync(join(dir, f))]));
const json = (v: unknown) => Buffer.from(JSON.stringify(v, null, 2));

/** The qwen3 fixture split into two shards with model.safetensors.index.json, as large Hub models are. */
async function sharded(dir: string): Promise<Record<string, Buffer>> {
  const { 'model.safetensors': weights, ...rest } = read(dir);
  const f = await SafetensorsFile.open(bufferSource(weights!));
  const names = f.names;
  const half = Math.ceil(names.length / 2);
  const shard = async (part: string[]) => Buffer.from(writeSafetensors(await Promise.all(part.map(async (name) => ({ name, shape: f.info(name).shape, data: await f.read(name) })))));
  const [a, b] = ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];
  const weight_map = Object.fromEntries(names.map((n, i) => [n, i < half ? a : b]));
  const total_size = names.reduce((s, n) => s + f.info(n).end - f.info(n).begin, 0);
  return { ...rest, [a!]: await shard(names.slice(0, half)), [b!]: await shard(names.slice(half)), 'model.safetensors.index.json': json({ metadata: { total_size }, weight_map }) };
}

describe.skipIf(noBrowserReason)('the Model view', () => {
  let browser: Browser;
  let page: Page;
  const baseUrl = inject('baseUrl');
  const tmp = mkdtempSync(join(tmpdir(), 'webswe-model-view-'));
  const errors: string[] = [];
  /** Hub repositories by id: file name → bytes. */
  const repos = new Map<string, Record<string, Buffer>>();
  /** Paths requested from huggingface.co, in order. */
  const requests: string[] = [];
  /** A request for this path waits until `release` is called (the cancel test). */
  let hold: { path: string; arrived: () => void; release: Promise<void> } | null = null;
  const shot = (name: string) => page.screenshot({ path: `${SHOTS}/model-${name}.png`, fullPage: true });
  const api = <T>(f: string, ...args: unknown[]): Promise<T> => page.evaluate(([f, args]) => (window as any).webswe.trainer[f as string](...(args as unknown[])), [f, args] as const);

  const serve = async (route: Route) => {
    const path = new URL(route.request().url()).pathname;
    requests.push(path);
    const m = /^\/([^/]+\/[^/]+)\/resolve\/main\/([^/]+)$/.exec(path);
    const body = m ? repos.get(m[1]!)?.[m[2]!] : undefined;
    // The Hub sends CORS headers; a cross-origin-isolated page (COEP) needs them.
    const headers = { 'access-control-allow-origin': '*' };
    if (!body) return route.fulfill({ status: 404, headers, body: 'Entry not found' });
    if (hold && hold.path === path) {
      hold.arrived();
      await hold.release;
      return route.abort().catch(() => undefined); // the page cancelled it already
    }
    return route.fulfill({ status: 200, headers: { ...headers, 'content-type': 'application/octet-stream' }, body });
  };

  /** Start a load and wait for it to end: done, failed or cancelled, lasting until the next load starts. */
  const ended = async (start: () => Promise<void>) => {
    const n = Number((await page.getAttribute('#load-progress', 'data-load')) ?? 0) + 1;
    await start();
    await page.waitForSelector(`#load-progress[data-load="${n}"]:not([data-state="loading"])`);
    return page.getAttribute('#load-progress', 'data-state');
  };
  const hubLoad = (id: string) => ended(async () => {
    await page.fill('#hub-id', id);
    await page.click('#hub-load');
  });
  const pick = (selector: string, files: string | { name: string; buffer: Buffer }[]) =>
    ended(() => page.setInputFiles(selector, typeof files === 'string' ? files : files.map((f) => ({ ...f, mimeType: 'application/octet-stream' }))));
  const refusal = async () => {
    const text = (await page.textContent('#load-error:not([hidden])')) ?? '';
    expect(text).not.toMatch(/\n/);
    return text;
  };
  const cached = async () => (await api<{ id: string; files: { name: string }[] }[]>('listModels'));
  const fileRow = (name: string) => page.$eval(`#progress-files li[data-file="${name}"]`, (li) => ({ ...(li as HTMLElement).dataset }));

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const qwen3 = { ...(await sharded(join(MODELS, 'qwen3'))), ...charTokenizer(CHATML_TEMPLATE) };
    repos.set('test-org/tiny-qwen3', qwen3);
    const llama = { ...read(join(MODELS, 'llama')), ...charTokenizer() };
    repos.set('test-org/gpt2-config', { ...llama, 'config.json': json({ ...JSON.parse(llama['config.json']!.toString()), model_type: 'gpt2' }) });
    repos.set('test-org/truncated', { ...llama, 'model.safetensors': llama['model.safetensors']!.subarray(0, 60_000) });
    repos.set('test-org/slow', llama);
    // A folder on disk: the BF16 fixture with a longer context (so the New run defaults fit) and a README to leave out.
    const folder = join(tmp, 'qwen2-bf16');
    cpSync(join(MODELS, 'qwen2-bf16'), folder, { recursive: true });
    const cfg = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8'));
    writeFileSync(join(folder, 'config.json'), JSON.stringify({ ...cfg, max_position_embeddings: 4096 }));
    for (const [n, b] of Object.entries(charTokenizer())) writeFileSync(join(folder, n), b);
    writeFileSync(join(folder, 'README.md'), '# a tiny random Qwen2 in BF16\n');

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.route(`${HUB}/**`, serve);
    await page.goto(`${baseUrl}#/model`);
    await page.waitForSelector('#model-cache[data-count="0"]');
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('downloads a sharded model from the Hub with progress, checks it, caches it and plans its memory', async () => {
    expect(await hubLoad('test-org/tiny-qwen3')).toBe('done');
    const repo = repos.get('test-org/tiny-qwen3')!;
    for (const name of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'model.safetensors.index.json', 'model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors']) {
      expect(await fileRow(name)).toEqual({ file: name, state: 'done', loaded: String(repo[name]!.length), total: String(repo[name]!.length) });
    }
    // Optional files the repository lacks are shown as such: no chat_template.jinja, and the weights are sharded.
    expect((await fileRow('chat_template.jinja')).state).toBe('missing');
    expect((await fileRow('model.safetensors')).state).toBe('missing');
    const sum = Object.values(repo).reduce((a, b) => a + b.length, 0);
    expect(await page.$eval('#progress-overall', (p) => [(p as HTMLElement).dataset.loaded, (p as HTMLElement).dataset.total])).toEqual([String(sum), String(sum)]);

    const fact = (k: string) => page.textContent(`#model-facts dd[data-fact="${k}"]`);
    expect(await page.getAttribute('#model-summary', 'data-model')).toBe('test-org/tiny-qwen3');
    expect(await fact('Family')).toBe('Qwen3 (model_type qwen3)');
    expect(await fact('Layers')).toBe('2');
    expect(await fact('Hidden size')).toBe('32');
    expect(await fact('Heads / KV heads')).toBe('4 / 2 (head dim 16)');
    expect(await fact('Vocabulary')).toBe('96 (tokenizer ids 0 to 95)');
    const params = (await api<{ summary: { params: number } }[]>('listModels'))[0]!.summary.params;
    expect(await fact('Parameters')).toBe(`${(params / 1e3).toFixed(1)} k (${params.toLocaleString('en')})`);
    expect(await fact('Weights')).toMatch(/^F32: /);
    expect(await fact('model.preset')).toBe('idb:models/test-org/tiny-qwen3');
    // The plan covers full fine-tuning and LoRA; the fixture's 64 positions are refused against the New run defaults.
    expect(await page.textContent('#model-plan')).toMatch(/full fine-tuning.*LoRA/);
    expect(await page.getAttribute('#model-fit', 'data-verdict')).toBe('refused');
    expect(await page.textContent('#model-fit')).toMatch(/this model has 64 positions \(max_position_embeddings\)/);
    expect(await page.textContent('#model-adapter')).toMatch(/maxStorageBufferBindingSize/);
    expect(await page.textContent('#model-notes')).toMatch(/'shader-f16' is not needed/);
    await page.waitForSelector('#model-cache[data-count="1"] tr[data-model="test-org/tiny-qwen3"]');
    await page.waitForSelector('#storage-usage[data-usage]');
    await shot('hub');
  });

  it('offers the price of a DAPO iteration of qwen-coder-lora on this device (the first screen\'s section, measured there)', async () => {
    expect(await page.textContent('#iteration-heading')).toBe('The paper\'s setting on this device');
    expect(await page.textContent('#iteration-measure')).toBe('Measure what qwen-coder-lora costs here');
    expect(await page.isEnabled('#iteration-measure')).toBe(true);
    expect(await page.getAttribute('#iteration-price', 'data-seconds')).toBe('');
  });

  it('loads a cached model after a reload without a single request', async () => {
    await page.reload();
    await page.waitForSelector('#model-cache[data-count="1"]');
    const before = requests.length;
    expect(await hubLoad('test-org/tiny-qwen3')).toBe('done');
    expect(requests.length).toBe(before);
    expect(await page.getAttribute('#model-summary', 'data-from-cache')).toBe('true');
    // The same files as a run reads them (idb:models/<id>), checked again by describeModel.
    const report = await api<{ model: { files: { name: string }[] } }>('describeModel', 'test-org/tiny-qwen3');
    expect(report.model.files.map((f) => f.name).sort()).toEqual(Object.keys(repos.get('test-org/tiny-qwen3')!).sort());
  });

  it('imports a model folder picked from disk and leaves other files out', async () => {
    expect(await pick('#model-folder', join(tmp, 'qwen2-bf16'))).toBe('done');
    expect(await page.getAttribute('#model-summary', 'data-model')).toBe('local/qwen2-bf16');
    expect(await page.textContent('#model-facts dd[data-fact="Weights"]')).toMatch(/^BF16: .* stored, .* as f32 on the GPU$/);
    expect(await page.getAttribute('#model-fit', 'data-verdict')).toBe('ok');
    const local = (await cached()).find((m) => m.id === 'local/qwen2-bf16')!;
    expect(local.files.map((f) => f.name).sort()).toEqual(['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']);
    expect((await fileRow('README.md')).state).toBe('skipped');
    await page.waitForSelector('#model-cache[data-count="2"]');
    await shot('local');
  });

  it('refuses an unsupported model_type before fetching any weights, in one line', async () => {
    expect(await hubLoad('test-org/gpt2-config')).toBe('failed');
    expect(await refusal()).toBe('config.json: model_type "gpt2" is not supported (supported: llama, qwen2, qwen3)');
    expect(requests.filter((p) => p.startsWith('/test-org/gpt2-config/')).map((p) => p.split('/').pop())).toEqual(['config.json']);
    await shot('refused');
  });

  it('refuses a truncated safetensors file, downloaded or picked, in one line', async () => {
    expect(await hubLoad('test-org/truncated')).toBe('failed');
    expect(await refusal()).toMatch(/^model\.safetensors: header says tensor \S+ ends at byte \d+ but the file has 60000 bytes: the file is truncated or corrupt; download it again$/);
    const llama = read(join(MODELS, 'llama'));
    await page.fill('#local-name', 'cut');
    const files = [...Object.entries(charTokenizer()), ['config.json', llama['config.json']!], ['model.safetensors', llama['model.safetensors']!.subarray(0, 50_000)]] as const;
    expect(await pick('#model-files', files.map(([name, buffer]) => ({ name, buffer })))).toBe('failed');
    expect(await refusal()).toMatch(/^model\.safetensors: header says tensor .* the file has 50000 bytes: the file is truncated/);
    expect((await cached()).map((m) => m.id).sort()).toEqual(['local/qwen2-bf16', 'test-org/tiny-qwen3']);
  });

  it('cancels a download and stores nothing', async () => {
    let arrived!: () => void;
    let release!: () => void;
    const waiting = new Promise<void>((r) => (arrived = r));
    hold = { path: '/test-org/slow/resolve/main/model.safetensors', arrived, release: new Promise<void>((r) => (release = r)) };
    await page.fill('#hub-id', 'test-org/slow');
    await page.click('#hub-load');
    await waiting; // the weights' request is open (and stays open until released)
    await page.waitForSelector('#progress-files li[data-file="model.safetensors"][data-state="loading"]');
    await page.click('#load-cancel');
    await page.waitForSelector('#load-progress[data-state="cancelled"]');
    release();
    hold = null;
    expect(await page.textContent('#load-status')).toBe('Cancelled: nothing was stored.');
    expect((await cached()).map((m) => m.id)).not.toContain('test-org/slow');
    expect(await page.isEnabled('#hub-load')).toBe(true);
  });

  it('shows a cached model again and deletes one from the cache', async () => {
    page.once('dialog', (d) => void d.accept());
    await page.click('button[aria-label="Delete test-org/tiny-qwen3"]');
    await page.waitForSelector('#model-cache[data-count="1"]');
    expect((await cached()).map((m) => m.id)).toEqual(['local/qwen2-bf16']);
    // Show: the cached model loaded as a run would load it, without a request.
    const before = requests.length;
    expect(await ended(() => page.click('button[aria-label="Show local/qwen2-bf16"]'))).toBe('done');
    expect([await page.getAttribute('#model-summary', 'data-model'), await page.getAttribute('#model-summary', 'data-from-cache')]).toEqual(['local/qwen2-bf16', 'true']);
    expect(requests.length).toBe(before);
    const refused = await api<string>('describeModel', 'test-org/tiny-qwen3').catch((e: Error) => e.message);
    expect(refused).toMatch(/no cached model "test-org\/tiny-qwen3"/);
    // Every control is labelled.
    const unlabelled = await page.$$eval('#view input, #view button, #view progress', (els) =>
      els.filter((e) => !(e as HTMLInputElement).labels?.length && !e.getAttribute('aria-label') && !e.textContent?.trim()).map((e) => e.outerHTML));
    expect(unlabelled).toEqual([]);
    await shot('cache');
    expect(errors).toEqual([]);
  });

  it('says that pretrained models need WebGPU, and how to enable it, in a browser without it', async () => {
    // The same chromium without the flags that turn WebGPU on: Linux builds then offer none.
    const plain = await chromium.launch({ executablePath: CHROMIUM!, headless: true, args: CHROMIUM_ARGS.filter((a) => !/webgpu/i.test(a)) });
    try {
      const p = await plain.newPage({ viewport: { width: 1200, height: 1000 } });
      await p.goto(`${baseUrl}#/model`);
      await p.waitForSelector('#model-gpu[data-status="unavailable"]');
      expect(await p.textContent('#model-gpu')).toMatch(/^Pretrained models need WebGPU, and the trainer worker has none \(.*on Linux start it with --enable-unsafe-webgpu/);
      await p.setInputFiles('#model-folder', join(tmp, 'qwen2-bf16'));
      await p.waitForSelector('#load-progress[data-state="done"]');
      expect(await p.getAttribute('#model-fit', 'data-verdict')).toBe('no-webgpu');
      expect(await p.textContent('#model-fit')).toMatch(/^No WebGPU in the trainer worker \(.*\)\. Pretrained models train only on WebGPU/);
      await p.screenshot({ path: `${SHOTS}/model-no-webgpu.png`, fullPage: true });
    } finally {
      await plain.close();
    }
  });
});
