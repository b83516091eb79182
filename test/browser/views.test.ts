// Every view of the app at 1280 and 800 px wide, as a student meets it: the page never scrolls sideways (a wide
// table scrolls in its own box), and no text names a source file or an experiment. A run is written into the page's
// IndexedDB first (the micro preset's config, metrics of every phase, a thousand expert episodes, its results), so
// the run views have what a finished run has.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { flattenConfig, resolveConfig } from '../../src/rl/config.ts';
import { RUN_PRESETS } from '../../src/rl/presets.ts';
import { parseTaskFile } from '../../src/tasks/schema.ts';
import { launchChromium, noBrowserReason, SHOTS } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const RUN = 'micro-seed1-walk';
const level0 = parseTaskFile(readFileSync('public/tasks/level0/train.jsonl', 'utf8'), 'level0/train').tasks;

/** An expert episode of the store's record shape (src/agent/trajectory.ts): a view, a sub, the tests, submit. */
const episode = (task: string, i: number) => ({
  format: 'webswe-trajectory', version: 1, task_id: task, repo: task.split('__')[0], seed: i, policy: 'expert(style=bare, noise=0, guesses=3, edit=sub, retry)', policy_version: 0, sandbox: 'worker',
  system: 'Fix the bug.', prompt: `Fix ${task}.`, budget_unit: 'tokens', context_used: 380, action_tokens: 40,
  turns: [
    { index: 0, text: '```command\nview src/index.js\n```', command: { name: 'view', args: ['src/index.js'] }, format_error: null, status: 'ok', observation: Array.from({ length: 30 }, (_, k) => `${k + 1}\texport function f${k}(a, b) { return a + b * ${k}; } // a long line of code that goes on and on past the width of a narrow box`).join('\n'), observation_cut: 0, exit_code: null, timing: { policy_ms: 5, exec_ms: 1 } },
    { index: 1, text: '```command\nsub 3 >= >\n```', command: { name: 'sub', args: ['3', '>=', '>'] }, format_error: null, status: 'ok', observation: 'tests: 12 passed, 0 failed', observation_cut: 0, exit_code: 0, timing: { policy_ms: 5, exec_ms: 9 } },
    { index: 2, text: '```command\nsubmit\n```', command: { name: 'submit' }, format_error: null, status: 'ok', observation: '', observation_cut: 0, exit_code: 0, timing: { policy_ms: 5, exec_ms: 1 } },
  ],
  reward: { tests: 1, length_penalty: 0, total: 1 },
  tests: { passed: ['t1', 't2'], failed: [], timed_out: false },
  hack_flags: [], end_reason: 'submitted', final_diff: '--- a/src/index.js\n+++ b/src/index.js\n@@ -3 +3 @@\n-  return a >= b;\n+  return a > b;\n', timing: { total_ms: 40, policy_ms: 15, sandbox_ms: 11, reward_ms: 14 },
});

describe.skipIf(noBrowserReason)('every view, at 1280 and 800 px', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const baseUrl = inject('baseUrl');

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(baseUrl);
    await page.waitForFunction(() => (window as any).webswe?.idb);
    const rows = [
      ...Array.from({ length: 40 }, (_, i) => ({ phase: 'base', step: i, values: { loss: 2 - i / 40, grad_norm: 1, entropy: 1.5, lr: 5e-3, action_tokens: 60, copy_probe: i / 40 }, timing: { elapsed_s: 10 * i } })),
      { phase: 'eval-base', step: 0, values: { 'pass@1': 0.57, 'pass@1_std': 0.015, 'pass@k': 0.72 }, timing: { elapsed_s: 400 } },
      ...Array.from({ length: 20 }, (_, i) => ({ phase: 'dapo', step: i, values: { reward_mean: 0.6 + i / 100, pass_rate: 0.6 + i / 100, clipfrac_high: 0.01, clipfrac_low: 0.02, entropy: 0.8, approx_kl: 0.001, loss: 0.01, turns_mean: 5, format_errors: 0.01, hack_flags: 0 }, timing: { elapsed_s: 900 + 20 * i, generation_s: 10, sandbox_s: 3, train_tokens_per_s: 9000 } })),
    ];
    await page.evaluate(
      async ({ name, config, rows, ts }) => {
        const m = await (window as any).webswe.idb();
        const db = await m.openWebsweDb();
        const s = await m.IdbRunStore.open(db, name, { status: 'done', preset: 'micro' });
        await s.writeJson('config.json', config);
        await s.writeJson('run.json', { name, preset: 'micro', overrides: {}, backend: 'auto', created: Date.now() });
        await s.appendMetrics(rows);
        await s.writeTrajectories('bc', 0, ts);
        await s.writeJson('results.json', { phases: [
          { phase: 'base', 'pass@1': 0.573, 'pass@1_std': 0.015, 'pass@k': 0.727, k: 4, tasks: 444, wall_s: 361 },
          { phase: 'rft', 'pass@1': 0.618, 'pass@1_std': 0.013, 'pass@k': 0.766, k: 4, tasks: 444, wall_s: 410 },
          { phase: 'dapo', 'pass@1': 0.671, 'pass@1_std': 0.014, 'pass@k': 0.786, k: 4, tasks: 444, wall_s: 486 },
        ], stopped: false });
      },
      { name: RUN, config: flattenConfig(resolveConfig(RUN_PRESETS.micro!.overrides)), rows, ts: Array.from({ length: 1000 }, (_, i) => episode(level0[i % level0.length]!.instance_id, i)) },
    );
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  const views: [string, string][] = [
    ['start', '#/start'], ['new run', '#/new'], ['runs', '#/runs'], ['live run', `#/run/${RUN}`],
    ['trajectories', `#/run/${RUN}/trajectories/bc/0`], ['episode', `#/run/${RUN}/trajectories/bc/0/0`],
    ['compare', `#/compare/${RUN}/${RUN}`], ['tasks', '#/tasks'], ['task', `#/tasks/${encodeURIComponent('level0/train')}/${encodeURIComponent(level0[0]!.instance_id)}`],
    ['model', '#/model'], ['contribute', '#/contribute'],
  ];

  it("pages a step's thousand episodes fifty at a time, names the one policy once, and shows no empty reasoning", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${baseUrl}#/run/${RUN}/trajectories/bc/0`);
    await page.waitForSelector('#episodes tr a');
    expect(await page.$$eval('#episodes tr', (trs) => trs.length)).toBe(51);
    expect(await page.textContent('#episodes-policy')).toBe('Played by expert(style=bare, noise=0, guesses=3, edit=sub, retry).');
    expect(await page.$$eval('#episodes th', (ths) => ths.map((t) => t.textContent))).toEqual(['#', 'task', 'turns', 'reward', 'end', 'tests', 'flags']);
    expect(await page.textContent('#episodes-page')).toBe('Page 1 of 20 (episodes 1–50 of 1000)');
    await page.click('#episodes-next');
    expect(await page.textContent('#episodes tr:nth-child(2) td a')).toBe('51');
    expect(await page.textContent('#episodes-page')).toBe('Page 2 of 20 (episodes 51–100 of 1000)');
    await page.goto(`${baseUrl}#/run/${RUN}/trajectories/bc/0/0`);
    await page.waitForSelector('#turns li');
    expect(await page.$$eval('#turns .reasoning', (r) => r.length)).toBe(0);
    expect(await page.textContent('#turns')).not.toContain('(empty)');
    // Compare draws only the charts a run has values for, and names the rest.
    await page.goto(`${baseUrl}#/compare/${RUN}/${RUN}`);
    await page.waitForSelector('#compare-charts figure');
    expect(await page.$$eval('#compare-charts figure', (fs) => fs.filter((f) => f.getAttribute('data-points')!.split(',').every((n) => n === '0')).length)).toBe(0);
    expect(await page.textContent('#compare-empty')).toMatch(/^Not drawn, as neither run has values for them: .+\.$/);
    // A finished run's whole-run bar is full.
    await page.goto(`${baseUrl}#/run/${RUN}`);
    await page.waitForSelector('#run-status[data-status="done"]');
    expect(Number(await page.getAttribute('#run-total-progress', 'value'))).toBe(1);
  });

  it('New run: the first fields open, the rest folded by section; a bad value is named beside its field as it is typed', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${baseUrl}#/new`);
    await page.waitForSelector('#new-run');
    expect(await page.$$eval('#new-run details', (ds) => ds.map((d) => [d.getAttribute('data-section'), (d as HTMLDetailsElement).open]))).toEqual(
      ['agent', 'reward', 'bc', 'rft', 'dapo', 'optim', 'eval', 'dist'].map((s) => [s, false]));
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(3000);
    await page.getByLabel('run.phases', { exact: true }).fill('base,foo');
    await page.waitForSelector('#field-run-phases-error:not([hidden])');
    expect(await page.textContent('#field-run-phases-error')).toBe('unknown phase "foo" (allowed: base, rft, dapo)');
    expect(await page.getAttribute('#field-run-phases', 'aria-invalid')).toBe('true');
    // A field in a folded section opens it when it is the one named.
    await page.getByLabel('run.phases', { exact: true }).fill('base,rft,dapo');
    await page.waitForSelector('#field-run-phases-error', { state: 'hidden' });
    await page.click('#new-run details[data-section="dapo"] > summary');
    await page.getByLabel('dapo.groupSize', { exact: true }).fill('1');
    await page.click('#new-run details[data-section="dapo"] > summary'); // folded again
    await page.click('#start-run');
    await page.waitForSelector('#field-dapo-groupSize-error:not([hidden])');
    expect(await page.$eval('#new-run details[data-section="dapo"]', (d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await page.textContent('#field-dapo-groupSize-error')).toMatch(/^1 is out of range/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-dapo-groupSize');
  });

  for (const width of [1280, 800]) {
    it(`at ${width} px: no sideways scroll, no internal text`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const problems: string[] = [];
      for (const [name, hash] of views) {
        await page.goto(`${baseUrl}${hash}`);
        await page.waitForSelector('#view h2', { timeout: 30_000 });
        await page.waitForTimeout(1500); // async parts of the view (lists, charts, the worker's answers)
        const { scroll, client, text } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, text: document.body.innerText }));
        if (scroll > client + 1) problems.push(`${name}: the page is ${scroll} px wide in ${client}`);
        const internal = /\bsrc\/\w+\/\S*|\bE\d{2,3}\b|finding \d+/.exec(text);
        if (internal) problems.push(`${name}: internal text "${internal[0]}"`);
        await page.screenshot({ path: `${SHOTS}/view-${name.replace(/ /g, '-')}-${width}.png`, fullPage: false });
      }
      expect(problems).toEqual([]);
      expect(errors).toEqual([]);
    }, 300_000);
  }
});
