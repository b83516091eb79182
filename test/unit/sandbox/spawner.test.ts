// The spawner process (src/sandbox/spawner.node.ts, spawner-host.mjs): processes started for the sandboxes
// outside the trainer, their pipes relayed in order (stdout, stderr, fd 3, then the exit), stdin written,
// a whole process group killed, a command that cannot start reported, the children ended with the spawner,
// and a program that used it exiting by itself once its children are done.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Spawner, type RemoteProcess } from '../../../src/sandbox/spawner.node.ts';

const sp = new Spawner();
afterAll(() => sp.close());

const env = { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' };
function collect(p: RemoteProcess): Promise<{ out: Record<number, string>; code: number | null; signal: string | null; error?: string }> {
  const out: Record<number, string> = {};
  p.onData = (fd, s) => (out[fd] = (out[fd] ?? '') + s);
  return new Promise((resolve) => (p.onClose = (code, signal, error) => resolve({ out, code, signal, ...(error !== undefined ? { error } : {}) })));
}
/** A process that exists and is not a zombie (killed, not yet reaped by init). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('spawner', () => {
  it('relays stdout, stderr and fd 3 in order, then the exit code; writes stdin', async () => {
    const p = sp.spawn(process.execPath, ['-e', "process.stdin.on('data', (d) => { process.stdout.write('got ' + d); require('fs').writeSync(3, 'three'); process.stderr.write('err'); process.exit(3); })"], { cwd: '/', env, fds: 4 });
    const done = collect(p);
    p.write('hello');
    const r = await done;
    expect(r).toEqual({ out: { 1: 'got hello', 2: 'err', 3: 'three' }, code: 3, signal: null });
    expect(p.pid).toBeGreaterThan(0);
  });

  it('kills the whole process group', async () => {
    const p = sp.spawn('/bin/sh', ['-c', 'sleep 30 & echo $!; wait'], { cwd: '/', env });
    const done = collect(p);
    let child = 0;
    await new Promise<void>((resolve) => {
      p.onData = (fd, s) => {
        if (fd === 1) (child = Number(s.trim())), resolve();
      };
    });
    expect(alive(child)).toBe(true);
    p.kill();
    const r = await done;
    expect(r.signal).toBe('SIGKILL');
    for (let i = 0; i < 40 && alive(child); i++) await new Promise((r) => setTimeout(r, 25));
    expect(alive(child)).toBe(false);
  });

  it('reports a command that cannot start', async () => {
    const r = await collect(sp.spawn('/no/such/program', [], { cwd: '/', env }));
    expect(r.error).toMatch(/ENOENT/);
  });

  it("ends its children with it, and does not keep a finished program's event loop alive", async () => {
    const own = new Spawner();
    const p = own.spawn('/bin/sleep', ['30'], { cwd: '/', env });
    const pid = await new Promise<number>((resolve) => (p.onPid = resolve));
    const done = collect(p);
    own.close();
    expect((await done).error).toMatch(/spawner process ended/);
    for (let i = 0; i < 40 && alive(pid); i++) await new Promise((r) => setTimeout(r, 25));
    expect(alive(pid)).toBe(false);
    // A program that ran a command through a spawner exits when it is done, without closing it.
    const mod = fileURLToPath(new URL('../../../src/sandbox/spawner.node.ts', import.meta.url));
    const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/esm/index.mjs', import.meta.url));
    const script = `import { spawner } from ${JSON.stringify(mod)};\nconst p = spawner().spawn('/bin/echo', ['hi'], { cwd: '/', env: {} });\np.onData = (fd, s) => process.stdout.write(s);\n`;
    const r = spawnSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect([r.status, r.stdout]).toEqual([0, 'hi\n']);
  }, 30_000);
});
