// Shared runs from the terminal (docs/sharing.md):
//   webswe share server [--dir D] [--contributors N]   write the server's config once (nats.conf, users.json)
//                                                       and run Debian's nats-server with it
//   webswe share config [--dir D] …                    only write the config, and print the users' links
//   webswe contribute --server nats://USER:PASS@HOST:PORT --run ID   play a run's work items here
// `webswe train --share nats://learner:PASS@HOST:PORT` makes a run shareable (train.ts).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import type { Command } from 'commander';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { RunBus } from '../share/bus.ts';
import { contribute } from '../share/contributor.ts';
import { checkToken } from '../share/protocol.ts';
import { inboxPrefix, serverConfig, type ServerUser } from '../share/server-config.ts';
import { sandboxFactory } from '../sandbox/index.node.ts';
import { BACKEND_CHOICES, openBackend } from './backend.ts';
import { UserError, printJson, runCommand } from './output.ts';

export interface ServerFiles {
  dir: string;
  port: number;
  websocketPort: number;
  learner: ServerUser;
  contributors: ServerUser[];
}

const secret = () => randomBytes(12).toString('base64url');

/** nats.conf and users.json in `dir` (kept when they exist: users keep their passwords across restarts). */
export function writeServerFiles(dir: string, o: { contributors: number; port: number; websocketPort: number }): ServerFiles {
  const usersFile = join(dir, 'users.json');
  if (existsSync(usersFile)) return JSON.parse(readFileSync(usersFile, 'utf8')) as ServerFiles;
  if (!Number.isInteger(o.contributors) || o.contributors < 1 || o.contributors > 1000) throw new UserError(`--contributors must be an integer in 1..1000, got ${o.contributors}`);
  mkdirSync(dir, { recursive: true });
  const files: ServerFiles = {
    dir: resolve(dir), port: o.port, websocketPort: o.websocketPort,
    learner: { user: 'learner', password: secret() },
    contributors: Array.from({ length: o.contributors }, (_, i) => ({ user: `c${String(i + 1).padStart(3, '0')}`, password: secret() })),
  };
  writeFileSync(join(dir, 'nats.conf'), serverConfig({ port: o.port, websocketPort: o.websocketPort, storeDir: join(files.dir, 'jetstream'), learner: files.learner, contributors: files.contributors }));
  writeFileSync(usersFile, JSON.stringify(files, null, 2) + '\n', { mode: 0o600 });
  return files;
}

/** "nats://user:pass@host:port" → connection options (the password never printed back). */
export function parseServerUrl(text: string): { servers: string; user: string; pass: string } {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UserError(`--server "${text}" is not a URL; expected nats://USER:PASSWORD@HOST:PORT (\`webswe share config\` prints yours)`);
  }
  if (u.protocol !== 'nats:') throw new UserError(`--server must be a nats:// URL (the WebSocket ws:// address is for browsers), got ${u.protocol}//`);
  if (!u.username || !u.password) throw new UserError('--server needs the user and password: nats://USER:PASSWORD@HOST:PORT (`webswe share config` prints them)');
  return { servers: `${u.hostname}:${u.port || 4222}`, user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) };
}

/** Connect as the URL's user (contributors with their own inbox prefix); errors name the fix. */
export async function connectServer(text: string, role: 'learner' | 'contributor'): Promise<{ nc: NatsConnection; user: string }> {
  const o = parseServerUrl(text);
  try {
    const nc = await connect({ servers: o.servers, user: o.user, pass: o.pass, ...(role === 'contributor' ? { inboxPrefix: inboxPrefix(checkToken('user', o.user)) } : {}), maxReconnectAttempts: -1 });
    return { nc, user: o.user };
  } catch (e) {
    const m = (e as Error).message;
    if (/auth/i.test(m)) throw new UserError(`the server at ${o.servers} refused user "${o.user}" (${m}): check the user and password in --server`);
    throw new UserError(`cannot reach a NATS server at ${o.servers} (${m}): start one with \`webswe share server\``);
  }
}

function printLinks(f: ServerFiles, run = '<RUN>'): void {
  console.log(`server config: ${join(f.dir, 'nats.conf')} (users and passwords: ${join(f.dir, 'users.json')})`);
  console.log(`learner:      webswe train … --share nats://${f.learner.user}:${f.learner.password}@127.0.0.1:${f.port}`);
  const c = f.contributors[0]!;
  console.log(`contributor:  webswe contribute --server nats://${c.user}:${c.password}@127.0.0.1:${f.port} --run ${run}`);
  console.log(`browser:      #/contribute?server=${encodeURIComponent(`ws://127.0.0.1:${f.websocketPort}`)}&user=${c.user}&pass=${c.password}&run=${run}  (after the app's address)`);
  console.log(`(${f.contributors.length} contributor users: ${f.contributors[0]!.user} … ${f.contributors.at(-1)!.user}; give each contributor its own)`);
}

export function registerShare(program: Command): void {
  const share = program.command('share').description('a shared run: the NATS server contributors and the learner meet on');
  const common = (c: Command) =>
    c
      .option('--dir <dir>', 'where the config, users and JetStream files live', '.webswe-server')
      .option('--contributors <n>', 'contributor users to create (first time only)', '16')
      .option('--port <n>', 'NATS port (TCP: learner and terminal contributors)', '4222')
      .option('--ws-port <n>', 'WebSocket port (browser contributors)', '8080');
  common(share.command('config').description('write nats.conf and users.json (once) and print the learner and contributor links'))
    .option('--json', 'print one JSON document on stdout')
    .action((o: { dir: string; contributors: string; port: string; wsPort: string; json?: boolean }) =>
      runCommand(async () => {
        const f = writeServerFiles(o.dir, { contributors: Number(o.contributors), port: Number(o.port), websocketPort: Number(o.wsPort) });
        if (o.json) printJson({ dir: f.dir, port: f.port, websocket_port: f.websocketPort, learner: f.learner.user, contributors: f.contributors.map((c) => c.user) });
        else printLinks(f);
      }),
    );
  common(share.command('server').description("run Debian's nats-server with the shared-run config (written first if missing)"))
    .action((o: { dir: string; contributors: string; port: string; wsPort: string }) =>
      runCommand(async () => {
        if (spawnSync('nats-server', ['--version']).error) throw new UserError('nats-server is not installed: apt-get install nats-server (Debian\'s package), then run this again');
        const f = writeServerFiles(o.dir, { contributors: Number(o.contributors), port: Number(o.port), websocketPort: Number(o.wsPort) });
        printLinks(f);
        const p = spawn('nats-server', ['-c', join(f.dir, 'nats.conf')], { stdio: 'inherit' });
        const stop = () => p.kill('SIGTERM');
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        return await new Promise<number>((res) => p.on('exit', (code) => res(code ?? 0)));
      }),
    );

  program
    .command('contribute')
    .description("play a shared run's work items on this machine and send the verified-by-the-learner results back")
    .requiredOption('--server <url>', 'nats://USER:PASSWORD@HOST:PORT (a contributor user of `webswe share config`)')
    .requiredOption('--run <id>', 'the run to join (the learner prints it)')
    .option('--backend <name>', BACKEND_CHOICES, 'auto')
    .option('--threads <n>', 'threads of the wasm backend (default: every core)')
    .option('--max-items <n>', 'stop after N work items (0: no limit)', '0')
    .option('--idle-exit <s>', 'stop after S seconds without work (0: never)', '0')
    .option('--json', 'print one JSON document on stdout at the end')
    .action((o: { server: string; run: string; backend: string; threads?: string; maxItems: string; idleExit: string; json?: boolean }) =>
      runCommand(async () => {
        try {
          checkToken('--run', o.run);
        } catch (e) {
          throw new UserError((e as Error).message);
        }
        const { nc, user } = await connectServer(o.server, 'contributor');
        const { be, name } = await openBackend(o.backend, o.threads);
        let stopping = false;
        const onSignal = () => {
          if (stopping) process.exit(130);
          stopping = true;
          process.stderr.write('\nwebswe: stopping after the current work item (Ctrl-C again to quit now; the item goes to another contributor)\n');
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
        const t0 = performance.now();
        const clock = () => `[${String(Math.round((performance.now() - t0) / 1000)).padStart(5)} s]`;
        try {
          const sum = await contribute({
            bus: new RunBus(nc, o.run), user, be, sandbox: sandboxFactory('node'),
            maxItems: Number(o.maxItems), idleMs: Number(o.idleExit) * 1000, shouldStop: () => stopping,
            onEvent: (e) => {
              if (e.kind === 'joined') process.stderr.write(`webswe: joined run ${e.run} as ${user} · model ${e.model} · backend ${name}\n`);
              if (e.kind === 'item') process.stderr.write(`${clock()} ${e.item} (policy v${e.version}): ${e.episodes} episodes, ${e.solved} solved, ${e.seconds.toFixed(1)} s\n`);
              if (e.kind === 'acceptance') process.stderr.write(`${clock()} the learner has accepted ${e.accepted} of your results, rejected ${e.rejected}\n`);
            },
          });
          if (o.json) printJson({ run: o.run, user, ...sum });
          else console.log(`contributed ${sum.items} work items (${sum.episodes} episodes, ${sum.solved} solved) to run ${o.run} as ${user}`);
        } catch (e) {
          const m = (e as Error).message;
          if (/permission/i.test(m)) throw new UserError(`the server refused an operation for ${user} (${m}): is this a contributor user of this server, and the run id right?`);
          if (/no manifest/.test(m)) throw new UserError(m);
          throw e;
        } finally {
          await nc.close().catch(() => undefined);
        }
      }),
    );
}
