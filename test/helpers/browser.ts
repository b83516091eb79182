// Browser-tier helpers: Debian's chromium as every measurement opens it (src/bench/chromium.node.ts), the app's page
// as the tests open it (page errors collected, the screenshot folder made), a page with its sandboxes ready.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openAppPage as openPage } from '../../src/bench/chromium.node.ts';

export { CHROMIUM, CHROMIUM_ARGS, launchChromium, noBrowserReason } from '../../src/bench/chromium.node.ts';

/** Where the browser tests save their screenshots. */
export const SHOTS = 'test-results/screenshots';

/** A chromium with one page for the app: uncaught page errors go to `errors` (tests assert it stays empty). */
export async function openAppPage(errors: string[]): Promise<{ browser: Browser; page: Page }> {
  mkdirSync(SHOTS, { recursive: true });
  return openPage(errors);
}

/** A chromium with the app open at `url` and its sandboxes ready (window.webswe.sandboxes); page errors go to `errors`. */
export async function openSandboxPage(url: string, errors: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { webswe?: { sandboxes?: unknown } }).webswe?.sandboxes);
  return { browser, page };
}

/** The New run form with every folded section open, so that a test can fill any field. */
export async function openFormSections(page: Page): Promise<void> {
  await page.waitForSelector('#new-run');
  await page.evaluate(() => document.querySelectorAll<HTMLDetailsElement>('#new-run details').forEach((d) => (d.open = true)));
}
