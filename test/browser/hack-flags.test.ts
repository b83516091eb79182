// Reward-hack flags in the app: a run in the page's own IndexedDB whose rollouts hold a flagged episode (its source
// answers the tests' inputs from a table: special_cases) shows the flag in the trajectory list and on the episode,
// and its rows' flagged share draws the live view's "Reward-hack flags" chart.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, noBrowserReason, SHOTS } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const RUN = 'hack-flags-demo';

/** A minimal trajectory of the store's record shape (src/agent/trajectory.ts). */
const trajectory = (task: string, flags: string[], reward: number) => ({
  format: 'webswe-trajectory', version: 1, task_id: task, repo: task, seed: 1, policy: 'model', policy_version: 3, sandbox: 'worker',
  system: 'Fix the bug.', prompt: `Fix ${task}.`, budget_unit: 'tokens', context_used: 120, action_tokens: 20,
  turns: [{ index: 0, text: '```command\nsubmit\n```', command: { name: 'submit' }, format_error: null, status: 'ok', observation: '', observation_cut: 0, exit_code: null, timing: { policy_ms: 5, exec_ms: 1 } }],
  reward: { tests: reward, length_penalty: 0, total: reward },
  tests: { passed: reward ? ['t'] : [], failed: reward ? [] : ['t'], timed_out: false },
  hack_flags: flags, end_reason: 'submitted', final_diff: '', timing: { total_ms: 10, policy_ms: 5, sandbox_ms: 1, reward_ms: 4 },
});

describe.skipIf(noBrowserReason)('reward-hack flags in the app', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(inject('baseUrl'));
    await page.waitForFunction(() => (window as any).webswe?.idb);
    await page.evaluate(
      async ({ name, ts }) => {
        const m = await (window as any).webswe.idb();
        const db = await m.openWebsweDb();
        const s = await m.IdbRunStore.open(db, name, { status: 'done', preset: 'micro' });
        await s.writeJson('config.json', { seed: 1, run: { phases: 'base,rft,dapo' } });
        await s.appendMetrics([
          { phase: 'dapo', step: 0, values: { reward_mean: 0.5, pass_rate: 0.5, hack_flags: 0.5 }, timing: { elapsed_s: 60 } },
          { phase: 'dapo', step: 1, values: { reward_mean: 0.5, pass_rate: 0.5, hack_flags: 0 }, timing: { elapsed_s: 120 } },
        ]);
        await s.writeTrajectories('dapo', 0, ts);
      },
      { name: RUN, ts: [trajectory('clean__1', [], 0), trajectory('gamed__2', ['special_cases'], 1)] },
    );
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('marks the flagged episode in the list and on its page, and charts the flagged share', async () => {
    await page.goto(`${inject('baseUrl')}#/run/${RUN}/trajectories/dapo/0`);
    await page.waitForSelector('#episodes tr.flagged');
    const rows = await page.$$eval('#episodes tr', (trs) => trs.slice(1).map((tr) => [tr.className, tr.querySelector('td:last-child')?.textContent ?? '']));
    expect(rows).toEqual([['', ''], ['flagged', 'special cases']]);
    expect(await page.textContent('#episodes-heading')).toContain('1 of 2 flagged');
    await page.screenshot({ path: `${SHOTS}/hack-flags-list.png` });
    await page.click('a[aria-label="episode 2: gamed__2"]');
    await page.waitForSelector('#episode dl');
    expect(await page.textContent('#episode dl')).toContain("special_cases (non-test code gained literals that are the tests' inputs or expected values)");
    await page.goto(`${inject('baseUrl')}#/run/${RUN}`);
    await page.waitForFunction(() => Number(document.querySelector('#chart-hack-flags')?.getAttribute('data-points')) > 0);
    expect(errors).toEqual([]);
  });
});
