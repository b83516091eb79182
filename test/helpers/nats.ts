// A real nats-server for tests: JetStream on a temporary file store, TCP and WebSocket listeners on free
// loopback ports, the learner and contributor users of src/dist/server-config.ts. Debian's `nats-server`
// package provides the binary (.ci/run installs it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverConfig, type ServerUser } from '../../src/dist/server-config.ts';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

export interface TestServer {
  url: string;
  wsUrl: string;
  learner: ServerUser;
  contributors: ServerUser[];
  stop(): Promise<void>;
  /** Stop and start again on the same ports and file store (JetStream keeps its streams). */
  restart(): Promise<void>;
}

export async function startNatsServer(contributors = 3): Promise<TestServer> {
  if (spawnSync('nats-server', ['--version']).error) throw new Error('nats-server is not installed: apt-get install nats-server (Debian), then run the tests again');
  const dir = mkdtempSync(join(tmpdir(), 'webswe-nats-'));
  const port = await freePort(), websocketPort = await freePort();
  const learner = { user: 'learner', password: 'learner-secret' };
  const users = Array.from({ length: contributors }, (_, i) => ({ user: `c${i + 1}`, password: `c${i + 1}-secret` }));
  const conf = join(dir, 'nats.conf');
  writeFileSync(conf, serverConfig({ port, websocketPort, storeDir: join(dir, 'js'), learner, contributors: users }));
  let proc: ChildProcess | undefined;
  const start = async () => {
    proc = spawn('nats-server', ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`nats-server did not start within 10 s:\n${log}`)), 10_000);
      proc!.stderr!.on('data', (d: Buffer) => {
        log += d.toString();
        if (log.includes('Server is ready')) clearTimeout(t), resolve();
      });
      proc!.once('exit', (code) => (clearTimeout(t), reject(new Error(`nats-server exited with ${code}:\n${log}`))));
    });
    proc.stderr!.removeAllListeners('data');
    proc.stderr!.resume();
  };
  const stop = async () => {
    const p = proc;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGTERM');
    });
  };
  await start();
  return { url: `nats://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${websocketPort}`, learner, contributors: users, stop, restart: async () => (await stop(), await start()) };
}
