// Browser-tier helpers: launch Debian's chromium through playwright-core with WebGPU on
// SwiftShader (WEBGPU.md's flags), or report why it cannot be launched.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
