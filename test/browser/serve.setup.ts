// Browser-tier global setup: build the app once and serve it with Vite's preview server (the
// same server and headers `webswe serve` uses) on a free localhost port.
import type { TestProject } from 'vitest/node';
import { build, preview } from 'vite';
import { fileURLToPath } from 'node:url';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export default async function setup(project: TestProject) {
  await build({ root: ROOT, configFile: `${ROOT}vite.config.ts`, logLevel: 'warn' });
  const server = await preview({ root: ROOT, configFile: `${ROOT}vite.config.ts`, preview: { port: 0, host: '127.0.0.1', open: false } });
  const addr = server.httpServer.address();
  if (!addr || typeof addr === 'string') throw new Error('preview server has no port');
  // localhost (not 127.0.0.1) so the page is a secure context with navigator.gpu.
  project.provide('baseUrl', `http://localhost:${addr.port}/`);
  return async () => {
    await server.close();
  };
}
