// The app in a real browser: the page is served cross-origin isolated, its trainer worker gets a
// WebGPU adapter (SwiftShader) and runs the matmul kernel, which matches the CPU reference.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MATMUL_CASES } from '../../src/ops/selfcheck.ts';
import type { CheckResult } from '../../src/ops/selfcheck.ts';
import { launchChromium, noBrowserReason } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

describe.skipIf(noBrowserReason)('web app in chromium', () => {
  let browser: Browser;
  let page: Page;
  const baseUrl = inject('baseUrl');
  const errors: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('serves the page with the cross-origin isolation headers', async () => {
    const res = await page.goto(baseUrl);
    expect(res?.headers()['cross-origin-opener-policy']).toBe('same-origin');
    expect(res?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  });

  it('reports a WebGPU adapter obtained inside the trainer worker', async () => {
    await page.waitForSelector('#gpu', { timeout: 120_000 });
    expect(await page.getAttribute('#gpu', 'data-status')).toBe('ready');
    expect(await page.textContent('#gpu-adapter')).toMatch(/\S/);
    const info = await page.evaluate(() => (window as any).webswe.trainer.probe());
    expect(info.ok).toBe(true);
    expect(info.inWorker).toBe(true);
    expect(info.limits.maxStorageBufferBindingSize).toBeGreaterThanOrEqual(128 * 2 ** 20);
  });

  it('runs matmul in the worker and matches the CPU reference', async () => {
    const results: CheckResult[] = await page.evaluate((cases) => (window as any).webswe.trainer.checkMatmul(cases, 4242), MATMUL_CASES);
    expect(results).toHaveLength(MATMUL_CASES.length);
    for (const r of results) expect(r.ok, r.report).toBe(true);
    expect(errors).toEqual([]);
  });
});
