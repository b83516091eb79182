// A browser tab contributes to a shared run: a learner (the trainer with `share`, in this Node process)
// plays a nano DAPO iteration through a real nats-server; chromium opens the app's Contribute view from a
// join link (the server's WebSocket listener), and its trainer worker plays the work items on the tab's
// backend in the worker sandbox. Every group the tab sends passes the learner's verification (replay in
// the learner's node sandbox, the sampler's draws, the log-probs), the view lists the items and the
// learner's acceptance, and the run's DAPO rows count them. Screenshot: test-results/screenshots/contribute.png.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RunBus } from '../../src/share/bus.ts';
import { SharedRollouts } from '../../src/share/learner.ts';
import { contribute } from '../../src/share/contributor.ts';
import { inboxPrefix } from '../../src/share/server-config.ts';
import { FastCpuBackend } from '../../src/ops/fast-cpu/backend.ts';
import { resolveConfig } from '../../src/rl/config.ts';
import { train } from '../../src/rl/trainer.ts';
import { sandboxFactory } from '../../src/sandbox/index.node.ts';
import { FileRunStore } from '../../src/store/fs.node.ts';
import { parseTaskFile } from '../../src/tasks/schema.ts';
import { noBrowserReason, openAppPage, SHOTS } from '../helpers/browser.ts';
import { noNatsReason, startNatsServer, type TestServer } from '../helpers/nats.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const FILE = 'test/fixtures/agent/mutations.jsonl';
const { tasks } = parseTaskFile(readFileSync(FILE, 'utf8'), FILE);
const cfg = resolveConfig({
  'model.preset': 'scratch-30k', seed: 6, 'run.phases': 'dapo', 'agent.contextTokens': 1536, 'agent.actionTokens': 48, 'agent.maxTurns': 2,
  'reward.lengthThreshold': 1, 'dapo.iterations': 1, 'dapo.tasksPerIteration': 2, 'dapo.groupSize': 2, 'dapo.filterGroups': false,
  'dapo.optimizerSteps': 1, 'eval.samples': 1,
});

describe.skipIf(noBrowserReason || noNatsReason)('contributing from a browser tab', () => {
  let browser: Browser;
  let page: Page;
  let server: TestServer;
  const baseUrl = inject('baseUrl');
  const errors: string[] = [];

  beforeAll(async () => {
    server = await startNatsServer(2);
    ({ browser, page } = await openAppPage(errors));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('plays the work items of a learner in Node, and every group it sends is accepted', async () => {
    const nc = await connect({ servers: server.url, user: server.learner.user, pass: server.learner.password });
    const share = new SharedRollouts(new RunBus(nc, 'tab1'), { limits: { maxResultBytes: 4 << 20, logprobTolerance: 2e-3 }, leaseSeconds: 60, maxAttempts: 2, roundSeconds: 240 });
    const store = await FileRunStore.open(mkdtempSync(join(tmpdir(), 'webswe-tab-')));
    const learner = train(cfg, { be: new FastCpuBackend(), sandbox: sandboxFactory('node'), store, train: tasks.slice(0, 3), test: tasks.slice(3, 4), share });

    const c = server.contributors[0]!;
    await page.goto(`${baseUrl}#/contribute?server=${encodeURIComponent(server.wsUrl)}&run=tab1&user=${c.user}&pass=${c.password}`);
    await page.waitForSelector('#contribute-form');
    expect(await page.inputValue('#contribute-run')).toBe('tab1');
    expect(await page.getAttribute('nav a[aria-current]', 'data-nav')).toBe('contribute');
    await page.click('#contribute-start');
    // Two items listed; a learner that fails meanwhile ends the wait with its error, and a timeout says what the tab showed.
    const listed = page.waitForFunction(() => document.querySelectorAll('#contribute-items li').length >= 2, undefined, { timeout: 240_000 });
    const learnerFailed = learner.then(() => new Promise<never>(() => {}), (e: Error) => Promise.reject(new Error(`the learner failed before the tab played its items: ${e.message}`)));
    await Promise.race([listed, learnerFailed]).catch(async (e: Error) => {
      throw new Error(`${e.message}\nthe tab's status: ${await page.textContent('#contribute-status')}; its items: ${await page.textContent('#contribute-items')}; tallies: ${JSON.stringify([...share.tally])}`);
    });
    const r = await learner;
    expect(r.phases.map((p) => p.phase)).toEqual(['dapo']);
    expect(share.tally.get(c.user)).toEqual({ accepted: 2, rejected: {} });
    const dapo = (await store.readMetrics()).find((m) => m.phase === 'dapo')!;
    expect(dapo.values).toMatchObject({ dist_accepted: 2, dist_rejected: 0, dist_played_by_learner: 0 });
    // The view: the items, then the learner's verdicts on them.
    expect(await page.$$eval('#contribute-items li', (ls) => ls.map((l) => l.getAttribute('data-item')))).toEqual(['dapo/0/0/0', 'dapo/0/0/1']);
    await page.waitForFunction(() => document.querySelector('#contribute-acceptance')?.getAttribute('data-accepted') === '2', undefined, { timeout: 30_000 });
    expect(await page.textContent('#contribute-acceptance')).toMatch(/accepted 2 of your 2 results \(100 %\)/);
    await page.screenshot({ path: `${SHOTS}/contribute.png`, fullPage: true });
    await page.click('#contribute-stop');
    await page.waitForFunction(() => /Stopped after 2 work items/.test(document.querySelector('#contribute-status')?.textContent ?? ''), undefined, { timeout: 30_000 });
    expect(errors).toEqual([]);
    await nc.close();
  }, 300_000);

  it('shares a run started in the app: a Node contributor plays its DAPO rounds, and the tab verifies them', async () => {
    const overrides = {
      'model.preset': 'scratch-30k', seed: 3, 'run.phases': 'dapo', 'tasks.train': 'public/tasks/level0/train.jsonl', 'tasks.test': 'public/tasks/level0/test.jsonl',
      'tasks.difficulty': 'token', 'tasks.maxTrain': 3, 'tasks.maxTest': 1, 'agent.contextTokens': 1024, 'agent.actionTokens': 32, 'agent.maxTurns': 2,
      'reward.lengthThreshold': 1, 'dapo.iterations': 1, 'dapo.tasksPerIteration': 2, 'dapo.groupSize': 2, 'dapo.filterGroups': false, 'dapo.optimizerSteps': 1,
      'eval.samples': 1, 'dist.roundSeconds': 240,
    };
    const share = { server: server.wsUrl, user: server.learner.user, password: server.learner.password };
    await page.goto(`${baseUrl}#/runs`);
    const started = await page.evaluate(([o, sh]) => (window as any).webswe.trainer.startRun({ name: 'shared-tab', preset: '', overrides: o, share: sh }).then((r: { name: string }) => r.name, (e: Error) => `error: ${e.message}`), [overrides, share] as const);
    expect(started).toBe('shared-tab');
    const c = server.contributors[0]!;
    const nc = await connect({ servers: server.url, user: c.user, pass: c.password, inboxPrefix: inboxPrefix(c.user), waitOnFirstConnect: true });
    let stop = false;
    const work = contribute({ bus: new RunBus(nc, 'shared-tab'), user: c.user, be: new FastCpuBackend(), sandbox: sandboxFactory('node'), shouldStop: () => stop });
    const status = () => page.evaluate(() => (window as any).webswe.trainer.getRun('shared-tab').then((r: { status: string }) => r?.status));
    for (let t0 = Date.now(); !['done', 'failed'].includes(await status()) && Date.now() - t0 < 240_000; ) await new Promise((r) => setTimeout(r, 1000));
    stop = true;
    const done = await work;
    await nc.close();
    const run = await page.evaluate(() => (window as any).webswe.trainer.getRun('shared-tab'));
    expect(run.status, JSON.stringify(run.error)).toBe('done');
    const rows = await page.evaluate(() => (window as any).webswe.trainer.readMetrics('shared-tab'));
    const dapo = rows.find((r: { phase: string }) => r.phase === 'dapo');
    expect(dapo.values).toMatchObject({ dist_accepted: 2, dist_rejected: 0, dist_played_by_learner: 0 });
    expect(done.items).toBe(2);
    // The learner tab's live view says what contributors delivered.
    await page.goto(`${baseUrl}#/run/shared-tab`);
    await page.waitForSelector('#run-shared:not([hidden])', { timeout: 30_000 });
    expect(await page.textContent('#run-shared')).toBe('Shared run: 2 groups from contributors accepted after verification, 0 results rejected, 0 groups played here.');
    expect(errors).toEqual([]);
  }, 300_000);
});
