// A training run from the page, in chromium: fill the New run form (the micro preset, a few short episodes)
// and start it with the keyboard, watch metrics arrive and the curves draw, reload mid-run and resume
// from the last checkpoint, pause and resume again, let it finish, and read an episode turn by turn. Every form control has a
// label and every control is reachable with Tab. While the run is live the page's main thread has no task
// over 100 ms (Long Tasks API). Screenshots of each view go to test-results/screenshots/.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { noBrowserReason, openAppPage, openFormSections, SHOTS } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const RUN = 'micro-smoke';
/**
 * A run that finishes in well under a minute on the CPU backend: expert episodes and evaluation in base, sixty
 * DAPO iterations of one group of two, checkpointed after each. The tests wait on states that last (a DAPO
 * checkpoint with the run still going), never on a passing one: the base checkpoint is replaced by the first
 * DAPO one within a second here, and a loaded CI machine's polling missed it once. An iteration takes about a
 * tenth of a second, so sixty keep the run going for seconds after the first DAPO checkpoint, on a fast machine
 * too (eight could end before the reload test begins). One gradient step runs in the browser: behaviour cloning
 * on the two expert episodes (bc.epochs 1, a few seconds on the fast CPU backend). DAPO takes none (without the
 * length penalty an untrained model's group rewards are all equal, so dynamic sampling in shrink mode drops the
 * group); the unit tier's trainer test covers DAPO steps.
 */
const SETTINGS: Record<string, string | boolean> = {
  'model.preset': 'scratch-160k', 'tasks.maxTrain': '2', 'tasks.maxTest': '1', 'agent.maxTurns': '3', 'reward.lengthThreshold': '2',
  'reward.lengthPenalty': false, 'agent.contextTokens': '1536', 'agent.actionTokens': '48', 'bc.episodes': '2', 'bc.epochs': '1',
  'bc.copyDrills': '0', 'bc.drillSteps': '0', 'bc.expertGuesses': '0', 'run.phases': 'base,dapo', 'dapo.iterations': '60', 'dapo.tasksPerIteration': '1', 'dapo.groupSize': '2', 'dapo.filterMode': 'shrink',
  'dapo.maxGenBatches': '1', 'dapo.optimizerSteps': '1', 'eval.samples': '1', 'run.checkpointEvery': '1',
};

/** A main-thread task of over 50 ms, as PerformanceObserver('longtask') reports it. */
interface LongTask {
  start: number;
  duration: number;
  name: string;
}

describe.skipIf(noBrowserReason)('a training run in the web app', () => {
  let browser: Browser;
  let page: Page;
  const baseUrl = inject('baseUrl');
  const errors: string[] = [];
  /**
   * Long tasks while the run is live: the test opens a window once the run shows as running and closes it
   * before anything of its own that loads or paints the page (a reload, a full-page screenshot), so page
   * loads, the view's first render and screenshots stay outside. Times are each document's performance.now().
   */
  const live = { from: -1, tasks: [] as LongTask[], windows: 0 };
  const openLiveWindow = async () => {
    live.from = await page.evaluate(() => performance.now());
  };
  const closeLiveWindow = async () => {
    const seen = await page.evaluate((from) => ((window as any).longTasks as LongTask[]).filter((t) => t.start >= from), live.from);
    live.tasks.push(...seen.map((t) => ({ ...t, name: `${t.name}, window ${live.windows + 1} opened at ${live.from.toFixed(0)} ms` })));
    live.windows++;
  };
  const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  const text = async (sel: string) => (await page.textContent(sel)) ?? '';

  beforeAll(async () => {
    ({ browser, page } = await openAppPage(errors));
    // Every document of the page records its main thread's long tasks from its start (buffered).
    await page.addInitScript(() => {
      const tasks: { start: number; duration: number; name: string }[] = ((window as any).longTasks = []);
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration, name: e.name });
      }).observe({ type: 'longtask', buffered: true });
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders the New run form from the config fields, every control labelled and reachable with Tab', async () => {
    await page.goto(`${baseUrl}#/new`);
    await openFormSections(page);
    const unlabelled = await page.$$eval('input, select, textarea', (els) =>
      els.filter((e) => !(e as HTMLInputElement).labels?.length && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby')).map((e) => e.outerHTML));
    expect(unlabelled).toEqual([]);
    // Defaults and ranges come from FIELDS: dapo.groupSize has min 2, max 256 and says so.
    const gs = page.getByLabel('dapo.groupSize', { exact: true });
    expect(await gs.getAttribute('min')).toBe('2');
    expect(await gs.getAttribute('max')).toBe('256');
    expect(await text('#field-dapo-groupSize-doc')).toMatch(/default 8.*range 2 to 256/);

    // Tab through the whole page: every enabled control gets focus (a section's title is a control too).
    const controls = await page.$$eval('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), summary', (els) => els.length);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const reached = new Set<string>();
    for (let i = 0; i < controls + 5; i++) {
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => {
        const a = document.activeElement as HTMLElement;
        return a.id || a.getAttribute('href') || a.getAttribute('name') || a.textContent || a.tagName;
      }));
    }
    for (const want of ['#/runs', '#/new', 'run-name', 'run-preset', 'field-seed', 'field-dapo-groupSize', 'start-run']) expect(reached, want).toContain(want);
    expect(reached.size).toBeGreaterThanOrEqual(controls);
  });

  it('refuses an out-of-range value with the config message, naming the field', async () => {
    await page.getByLabel('dapo.groupSize', { exact: true }).fill('1');
    await page.click('#start-run');
    await page.waitForSelector('#form-error:not([hidden])');
    expect(await text('#form-error')).toMatch(/dapo\.groupSize: 1 is out of range \(allowed: 2 to 256\)/);
    expect(await page.getAttribute('#field-dapo-groupSize', 'aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-dapo-groupSize');
    await shot('new-run-invalid');
    // The worker's own checks arrive as errors with their names (comlink), e.g. a sandbox the browser lacks.
    const err = await page.evaluate(() =>
      (window as any).webswe.trainer.startRun({ preset: 'micro', overrides: { 'agent.sandbox': 'node' } }).then(() => null, (e: Error) => ({ name: e.name, message: e.message })));
    expect(err).toEqual({ name: 'ConfigError', message: expect.stringMatching(/^agent\.sandbox: "node" runs real node processes.*use "worker"$/) });
  });

  it('starts a micro run from the form with the keyboard and shows metrics as they arrive', async () => {
    // micro, its copy drills (a thousand steps and more) and guesses off in SETTINGS: cloning's one step is asserted.
    await page.getByLabel('Preset', { exact: true }).selectOption('micro');
    await page.getByLabel('dapo.groupSize', { exact: true }).fill('2');
    for (const [path, v] of Object.entries(SETTINGS)) {
      const field = page.getByLabel(path, { exact: true });
      if (typeof v === 'boolean') await field.setChecked(v);
      else if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(v);
      else await field.fill(v);
    }
    await page.getByLabel('Run name').fill(RUN);
    await shot('new-run');
    await page.getByLabel('Run name').press('Enter');
    await page.waitForURL(/#\/run\/micro-smoke$/, { timeout: 60_000 });
    await page.waitForSelector('#run-status[data-status="running"]', { timeout: 60_000 });
    await openLiveWindow();
    // Metrics rows arrive, and a chart has points drawn on its canvas.
    await page.waitForFunction(() => Number(document.querySelector('#metric-count')?.getAttribute('data-count')) > 0, undefined, { timeout: 240_000 });
    await page.waitForFunction(() => [...document.querySelectorAll('figure.chart')].some((f) => Number(f.getAttribute('data-points')) > 0), undefined, { timeout: 60_000 });
    const inked = await page.evaluate(() => {
      const fig = [...document.querySelectorAll('figure.chart')].find((f) => Number(f.getAttribute('data-points')) > 0)!;
      const c = fig.querySelector('canvas')!;
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) n++;
      return n;
    });
    expect(inked).toBeGreaterThan(100);
    expect(await text('#progress-text')).toMatch(/\d+ \/ \d+/);
    expect(await text('#run-meta')).toMatch(/backend wasm \(\d+ threads?/);
    await closeLiveWindow();
    // The page asked for persistent storage as the run started, and the worker kept the answer. (Outside
    // the window: loading the store module in the page is the test's own work.)
    const runJson = await page.evaluate(async (run) => {
      const idb = await (window as any).webswe.idb();
      return (await idb.IdbRunStore.open(await idb.openWebsweDb(), run)).readJson('run.json');
    }, RUN);
    expect(runJson).toMatchObject({ backend: 'auto', persisted: expect.any(Boolean) });
    await shot('live-run');
    await openLiveWindow();
  });

  it('survives a reload mid-run and resumes from the last checkpoint', async () => {
    // Wait for a DAPO checkpoint while the run goes on (dozens of iterations are left), then reload.
    await page.waitForFunction(() => document.querySelector('#run-checkpoint')?.getAttribute('data-phase') === 'dapo'
      && document.querySelector('#run-status')?.getAttribute('data-status') === 'running', undefined, { timeout: 240_000 });
    const before = Number(await page.getAttribute('#metric-count', 'data-count'));
    expect(await page.getAttribute('#run-status', 'data-status')).toBe('running');
    await closeLiveWindow();
    await page.reload();
    await page.waitForSelector('#run-status[data-status="interrupted"]', { timeout: 60_000 });
    expect(await page.getAttribute('#run-checkpoint', 'data-phase')).toBeTruthy();
    expect(Number(await page.getAttribute('#metric-count', 'data-count'))).toBeGreaterThanOrEqual(before);
    await shot('live-interrupted');
    // The run list says so too.
    await page.goto(`${baseUrl}#/runs`);
    await page.waitForSelector(`tr[data-run="${RUN}"] .status[data-status="interrupted"]`);
    await shot('runs');
    await page.goto(`${baseUrl}#/run/${RUN}`);
    await page.waitForSelector('#resume-run:not([disabled])');
    const from = await page.getAttribute('#run-checkpoint', 'data-phase');
    await page.focus('#resume-run');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#run-resumed:not([hidden])', { timeout: 60_000 });
    await openLiveWindow();
    expect(await page.getAttribute('#run-resumed', 'data-phase')).toBe(from);
  });

  it('pauses at a step boundary and resumes from the DAPO checkpoint, then finishes', async () => {
    // Resumed from a DAPO checkpoint with iterations left: pause at once.
    await page.waitForSelector('#pause-run:not([disabled])', { timeout: 60_000 });
    await page.focus('#pause-run');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#run-status[data-status="paused"]', { timeout: 240_000 });
    const step = await page.getAttribute('#run-checkpoint', 'data-step');
    await page.click('#resume-run');
    await page.waitForSelector('#run-resumed[data-phase="dapo"]', { timeout: 60_000 });
    expect(await text('#run-resumed')).toContain(`after dapo step ${step}`);
    await page.waitForSelector('#run-status[data-status="done"]', { timeout: 420_000 });
    await closeLiveWindow();
    const rows = await page.evaluate((run) => (window as any).webswe.trainer.readMetrics(run), RUN);
    expect(rows.filter((r: { phase: string }) => r.phase === 'dapo').map((r: { step: number }) => r.step)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    // The behaviour-cloning step ran in the worker: a finite loss near ln(vocab) and a non-zero gradient.
    const bc = rows.filter((r: { phase: string; step: number }) => r.phase === 'base' && r.step >= 0);
    expect(bc).toHaveLength(1);
    expect(bc[0].values.loss).toBeGreaterThan(1);
    expect(bc[0].values.loss).toBeLessThan(10);
    expect(bc[0].values.grad_norm).toBeGreaterThan(0);
    expect(rows.filter((r: { phase: string }) => r.phase.startsWith('eval-')).map((r: { phase: string }) => r.phase)).toEqual(['eval-base', 'eval-dapo']);
    expect(await page.$$eval('#run-results tr', (trs) => trs.length)).toBe(3);
    // DAPO's step over the base against the headline's bar (phaseGains), beside its pass@1.
    expect(await page.$eval('#run-results tr:nth-child(3) td:nth-child(4)', (td) => td.textContent)).toMatch(/^[+−][\d.]+ \(bar [\d.]+\): (clears|below) it$/);
    await shot('live-done');
  });

  it('kept the main thread free of tasks over 100 ms while the run was live (Long Tasks API)', async () => {
    // The observer is live and sees a task of this document: a timer that blocks the main thread for 150 ms
    // (work that page.evaluate runs itself is not an event-loop task, and is not reported).
    expect(await page.evaluate(() => PerformanceObserver.supportedEntryTypes.includes('longtask'))).toBe(true);
    const mark = await page.evaluate(() => new Promise<number>((done) => setTimeout(() => {
      const t = performance.now();
      while (performance.now() - t < 150);
      done(t);
    })));
    await page.waitForFunction((m) => ((window as any).longTasks as LongTask[]).some((t) => t.start <= m && t.duration >= 150), mark);
    // Three windows: start → the first screenshot, → the reload, and resume → done.
    expect(live.windows).toBe(3);
    const over = live.tasks.filter((t) => t.duration > 100).map((t) => `${t.duration.toFixed(0)} ms at ${t.start.toFixed(0)} ms (${t.name})`);
    expect(over, `long tasks while the run was live: ${live.tasks.length}`).toEqual([]);
  });

  it('opens a trajectory turn by turn', async () => {
    await page.click('#open-trajectories');
    await page.waitForSelector('#trajectory-steps a');
    await page.waitForSelector('#episodes tr a');
    await shot('trajectories');
    await page.click('#episodes tr a');
    await page.waitForSelector('#turns .turn');
    expect(await page.$$eval('#turns .turn', (ts) => ts.length)).toBeGreaterThan(0);
    expect(await text('#turns .turn h4')).toMatch(/^Turn 1: /);
    // Every turn shows its command; a reasoning block appears only where the turn had reasoning.
    const parts = await page.$$eval('#turns .turn', (ts) => ts.map((t) => ({
      command: t.querySelector('.command pre')?.textContent ?? '',
      reasoning: [...t.querySelectorAll('.reasoning pre')].map((p) => p.textContent ?? ''),
    })));
    expect(parts.every((p) => p.command.length > 0)).toBe(true);
    expect(parts.flatMap((p) => p.reasoning).filter((r) => r.trim() === '' || r === '(empty)')).toEqual([]);
    expect(await page.locator('#final-diff').count()).toBe(1);
    await shot('trajectory');
    expect(errors).toEqual([]);
  });
});
