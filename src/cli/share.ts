// Shared runs from the terminal (docs/sharing.md):
//   webswe share server [--dir D] [--contributors N]   write the server's users once (users.json) and its config
//                                                       (nats.conf), and run Debian's nats-server with it: TLS on
//                                                       both listeners, with a self-signed certificate for this
//                                                       machine unless --cert/--key name a real one (--plain: none)
//   webswe share config [--dir D] …                    only write the files, and print the users' links
//   webswe share revoke USER [--dir D]                 remove a contributor; a running server reloads at once
//   webswe contribute --server nats://USER:PASS@HOST:PORT --run ID [--ca FILE]   play a run's work items here
// `webswe train --share nats://learner:PASS@HOST:PORT [--share-ca FILE]` makes a run shareable (train.ts).
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
import { checkTlsFiles, selfSignedCert, spkiHash } from '../share/tls.node.ts';
import { sandboxFactory } from '../sandbox/index.node.ts';
import { BACKEND_CHOICES, openBackend } from './backend.ts';
import { onStopSignals, UserError, printJson, runCommand } from './output.ts';

export interface ServerFiles {
  dir: string;
  port: number;
  websocketPort: number;
  learner: ServerUser;
  contributors: ServerUser[];
  /** Contributors removed by `webswe share revoke` (their names are not given out again). */
  revoked?: string[];
  /** The listeners' certificate and key; selfSigned: made here for loopback (clients pass it as their CA). */
  tls?: { cert: string; key: string; selfSigned: boolean };
}

const secret = () => randomBytes(12).toString('base64url');

/** The server's state (users.json: users, revocations, certificate), made the first time, and nats.conf rendered
 *  from it every time (users keep their passwords across restarts; a revocation stays revoked). */
export function writeServerFiles(dir: string, o: { contributors: number; port: number; websocketPort: number; cert?: string; key?: string; plain?: boolean }): ServerFiles {
  const usersFile = join(dir, 'users.json');
  let files: ServerFiles;
  if (existsSync(usersFile)) files = JSON.parse(readFileSync(usersFile, 'utf8')) as ServerFiles;
  else {
    if (!Number.isInteger(o.contributors) || o.contributors < 1 || o.contributors > 1000) throw new UserError(`--contributors must be an integer in 1..1000, got ${o.contributors}`);
    mkdirSync(dir, { recursive: true });
    files = {
      dir: resolve(dir), port: o.port, websocketPort: o.websocketPort,
      learner: { user: 'learner', password: secret() },
      contributors: Array.from({ length: o.contributors }, (_, i) => ({ user: `c${String(i + 1).padStart(3, '0')}`, password: secret() })),
    };
  }
  if ((o.cert === undefined) !== (o.key === undefined)) throw new UserError('--cert and --key go together: the certificate (PEM, its chain after it) and its private key');
  try {
    if (o.plain) delete files.tls;
    else if (o.cert && o.key) files.tls = { ...checkTlsFiles({ cert: resolve(o.cert), key: resolve(o.key) }), selfSigned: false };
    else if (!files.tls) files.tls = { ...selfSignedCert(join(files.dir, 'tls')), selfSigned: true };
  } catch (e) {
    throw new UserError((e as Error).message);
  }
  renderServerConfig(files);
  return files;
}

/** users.json and nats.conf from the state. */
function renderServerConfig(files: ServerFiles): void {
  writeFileSync(join(files.dir, 'nats.conf'), serverConfig({
    port: files.port, websocketPort: files.websocketPort, storeDir: join(files.dir, 'jetstream'), learner: files.learner, contributors: files.contributors,
    pidFile: join(files.dir, 'nats.pid'), ...(files.tls ? { tls: { cert: files.tls.cert, key: files.tls.key } } : {}),
  }));
  writeFileSync(join(files.dir, 'users.json'), JSON.stringify(files, null, 2) + '\n', { mode: 0o600 });
}

/** Whether process `pid` is a nats-server (a stale pid file may name a pid reused by another program, which
 *  must not be sent SIGHUP). */
function isNatsServer(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('nats-server');
  } catch {
    const r = spawnSync('ps', ['-p', String(pid), '-o', 'comm='], { encoding: 'utf8' });
    return !r.error && r.stdout.includes('nats-server');
  }
}

/** Remove contributor `user`; a server running on these files reloads its users at once (SIGHUP to its pid),
 *  which closes the user's connections. Returns whether a running server was told. */
export function revokeContributor(dir: string, user: string): { reloaded: number | null } {
  const usersFile = join(dir, 'users.json');
  if (!existsSync(usersFile)) throw new UserError(`${dir} has no users.json: is --dir the folder \`webswe share server\` uses?`);
  const files = JSON.parse(readFileSync(usersFile, 'utf8')) as ServerFiles;
  if (user === files.learner.user) throw new UserError(`"${user}" is the learner; revoke contributors only`);
  const i = files.contributors.findIndex((c) => c.user === user);
  if (i < 0) throw new UserError(files.revoked?.includes(user) ? `${user} is revoked already` : `no contributor "${user}" in ${usersFile} (${files.contributors.map((c) => c.user).slice(0, 3).join(', ')}, …)`);
  files.contributors.splice(i, 1);
  files.revoked = [...(files.revoked ?? []), user];
  renderServerConfig(files);
  const pidFile = join(files.dir, 'nats.pid');
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : NaN;
  if (!Number.isInteger(pid) || pid <= 0 || !isNatsServer(pid)) return { reloaded: null };
  try {
    process.kill(pid, 'SIGHUP');
    return { reloaded: pid };
  } catch {
    return { reloaded: null }; // no server running on these files
  }
}

/** "nats://user:pass@host:port" → connection options (the password never printed back). */
export function parseServerUrl(text: string): { servers: string; user: string; pass: string } {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UserError(`--server "${text}" is not a URL; expected nats://USER:PASSWORD@HOST:PORT (\`webswe share config\` prints yours)`);
  }
  if (u.protocol !== 'nats:' && u.protocol !== 'tls:') throw new UserError(`--server must be a nats:// URL (the WebSocket ws:// or wss:// address is for browsers), got ${u.protocol}//`);
  if (!u.username || !u.password) throw new UserError('--server needs the user and password: nats://USER:PASSWORD@HOST:PORT (`webswe share config` prints them)');
  return { servers: `${u.hostname}:${u.port || 4222}`, user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) };
}

/** Connect as the URL's user (contributors with their own inbox prefix), over TLS where the server asks for it
 *  (`ca`: the certificate to trust, for a server's self-signed one); errors name the fix. */
export async function connectServer(text: string, role: 'learner' | 'contributor', ca?: string): Promise<{ nc: NatsConnection; user: string }> {
  const o = parseServerUrl(text);
  const caFlag = role === 'learner' ? '--share-ca' : '--ca';
  if (ca !== undefined && !existsSync(ca)) throw new UserError(`${caFlag} ${ca}: no such file`);
  try {
    const nc = await connect({
      servers: o.servers, user: o.user, pass: o.pass, maxReconnectAttempts: -1,
      ...(role === 'contributor' ? { inboxPrefix: inboxPrefix(checkToken('user', o.user)) } : {}),
      ...(ca ? { tls: { caFile: ca } } : {}),
    });
    return { nc, user: o.user };
  } catch (e) {
    const m = (e as Error).message;
    const cause = ((e as { cause?: Error }).cause?.message ?? '') + ' ' + m;
    if (/auth/i.test(m)) throw new UserError(`the server at ${o.servers} refused user "${o.user}" (${m}): check the user and password in --server, and that the user was not revoked`);
    if (/certificate|self[- ]signed|CERT_|unable to verify/i.test(cause)) {
      throw new UserError(`the server at ${o.servers} has a certificate this machine does not trust (${cause.trim()}): pass ${caFlag} with the server's certificate (\`webswe share server\` prints the path)`);
    }
    throw new UserError(`cannot reach a NATS server at ${o.servers} (${m}): start one with \`webswe share server\``);
  }
}

function printLinks(f: ServerFiles, run = '<RUN>'): void {
  console.log(`server config: ${join(f.dir, 'nats.conf')} (users and passwords: ${join(f.dir, 'users.json')})`);
  const ca = f.tls?.selfSigned ? f.tls.cert : null;
  const c = f.contributors[0];
  console.log(`learner:      webswe train … --share nats://${f.learner.user}:${f.learner.password}@127.0.0.1:${f.port}${ca ? ` --share-ca ${ca}` : ''}`);
  if (c) {
    console.log(`contributor:  webswe contribute --server nats://${c.user}:${c.password}@127.0.0.1:${f.port} --run ${run}${ca ? ` --ca ${ca}` : ''}`);
    console.log(`browser:      #/contribute?server=${encodeURIComponent(`${f.tls ? 'wss' : 'ws'}://127.0.0.1:${f.websocketPort}`)}&user=${c.user}&pass=${c.password}&run=${run}  (after the app's address)`);
  }
  if (f.tls) {
    const spki = spkiHash(readFileSync(f.tls.cert, 'utf8'));
    console.log(f.tls.selfSigned
      ? `tls:          a self-signed certificate for this machine (${f.tls.cert}; SPKI sha256 ${spki}): terminals pass it as above; a browser trusts it once you open https://127.0.0.1:${f.websocketPort} and accept it. On another machine, name a real certificate with --cert and --key.`
      : `tls:          ${f.tls.cert} (SPKI sha256 ${spki})`);
  } else console.log('tls:          none (--plain): loopback only; a page served over https cannot open ws://');
  console.log(`(${f.contributors.length} contributor users${c ? `: ${c.user} … ${f.contributors.at(-1)!.user}` : ''}; give each contributor its own; \`webswe share revoke USER\` removes one${f.revoked?.length ? `; revoked: ${f.revoked.join(', ')}` : ''})`);
}

export function registerShare(program: Command): void {
  const share = program.command('share').description('a shared run: the NATS server contributors and the learner meet on');
  const common = (c: Command) =>
    c
      .option('--dir <dir>', 'where the config, users and JetStream files live', '.webswe-server')
      .option('--contributors <n>', 'contributor users to create (first time only)', '16')
      .option('--port <n>', 'NATS port (TCP: learner and terminal contributors)', '4222')
      .option('--ws-port <n>', 'WebSocket port (browser contributors)', '8080')
      .option('--cert <file>', 'the listeners\' certificate (PEM, with its chain) instead of a self-signed one for this machine')
      .option('--key <file>', 'the certificate\'s private key (PEM)')
      .option('--plain', 'no TLS (loopback only: a page served over https cannot open ws://)');
  type ServerOpts = { dir: string; contributors: string; port: string; wsPort: string; cert?: string; key?: string; plain?: boolean };
  const filesOf = (o: ServerOpts) => writeServerFiles(o.dir, { contributors: Number(o.contributors), port: Number(o.port), websocketPort: Number(o.wsPort), ...(o.cert !== undefined ? { cert: o.cert } : {}), ...(o.key !== undefined ? { key: o.key } : {}), ...(o.plain ? { plain: true } : {}) });
  common(share.command('config').description('write nats.conf and users.json (once) and print the learner and contributor links'))
    .option('--json', 'print one JSON document on stdout')
    .action((o: ServerOpts & { json?: boolean }) =>
      runCommand(async () => {
        const f = filesOf(o);
        if (o.json) printJson({ dir: f.dir, port: f.port, websocket_port: f.websocketPort, learner: f.learner.user, contributors: f.contributors.map((c) => c.user), revoked: f.revoked ?? [], tls: f.tls ? { cert: f.tls.cert, self_signed: f.tls.selfSigned, spki_sha256: spkiHash(readFileSync(f.tls.cert, 'utf8')) } : null });
        else printLinks(f);
      }),
    );
  common(share.command('server').description("run Debian's nats-server with the shared-run config (written first if missing)"))
    .action((o: ServerOpts) =>
      runCommand(async () => {
        if (spawnSync('nats-server', ['--version']).error) throw new UserError('nats-server is not installed: apt-get install nats-server (Debian\'s package), then run this again');
        const f = filesOf(o);
        printLinks(f);
        const p = spawn('nats-server', ['-c', join(f.dir, 'nats.conf')], { stdio: 'inherit' });
        const stop = () => p.kill('SIGTERM');
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        return await new Promise<number>((res) => p.on('exit', (code) => res(code ?? 0)));
      }),
    );

  share
    .command('revoke <user>')
    .description('remove a contributor user: its next request is refused, and a running server closes its connections at once')
    .option('--dir <dir>', 'the server\'s folder', '.webswe-server')
    .action((user: string, o: { dir: string }) =>
      runCommand(async () => {
        const r = revokeContributor(o.dir, user);
        console.log(r.reloaded !== null ? `revoked ${user}; the running server (pid ${r.reloaded}) reloaded its users` : `revoked ${user}; no server is running on ${o.dir}: it takes effect when one starts`);
      }),
    );

  program
    .command('contribute')
    .description("play a shared run's work items on this machine and send the verified-by-the-learner results back")
    .requiredOption('--server <url>', 'nats://USER:PASSWORD@HOST:PORT (a contributor user of `webswe share config`)')
    .requiredOption('--run <id>', 'the run to join (the learner prints it)')
    .option('--ca <file>', 'the server\'s certificate to trust (a self-signed one: `webswe share server` prints its path)')
    .option('--backend <name>', BACKEND_CHOICES, 'auto')
    .option('--threads <n>', 'threads of the wasm backend (default: every core)')
    .option('--max-items <n>', 'stop after N work items (0: no limit)', '0')
    .option('--idle-exit <s>', 'stop after S seconds without work (0: never)', '0')
    .option('--json', 'print one JSON document on stdout at the end')
    .action((o: { server: string; run: string; ca?: string; backend: string; threads?: string; maxItems: string; idleExit: string; json?: boolean }) =>
      runCommand(async () => {
        try {
          checkToken('--run', o.run);
        } catch (e) {
          throw new UserError((e as Error).message);
        }
        const { nc, user } = await connectServer(o.server, 'contributor', o.ca);
        const { be, name } = await openBackend(o.backend, o.threads);
        let stopping = false;
        onStopSignals(() => {
          stopping = true;
          process.stderr.write('\nwebswe: stopping after the current work item (Ctrl-C again to quit now; the item goes to another contributor)\n');
        });
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
