// A lost GPU device, in chromium on SwiftShader: a nano run trains on the WebGPU backend; the worker's
// test-only hook destroys its GPUDevice mid-iteration (as a driver reset would lose it). The run pauses at
// once with the explanation, its last checkpoint still loads, and Resume acquires a new device and
// continues from that checkpoint on WebGPU, one metrics row per step.
// Each new device compiles every kernel again, ~30 s on SwiftShader here, so the checkpoint before the loss
// is made on the CPU backend (seconds) and the run is resumed on WebGPU to be lost there: two devices, not three.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { noBrowserReason, openAppPage, SHOTS } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const RUN = 'nano-device-loss';
/** run.test.ts's nano run (no gradient steps; see there) with DAPO only and shorter turns, since WGSL on
 *  SwiftShader is slow; more DAPO iterations than the test waits for. */
const OVERRIDES = {
  'model.preset': 'scratch-30k', 'tasks.maxTrain': 2, 'tasks.maxTest': 1, 'agent.maxTurns': 2, 'reward.lengthThreshold': 1,
  'reward.lengthPenalty': false, 'agent.contextTokens': 1536, 'agent.actionTokens': 8, 'agent.observationTokens': 16, 'bc.episodes': 2, 'bc.epochs': 0,
  'run.phases': 'dapo', 'dapo.iterations': 100, 'dapo.tasksPerIteration': 1, 'dapo.groupSize': 2, 'dapo.filterMode': 'shrink',
  'dapo.maxGenBatches': 1, 'dapo.optimizerSteps': 1, 'eval.samples': 1, 'run.checkpointEvery': 1, 'agent.sandbox': 'worker',
};

describe.skipIf(noBrowserReason)('a run whose GPU device is lost', () => {
  let browser: Browser;
  let page: Page;
  const baseUrl = inject('baseUrl');
  const errors: string[] = [];
  const checkpointStep = async () => Number(await page.getAttribute('#run-checkpoint', 'data-step'));
  const loadCheckpoint = () => page.evaluate(async (run) => {
    const idb = await (window as any).webswe.idb();
    const ck = await (await idb.IdbRunStore.open(await idb.openWebsweDb(), run)).loadCheckpoint();
    return ck && { phase: ck.state.phase, step: ck.state.step, metricsCount: ck.state.metricsCount, tensors: ck.params.size };
  }, RUN);

  beforeAll(async () => {
    ({ browser, page } = await openAppPage(errors));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('pauses at once with the explanation when the device is lost mid-run', async () => {
    await page.goto(`${baseUrl}#/runs`);
    // Load the store module now: the checks below read the checkpoint through it.
    await page.evaluate(() => (window as any).webswe.idb());
    // The hook refuses while no run has used WebGPU in this worker.
    expect(await page.evaluate(() => (window as any).webswe.trainer.loseDeviceForTest().then(() => 'lost', (e: Error) => e.message)))
      .toMatch(/^no WebGPU backend has been opened in this worker/);
    await page.evaluate((o) => (window as any).webswe.trainer.startRun({ name: 'nano-device-loss', preset: 'micro', backend: 'fast-cpu', overrides: o }), OVERRIDES);
    await page.goto(`${baseUrl}#/run/${RUN}`);
    await page.waitForFunction(() => document.querySelector('#run-checkpoint')?.getAttribute('data-phase') === 'dapo'
      && document.querySelector('#run-status')?.getAttribute('data-status') === 'running', undefined, { timeout: 240_000 });
    await page.click('#pause-run');
    await page.waitForSelector('#run-status[data-status="paused"]', { timeout: 60_000 });
    const before = await loadCheckpoint();
    // Resume on WebGPU (the view resumes on the run's last choice; the API takes another), then lose the device
    // while it generates (the first iteration on a device takes tens of seconds: compiles, then rollouts).
    await page.evaluate((run) => (window as any).webswe.trainer.resumeRun(run, 'webgpu'), RUN);
    await page.waitForFunction(() => /backend webgpu/.test(document.querySelector('#run-meta')?.textContent ?? '')
      && document.querySelector('#run-status')?.getAttribute('data-status') === 'running', undefined, { timeout: 60_000 });
    await page.evaluate(() => (window as any).webswe.trainer.loseDeviceForTest());
    await page.waitForSelector('#run-status[data-status="paused"]', { timeout: 60_000 });
    await page.waitForSelector('#run-error[data-reason="GpuDeviceLostError"]:not([hidden])');
    expect(await page.textContent('#run-error')).toMatch(/^The run paused: the GPU device was lost: destroyed( \(.*\))?; resume to continue on a new device$/);
    expect(await page.isEnabled('#resume-run')).toBe(true);
    // (The screenshot waits for the GPU process, which first finishes compiling the lost device's kernels.)
    await page.screenshot({ path: `${SHOTS}/live-device-lost.png`, fullPage: true });
    // The worker's summary says so too, and the checkpoint it points at loads.
    expect(await page.evaluate((run) => (window as any).webswe.trainer.getRun(run), RUN))
      .toMatchObject({ status: 'paused', live: false, error: { name: 'GpuDeviceLostError' } });
    // Paused at once, not at the step boundary: nothing of the cut-short iteration was kept.
    const ck = await loadCheckpoint();
    expect(ck).toEqual(before);
    expect(ck).toMatchObject({ phase: 'dapo', step: await checkpointStep() });
    expect(ck!.tensors).toBeGreaterThan(0);
    expect(await page.evaluate((run) => (window as any).webswe.trainer.readMetrics(run), RUN)).toHaveLength(ck!.metricsCount);
  });

  it('resumes on a new device from the last checkpoint', async () => {
    const ck = await loadCheckpoint();
    await page.click('#resume-run');
    await page.waitForSelector('#run-resumed[data-phase="dapo"]', { timeout: 60_000 });
    expect(await page.textContent('#run-resumed')).toContain(`after dapo step ${ck!.step}`);
    expect(await page.isHidden('#run-error')).toBe(true);
    // A step on the new device lands as a checkpoint (the run goes on; closing the browser ends it).
    await page.waitForFunction((from) => Number(document.querySelector('#run-checkpoint')?.getAttribute('data-step')) > from, ck!.step, { timeout: 180_000 });
    expect(await page.textContent('#run-meta')).toMatch(/backend webgpu/);
    expect(await page.getAttribute('#run-status', 'data-status')).toBe('running');
    const last = await loadCheckpoint();
    expect(last!.step).toBeGreaterThan(ck!.step);
    const rows = await page.evaluate((run) => (window as any).webswe.trainer.readMetrics(run), RUN);
    expect(rows.slice(0, last!.metricsCount).map((r: { step: number }) => r.step)).toEqual([...Array(last!.step).keys()]);
    expect(errors).toEqual([]);
  });
});
