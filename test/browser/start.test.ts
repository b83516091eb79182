// The first screen as a newcomer meets it, in chromium: it says what webswe is, measures this device and
// says how long the learning run takes here, and starts that run (the micro preset, backend auto: the CPU
// backend on SwiftShader) with one click. The live view then shows the episode being played, turn by
// turn, and the whole run's time left, the first screen's figure counting down; Stop ends the run within 10 s and the page
// says "stopped". Screenshots of both views go to
// test-results/screenshots/ (docs/ keeps copies for the README).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { noBrowserReason, openAppPage, SHOTS } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

describe.skipIf(noBrowserReason)('the first screen', () => {
  let browser: Browser;
  let page: Page;
  const baseUrl = inject('baseUrl');
  const errors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

  beforeAll(async () => {
    ({ browser, page } = await openAppPage(errors));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('says what webswe is and how long the learning run takes on this device, measured', async () => {
    await page.goto(baseUrl);
    await page.waitForSelector('#start-learning');
    expect(await page.textContent('h2')).toBe('Watch an agent learn to fix bugs');
    expect(await page.getAttribute('nav a[aria-current]', 'data-nav')).toBe('start');
    await page.waitForFunction(() => Number(document.querySelector('#start-estimate')?.getAttribute('data-seconds')) > 0, undefined, { timeout: 120_000 });
    const estimate = (await page.textContent('#start-estimate')) ?? '';
    expect(estimate).toMatch(/^The micro run takes about \d+ min( \d+ s)? on this device \(wasm \(\d+ threads?; the only WebGPU adapter is a software fallback/);
    expect(await page.$$eval('#start-estimate-parts li', (ls) => ls.map((l) => l.getAttribute('data-phase')))).toEqual(['base', 'rft', 'dapo']);
    expect(await page.getAttribute('#start-advanced', 'href')).toBe('#/new');
    await shot('start');
  });

  it('prices a DAPO iteration of the paper\'s setting here when asked: the 0.5 B shape measured, its episodes at their budgets', async () => {
    expect(await page.getAttribute('#iteration-price', 'data-seconds')).toBe('');
    await page.click('#iteration-measure');
    // While it measures (~2 GB on a CPU) a run does not start beside it, and a second ask shares the measurement.
    const started = await page.evaluate(() => (window as any).webswe.trainer.startRun({ preset: 'micro' }).then(() => 'started', (e: Error) => e.message));
    expect(started).toMatch(/this tab is measuring what qwen-coder-lora costs \(under a minute\); start the run when it is done/);
    const shared = page.evaluate(() => (window as any).webswe.trainer.estimateIteration('qwen-coder-lora', 'auto'));
    await page.waitForFunction(() => Number(document.querySelector('#iteration-price')?.getAttribute('data-seconds')) > 0, undefined, { timeout: 300_000 });
    expect(Math.round((await shared).roundS + (await shared).updateS)).toBe(Number(await page.getAttribute('#iteration-price', 'data-seconds')));
    const head = (await page.textContent('#iteration-price')) ?? '';
    expect(head).toMatch(/^A DAPO iteration of qwen-coder-lora \(Qwen\/Qwen2\.5-Coder-0\.5B-Instruct\) takes at most (\d+ h )?\d+ min( \d+ s)? on this device \(wasm \(\d+ threads?; the only WebGPU adapter is a software fallback.*\) with one generation round, at most .* with all 3 that dynamic sampling may take\.$/);
    // Three rounds cost more than one.
    expect(Number(await page.getAttribute('#iteration-price', 'data-max-seconds'))).toBeGreaterThan(Number(await page.getAttribute('#iteration-price', 'data-seconds')));
    const parts = await page.$$eval('#iteration-parts li', (ls) => ls.map((l) => l.textContent ?? ''));
    expect(parts[0]).toMatch(/^Generation round: 64 episodes of at most 9,232 tokens, at most 21 test runs each/);
    expect(parts[2]).toMatch(/measured on Qwen\/Qwen2\.5-Coder-0\.5B-Instruct \(2 of 24 blocks\) with random weights and divided by 2\.98; attention over an episode that long makes a token 1\.40× dearer to generate and 1\.60× to train/);
    expect(await page.isEnabled('#iteration-measure')).toBe(true);
    await shot('start-iteration-price');
  }, 330_000);

  it('starts the run with one click; the live view shows the episode being played and counts the time left down; Stop ends it within 10 s', async () => {
    const estimated = Number(await page.getAttribute('#start-estimate', 'data-seconds'));
    await page.click('#start-learning');
    await page.waitForURL(/#\/run\/micro-/, { timeout: 60_000 });
    // The episode being played: the expert's first turns arrive as the run clones it.
    await page.waitForSelector('#episode-turns li', { timeout: 180_000 });
    expect(await page.textContent('#episode-meta')).toMatch(/played by the scripted expert/);
    await page.waitForFunction(() => document.querySelectorAll('#episode-turns li').length >= 2, undefined, { timeout: 60_000 });
    expect(await page.textContent('#episode-turns li pre.action')).toMatch(/```command/);
    await shot('live-episode');
    // The whole run's time left: the first screen's estimate (the same estimator at the rates it measured) from the
    // first report on, counting down from one reading to the next, with the whole run's bar beside the stage's.
    const runLeft = async () => Number(await page.getAttribute('#run-eta', 'data-run-seconds'));
    await page.waitForFunction(() => Number(document.querySelector('#run-eta')?.getAttribute('data-run-seconds')) > 0, undefined, { timeout: 60_000 });
    expect(await page.textContent('#run-eta')).toMatch(/^About (\d+ h )?\d+ min( \d+ s)? left in the run/);
    const readings = [await runLeft()];
    expect(Math.abs(readings[0]! - estimated) / estimated).toBeLessThan(0.15);
    for (let i = 0; i < 3; i++) {
      await page.waitForTimeout(6000);
      readings.push(await runLeft());
    }
    for (let i = 1; i < readings.length; i++) expect(readings[i], readings.join(', ')).toBeLessThan(readings[i - 1]!);
    expect(Number(await page.getAttribute('#run-total-progress', 'value'))).toBeGreaterThan(0);
    await page.waitForSelector('#stop-run:not([disabled])');
    const t0 = Date.now();
    await page.click('#stop-run');
    await page.waitForSelector('#run-status[data-status="stopped"]', { timeout: 10_000 });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(await page.textContent('#run-log')).toBe('Stopped.');
    expect(errors).toEqual([]);
  }, 420_000);
});
