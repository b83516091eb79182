// A nats-server on this machine for tests and `webswe bench dist`: the shared-run config (server-config.ts)
// in a temporary folder, JetStream on file storage there, TCP and WebSocket listeners on free loopback
// ports. stop() and restart() (same ports, same store: JetStream keeps its streams) for the fault runs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverConfig, type ServerUser } from './server-config.ts';

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
  learner: ServerUser;
  contributors: ServerUser[];
  stop(): Promise<void>;
  /** Stop and start again on the same ports and file store. */
  restart(): Promise<void>;
}

export async function startLocalServer(contributors: number): Promise<LocalServer> {
  if (spawnSync('nats-server', ['--version']).error) throw new Error('nats-server is not installed: apt-get install nats-server (Debian), then run this again');
  const dir = mkdtempSync(join(tmpdir(), 'webswe-nats-'));
  const port = await freePort(), websocketPort = await freePort();
  const learner = { user: 'learner', password: 'learner-secret' };
  const users = Array.from({ length: contributors }, (_, i) => ({ user: `c${i + 1}`, password: `c${i + 1}-secret` }));
  const conf = join(dir, 'nats.conf');
  writeFileSync(conf, serverConfig({ port, websocketPort, storeDir: join(dir, 'js'), learner, contributors: users, maxPayload: 16 * 1024 * 1024 }));
  let proc: ChildProcess | undefined;
  const start = async () => {
    const p = spawn('nats-server', ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    proc = p;
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
  };
  const stop = async () => {
    const p = proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGTERM');
    });
  };
  await start();
  return { url: `nats://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${websocketPort}`, learner, contributors: users, stop, restart: async () => (await stop(), await start()) };
}
