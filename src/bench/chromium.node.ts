// Debian's chromium through playwright-core, the one way every browser measurement opens it (`webswe bench sandbox`,
// the browser tests, the lab's probes): WebGPU on SwiftShader where there is no GPU (docs/architecture.md "WebGPU"),
// no network chatter, or the reason it cannot be launched. playwright-core is a dev dependency, loaded on first use.
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

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

export async function launchChromium(): Promise<Browser> {
  if (!CHROMIUM) throw new Error(noBrowserReason!);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** A chromium with one page for the app (1100×900): uncaught page errors go to `errors`. */
export async function openAppPage(errors: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('pageerror', (e) => errors.push(e.message));
  return { browser, page };
}
