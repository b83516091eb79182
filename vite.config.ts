// Vite: dev server, build and preview of the web app. Every response carries the cross-origin
// isolation headers WebContainers need (and SharedArrayBuffer wants) — 304s included: Vite's
// `headers` option skips 304 responses, and Chromium then refuses module Worker scripts
// (net::ERR_BLOCKED_BY_RESPONSE), so a middleware sets them on every response instead.
import { defineConfig, type Plugin } from 'vite';

export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

function isolationHeaders(): Plugin {
  // Returns nothing: a function returned from these hooks would run as a post-middleware hook.
  const use = (server: { middlewares: { use(fn: (req: unknown, res: { setHeader(k: string, v: string): void }, next: () => void) => void): unknown } }): void => {
    server.middlewares.use((_req, res, next) => {
      for (const [k, v] of Object.entries(ISOLATION_HEADERS)) res.setHeader(k, v);
      next();
    });
  };
  return { name: 'webswe-isolation-headers', configureServer: use, configurePreviewServer: use };
}

export default defineConfig({
  plugins: [isolationHeaders()],
  server: { headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
  worker: { format: 'es' },
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true },
});
