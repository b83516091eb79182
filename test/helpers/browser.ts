// Browser-tier helpers: launch Debian's chromium through playwright-core with WebGPU on
// SwiftShader (docs/architecture.md "WebGPU"), or report why it cannot be launched; open the app's page as the
// tests do (a 1100×900 viewport, page errors collected, the screenshot folder made).
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
export const noBrowserReason = CHROMIUM ? null : 'no chromium at /usr/bin/chromium: apt-get install -y chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--use-webgpu-adapter=swiftshader',
  '--enable-features=Vulkan',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchChromium(): Promise<Browser> {
  if (!CHROMIUM) throw new Error(noBrowserReason!);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** Where the browser tests save their screenshots. */
export const SHOTS = 'test-results/screenshots';

/** A chromium with one page for the app: uncaught page errors go to `errors` (tests assert it stays empty). */
export async function openAppPage(errors: string[]): Promise<{ browser: Browser; page: Page }> {
  mkdirSync(SHOTS, { recursive: true });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('pageerror', (e) => errors.push(e.message));
  return { browser, page };
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
