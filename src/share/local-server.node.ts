// A nats-server on this machine for tests and `webswe bench dist`: the shared-run config (server-config.ts)
// in a temporary folder, JetStream on file storage there, TCP and WebSocket listeners on free loopback
// ports (TLS on both with a self-signed certificate when asked). stop() and restart() (same ports, same
// store: JetStream keeps its streams) for the fault runs. runNatsServer starts Debian's binary on a config.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverConfig, type ServerUser } from './server-config.ts';
import { selfSignedCert, spkiHash } from './tls.node.ts';

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

export interface LocalServer {
  url: string;
  wsUrl: string;
  /** With TLS: the self-signed certificate (the clients' CA) and its SPKI hash (what a browser is told to trust). */
  tls?: { ca: string; spki: string };
  learner: ServerUser;
  contributors: ServerUser[];
  stop(): Promise<void>;
  /** Stop and start again on the same ports and file store. */
  restart(): Promise<void>;
}

/** nats-server on `conf`, once it says it is ready; stop() ends it (SIGTERM) and waits. */
export async function runNatsServer(conf: string): Promise<{ pid: number; stop(): Promise<void> }> {
  if (spawnSync('nats-server', ['--version']).error) throw new Error('nats-server is not installed: apt-get install nats-server (Debian), then run this again');
  const p = spawn('nats-server', ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`nats-server did not start within 10 s:\n${log}`)), 10_000);
    const onData = (d: Buffer) => {
      log += d.toString();
      if (log.includes('Server is ready')) {
        clearTimeout(t);
        p.stderr!.off('data', onData);
        p.stderr!.resume();
        resolve();
      }
    };
    p.stderr!.on('data', onData);
    p.once('exit', (code) => (clearTimeout(t), reject(new Error(`nats-server exited with ${code}:\n${log}`))));
  });
  return {
    pid: p.pid!,
    stop: async () => {
      if (p.exitCode !== null || p.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        p.once('exit', () => resolve());
        p.kill('SIGTERM');
      });
    },
  };
}

export async function startLocalServer(contributors: number, o: { tls?: boolean } = {}): Promise<LocalServer> {
  const dir = mkdtempSync(join(tmpdir(), 'webswe-nats-'));
  const port = await freePort(), websocketPort = await freePort();
  const learner = { user: 'learner', password: 'learner-secret' };
  const users = Array.from({ length: contributors }, (_, i) => ({ user: `c${i + 1}`, password: `c${i + 1}-secret` }));
  const conf = join(dir, 'nats.conf');
  const tls = o.tls ? selfSignedCert(join(dir, 'tls')) : undefined;
  writeFileSync(conf, serverConfig({ port, websocketPort, storeDir: join(dir, 'js'), learner, contributors: users, maxPayload: 16 * 1024 * 1024, ...(tls ? { tls } : {}) }));
  let proc: { stop(): Promise<void> } | undefined;
  const start = async () => void (proc = await runNatsServer(conf));
  const stop = async () => proc?.stop();
  await start();
  return {
    url: `nats://127.0.0.1:${port}`, wsUrl: `${tls ? 'wss' : 'ws'}://127.0.0.1:${websocketPort}`, learner, contributors: users, stop, restart: async () => (await stop(), await start()),
    ...(tls ? { tls: { ca: tls.cert, spki: spkiHash(readFileSync(tls.cert, 'utf8')) } } : {}),
  };
}
