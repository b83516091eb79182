// The built app served for the measurement scripts (app-learning-shot.ts, worker-run-cost.ts,
// worker-start-cost.ts): Vite builds it and its preview server serves it with the headers `webswe serve` uses,
// on a free port of localhost (a secure context, so the page has navigator.gpu).
import { build, preview } from 'vite';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { openAppPage } from '../src/bench/chromium.node.ts';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export async function buildAndServe(): Promise<{ url: string; close(): Promise<void> }> {
  await build({ root: ROOT, configFile: `${ROOT}vite.config.ts`, logLevel: 'warn' });
  const server = await preview({ root: ROOT, configFile: `${ROOT}vite.config.ts`, preview: { port: 0, host: '127.0.0.1', open: false } });
  const addr = server.httpServer.address();
  if (!addr || typeof addr === 'string') throw new Error('preview server has no port');
  return { url: `http://localhost:${addr.port}/`, close: () => server.close() };
}

/** The built app open in Debian's chromium with its worker sandbox ready (`webswe.sandboxes`), and the file name
 *  of the built runner Worker script in dist/assets; `close` ends the browser and the server. */
export async function openAppWithSandboxes(): Promise<{ page: Page; browser: Browser; runner: string; errors: string[]; close(): Promise<void> }> {
  const app = await buildAndServe();
  const runner = readdirSync(`${ROOT}dist/assets`).find((f) => f.startsWith('runner.worker'));
  if (!runner) throw new Error('the build has no runner.worker script in dist/assets');
  const errors: string[] = [];
  const { browser, page } = await openAppPage(errors);
  await page.goto(app.url);
  await page.waitForFunction(() => (window as { webswe?: { sandboxes?: unknown } }).webswe?.sandboxes);
  return { page, browser, runner, errors, close: async () => (await browser.close(), await app.close()) };
}
