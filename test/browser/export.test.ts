// Export, import and comparison in the Runs view, in chromium: a task file is imported (a file with bad
// lines is refused, each named by line and reason), a nano run trains on it, its episodes download as
// ATIF JSON and SFT JSONL and its last checkpoint as a zip of its Hugging Face folder (all parsed here);
// the zip imports back as a run, one whose config has a phase left is resumed from the imported
// checkpoint, broken zips are refused by name, and two runs open side by side in #/compare/a/b.
import { mkdirSync, readFileSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ATIF_VERSION, fromAtif, fromSftLine, type AtifTrajectory } from '../../src/agent/export.ts';
import { parseHfConfig } from '../../src/model/config.ts';
import { bufferSource, readHeader } from '../../src/model/safetensors.ts';
import { expectedTensors, validateAgainstConfig } from '../../src/model/weights.ts';
import { formatTaskLine, parseTaskFile } from '../../src/tasks/schema.ts';
import { selectTasks } from '../../src/tasks/select.ts';
import type { MetricRecord } from '../../src/store/types.ts';
import { launchChromium, noBrowserReason } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const SHOTS = 'test-results/screenshots';
const RUN = 'export-src';
/** A run of a few seconds (as in run.test.ts: expert episodes and evaluation, no gradient steps), on the imported tasks. */
const SETTINGS = {
  'model.preset': 'scratch-30k', 'tasks.train': 'idb:tasks/mine.jsonl', 'tasks.maxTrain': 2, 'tasks.maxTest': 1, 'agent.maxTurns': 3,
  'reward.lengthThreshold': 2, 'reward.lengthPenalty': false, 'agent.contextTokens': 1536, 'agent.actionTokens': 48,
  'bc.episodes': 2, 'bc.epochs': 0, 'eval.samples': 1, 'run.phases': 'base',
};
/** The imported copy that has a phase left: one DAPO iteration of one group of two (dropped by shrink: all rewards equal). */
const CONTINUE = {
  'run.phases': 'base,dapo', 'dapo.iterations': 1, 'dapo.tasksPerIteration': 1, 'dapo.groupSize': 2, 'dapo.filterMode': 'shrink',
  'dapo.maxGenBatches': 1, 'dapo.optimizerSteps': 1,
};

// Three short training tasks under new ids, so the run's episodes show which set they came from.
const mine = selectTasks(parseTaskFile(readFileSync('public/tasks/train.jsonl', 'utf8'), 'train').tasks, { max: 3, difficulty: 'any' })
  .map((t, i) => ({ ...t, instance_id: `mine__${i + 1}` }));
const { patch: _patch, ...noPatch } = mine[1]!;
const BAD = [formatTaskLine(mine[0]!), '{"instance_id": "broken"', JSON.stringify(noPatch), formatTaskLine({ ...mine[2]!, test_files: ['test/none.test.js'] })].join('\n');

describe.skipIf(noBrowserReason)('export, import and comparison in the Runs view', () => {
  let browser: Browser;
  let page: Page;
  const baseUrl = inject('baseUrl');
  const errors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  const api = <T>(f: string, ...args: unknown[]): Promise<T> => page.evaluate(([f, args]) => (window as any).webswe.trainer[f as string](...(args as unknown[])), [f, args] as const);
  const download = async (click: () => Promise<void>) => {
    const [d] = await Promise.all([page.waitForEvent('download'), click()]);
    return { name: d.suggestedFilename(), bytes: readFileSync((await d.path())!) };
  };
  /** Wait until the run has finished or failed (lasting states; paused is where a resumed run starts), then say how it ended. */
  const settled = async (name: string) => {
    for (;;) {
      const run = await api<{ status: string; error?: { message: string } } | null>('getRun', name);
      if (run && ['done', 'failed'].includes(run.status)) return run;
      await page.waitForTimeout(500);
    }
  };
  const importFile = (input: string, name: string, bytes: Uint8Array | string) =>
    page.setInputFiles(input, { name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  const importError = async () => {
    await page.waitForSelector('#import-error:not([hidden])');
    return (await page.textContent('#import-error')) ?? '';
  };
  let zip: Record<string, Uint8Array>;
  let metrics: MetricRecord[];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${baseUrl}#/runs`);
    await page.waitForSelector('#task-set-list[data-count]');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('refuses a task file with bad lines, naming each line and its reason, and imports a good one', async () => {
    await importFile('#import-tasks', 'bad.jsonl', BAD);
    const text = await importError();
    expect(text).toContain('bad.jsonl: 3 lines refused, nothing imported');
    expect(text).toMatch(/bad\.jsonl:2: not valid JSON/);
    expect(text).toContain('bad.jsonl:3: field patch: is missing');
    expect(text).toContain('bad.jsonl:4: field test_files: "test/none.test.js" is not one of the task\'s files');
    expect(await api('listTaskSets')).toEqual([]);

    await importFile('#import-tasks', 'mine.jsonl', mine.map(formatTaskLine).join('\n') + '\n');
    await page.waitForSelector('#task-set-list[data-count="1"]');
    expect(await page.textContent('#import-status')).toContain('Imported 3 tasks');
    expect(await page.textContent('#import-status')).toContain('idb:tasks/mine.jsonl');
    expect(await page.isHidden('#import-error')).toBe(true);
    // A second file under the same name would change the tasks of runs that use it: refused.
    await importFile('#import-tasks', 'mine.jsonl', formatTaskLine(mine[0]!));
    expect(await importError()).toContain('a task set named "mine.jsonl" is already imported');
    // The Tasks view lists it beside the bundled sets.
    await page.click('#task-set-list a');
    await page.waitForSelector('#task-list[data-count="3"]');
    expect(await page.$$eval('#task-list tr[data-task]', (trs) => trs.map((tr) => tr.getAttribute('data-task')))).toEqual(['mine__1', 'mine__2', 'mine__3']);
    expect(await page.textContent('#task-sets')).toContain('mine.jsonl (imported)');
    // The New run form suggests it for tasks.train and tasks.test, beside the bundled sets.
    await page.goto(`${baseUrl}#/new`);
    await page.waitForSelector('#task-set-choices option[value="idb:tasks/mine.jsonl"]', { state: 'attached' });
    expect(await page.$$eval('#task-set-choices option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['public/tasks/level0/train.jsonl', 'public/tasks/level0/val.jsonl', 'public/tasks/level0/test.jsonl', 'public/tasks/level0-reports/train.jsonl', 'public/tasks/level0-reports/val.jsonl', 'public/tasks/level0-reports/test.jsonl', 'public/tasks/train.jsonl', 'public/tasks/test.jsonl', 'idb:tasks/mine.jsonl']);
    expect(await page.getAttribute('#field-tasks-test', 'list')).toBe('task-set-choices');
    expect(await page.$$eval('#model-choices option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['scratch-30k', 'scratch-160k', 'scratch-400k', 'scratch-5m']);
  });

  it('trains a nano run on the imported set and downloads its episodes as ATIF JSON and SFT JSONL', async () => {
    await api('startRun', { name: RUN, preset: '', overrides: SETTINGS, backend: 'fast-cpu' });
    const run = await settled(RUN);
    expect(run.status, run.error?.message).toBe('done');
    const steps = await api<{ phase: string; step: number }[]>('listTrajectorySteps', RUN);
    const stored = (await Promise.all(steps.map((s) => api<{ task_id: string }[]>('readTrajectories', RUN, s.phase, s.step)))).flat();
    await page.goto(`${baseUrl}#/runs`);
    await page.waitForSelector(`#runs tr[data-run="${RUN}"]`);

    const atif = await download(() => page.getByRole('button', { name: `Export the episodes of ${RUN} as ATIF JSON` }).click());
    expect(atif.name).toBe(`${RUN}.atif.json`);
    const docs = JSON.parse(atif.bytes.toString('utf8')) as (AtifTrajectory & { extra: { run: { phase: string } } })[];
    expect(docs).toHaveLength(stored.length);
    for (const d of docs) expect(d.schema_version).toBe(ATIF_VERSION);
    // The expert episodes ran on the imported tasks; each document reads back as a trajectory.
    const bc = docs.filter((d) => d.extra.run.phase === 'bc').map((d) => fromAtif(d));
    expect(bc.length).toBe(2);
    for (const t of bc) expect(t.task_id).toMatch(/^mine__\d$/);
    expect(docs.map((d) => fromAtif(d).task_id)).toEqual(stored.map((t) => t.task_id));

    const sft = await download(() => page.getByRole('button', { name: `Export the episodes of ${RUN} as SFT JSONL` }).click());
    expect(sft.name).toBe(`${RUN}.sft.jsonl`);
    const lines = sft.bytes.toString('utf8').trimEnd().split('\n').map((l) => fromSftLine(l) as ReturnType<typeof fromSftLine> & { metadata: { phase: string } });
    expect(lines.map((l) => l.metadata.task_id)).toEqual(stored.map((t) => t.task_id));
    for (const l of lines) {
      expect(l.messages.map((m) => m.role).slice(0, 2)).toEqual(['system', 'user']);
      expect(l.messages.some((m) => m.role === 'assistant')).toBe(true);
    }
  });

  it('downloads the last checkpoint as a zip of its Hugging Face folder', async () => {
    const ck = await download(() => page.getByRole('button', { name: `Export the last checkpoint of ${RUN} as a zip` }).click());
    expect(ck.name).toBe(`${RUN}-base-0.zip`);
    zip = unzipSync(new Uint8Array(ck.bytes));
    expect(Object.keys(zip).sort()).toEqual(['config.json', 'generation_config.json', 'model.safetensors', 'state.json', 'tokenizer.json', 'tokenizer_config.json', 'webswe-run.json']);
    const cfg = parseHfConfig(strFromU8(zip['config.json']!));
    expect(cfg.hiddenSize).toBe(32);
    const header = await readHeader(bufferSource(zip['model.safetensors']!));
    validateAgainstConfig(header.tensors, cfg);
    expect([...header.tensors.keys()].sort()).toEqual(expectedTensors(cfg).map((s) => s.name).sort());
    const state = JSON.parse(strFromU8(zip['state.json']!));
    expect(state).toMatchObject({ phase: 'base', step: 0, done: ['base'] });
    const info = JSON.parse(strFromU8(zip['webswe-run.json']!));
    metrics = await api<MetricRecord[]>('readMetrics', RUN);
    expect(info).toMatchObject({ format: 'webswe-run', name: RUN, config: { 'model.preset': 'scratch-30k', 'tasks.train': 'idb:tasks/mine.jsonl' } });
    expect(info.metrics).toEqual(metrics.slice(0, state.metricsCount));
    expect(JSON.parse(strFromU8(zip['tokenizer.json']!)).model.type).toBe('BPE');
  });

  it('imports the zip as a run with its checkpoint, config and curves; exported again, the weights are the same bytes', async () => {
    await importFile('#import-checkpoint', `${RUN}-base-0.zip`, zipSync(zip));
    const imported = `${RUN}-imported`;
    await page.waitForSelector(`#runs tr[data-run="${imported}"]`);
    expect(await page.textContent('#import-status')).toMatch(/Imported "export-src-imported": the checkpoint at the end of base with \d+ metrics rows\. Every phase of its config \(base\) is done\./);
    const run = await api<{ status: string; config: Record<string, unknown>; checkpoint: { phase: string }; metricsCount: number }>('getRun', imported);
    const original = await api<{ config: Record<string, unknown> }>('getRun', RUN);
    expect(run).toMatchObject({ status: 'done', checkpoint: { phase: 'base' }, metricsCount: metrics.length, config: original.config });
    expect(await page.textContent(`#runs tr[data-run="${imported}"] .checkpoint`)).toBe('at the end of base'); // the live view's words
    const again = await page.evaluate(async (n) => {
      const f = await (window as any).webswe.trainer.exportCheckpoint(n);
      return [...new Uint8Array(await f.blob.arrayBuffer())];
    }, imported);
    const files = unzipSync(new Uint8Array(again));
    for (const f of ['model.safetensors', 'config.json', 'state.json', 'tokenizer.json']) expect(Buffer.from(files[f]!).equals(Buffer.from(zip[f]!)), f).toBe(true);
  });

  it('imports a zipped CLI run folder (run config and metrics beside checkpoint/) with the browser\'s sandbox', async () => {
    const info = JSON.parse(strFromU8(zip['webswe-run.json']!));
    const cli: Record<string, Uint8Array> = {
      'cli-run/config.json': strToU8(JSON.stringify({ ...info.config, 'agent.sandbox': 'node' })),
      'cli-run/metrics.jsonl': strToU8(info.metrics.map((m: MetricRecord) => JSON.stringify(m) + '\n').join('')),
    };
    for (const [f, b] of Object.entries(zip)) if (f !== 'webswe-run.json') cli[`cli-run/checkpoint/${f}`] = b;
    await importFile('#import-checkpoint', 'cli-run.zip', zipSync(cli));
    await page.waitForSelector('#runs tr[data-run="cli-run"]');
    const run = await api<{ status: string; config: Record<string, unknown>; metricsCount: number }>('getRun', 'cli-run');
    expect(run).toMatchObject({ status: 'done', metricsCount: metrics.length, config: { ...info.config, 'agent.sandbox': 'worker' } });
  });

  it('lists a checkpoint that came without its run config, with the reason it cannot be resumed', async () => {
    const { 'webswe-run.json': _info, ...bare } = zip;
    await importFile('#import-checkpoint', 'bare.zip', zipSync(bare));
    await page.waitForSelector('#runs tr[data-run="bare"] .status[data-status="stopped"]');
    expect(await page.textContent('#import-status')).toContain('cannot be resumed: the zip has no run config');
    expect(await page.textContent('#runs tr[data-run="bare"] .checkpoint')).toBe('at the end of base');
    expect(await page.getByRole('button', { name: 'Resume bare' }).count()).toBe(0);
    const err = await page.evaluate(() => (window as any).webswe.trainer.resumeRun('bare').then(() => null, (e: Error) => e.message));
    expect(err).toMatch(/has no config\.json: it cannot be resumed/);
  });

  it('resumes an imported run from its checkpoint when its config has a phase left', async () => {
    const info = JSON.parse(strFromU8(zip['webswe-run.json']!));
    const edited = { ...zip, 'webswe-run.json': strToU8(JSON.stringify({ ...info, name: 'continued', config: { ...info.config, ...CONTINUE } })) };
    await importFile('#import-checkpoint', 'continued.zip', zipSync(edited));
    await page.waitForSelector('#runs tr[data-run="continued"] .status[data-status="paused"]');
    expect(await page.textContent('#import-status')).toContain('Resume continues it with dapo.');
    await page.getByRole('button', { name: 'Resume continued' }).click();
    await page.waitForURL(/#\/run\/continued$/);
    const run = await settled('continued');
    expect(run.status, run.error?.message).toBe('done');
    // It went on from the imported checkpoint: the base rows are the imported ones, and no base episode was run again.
    const rows = await api<MetricRecord[]>('readMetrics', 'continued');
    expect(rows.slice(0, metrics.length)).toEqual(metrics);
    expect(rows.slice(metrics.length).map((r) => r.phase)).toEqual(['dapo', 'eval-dapo']);
    const steps = await api<{ phase: string }[]>('listTrajectorySteps', 'continued');
    expect(steps.map((s) => s.phase).sort()).toEqual(['dapo', 'eval-dapo']);
  });

  it('refuses files that are not checkpoint zips, saying what is wrong, and creates no run', async () => {
    await page.goto(`${baseUrl}#/runs`);
    await page.waitForSelector('#runs tr[data-run]');
    const before = (await api<{ name: string }[]>('listRuns')).map((r) => r.name).sort();
    await importFile('#import-checkpoint', 'notes.zip', 'these are notes');
    expect(await importError()).toContain('notes.zip is not a zip file');
    await importFile('#import-checkpoint', 'model-only.zip', zipSync({ 'config.json': zip['config.json']! }));
    expect(await importError()).toContain('model-only.zip: no state.json in the zip');
    await importFile('#import-checkpoint', 'cut.zip', zipSync({ ...zip, 'model.safetensors': zip['model.safetensors']!.slice(0, 200) }));
    expect(await importError()).toMatch(/cut\.zip: model\.safetensors: .*(corrupt|truncated|bytes)/);
    expect((await api<{ name: string }[]>('listRuns')).map((r) => r.name).sort()).toEqual(before);
  });

  it('compares two runs selected in the list: curves overlaid, a legend naming each run', async () => {
    const unlabelled = await page.$$eval('input, select, textarea, button', (els) =>
      els.filter((e) => !(e as HTMLInputElement).labels?.length && !e.getAttribute('aria-label') && !e.textContent?.trim()).map((e) => e.outerHTML));
    expect(unlabelled).toEqual([]);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const reached = new Set<string>();
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => document.activeElement?.id || document.activeElement?.getAttribute('aria-label') || ''));
    }
    for (const want of [`Select ${RUN} to compare`, `Export the episodes of ${RUN} as ATIF JSON`, `Export the last checkpoint of ${RUN} as a zip`, 'import-checkpoint', 'import-tasks']) expect(reached, want).toContain(want);
    expect(await page.isDisabled('#compare-runs')).toBe(true);
    await page.getByLabel(`Select ${RUN} to compare`).check();
    await page.getByLabel('Select continued to compare').check();
    await shot('runs-export-import');
    await page.click('#compare-runs');
    await page.waitForURL(/#\/compare\/export-src\/continued$/);
    await page.waitForSelector('#compare-legend li + li');
    expect(await page.$$eval('#compare-legend li', (lis) => lis.map((l) => l.getAttribute('data-run')))).toEqual([RUN, 'continued']);
    // Pass rate: both runs have their expert and evaluation points; the continued one has its DAPO and second evaluation too.
    const [a, b] = (await page.getAttribute('#compare-pass-rate', 'data-points'))!.split(',').map(Number);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(a!);
    const labels = await page.$$eval('#compare-pass-rate .u-legend .u-label', (ls) => ls.map((l) => l.textContent));
    expect(labels).toEqual(expect.arrayContaining([`${RUN} · expert`, 'continued · expert', `${RUN} · eval pass@1`, 'continued · rollouts']));
    expect(await page.getAttribute('#compare-pass-rate', 'aria-label')).toMatch(/export-src expert .*continued expert/);
    // Over minutes since each run started, as the live view draws them.
    expect(await page.getAttribute('#compare-pass-rate', 'aria-label')).toMatch(/ at [\d.]+ min/);
    const inked = await page.$eval('#compare-pass-rate canvas', (c) => {
      const d = (c as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, (c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) n++;
      return n;
    });
    expect(inked).toBeGreaterThan(100);
    await shot('compare');
    expect(errors).toEqual([]);
  });
});
