// `webswe serve`: the built web app (dist/) on localhost with the cross-origin isolation headers
// WebContainers need, through Vite's preview server and the headers in vite.config.ts.
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UserError, runCommand } from './output.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the built web app on localhost (COOP/COEP headers set); build it first with `npm run build`')
    .option('--port <n>', 'port to listen on', '5173')
    .option('--host <host>', 'interface to bind', 'localhost')
    .action((opts: { port: string; host: string }) =>
      runCommand(async () => {
        if (!existsSync(`${ROOT}dist/index.html`)) throw new UserError('dist/ has no built app: run `npm run build` (or `npm start`, which builds and serves)');
        const port = Number(opts.port);
        if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UserError(`--port must be an integer in 1..65535, got "${opts.port}"`);
        const { preview } = await import('vite');
        const server = await preview({ root: ROOT, configFile: `${ROOT}vite.config.ts`, preview: { port, host: opts.host, strictPort: false, open: false } });
        server.printUrls();
        process.stderr.write('webswe: serving dist/ (Ctrl-C to stop)\n');
        await new Promise(() => {}); // serve until interrupted
      }),
    );
}
