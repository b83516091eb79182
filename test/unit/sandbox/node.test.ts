// The node sandbox with real `node` processes: per-test results from node:test's own events, the
// time limit killing a busy loop's process group, the permission model, the path policy (symlinks
// included), the output and heap caps, and an environment with nothing inherited.
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxFactory } from '../../../src/sandbox/index.node.ts';
import { createNodeSandbox, NodeSandbox } from '../../../src/sandbox/node.node.ts';
import { CommandError, PathError, type FileMap, type Sandbox } from '../../../src/sandbox/types.ts';

const TEST_HEAD = "import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\nimport fs from 'node:fs';\n";

const files: FileMap = {
  'package.json': '{ "type": "module" }\n',
  'src/add.js': 'export const add = (a, b) => a + b;\nconsole.log("args:", process.argv.slice(2).join(","));\n',
  'test/add.test.js': `${TEST_HEAD}import { add } from '../src/add.js';
describe('add', () => {
  describe('small # numbers', () => {
    it('adds', () => assert.equal(add(1, 2), 3));
    it('is wrong', () => assert.equal(add(1, 2), 4));
    it.skip('skipped', () => {});
    it.todo('later');
  });
  it('is async', async () => { await new Promise((r) => setTimeout(r, 5)); });
});
it('top level', () => {});
`,
  'test/confined.test.js': `${TEST_HEAD}import path from 'node:path';
const denied = (fn) => assert.throws(fn, { code: 'ERR_ACCESS_DENIED' });
describe('confined', () => {
  it('cannot read /etc/passwd', () => denied(() => fs.readFileSync('/etc/passwd')));
  it('cannot read next to the repo', () => denied(() => fs.readdirSync(path.resolve('..'))));
  it('cannot write outside the repo', () => denied(() => fs.writeFileSync(path.resolve('../escaped.txt'), 'x')));
  it('cannot start processes', async () => {
    const cp = await import('node:child_process');
    denied(() => cp.execFileSync('/bin/true'));
  });
  it('can write inside', () => fs.writeFileSync('out.txt', 'ok'));
  it('sees a bare environment', () => assert.deepEqual(Object.keys(process.env).sort(), ['HOME', 'LANG', 'NO_COLOR', 'TZ']));
});
`,
  'test/loop.test.js': `${TEST_HEAD}describe('loop', () => {
  it('first', () => {});
  it('spins', () => { fs.writeFileSync('pid.txt', String(process.pid)); while (true) {} });
  it('never', () => {});
});
`,
  'test/noisy.test.js': `${TEST_HEAD}it('prints', () => { for (let i = 0; i < 2000; i++) console.log('x'.repeat(99)); });\n`,
  'test/hog.test.js': `${TEST_HEAD}it('hogs', () => { const a = []; for (;;) a.push(new Array(1e5).fill(1)); });\n`,
};

let sb: NodeSandbox;
beforeAll(async () => {
  process.env.WEBSWE_FAKE_SECRET = 'hunter2'; // must not reach the sandbox
  sb = (await createNodeSandbox(files, { timeoutMs: 20_000 })) as NodeSandbox;
});
afterAll(async () => {
  delete process.env.WEBSWE_FAKE_SECRET;
  await sb.dispose();
});

describe('node sandbox: test runs', () => {
  it('reports each test with its describe path, status, message and file', async () => {
    const r = await sb.runTests(['test/add.test.js']);
    expect(r.tests.map((t) => [t.fullName, t.status])).toEqual([
      ['add > small # numbers > adds', 'pass'],
      ['add > small # numbers > is wrong', 'fail'],
      ['add > small # numbers > skipped', 'skip'],
      ['add > small # numbers > later', 'todo'],
      ['add > is async', 'pass'],
      ['top level', 'pass'],
    ]);
    expect(r.tests[1]!.message).toMatch(/3 !== 4/);
    expect(r.tests[0]!.file).toBe('test/add.test.js');
    expect(r.exitCode).toBe(1);
    expect(r.timedOut).toBe(false);
    expect(r.output).toContain('✖ add > small # numbers > is wrong');
    expect(r.output).not.toContain(sb.root); // paths are shown repo-relative
  });

  it('runs only the tests named', async () => {
    const r = await sb.runTests(['test/add.test.js'], { names: ['add > small # numbers > adds', 'top level'] });
    expect(r.tests.map((t) => t.fullName)).toEqual(['add > small # numbers > adds', 'top level']);
  });

  it('kills a busy loop at the time limit, process group and all, and keeps the results so far', async () => {
    const r = await sb.runTests(['test/loop.test.js'], { timeoutMs: 1500 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(r.durationMs).toBeLessThan(1500 + 2000);
    expect(r.tests.map((t) => t.fullName)).toEqual(['loop > first']);
    expect(r.running).toBe('loop > spins');
    expect(r.output).toMatch(/killed: the time limit of 1500 ms was reached/);
    const pid = Number(await sb.readFile('pid.txt'));
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  it("with clock 'cpu', counts the process's CPU time: a sleeper outlives the limit, a busy loop does not", async () => {
    const cpuFiles: FileMap = {
      'package.json': '{ "type": "module" }\n',
      'test/sleep.test.js': `${TEST_HEAD}it('sleeps', async () => { await new Promise((r) => setTimeout(r, 1500)); });\n`,
      'test/spin.test.js': `${TEST_HEAD}it('spins', () => { for (;;); });\n`,
    };
    const cpu = await createNodeSandbox(cpuFiles, { timeoutMs: 1000, clock: 'cpu' });
    try {
      // 1.5 s asleep uses almost no CPU: it passes under a 1 s CPU limit (wall time would have killed it).
      const slept = await cpu.runTests(['test/sleep.test.js']);
      expect(slept.timedOut).toBe(false);
      expect(slept.tests.map((t) => [t.fullName, t.status])).toEqual([['sleeps', 'pass']]);
      const spun = await cpu.runTests(['test/spin.test.js']);
      expect(spun.timedOut).toBe(true);
      expect(spun.running).toBe('spins');
      expect(spun.output).toMatch(/killed: the CPU time limit of 1000 ms was reached/);
    } finally {
      await cpu.dispose();
    }
  });

  it("the `node` sandbox that train, eval and solve use counts CPU time: a sleeper outlives a 1 s limit", async () => {
    const files: FileMap = {
      'package.json': '{ "type": "module" }\n',
      'test/sleep.test.js': `${TEST_HEAD}it('sleeps', async () => { await new Promise((r) => setTimeout(r, 1500)); });\n`,
    };
    const node = await sandboxFactory('node')(files, { timeoutMs: 1000 });
    try {
      const r = await node.runTests(['test/sleep.test.js']);
      expect([r.timedOut, r.tests.map((t) => t.status)]).toEqual([false, ['pass']]);
    } finally {
      await node.dispose();
    }
  });

  it('confines reads, writes and processes to the repo, with no inherited environment', async () => {
    const r = await sb.runTests(['test/confined.test.js']);
    expect(r.tests.filter((t) => t.status !== 'pass')).toEqual([]);
    expect(r.tests).toHaveLength(6);
    expect(await sb.readFile('out.txt')).toBe('ok');
    expect(existsSync(join(dirname(sb.root), 'escaped.txt'))).toBe(false);
    const env = await sb.exec(['node', '-e', 'console.log(JSON.stringify(process.env))']);
    expect(env.output).not.toContain('hunter2');
  });

  it("loads node's modules in its hardened realm, and subclasses of its locked streams and emitters work", async () => {
    // The preload (node-reporter.mjs) freezes the intrinsics and locks EventEmitter and the stream classes; modules
    // that assign over them (node:net's Socket.prototype.end) must still load. node:domain (and node:repl, which
    // loads it) rewrites EventEmitter.init, which the lock refuses: a test that imports it fails, saying so.
    const mods = ['net', 'child_process', 'http', 'https', 'http2', 'fs/promises', 'readline', 'zlib', 'crypto', 'dgram', 'tls', 'worker_threads', 'stream/web', 'stream/promises', 'util', 'events', 'buffer', 'url', 'path', 'os', 'assert', 'test', 'timers/promises', 'string_decoder', 'querystring', 'perf_hooks', 'async_hooks', 'diagnostics_channel', 'v8', 'vm', 'module', 'tty', 'dns', 'cluster', 'domain', 'repl'];
    const m = await createNodeSandbox({
      'package.json': '{"type":"module"}\n',
      'test/m.test.js': `import { test } from 'node:test';\nimport assert from 'node:assert';\nfor (const m of ${JSON.stringify(mods)}) test(m, async () => { await import('node:' + m); });
test('a stream subclass', async () => { const { Readable } = await import('node:stream'); class R extends Readable { _read() { this.push('x'); this.push(null); } } let s = ''; for await (const c of new R()) s += c; assert.equal(s, 'x'); });
test('an emitter subclass', async () => { const { EventEmitter } = await import('node:events'); class E extends EventEmitter {} const e = new E(); let n = 0; e.on('x', () => n++); e.emit('x'); e.emit = function (...a) { return EventEmitter.prototype.emit.apply(this, a); }; e.emit('x'); assert.equal(n, 2); });\n`,
    }, { timeoutMs: 20_000 });
    try {
      const r = await m.runTests(['test/m.test.js']);
      expect(r.tests.filter((t) => t.status !== 'pass').map((t) => [t.fullName, t.message])).toEqual([
        ['domain', expect.stringContaining("Cannot assign to read only property 'init'")],
        ['repl', expect.stringContaining("Cannot assign to read only property 'init'")],
      ]);
      expect(r.tests).toHaveLength(mods.length + 2);
    } finally {
      await m.dispose();
    }
  });

  it('caps the output with a marker and the heap with --max-old-space-size', async () => {
    const small = await createNodeSandbox(files, { outputLimit: 1000, memoryMb: 48 });
    try {
      const noisy = await small.runTests(['test/noisy.test.js']);
      expect(noisy.truncated).toBe(true);
      expect(noisy.output).toMatch(/\[output truncated: \d+ more characters not shown\]/);
      expect(noisy.output.length).toBeLessThan(1000 + 600);
      expect(noisy.tests).toEqual([expect.objectContaining({ fullName: 'prints', status: 'pass' })]);
      const hog = await small.runTests(['test/hog.test.js'], { timeoutMs: 15_000 });
      expect(hog.timedOut).toBe(false);
      expect(hog.exitCode).not.toBe(0);
      expect(hog.output).toMatch(/heap/i);
    } finally {
      await small.dispose();
    }
  });

  it('runs `node FILE ARGS`, `node --test FILES` and refuses anything else', async () => {
    const r = await sb.exec(['node', 'src/add.js', 'a', 'b']);
    expect(r.output).toContain('args: a,b');
    expect(r.exitCode).toBe(0);
    const t = await sb.exec(['node', '--test', 'test/add.test.js']);
    expect(t.tests).toHaveLength(6);
    await expect(sb.exec(['bash', '-c', 'id'])).rejects.toThrow(CommandError);
    await expect(sb.exec(['node', '--allow-child-process', 'src/add.js'])).rejects.toThrow(/node options are not available/);
    await expect(sb.exec(['node', '../outside.js'])).rejects.toThrow(PathError);
  });
});

describe('node sandbox: files', () => {
  it('refuses paths that leave the repo, with a clear message', async () => {
    await expect(sb.readFile('../etc/passwd')).rejects.toThrow(/'\.\.' is not allowed/);
    await expect(sb.readFile('/etc/passwd')).rejects.toThrow(/is absolute/);
    await expect(sb.writeFile('src\\x.js', '')).rejects.toThrow(/backslash/);
    await expect(sb.readFile('a\0b')).rejects.toThrow(/NUL/);
    await expect(sb.readFile('src/none.js')).rejects.toThrow(/no such file in the repository: src\/none\.js/);
  });

  it('refuses a symbolic link that escapes the repo, for reads, writes and listings', async () => {
    symlinkSync('/etc', join(sb.root, 'etc-link'));
    symlinkSync('/etc/passwd', join(sb.root, 'src', 'passwd'));
    await expect(sb.readFile('etc-link/passwd')).rejects.toThrow(/goes through a symbolic link \(etc-link\)/);
    await expect(sb.readFile('src/passwd')).rejects.toThrow(PathError);
    await expect(sb.writeFile('etc-link/evil', 'x')).rejects.toThrow(PathError);
    expect(await sb.listFiles()).not.toContain('src/passwd');
    await sb.reset();
  });

  it('writes, lists, patches, diffs, resets and disposes', async () => {
    const s: Sandbox = await createNodeSandbox({ 'a.txt': 'one\n' });
    await s.writeFile('deep/er/b.txt', 'two\n');
    expect(await s.listFiles()).toEqual(['a.txt', 'deep/er/b.txt']);
    expect(await s.listFiles('deep')).toEqual(['deep/er/b.txt']);
    await s.applyPatch('--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n');
    expect(await s.readFile('a.txt')).toBe('ONE\n');
    await expect(s.applyPatch('--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+1\n')).rejects.toThrow(/hunk 1 expected 'one' at line 1, found 'ONE'/);
    const diff = await s.diff();
    expect(diff).toContain('+ONE');
    expect(diff).toContain('+++ b/deep/er/b.txt');
    await s.reset();
    expect(await s.listFiles()).toEqual(['a.txt']);
    expect(await s.diff()).toBe('');
    await s.deleteFile('a.txt');
    expect(await s.listFiles()).toEqual([]);
    const root = (s as NodeSandbox).root;
    await s.dispose();
    expect(existsSync(root)).toBe(false);
    await expect(s.readFile('a.txt')).rejects.toThrow(/disposed/);
  });

  it('starts each sandbox in a fresh folder', async () => {
    const other = (await createNodeSandbox(files)) as NodeSandbox;
    expect(other.root).not.toBe(sb.root);
    writeFileSync(join(other.root, 'mark'), '');
    expect(existsSync(join(sb.root, 'mark'))).toBe(false);
    expect(readFileSync(join(other.root, 'src/add.js'), 'utf8')).toBe(files['src/add.js']);
    await other.dispose();
  });
});
