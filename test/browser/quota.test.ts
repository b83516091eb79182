// A full store, in chromium: a real IndexedDB quota (DevTools' Storage.overrideQuotaForOrigin shrinks
// this origin's quota below its usage, so every write that adds data aborts with QuotaExceededError)
// hits a nano run mid-DAPO. The run pauses with a message naming the cause and the fix, its last
// checkpoint still loads, and once the quota is back it resumes from that checkpoint and goes on with
// exactly one metrics row per step (nothing half-written survives). Usage is shown in the Live view.
// Chromium's IndexedDB caches the space it may use for up to 30 s, so the new quota bites within that.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { noBrowserReason, openAppPage, SHOTS } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const RUN = 'nano-quota';
/** run.test.ts's nano run (no gradient steps; see there), DAPO iterations checkpointed after each; far more
 *  of them than run before the quota bites (≤ 30 s) on any machine — on the WASM backend 200 were done within
 *  it on a quiet machine — so the run is still going when it does: the test pauses the run itself. */
const OVERRIDES = {
  'model.preset': 'scratch-30k', 'tasks.maxTrain': 2, 'tasks.maxTest': 1, 'agent.maxTurns': 3, 'reward.lengthThreshold': 2,
  'reward.lengthPenalty': false, 'agent.contextTokens': 1536, 'agent.actionTokens': 48, 'bc.episodes': 2, 'bc.epochs': 0,
  'run.phases': 'base,dapo', 'dapo.iterations': 5000, 'dapo.tasksPerIteration': 1, 'dapo.groupSize': 2, 'dapo.filterMode': 'shrink',
  'dapo.maxGenBatches': 1, 'dapo.optimizerSteps': 1, 'eval.samples': 1, 'run.checkpointEvery': 1, 'agent.sandbox': 'worker',
};

describe.skipIf(noBrowserReason)('a run that fills the store', () => {
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  const baseUrl = inject('baseUrl');
  const origin = new URL(baseUrl).origin;
  const errors: string[] = [];
  /** The run's current checkpoint as the store loads it (in the page, through the idb module). */
  const loadCheckpoint = () => page.evaluate(async (run) => {
    const idb = await (window as any).webswe.idb();
    const store = await idb.IdbRunStore.open(await idb.openWebsweDb(), run);
    const ck = await store.loadCheckpoint();
    return ck && { phase: ck.state.phase, step: ck.state.step, metricsCount: ck.state.metricsCount, tensors: ck.params.size };
  }, RUN);

  beforeAll(async () => {
    ({ browser, page } = await openAppPage(errors));
    cdp = await page.context().newCDPSession(page);
  });
  afterAll(async () => {
    await cdp?.send('Storage.overrideQuotaForOrigin', { origin }).catch(() => {});
    await browser?.close();
  });

  it('pauses with the cause and the fix when a write finds the store full; the last checkpoint stands', async () => {
    await page.goto(`${baseUrl}#/runs`);
    // Load the store module now: the checks below read the checkpoint through it.
    await page.evaluate(() => (window as any).webswe.idb());
    await page.evaluate((o) => (window as any).webswe.trainer.startRun({ name: 'nano-quota', preset: 'micro', overrides: o }), OVERRIDES);
    await page.goto(`${baseUrl}#/run/${RUN}`);
    await page.waitForFunction(() => document.querySelector('#run-checkpoint')?.getAttribute('data-phase') === 'dapo'
      && document.querySelector('#run-status')?.getAttribute('data-status') === 'running', undefined, { timeout: 240_000 });
    // Fill the store: a quota of one byte, below what the site already uses.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1 });
    await page.waitForSelector('#run-status[data-status="paused"]', { timeout: 120_000 });
    await page.waitForSelector('#run-error[data-reason="QuotaExceededError"]:not([hidden])');
    const message = (await page.textContent('#run-error'))!;
    expect(message).toMatch(/^The run paused: the browser's storage for this site is full \(.*\), so the run stopped; the write that failed was rolled back and the run resumes from its last checkpoint \(dapo step \d+\)\. Free space \(delete runs you no longer need in the Runs view, or free disk space\), then resume\.$/);
    expect(await page.isEnabled('#resume-run')).toBe(true);
    await page.waitForSelector('#storage-usage[data-usage]');
    expect(Number(await page.getAttribute('#storage-usage', 'data-usage'))).toBeGreaterThan(0);
    expect(await page.textContent('#storage-usage')).toMatch(/^Storage: [\d.]+ K?M?G?i?B used of [\d.]+ K?M?G?i?B this site may use/);
    await page.screenshot({ path: `${SHOTS}/live-quota-paused.png`, fullPage: true });

    // The checkpoint the message names is the one the store loads, whole.
    const named = Number(/dapo step (\d+)/.exec(message)![1]);
    const ck = await loadCheckpoint();
    expect(ck).toMatchObject({ phase: 'dapo', step: named });
    expect(ck!.tensors).toBeGreaterThan(0);
    expect(await page.getAttribute('#run-checkpoint', 'data-step')).toBe(String(named));
    // The worker's summary (what the run list shows) says paused and why.
    const summary = await page.evaluate((run) => (window as any).webswe.trainer.getRun(run), RUN);
    expect(summary).toMatchObject({ status: 'paused', live: false, error: { name: 'QuotaExceededError' } });
  });

  it('resumes from that checkpoint once there is room, and goes on with one metrics row per step', async () => {
    const ck = await loadCheckpoint();
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    await page.click('#resume-run');
    await page.waitForSelector('#run-resumed[data-phase="dapo"]', { timeout: 60_000 });
    expect(await page.textContent('#run-resumed')).toContain(`after dapo step ${ck!.step}`);
    expect(await page.isHidden('#run-error')).toBe(true);
    // New checkpoints land again; then pause it (it has far more iterations than this test waits for).
    await page.waitForFunction((from) => Number(document.querySelector('#run-checkpoint')?.getAttribute('data-step')) > from, ck!.step, { timeout: 120_000 });
    await page.click('#pause-run');
    await page.waitForSelector('#run-status[data-status="paused"]', { timeout: 120_000 });
    expect(await page.isHidden('#run-error')).toBe(true);
    const last = await loadCheckpoint();
    expect(last!.step).toBeGreaterThan(ck!.step);
    // One row per DAPO step, up to the last checkpoint (a pause stops at a step boundary, after its checkpoint).
    const rows = await page.evaluate((run) => (window as any).webswe.trainer.readMetrics(run), RUN);
    const steps = rows.filter((r: { phase: string }) => r.phase === 'dapo').map((r: { step: number }) => r.step);
    expect(steps).toEqual([...Array(last!.step).keys()]);
    expect(rows.length).toBe(last!.metricsCount);
    expect(errors).toEqual([]);
  });
});
