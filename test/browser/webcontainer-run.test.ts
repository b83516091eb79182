// Training with agent.sandbox = webcontainer, in chromium: the trainer worker creates its episodes'
// sandboxes in the page (WebContainers boot only from a page) through comlink. The browser tier cannot
// reach stackblitz.com, so (1) without help the page cannot boot one: the run is refused with the reason
// and the worker sandbox suggested, and the New run form disables the choice saying why (at once when the
// browser says it is offline, after a boot attempt when it only cannot reach stackblitz.com); (2) with a
// stand-in for @webcontainer/api injected through `webswe.useWebContainerApi`, a short nano run goes from
// the form to done with every episode's test runs spawned in the page's (stand-in) container.
// The stand-in, like test/unit/sandbox/webcontainer.test.ts's, is a container with an in-memory file system
// whose `node` runs the repository's test file in the worker sandbox and prints what our reporter would
// (REPORTER_MARK lines), so the adapter's folders, mounts, output parsing and disposal all take part.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { REPORTER_MARK } from '../../src/sandbox/webcontainer-output.ts';
import { noBrowserReason, openAppPage, openFormSections, SHOTS } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const RUN = 'nano-webcontainer';
/** run.test.ts's nano run, shorter: expert episodes and a behaviour-cloning step in base, two DAPO iterations. */
const SETTINGS: Record<string, string | boolean> = {
  'model.preset': 'scratch-30k', 'tasks.maxTrain': '2', 'tasks.maxTest': '1', 'agent.maxTurns': '3', 'reward.lengthThreshold': '2',
  'reward.lengthPenalty': false, 'agent.contextTokens': '1536', 'agent.actionTokens': '48', 'bc.episodes': '2', 'bc.epochs': '1',
  'bc.copyDrills': '0', 'bc.drillSteps': '0', 'bc.expertGuesses': '0', 'run.phases': 'base,dapo', 'dapo.iterations': '2', 'dapo.tasksPerIteration': '1', 'dapo.groupSize': '2', 'dapo.filterMode': 'shrink',
  'dapo.maxGenBatches': '1', 'dapo.optimizerSteps': '1', 'eval.samples': '1', 'run.checkpointEvery': '1',
  // Every episode's grading runs in the container (the test counts them): no answers from the test-run cache, and
  // the episodes that end at the turn limit without submitting (all of them here) are graded too.
  'agent.cacheTests': false, 'agent.gradeUnsubmitted': true,
  // The library tasks and SEARCH/REPLACE edits, whose expert needs more than three turns to fix a bug
  // (micro's own level-0 expert fixes one in two).
  'tasks.train': 'public/tasks/train.jsonl', 'tasks.test': 'public/tasks/test.jsonl', 'tasks.difficulty': 'any', 'agent.editCommand': 'replace',
  // A second a command, as this run was sized (micro's 250 ms limit is set for level-0 tests).
  'agent.commandTimeoutMs': '1000',
};

/** What the stand-in counts, read back from the page. */
interface StandInStats {
  boots: number;
  spawns: number;
  testRuns: number;
  /** Episode folders (episodes/eN-xxxx) that a process ran in. */
  folders: string[];
  /** Files still under episodes/ (every sandbox disposed: none). */
  left: number;
}

/**
 * Runs in the page (page.evaluate): installs a stand-in WebContainer API. Its file system is a Map; spawn('node',
 * [--import=…, --test-reporter=…, (--test-name-pattern=…), FILE, …]) copies the process's folder into a worker sandbox and
 * runs FILE's tests there (a test file) or the script, then prints the output and one REPORTER_MARK line per
 * test, as the adapter's reporter does in a real container. The name pattern is ignored: the adapter keeps
 * only the tests it asked for.
 */
async function installStandIn(mark: string): Promise<void> {
  const w = window as any;
  const stats = { boots: 0, spawns: 0, testRuns: 0, folders: [] as string[] };
  const files = new Map<string, string>();
  const dirs = new Set<string>(['']);
  const norm = (p: string) => p.split('/').filter((s) => s !== '' && s !== '.').join('/');
  const fail = (code: string, p: string) => Object.assign(new Error(`${code}: no such file or directory, '${p}'`), { code });
  const addDirs = (p: string) => {
    const parts = p.split('/');
    for (let i = 1; i <= parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  };
  const under = (p: string) => (p ? `${p}/` : '');
  const fs = {
    readFile: async (path: string) => {
      const p = norm(path);
      if (dirs.has(p)) throw fail('EISDIR', p);
      const t = files.get(p);
      if (t === undefined) throw fail('ENOENT', p);
      return t;
    },
    writeFile: async (path: string, data: string) => {
      const p = norm(path);
      if (p.includes('/')) addDirs(p.slice(0, p.lastIndexOf('/')));
      files.set(p, data);
    },
    mkdir: async (path: string) => addDirs(norm(path)),
    rm: async (path: string, o: { recursive?: boolean; force?: boolean } = {}) => {
      const p = norm(path);
      if (files.delete(p)) return;
      if (!dirs.has(p)) {
        if (o.force) return;
        throw fail('ENOENT', p);
      }
      for (const k of [...files.keys()]) if (k.startsWith(under(p))) files.delete(k);
      for (const d of [...dirs]) if (d === p || d.startsWith(under(p))) dirs.delete(d);
    },
    readdir: async (path: string) => {
      const p = norm(path);
      if (!dirs.has(p)) throw fail(files.has(p) ? 'ENOTDIR' : 'ENOENT', p);
      const names = new Map<string, boolean>();
      for (const k of files.keys()) if (k.startsWith(under(p)) && !k.slice(under(p).length).includes('/')) names.set(k.slice(under(p).length), true);
      for (const d of dirs) if (d !== p && d.startsWith(under(p)) && !d.slice(under(p).length).includes('/')) names.set(d.slice(under(p).length), false);
      return [...names].map(([name, file]) => ({ name, isFile: () => file, isDirectory: () => !file }));
    },
  };
  type Tree = Record<string, { file: { contents: string } } | { directory: Tree }>;
  const mount = async (tree: Tree, o: { mountPoint?: string } = {}) => {
    const put = (t: Tree, at: string) => {
      addDirs(at);
      for (const [name, node] of Object.entries(t)) {
        if ('file' in node) files.set(`${under(at)}${name}`, node.file.contents);
        else put(node.directory, `${under(at)}${name}`);
      }
    };
    put(tree, norm(o.mountPoint ?? ''));
  };
  const REPORT = /\n── \d+ tests? reported ──\n[\s\S]*?\npass \d+, fail \d+, skip \d+, todo \d+\n/g;
  const spawn = async (command: string, args: string[], o: { cwd?: string; env?: Record<string, string> } = {}) => {
    if (command !== 'node') throw new Error(`the stand-in runs only node, not ${command}`);
    stats.spawns++;
    const cwd = norm(o.cwd ?? '');
    const folder = cwd.split('/').slice(0, 2).join('/');
    if (!stats.folders.includes(folder)) stats.folders.push(folder);
    const rest = args.filter((a) => !a.startsWith('--test-reporter=') && !a.startsWith('--import=') && !a.startsWith('--test-name-pattern='));
    const repo: Record<string, string> = {};
    for (const [k, v] of files) if (k.startsWith(under(cwd))) repo[k.slice(under(cwd).length)] = v;
    let enqueue!: (s: string) => void;
    let close!: () => void;
    let open = true;
    const output = new ReadableStream<string>({
      start(c) {
        enqueue = (s) => open && c.enqueue(s);
        close = () => open && ((open = false), c.close());
      },
    });
    let exited!: (code: number) => void;
    const exit = new Promise<number>((r) => (exited = r));
    void (async () => {
      const sb = await w.webswe.sandboxes.worker(repo, { timeoutMs: 60_000 });
      try {
        const isTest = /\.test\.[cm]?js$|(^|\/)test\//.test(rest[0] ?? '');
        if (isTest) stats.testRuns++;
        const r = isTest ? await sb.runTests([rest[0]]) : await sb.exec(['node', ...rest]);
        // Terminal-like: CRLF line ends, as a real container's output.
        enqueue(r.output.replace(REPORT, '\n').replace(/\n/g, '\r\n'));
        // As the reporter writes them: each line with the run's key (node-reporter.mjs).
        for (const t of r.tests) enqueue(`${mark}${JSON.stringify({ k: o.env?.WEBSWE_REPORT_KEY, e: 'result', path: t.fullName.split(' > '), status: t.status, message: t.message, ms: t.durationMs })}\r\n`);
        close();
        exited(r.exitCode ?? 1);
      } finally {
        await sb.dispose();
      }
    })().catch((e: Error) => {
      enqueue(`stand-in failed: ${e.message}\r\n`);
      close();
      exited(1);
    });
    return { output, exit, kill: () => (close(), exited(137)) };
  };
  w.standIn = {
    stats: () => ({ ...stats, left: [...files.keys()].filter((k) => k.startsWith('episodes/')).length }),
  };
  await w.webswe.useWebContainerApi({
    boot: async () => {
      stats.boots++;
      return { fs, mount, spawn, teardown: () => files.clear() };
    },
  });
}

describe.skipIf(noBrowserReason)('training runs with WebContainer sandboxes', () => {
  let browser: Browser;
  let page: Page;
  const baseUrl = inject('baseUrl');
  const errors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  const text = async (sel: string) => (await page.textContent(sel)) ?? '';

  beforeAll(async () => {
    ({ browser, page } = await openAppPage(errors));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('refuses a webcontainer run when the page cannot boot one (no network), naming the cause and the worker sandbox', async () => {
    await page.goto(`${baseUrl}#/new`);
    await openFormSections(page);
    // The page is cross-origin isolated and thinks it is online, so only a boot can tell: the form offers it.
    expect(await page.evaluate(() => [crossOriginIsolated, navigator.onLine])).toEqual([true, true]);
    expect(await page.getAttribute('#sandbox-availability', 'data-webcontainer')).toBe('unknown');
    expect(await text('#sandbox-availability')).toMatch(/worker: offline.*webcontainer: boots from stackblitz\.com/);
    const err = await page.evaluate(() =>
      (window as any).webswe.trainer.startRun({ name: 'wc-refused', preset: 'micro', overrides: { 'agent.sandbox': 'webcontainer' } })
        .then(() => null, (e: Error) => ({ name: e.name, message: e.message })));
    expect(err).toEqual({
      name: 'ConfigError',
      message: expect.stringMatching(/^agent\.sandbox: the WebContainer could not load its runtime from stackblitz\.com \(https:\/\/stackblitz\.com is unreachable: .+\); .*\(agent\.sandbox = "worker" runs episodes in the trainer worker, offline\)$/),
    });
    expect(await page.evaluate(() => (window as any).webswe.trainer.getRun('wc-refused'))).toBeNull();
    // Choosing it in the form boots, fails, and takes the choice away with the reason.
    const sandbox = page.getByLabel('agent.sandbox', { exact: true });
    expect(await sandbox.inputValue()).toBe('worker');
    await sandbox.selectOption('webcontainer');
    await page.waitForSelector('#sandbox-availability[data-webcontainer="unavailable"]');
    expect(await text('#sandbox-availability')).toMatch(/^WebContainer unavailable: the WebContainer could not load its runtime from stackblitz\.com .*or use the worker sandbox, which runs offline\. agent\.sandbox is back to worker\.$/);
    expect(await sandbox.inputValue()).toBe('worker');
    expect(await page.$eval('#field-agent-sandbox option[value="webcontainer"]', (o) => (o as HTMLOptionElement).disabled)).toBe(true);
    expect(await page.$eval('#field-agent-sandbox option[value="node"]', (o) => (o as HTMLOptionElement).disabled)).toBe(true);
    expect(await sandbox.getAttribute('aria-describedby')).toContain('sandbox-availability');
    await page.locator('#sandbox-availability').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/new-run-webcontainer-unavailable.png` });
  });

  it('says at once, without booting, that an offline browser cannot boot one', async () => {
    await page.context().setOffline(true);
    try {
      // The form again (its modules are loaded already): the choice is taken away as it renders.
      await page.evaluate(() => (location.hash = '#/runs'));
      await page.evaluate(() => (location.hash = '#/new'));
      await openFormSections(page);
      await page.waitForSelector('#sandbox-availability[data-webcontainer="unavailable"]');
      expect(await page.evaluate(() => navigator.onLine)).toBe(false);
      expect(await text('#sandbox-availability')).toMatch(/^WebContainer unavailable: WebContainers load their runtime from stackblitz\.com and this browser is offline; connect to the network, or use the worker sandbox, which runs offline\.$/);
      expect(await page.$eval('#field-agent-sandbox option[value="webcontainer"]', (o) => (o as HTMLOptionElement).disabled)).toBe(true);
      const err = await page.evaluate(() =>
        (window as any).webswe.trainer.startRun({ name: 'wc-offline', preset: 'micro', overrides: { 'agent.sandbox': 'webcontainer' } })
          .then(() => null, (e: Error) => ({ name: e.name, message: e.message })));
      expect(err).toEqual({ name: 'ConfigError', message: expect.stringMatching(/^agent\.sandbox: WebContainers load their runtime from stackblitz\.com and this browser is offline; .*\(agent\.sandbox = "worker" /) });
    } finally {
      await page.context().setOffline(false);
    }
  });

  it('trains a nano run end to end with every episode in the page\'s container (a stand-in)', async () => {
    await page.reload();
    await openFormSections(page);
    await page.evaluate(installStandIn, REPORTER_MARK);
    // micro, its copy drills and guesses off in SETTINGS, which sizes the run.
    await page.getByLabel('Preset', { exact: true }).selectOption('micro');
    for (const [path, v] of Object.entries(SETTINGS)) {
      const field = page.getByLabel(path, { exact: true });
      if (typeof v === 'boolean') await field.setChecked(v);
      else if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(v);
      else await field.fill(v);
    }
    await page.getByLabel('agent.sandbox', { exact: true }).selectOption('webcontainer');
    await page.waitForSelector('#sandbox-availability[data-webcontainer="ready"]');
    await page.getByLabel('Run name').fill(RUN);
    await page.locator('#sandbox-availability').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/new-run-webcontainer.png` });
    await page.click('#start-run');
    await page.waitForURL(/#\/run\/nano-webcontainer$/, { timeout: 60_000 });
    await page.waitForSelector('#run-status[data-status="done"]', { timeout: 420_000 });
    await shot('live-done-webcontainer');

    const run = await page.evaluate((name) => (window as any).webswe.trainer.getRun(name), RUN);
    expect(run.config['agent.sandbox']).toBe('webcontainer');
    // The same kind of metrics as a worker-sandbox run: a behaviour-cloning step, DAPO steps, both evaluations.
    const rows = await page.evaluate((name) => (window as any).webswe.trainer.readMetrics(name), RUN);
    const bc = rows.filter((r: { phase: string; step: number }) => r.phase === 'base' && r.step >= 0);
    expect(bc).toHaveLength(1);
    expect(bc[0].values.loss).toBeGreaterThan(1);
    expect(bc[0].values.grad_norm).toBeGreaterThan(0);
    expect(rows.filter((r: { phase: string }) => r.phase === 'dapo').map((r: { step: number }) => r.step)).toEqual([0, 1]);
    expect(rows.filter((r: { phase: string }) => r.phase.startsWith('eval-')).map((r: { phase: string }) => r.phase)).toEqual(['eval-base', 'eval-dapo']);

    // Every episode was graded by a test run in the page's container, in its own folder, and disposed.
    const episodes = await page.evaluate(async (name) => {
      const t = (window as any).webswe.trainer;
      const steps: { phase: string; step: number }[] = await t.listTrajectorySteps(name);
      const out: { policy: string; error: string | null; passed: number; total: number }[] = [];
      for (const s of steps) {
        for (const e of await t.readTrajectories(name, s.phase, s.step)) {
          const full = await t.readTrajectory(name, s.phase, s.step, e.index);
          out.push({ policy: e.policy, error: full.error ?? null, passed: e.tests_passed, total: e.tests_total });
        }
      }
      return out;
    }, RUN);
    expect(episodes.length).toBeGreaterThanOrEqual(4);
    expect(episodes.filter((e) => e.error !== null)).toEqual([]);
    // Within three turns no episode fixes its bug (the expert's first edit comes later), so grading finds each
    // task's PASS_TO_PASS tests passing and its FAIL_TO_PASS ones failing: results the container's reporter
    // lines carried (a grading that failed counts every test as failed).
    for (const e of episodes) expect([e.passed > 0, e.passed < e.total], JSON.stringify(e)).toEqual([true, true]);
    expect(episodes.some((e) => e.policy.startsWith('expert'))).toBe(true);
    const stats: StandInStats = await page.evaluate(() => (window as any).standIn.stats());
    expect(stats.boots).toBe(1);
    expect(stats.testRuns).toBeGreaterThanOrEqual(episodes.length);
    expect(stats.folders.length).toBeGreaterThanOrEqual(episodes.length);
    expect(stats.left).toBe(0);
    expect(errors).toEqual([]);
  });
});
