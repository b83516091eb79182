// The WebContainer adapter against the Sandbox interface, with a stand-in container: its file system is
// a temporary folder (fs.promises semantics, as WebContainer's), spawn() runs the real `node` there
// and hands back its stdout and stderr combined and made terminal-like (CRLF, ANSI codes, chunks cut
// anywhere), so the adapter parses what node:test's reporter really printed. Kill, teardown and boot
// are scripted to check the time limit, the reboot of a container whose process will not die, and
// the boot errors. The real WebContainer needs stackblitz.com and is not reachable from CI.
import { spawn as spawnChild, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import type { FileMap, RunResult } from '../../../src/sandbox/types.ts';
import { stripAnsi } from '../../../src/sandbox/webcontainer-output.ts';
import { bootErrorMessage, webContainerFactory, type BootFn, type WcContainer, type WcProcess, type WcTree } from '../../../src/sandbox/webcontainer.browser.ts';

const HEAD = "import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\n";
const files: FileMap = {
  'package.json': '{ "type": "module" }\n',
  'src/add.js': "export const add = (a, b) => a + b;\nconsole.log('args:', process.argv.slice(2).join(','));\n",
  'test/add.test.js': `${HEAD}import { add } from '../src/add.js';
describe('add', () => {
  it('adds', () => assert.equal(add(1, 2), 3));
  it('is wrong', () => assert.equal(add(1, 2), 4));
  it.skip('skipped', () => {});
  it('logs', () => { console.log('\\u001b[32mcoloured\\u001b[39m line'); console.error('to stderr'); });
});
it('deep', () => assert.deepEqual({ a: [1, 2] }, { a: [1, 3] }));
`,
  'test/loop.test.js': `${HEAD}describe('loop', () => {\n  it('first', () => {});\n  it('spins', () => { while (true) {} });\n});\n`,
};

/** A stand-in WebContainer: a temp folder as its file system, real node processes, terminal-style output. */
class FakeContainer implements WcContainer {
  readonly root = mkdtempSync(join(tmpdir(), 'webswe-fake-wc-'));
  readonly children = new Set<ChildProcess>();
  torn = false;
  errorListener?: (e: { message: string }) => void;
  constructor(private readonly behaviour: { ignoreKill?: boolean }) {}
  private p = (path: string) => {
    if (this.torn) throw new Error('the WebContainer was torn down');
    return join(this.root, path);
  };
  fs = {
    readFile: (path: string, _enc: 'utf-8') => readFile(this.p(path), 'utf8'),
    writeFile: (path: string, data: string) => writeFile(this.p(path), data),
    mkdir: (path: string, o: { recursive: true }) => mkdir(this.p(path), o),
    rm: (path: string, o?: { recursive?: boolean; force?: boolean }) => rm(this.p(path), o),
    readdir: (path: string, o: { withFileTypes: true }) => readdir(this.p(path), o),
  };
  async mount(tree: WcTree, o: { mountPoint?: string } = {}): Promise<void> {
    const put = async (t: WcTree, at: string) => {
      await mkdir(at, { recursive: true });
      for (const [name, node] of Object.entries(t)) {
        if ('file' in node) await writeFile(join(at, name), node.file.contents);
        else await put(node.directory, join(at, name));
      }
    };
    await put(tree, this.p(o.mountPoint ?? ''));
  }
  async spawn(command: string, args: string[], o: { cwd?: string; env?: Record<string, string> } = {}): Promise<WcProcess> {
    expect(command).toBe('node');
    const child = spawnChild(process.execPath, args, { cwd: this.p(o.cwd ?? ''), env: { ...o.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.children.add(child);
    let n = 0;
    const output = new ReadableStream<string>({
      start(controller) {
        const terminal = (d: Buffer) => {
          // A terminal: CRLF line ends, colour resets, and chunks cut at arbitrary places.
          const s = d.toString('utf8').replace(/\n/g, '\r\n');
          const cut = Math.floor(s.length / 2);
          controller.enqueue(`${n++ % 2 ? '\u001b[0m' : ''}${s.slice(0, cut)}`);
          controller.enqueue(s.slice(cut));
        };
        child.stdout!.on('data', terminal);
        child.stderr!.on('data', terminal);
        child.on('close', () => controller.close());
      },
    });
    const exit = new Promise<number>((r) => child.on('close', (code) => r(code ?? 137)));
    return { output, exit, kill: () => void (this.behaviour.ignoreKill || child.kill('SIGKILL')) };
  }
  teardown(): void {
    this.torn = true;
    for (const c of this.children) c.kill('SIGKILL');
    rmSync(this.root, { recursive: true, force: true });
  }
  on(_event: 'error', listener: (e: { message: string }) => void) {
    this.errorListener = listener;
    return () => undefined;
  }
}

function fakeBoot(behaviour: { ignoreKill?: boolean } = {}) {
  const containers: FakeContainer[] = [];
  const boot: BootFn = async () => {
    const c = new FakeContainer(behaviour);
    containers.push(c);
    return c;
  };
  return { boot, containers };
}
const isolated = () => ({ crossOriginIsolated: true, onLine: true });
const brief = (r: RunResult) => r.tests.map((t) => [t.fullName, t.status, t.message ?? null]);

describe('WebContainer sandbox (stand-in container)', () => {
  it('reports the tests node:test reported, from the combined terminal output, as the node sandbox does', async () => {
    const { boot, containers } = fakeBoot();
    const sb = await webContainerFactory({ boot, environment: isolated })(files, { timeoutMs: 30_000 });
    const node = await createNodeSandbox(files, { timeoutMs: 30_000 });
    try {
      const [w, n] = await Promise.all([sb.runTests(['test/add.test.js']), node.runTests(['test/add.test.js'])]);
      expect(brief(w)).toEqual(brief(n));
      expect(w.exitCode).toBe(1);
      expect(w.tests[0]!.file).toBe('test/add.test.js');
      expect(w.output).toContain('coloured line\nto stderr\n'); // ANSI stripped, CRLF folded, stderr in the same stream
      expect(w.output).not.toMatch(/\u001b|\r|WEBSWE/);
      expect(w.output).toContain('✖ add > is wrong\n    Expected values to be strictly equal:');
      const named = await sb.runTests(['test/add.test.js'], { names: ['add > adds', 'deep'] });
      expect(named.tests.map((t) => t.fullName)).toEqual(['add > adds', 'deep']);
      const script = await sb.exec(['node', 'src/add.js', 'a', 'b']);
      expect(script.output).toBe('args: a,b\n');
      expect(script.exitCode).toBe(0);
      expect((await sb.exec(['node', '-p', '6 * 7'])).output).toBe('42\n');
      expect(containers).toHaveLength(1);
    } finally {
      await sb.dispose();
      await node.dispose();
      containers.forEach((c) => c.teardown());
    }
  });

  it('keeps each episode in its own folder, with the node sandbox file rules', async () => {
    const { boot, containers } = fakeBoot();
    const make = webContainerFactory({ boot, environment: isolated });
    const [a, b] = await Promise.all([make(files), make({ 'x.js': 'x\n' })]);
    try {
      await a.writeFile('docs/n.txt', 'hi');
      expect(await a.listFiles()).toEqual([...Object.keys(files), 'docs/n.txt'].sort());
      expect(await b.listFiles()).toEqual(['x.js']);
      await expect(a.readFile('../etc/passwd')).rejects.toThrow(/'\.\.' is not allowed/);
      await expect(a.readFile('src/none.js')).rejects.toThrow('no such file in the repository: src/none.js');
      await expect(a.readFile('src')).rejects.toThrow('src is a folder, not a file');
      await expect(a.listFiles('nope')).rejects.toThrow('no such folder in the repository: nope');
      await a.deleteFile('docs/n.txt');
      await expect(a.deleteFile('docs/n.txt')).rejects.toThrow('no such file in the repository: docs/n.txt');
      await a.applyPatch('--- a/src/add.js\n+++ b/src/add.js\n@@ -1,2 +1,2 @@\n-export const add = (a, b) => a + b;\n+export const add = (a, b) => a - b;\n console.log(\'args:\', process.argv.slice(2).join(\',\'));\n');
      expect(await a.diff()).toContain('+export const add = (a, b) => a - b;');
      await a.reset();
      expect(await a.diff()).toBe('');
      await expect(a.exec(['bash', '-c', 'id'])).rejects.toThrow(/only `node` runs/);
    } finally {
      await a.dispose();
      await b.dispose();
      containers.forEach((c) => c.teardown());
    }
  });

  it('kills a test at the time limit and names the test that was running', async () => {
    const { boot, containers } = fakeBoot();
    const sb = await webContainerFactory({ boot, environment: isolated })(files);
    try {
      const r = await sb.runTests(['test/loop.test.js'], { timeoutMs: 5000 });
      expect(r.timedOut).toBe(true);
      expect(r.exitCode).toBeNull();
      expect(r.tests.map((t) => t.fullName)).toEqual(['loop > first']);
      expect(r.running).toBe('loop > spins');
      expect(r.output).toContain('[killed: the time limit of 5000 ms was reached]');
      expect(r.output).not.toContain('booted again');
      expect(containers).toHaveLength(1);
    } finally {
      await sb.dispose();
      containers.forEach((c) => c.teardown());
    }
  });

  it('tears the container down and boots again when a killed process does not exit; episodes get their files back', async () => {
    const { boot, containers } = fakeBoot({ ignoreKill: true });
    const make = webContainerFactory({ boot, environment: isolated, killGraceMs: 300 });
    const [sb, other] = await Promise.all([make(files), make({ 'keep.txt': 'kept\n' })]);
    try {
      await sb.writeFile('notes.txt', 'written before the reboot');
      const r = await sb.runTests(['test/loop.test.js'], { timeoutMs: 5000 });
      expect(r.timedOut).toBe(true);
      expect(r.output).toContain('the WebContainer was torn down and booted again');
      expect(containers[0]!.torn).toBe(true);
      expect(await sb.readFile('notes.txt')).toBe('written before the reboot'); // boots the new one (lazily)
      expect(containers).toHaveLength(2);
      expect(await other.readFile('keep.txt')).toBe('kept\n');
      expect((await sb.runTests(['test/add.test.js'])).tests).toHaveLength(5);
    } finally {
      await sb.dispose();
      await other.dispose();
      containers.forEach((c) => c.torn || c.teardown());
    }
  });

  it('surfaces the container\'s own errors in the next run\'s output', async () => {
    const { boot, containers } = fakeBoot();
    const sb = await webContainerFactory({ boot, environment: isolated })(files);
    try {
      containers[0]!.errorListener!({ message: 'Unable to create more instances' });
      const r = await sb.exec(['node', '-e', '1']);
      expect(r.output).toContain('[WebContainer error: Unable to create more instances]');
    } finally {
      await sb.dispose();
      containers.forEach((c) => c.teardown());
    }
  });

  it('turns boot failures into messages that say what to do', async () => {
    const never: BootFn = () => new Promise(() => {});
    const failing = (message: string): BootFn => () => Promise.reject(new Error(message));
    const attempt = (boot: BootFn, environment = isolated, bootTimeoutMs = 5000) =>
      webContainerFactory({ boot, environment, bootTimeoutMs })(files).then(
        () => 'booted',
        (e: Error) => e.message,
      );
    expect(await attempt(fakeBoot().boot, () => ({ crossOriginIsolated: false, onLine: true }))).toMatch(/cross-origin-isolated page .*Cross-Origin-Embedder-Policy.*worker sandbox/);
    expect(await attempt(fakeBoot().boot, () => ({ crossOriginIsolated: true, onLine: false }))).toMatch(/offline.*worker sandbox/);
    expect(await attempt(failing('Failed to fetch'))).toMatch(/could not load its runtime from stackblitz\.com \(Failed to fetch\)/);
    expect(await attempt(failing('Unable to access third-party cookies'))).toMatch(/blocks third-party cookies or storage for stackblitz\.com/);
    expect(await attempt(never, isolated, 200)).toMatch(/did not boot within 200 ms .*stackblitz\.com unreachable/);
    expect(bootErrorMessage(new Error('WebContainer already booted'))).toBe('the WebContainer could not start: WebContainer already booted; or use the worker sandbox, which runs offline');
    expect(stripAnsi('\u001b[1;31mred\u001b[0m \u001b]0;title\u0007ok')).toBe('red ok');
  });
});
