// The IndexedDB run store (src/store/idb.browser.ts) in chromium, through the page's `webswe.idb`
// hook, on its own database: JSON documents, metrics append/truncate, trajectories, checkpoints
// round-tripped exactly (weights and AdamW moments as safetensors Blobs); a checkpoint transaction
// that dies before it commits leaves the previous checkpoint and its pointer intact; and a reload
// in the middle of writing a large checkpoint leaves one whole checkpoint, old or new.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, noBrowserReason } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const DB = 'webswe-store-test';

/** Runs `body` in the page with the store module as `m`, an open database as `db`, and `arg`. */
const IN_PAGE = `
  const m = await window.webswe.idb();
  const db = await m.openWebsweDb(${JSON.stringify(DB)});
  const ck = (step, fill, n) => ({
    state: { phase: 'dapo', step, done: ['base'], metricsCount: step, optimizerStep: step, extra: { note: 'ck' + step } },
    params: new Map([['a', new Float32Array(n).fill(fill)], ['b', Float32Array.from([fill, -fill, 0.5])]]),
    adamM: new Map([['a', new Float32Array(n).fill(fill / 10)], ['b', new Float32Array(3)]]),
    adamV: new Map([['a', new Float32Array(n).fill(fill / 100)], ['b', new Float32Array(3).fill(1)]]),
  });
  const summary = (c) => c && { state: c.state, a: [c.params.get('a').length, c.params.get('a')[0], c.params.get('a').at(-1)], b: [...c.params.get('b')],
    m: c.adamM.get('a')[0], v: c.adamV.get('a').at(-1), names: [...c.params.keys()] };
`;

describe.skipIf(noBrowserReason)('IndexedDB run store in chromium', () => {
  let browser: Browser;
  let page: Page;
  const baseUrl = inject('baseUrl');
  const run = <T>(body: string, arg?: unknown): Promise<T> =>
    page.evaluate(({ src, arg }) => new Function('arg', `return (async () => { ${src} })();`)(arg), { src: IN_PAGE + body, arg });

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(baseUrl);
    await page.waitForFunction(() => (window as any).webswe?.idb);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('keeps JSON, metrics, trajectories and checkpoints with the CLI record shapes', async () => {
    const out = await run<any>(`
      const s = await m.IdbRunStore.open(db, 'r1', { status: 'running', preset: 'micro' });
      await s.writeJson('config.json', { seed: 3 });
      await s.appendMetrics([{ phase: 'base', step: 0, values: { loss: 1 } }, { phase: 'base', step: 1, values: { loss: 0.5 }, timing: { train_s: 2 } }]);
      await s.appendMetrics([{ phase: 'dapo', step: 0, values: { reward_mean: 0.25 } }]);
      const three = (await s.readMetrics()).length;
      await s.truncateMetrics(1);
      await s.appendMetrics([{ phase: 'dapo', step: 0, values: { reward_mean: 0.5 } }]);
      await s.writeTrajectories('dapo', 10, [{ task_id: 't1' }]);
      await s.writeTrajectories('bc', 0, [{ task_id: 't0' }, { task_id: 't2' }]);
      await s.writeTrajectories('dapo', 2, []);
      const before = await s.loadCheckpoint();
      await s.saveCheckpoint(ck(1, 1, 5));
      await s.saveCheckpoint(ck(2, 2, 5));
      const reopened = await m.IdbRunStore.open(db, 'r1');
      const files = Object.keys(await reopened.checkpointFiles()).sort();
      const records = (await db.getAll('checkpoints')).filter((r) => r.run === 'r1').map((r) => r.id);
      return {
        json: await reopened.readJson('config.json'), missing: await reopened.readJson('nope.json'), three,
        metrics: await reopened.readMetrics(), count: reopened.metricsCount,
        steps: await reopened.listTrajectorySteps(), bc: await reopened.readTrajectories('bc', 0), none: await reopened.readTrajectories('rft', 0),
        before, ck: summary(await reopened.loadCheckpoint()), files, records, pointer: (await m.getRunRecord(db, 'r1')).checkpoint.id,
      };
    `);
    expect(out.json).toEqual({ seed: 3 });
    expect(out.missing).toBeNull();
    expect(out.three).toBe(3);
    expect(out.metrics).toEqual([{ phase: 'base', step: 0, values: { loss: 1 } }, { phase: 'dapo', step: 0, values: { reward_mean: 0.5 } }]);
    expect(out.count).toBe(2);
    expect(out.steps).toEqual([{ phase: 'bc', step: 0 }, { phase: 'dapo', step: 2 }, { phase: 'dapo', step: 10 }]);
    expect(out.bc).toEqual([{ task_id: 't0' }, { task_id: 't2' }]);
    expect(out.none).toEqual([]);
    expect(out.before).toBeNull();
    expect(out.ck).toEqual({
      state: { phase: 'dapo', step: 2, done: ['base'], metricsCount: 2, optimizerStep: 2, extra: { note: 'ck2' } },
      a: [5, 2, 2], b: [2, -2, 0.5], m: Math.fround(0.2), v: Math.fround(0.02), names: ['a', 'b'],
    });
    expect(out.files).toEqual(['model.safetensors', 'optimizer.safetensors', 'state.json']);
    expect(out.records).toEqual([2]); // the previous checkpoint went with the pointer move
    expect(out.pointer).toBe(2);
  });

  it('a checkpoint write that dies before it commits leaves the previous checkpoint and pointer', async () => {
    const out = await run<any>(`
      const s = await m.IdbRunStore.open(db, 'r2', { status: 'running', preset: '' });
      await s.saveCheckpoint(ck(1, 1, 4));
      // Simulate the tab dying mid-transaction: the last request of the write (dropping the old
      // checkpoint) aborts the transaction after the new checkpoint and the pointer were put.
      const del = IDBObjectStore.prototype.delete;
      IDBObjectStore.prototype.delete = function (k) {
        if (this.name === 'checkpoints') { this.transaction.abort(); throw new DOMException('simulated crash', 'AbortError'); }
        return del.call(this, k);
      };
      let error = null;
      try { await s.saveCheckpoint(ck(2, 2, 4)); } catch (e) { error = e.name; } finally { IDBObjectStore.prototype.delete = del; }
      const records = (await db.getAll('checkpoints')).filter((r) => r.run === 'r2').map((r) => r.id);
      return { error, ck: summary(await s.loadCheckpoint()), records, pointer: (await m.getRunRecord(db, 'r2')).checkpoint.id };
    `);
    expect(out.error).toBe('AbortError');
    expect(out.ck.state.step).toBe(1);
    expect(out.ck.a).toEqual([4, 1, 1]);
    expect(out.records).toEqual([1]);
    expect(out.pointer).toBe(1);
  });

  it('a reload while a large checkpoint is being written leaves one whole checkpoint', async () => {
    await run(`
      const s = await m.IdbRunStore.open(db, 'r3', { status: 'running', preset: '' });
      await s.saveCheckpoint(ck(1, 1, 8));
      // 3 × 8 M floats (~96 MB of safetensors): the write is still going when the page goes.
      void s.saveCheckpoint(ck(2, 2, 8 * 2 ** 20));
      await new Promise((r) => setTimeout(r, 150));
    `);
    await page.reload();
    await page.waitForFunction(() => (window as any).webswe?.idb);
    const out = await run<any>(`
      const s = await m.IdbRunStore.open(db, 'r3');
      const c = summary(await s.loadCheckpoint());
      const records = (await db.getAll('checkpoints')).filter((r) => r.run === 'r3').map((r) => r.id);
      return { c, records, pointer: (await m.getRunRecord(db, 'r3')).checkpoint.id };
    `);
    const step = out.c.state.step;
    console.log(`store: after the reload the checkpoint is step ${step} (${step === 1 ? 'the write was cut off' : 'the write had committed'})`);
    expect([1, 2]).toContain(step);
    expect(out.c.a).toEqual(step === 1 ? [8, 1, 1] : [8 * 2 ** 20, 2, 2]);
    expect(out.records).toEqual([step]);
    expect(out.pointer).toBe(step);
  });
});
