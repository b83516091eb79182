// The memory estimate of the New run form, in chromium: the planner's parts follow the fields as they
// change; a run that will not fit the backend's budget (CPU: a memory bound; WebGPU on SwiftShader: the
// adapter's 1 GiB per buffer) is refused before it starts, by the form and by the worker, with the
// numbers and the field to lower; lowering that field to the value the refusal names makes it fit.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { noBrowserReason, openAppPage, openFormSections, SHOTS } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);


describe.skipIf(noBrowserReason)('the memory estimate of a new run', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const bytes = async (part: string) => Number(await page.getAttribute(`#memory-table tr[data-part="${part}"]`, 'data-bytes'));
  const fits = () => page.getAttribute('#memory-verdict', 'data-fits');

  beforeAll(async () => {
    ({ browser, page } = await openAppPage(errors));
    await page.goto(`${inject('baseUrl')}#/new`);
    await page.waitForSelector('#memory-verdict[data-fits="true"]', { timeout: 60_000 });
    await openFormSections(page);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the planner\'s parts for the preset, and follows the context and batch fields', async () => {
    for (const part of ['weights', 'grads', 'adam', 'activations', 'logits', 'kv', 'train', 'generate', 'largest']) expect(await bytes(part), part).toBeGreaterThan(0);
    // auto on SwiftShader trains on the CPU backend: its bound is a memory total.
    expect(await page.textContent('#memory-budget')).toMatch(/^Budget \(CPU backend\): [\d.]+ GiB in all/);
    const kv = await bytes('kv'), acts = await bytes('activations'), weights = await bytes('weights');
    const ctx = Number(await page.inputValue('#field-agent-contextTokens'));
    await page.getByLabel('agent.contextTokens', { exact: true }).fill(String(2 * ctx));
    await page.waitForFunction((before) => Number(document.querySelector('#memory-table tr[data-part="kv"]')?.getAttribute('data-bytes')) > before, kv);
    expect(await bytes('activations')).toBeGreaterThan(acts);
    expect(await bytes('weights')).toBe(weights);
    const rows = await bytes('activations');
    // The training batch is the larger of rft.batchEpisodes and DAPO's mini-batch (micro: 8 and 8·8/2).
    await page.getByLabel('rft.batchEpisodes', { exact: true }).fill('64');
    await page.waitForFunction((before) => Number(document.querySelector('#memory-table tr[data-part="activations"]')?.getAttribute('data-bytes')) > before, rows);
    // A bigger model: more weights.
    await page.getByLabel('model.preset', { exact: true }).fill('scratch-5m');
    await page.waitForFunction((before) => Number(document.querySelector('#memory-table tr[data-part="weights"]')?.getAttribute('data-bytes')) > before, weights);
    // A model the estimate cannot size (not a from-scratch preset) has none, and says why.
    await page.getByLabel('model.preset', { exact: true }).fill('Qwen/Qwen2.5-0.5B');
    await page.waitForSelector('#memory-verdict[data-fits="unknown"]');
    expect(await page.textContent('#memory-verdict')).toMatch(/^No estimate: model\.preset: "Qwen\/Qwen2\.5-0\.5B" is not a from-scratch preset \(scratch-30k, scratch-160k, scratch-400k, scratch-5m\), so its size is not known here/);
  });

  it('refuses a run beyond the CPU backend\'s bound with the numbers and the field to lower, and lowering it fits', async () => {
    await page.getByLabel('model.preset', { exact: true }).fill('scratch-5m');
    await page.getByLabel('model.passTokens', { exact: true }).fill('0'); // one pass a step: the step is the peak
    await page.getByLabel('agent.contextTokens', { exact: true }).fill('131072');
    await page.getByLabel('rft.batchEpisodes', { exact: true }).fill('64');
    await page.waitForSelector('#memory-verdict[data-fits="false"]');
    const verdict = (await page.textContent('#memory-verdict'))!;
    expect(verdict).toMatch(/^agent\.contextTokens: this run will not fit: it needs [\d.]+ GiB at its peak \(a training step\) but the CPU backend's bound is [\d.]+ GiB/);
    expect(verdict).toMatch(/Planned: weights [\d.]+ MiB, gradients [\d.]+ MiB, AdamW m \+ v [\d.]+ MiB, activations \(64 rows × \d+ tokens\) [\d.]+ GiB/);
    await page.getByLabel('Run name').fill('too-big');
    await page.click('#start-run');
    await page.waitForSelector('#form-error:not([hidden])');
    const refusal = (await page.textContent('#form-error'))!;
    expect(refusal).toBe(verdict);
    expect(await page.getAttribute('#field-agent-contextTokens', 'aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-agent-contextTokens');
    await page.screenshot({ path: `${SHOTS}/new-run-memory-refused.png`, fullPage: true });
    expect(await page.evaluate(() => (window as any).webswe.trainer.getRun('too-big'))).toBeNull();

    // The refusal names a value that fits: take it.
    const to = /lower agent\.contextTokens to (\d+)/.exec(refusal)?.[1];
    expect(to).toBeDefined();
    await page.getByLabel('agent.contextTokens', { exact: true }).fill(to!);
    await page.waitForSelector('#memory-verdict[data-fits="true"]');
    await page.getByLabel('agent.contextTokens', { exact: true }).fill(String(Number(to) + 1));
    await page.waitForSelector('#memory-verdict[data-fits="false"]');
  });

  it('on WebGPU checks the adapter\'s per-buffer limit, and the worker refuses too', async () => {
    await page.getByLabel('agent.contextTokens', { exact: true }).fill('131072');
    await page.selectOption('#run-backend', 'webgpu');
    await page.waitForFunction(() => /^Budget \(WebGPU\)/.test(document.querySelector('#memory-budget')?.textContent ?? ''));
    const limit = await page.evaluate(async () => {
      const info = await (window as any).webswe.trainer.probe();
      return Math.min(info.limits.maxBufferSize, info.limits.maxStorageBufferBindingSize);
    });
    expect(await page.textContent('#memory-budget')).toContain(`${(limit / 2 ** 30).toFixed(2)} GiB per buffer`);
    await page.waitForSelector('#memory-verdict[data-fits="false"]');
    expect(await bytes('largest')).toBeGreaterThan(limit);
    expect(await page.textContent('#memory-verdict')).toMatch(/its largest buffer bound whole, .* needs [\d.]+ GiB but the adapter allows [\d.]+ GiB per buffer \(maxBufferSize/);
    await page.screenshot({ path: `${SHOTS}/new-run-memory-webgpu.png`, fullPage: true });

    // The worker's own check, for a caller that skips the form.
    const err = await page.evaluate(() =>
      (window as any).webswe.trainer.startRun({ name: 'too-big-api', preset: 'tiny', backend: 'fast-cpu', overrides: { 'agent.contextTokens': 131072, 'model.passTokens': 0, 'agent.sandbox': 'worker' } })
        .then(() => null, (e: Error) => ({ name: e.name, message: e.message })));
    expect(err).toEqual({ name: 'ConfigError', message: expect.stringMatching(/^agent\.contextTokens: this run will not fit: it needs [\d.]+ GiB .* To fit: lower agent\.contextTokens to \d+/) });
    expect(await page.evaluate(() => (window as any).webswe.trainer.getRun('too-big-api'))).toBeNull();
    expect(errors).toEqual([]);
  });
});
