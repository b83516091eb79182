// The built app served for the measurement scripts (app-learning-shot.ts, worker-run-cost.ts): Vite builds
// it and its preview server serves it with the headers `webswe serve` uses, on a free port of localhost
// (a secure context, so the page has navigator.gpu).
import { build, preview } from 'vite';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export async function buildAndServe(): Promise<{ url: string; close(): Promise<void> }> {
  await build({ root: ROOT, configFile: `${ROOT}vite.config.ts`, logLevel: 'warn' });
  const server = await preview({ root: ROOT, configFile: `${ROOT}vite.config.ts`, preview: { port: 0, host: '127.0.0.1', open: false } });
  const addr = server.httpServer.address();
  if (!addr || typeof addr === 'string') throw new Error('preview server has no port');
  return { url: `http://localhost:${addr.port}/`, close: () => server.close() };
}
