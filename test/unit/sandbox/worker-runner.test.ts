// The worker sandbox's runner (loader, node:test and assert shims) and its host side, run in this
// process with data: URL modules instead of a Worker, against the node sandbox on the same files:
// node:test's run order and outcomes (nesting, skip/todo, hooks, subtests, a failing describe body,
// done callbacks, timeouts, name patterns), load errors, and the Sandbox file operations. What needs a
// real Worker (terminating a busy loop, console and process, timers) is in test/browser/sandbox-worker.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import { ModuleLoader, resolveRelative } from '../../../src/sandbox/worker/loader.ts';
import type { RunnerFactory } from '../../../src/sandbox/worker/protocol.ts';
import { runJob } from '../../../src/sandbox/worker/runner.ts';
import { createWorkerSandboxWith, WorkerSandbox } from '../../../src/sandbox/worker/sandbox.ts';
import { CommandError, PathError, type FileMap, type RunResult, type Sandbox } from '../../../src/sandbox/types.ts';

let nonce = 0;
/** data: URLs (a nonce per module, so Node's module cache never hands back a previous run's module). */
const dataUrl = (code: string) => `data:text/javascript;base64,${Buffer.from(`${code}\n// ${nonce++}`).toString('base64')}`;
/** The runner in this process: no Worker to terminate, so no test here may hang or call process.exit. */
const inProcess: RunnerFactory = () => ({
  start: (job, onEvent) => void runJob(job, { post: onEvent, makeUrl: dataUrl, ownsGlobals: false }),
  terminate: () => undefined,
});

const HEAD = "import { describe, it, test, before, after, beforeEach, afterEach } from 'node:test';\nimport assert from 'node:assert/strict';\n";
const files: FileMap = {
  'package.json': '{ "type": "module" }\n',
  'src/lib.js': "import { helper } from './util/helper.js';\nexport const double = (x) => helper(x) * 2;\nexport const load = () => import('./util/late.js');\n",
  'src/util/helper.js': 'export const helper = (x) => x;\n',
  'src/util/late.js': 'export const late = 42;\n',
  'src/cycle-a.js': "import { b } from './cycle-b.js';\nexport const a = 1 + b;\n",
  'src/cycle-b.js': "import { a } from './cycle-a.js';\nexport const b = 2;\n",
  'test/shape.test.js': `${HEAD}import { double, load } from '../src/lib.js';
describe('throws in body', () => {
  it('before throw', () => {});
  describe('deep', () => { it('g', () => {}); });
  throw new Error('boom in describe');
});
describe('outer', () => {
  it('x', () => { it('inner it', () => {}); });
  test('t with sub', async (t) => { await t.test('sub1', () => {}); await t.test('sub2', () => { assert.equal(1, 2); }); });
  test('unawaited subs', (t) => { t.test('s1', () => {}); t.test('s2', () => { throw new Error('s2 failed'); }); });
  it('no name');
  it(function named() {});
  it(() => {});
  it('', () => {});
  it('dup', () => {});
  it('dup', () => { assert.equal('a', 'b'); });
  describe('empty', () => {});
  it('throws string', () => { throw 'strval'; });
  it('throws obj', () => { throw { a: 1 }; });
  it('throws null', () => { throw null; });
  it('rejects', async () => { throw new TypeError('async bad'); });
  it('done cb', (t, done) => { setTimeout(done, 1); });
  it('done err', (t, done) => { done(new Error('done err')); });
  it.skip('skipped', () => {});
  it('skip with msg', { skip: 'why' }, () => {});
  it.todo('todo');
  it('todo failing', { todo: true }, () => { throw new Error('x'); });
  it.only('only', () => {});
  it('dynamic skip', (t) => { t.skip('dynamic'); });
  it('dynamic todo', (t) => { t.todo('dyn todo'); throw new Error('y'); });
  it('timeout opt', { timeout: 20 }, async () => { await new Promise((r) => setTimeout(r, 300)); });
  it('ctx name', (t) => { assert.equal(t.name, 'ctx name'); });
  it('uses src', async () => { assert.equal(double(2), 4); assert.equal((await load()).late, 42); });
  it('ok quotes the source', () => { assert.ok(double(0)); });
});
describe.skip('skipped suite', () => { it('a', () => {}); });
describe('todo suite', { todo: 'later' }, () => { it('c', () => {}); it('d', () => { throw new Error('x'); }); });
it('top', () => {});
describe(42, () => { it(7, () => {}); });
`,
  'test/hooks.test.js': `${HEAD}const log = [];
before(() => log.push('root before'));
describe('hooks', () => {
  before(() => log.push('before'));
  beforeEach(() => log.push('beforeEach'));
  afterEach(() => log.push('afterEach'));
  after(() => log.push('after'));
  it('a', () => log.push('a'));
  describe('inner', () => { beforeEach(() => log.push('inner beforeEach')); it('b', () => log.push('b')); });
});
describe('bad before', () => { before(() => { throw new Error('before failed'); }); it('c', () => {}); it('d', () => {}); });
describe('bad beforeEach', () => { beforeEach(() => { throw new Error('beforeEach failed'); }); it('e', () => {}); });
describe('bad after', () => { after(() => { throw new Error('after failed'); }); it('f', () => {}); });
it('order', () => assert.deepEqual(log, ['root before', 'before', 'beforeEach', 'a', 'afterEach', 'beforeEach', 'inner beforeEach', 'b', 'afterEach', 'after']));
`,
  'test/names.test.js': `${HEAD}describe('s', () => { it('x', () => {}); it('y', () => {}); });\ndescribe('x', () => { it('z', () => {}); });\ndescribe('t', () => { it('x', () => {}); });\n`,
  'test/crash.test.js': `${HEAD}describe('s', () => { it('x', () => {}); });\nthrow new Error('top-level boom');\n`,
  'test/syntax.test.js': `${HEAD}it('x', () => {});\nconst y = ;\n`,
  'test/missing.test.js': `${HEAD}import { nothere } from '../src/none.js';\nit('x', () => {});\n`,
  'test/no-ext.test.js': `${HEAD}import { helper } from '../src/util/helper';\nit('x', () => {});\n`,
  'test/cycle.test.js': `${HEAD}import { a } from '../src/cycle-a.js';\nit('cycle', () => assert.equal(a, 3));\n`,
  'test/fs.test.js': `${HEAD}import fs from 'node:fs';\nit('fs', () => assert.ok(fs));\n`,
};

const brief = (r: RunResult) => r.tests.map((t) => [t.fullName, t.status, t.message ?? null]);

let node: Sandbox;
let worker: Sandbox;
beforeAll(async () => {
  node = await createNodeSandbox(files, { timeoutMs: 30_000 });
  worker = await createWorkerSandboxWith(inProcess)(files, { timeoutMs: 30_000 });
});
afterAll(async () => {
  await node?.dispose();
  await worker?.dispose();
});

describe('worker sandbox runner (in process) vs node', () => {
  it.each(['test/shape.test.js', 'test/hooks.test.js', 'test/crash.test.js', 'test/syntax.test.js', 'test/missing.test.js'])('%s: same tests, statuses, messages, exit code', async (f) => {
    const [n, w] = await Promise.all([node.runTests([f]), worker.runTests([f])]);
    expect(brief(w)).toEqual(brief(n));
    expect(w.exitCode).toBe(n.exitCode);
    expect(w.timedOut).toBe(false);
  });

  it('selects tests by name as node 20 does (a suite name that matches runs its tests)', async () => {
    for (const names of [['s > x'], ['x > z'], ['s > y', 't > x'], ['nothing']]) {
      const [n, w] = await Promise.all([node.runTests(['test/names.test.js'], { names }), worker.runTests(['test/names.test.js'], { names })]);
      expect(brief(w), names.join()).toEqual(brief(n));
      expect(w.output).toBe(n.output);
    }
  });

  it('says what cannot load: syntax errors as node words them, missing modules, cycles, builtins it lacks', async () => {
    const syntax = await worker.runTests(['test/syntax.test.js']);
    expect(syntax.output).toBe("test/syntax.test.js:4\nconst y = ;\n          ^\n\nSyntaxError: Unexpected token ';'\n");
    const missing = await worker.runTests(['test/missing.test.js']);
    expect(missing.output).toBe("Error [ERR_MODULE_NOT_FOUND]: Cannot find module 'src/none.js' imported from test/missing.test.js\n");
    const noExt = await worker.runTests(['test/no-ext.test.js']);
    expect(noExt.output).toContain('Did you mean to import src/util/helper.js?');
    const cycle = await worker.runTests(['test/cycle.test.js']);
    expect(cycle.exitCode).toBe(1);
    expect(cycle.output).toContain('circular import: src/cycle-a.js → src/cycle-b.js → src/cycle-a.js');
    const fs = await worker.runTests(['test/fs.test.js']);
    expect(fs.output).toMatch(/provides node:test, node:assert, node:assert\/strict only; "node:fs" .*use the node sandbox/);
  });
});

describe('worker sandbox files and commands (same rules as the node sandbox)', () => {
  it('reads, writes, lists, deletes, patches, diffs and resets', async () => {
    const sb = await createWorkerSandboxWith(inProcess)(files);
    await sb.writeFile('docs/a/b.txt', 'hi');
    expect(await sb.readFile('./docs//a/b.txt')).toBe('hi');
    expect(await sb.listFiles('docs')).toEqual(['docs/a/b.txt']);
    await expect(sb.readFile('docs')).rejects.toThrow('docs is a folder, not a file');
    await expect(sb.listFiles('package.json')).rejects.toThrow('package.json is a file, not a folder');
    await expect(sb.listFiles('nope')).rejects.toThrow('no such folder in the repository: nope');
    await expect(sb.writeFile('package.json/x', '')).rejects.toThrow('package.json is a file, not a folder');
    await sb.deleteFile('docs/a/b.txt');
    await expect(sb.deleteFile('docs/a/b.txt')).rejects.toThrow('no such file in the repository: docs/a/b.txt');
    const { changed } = await sb.applyPatch('--- a/src/util/helper.js\n+++ b/src/util/helper.js\n@@ -1 +1 @@\n-export const helper = (x) => x;\n+export const helper = (x) => x + 1;\n');
    expect(changed).toEqual(['src/util/helper.js']);
    await expect(sb.applyPatch('--- a/src/util/helper.js\n+++ b/src/util/helper.js\n@@ -1 +1 @@\n-nothing like this\n+x\n')).rejects.toThrow(/hunk 1/);
    expect(await sb.diff()).toBe('diff --git a/src/util/helper.js b/src/util/helper.js\n--- a/src/util/helper.js\n+++ b/src/util/helper.js\n@@ -1,1 +1,1 @@\n-export const helper = (x) => x;\n+export const helper = (x) => x + 1;\n');
    await sb.reset();
    expect(await sb.diff()).toBe('');
    expect(await sb.listFiles()).toEqual(Object.keys(files).sort());
    await sb.dispose();
    await expect(sb.readFile('package.json')).rejects.toThrow('this sandbox was disposed');
  });

  it('refuses the same paths and commands as the node sandbox, with the same errors', async () => {
    for (const p of ['../etc/passwd', '/etc/passwd', 'src\\x.js', 'a\0b', 'src/none.js']) {
      const [n, w] = await Promise.all([node.readFile(p).catch((e: Error) => `${e.name}: ${e.message}`), worker.readFile(p).catch((e: Error) => `${e.name}: ${e.message}`)]);
      expect(w).toBe(n);
    }
    await expect(worker.exec(['bash', '-c', 'id'])).rejects.toThrow(CommandError);
    await expect(worker.exec(['node', '--allow-child-process', 'src/lib.js'])).rejects.toThrow(/node options are not available/);
    await expect(worker.exec(['node', '--test', '--watch'])).rejects.toThrow(/takes only test files/);
    await expect(worker.exec(['node', '../outside.js'])).rejects.toThrow(PathError);
    const all = await worker.exec(['node', '--test']);
    expect(all.tests.length).toBeGreaterThan(10);
  });
});

describe('worker sandbox loader', () => {
  it('resolves relative specifiers inside the repository only', () => {
    expect(resolveRelative('test/a.test.js', '../src/x.js')).toBe('src/x.js');
    expect(resolveRelative('a.js', './b/./c.js')).toBe('b/c.js');
    expect(resolveRelative('a.js', '../x.js')).toBeNull();
  });

  it('rewrites imports in place (lines kept) and quotes the failing call as assert.ok does', () => {
    const src = "import { helper } from './util/helper.js';\n\nexport const f = () =>\n  check(\n    helper(1) > 2\n  );\n";
    const loader = new ModuleLoader({ files: { 'src/f.js': src, 'src/util/helper.js': 'export const helper = (x) => x;\n' }, makeUrl: (c) => `data:${c.length}:${nonce++}`, builtins: {}, importHook: 'h' });
    const url = loader.urlFor('src/f.js');
    const mod = loader.moduleAt(url)!;
    expect(mod.code.split('\n').length).toBe(src.split('\n').length);
    expect(mod.code).toMatch(/^import \{ helper \} from "data:/);
    expect(loader.callExpressionAt(url, 3, 2)).toBe('check(\n    helper(1) > 2\n  )');
  });

  it('puts a loop guard first in every loop body (braces round a one-statement body), lines kept', async () => {
    const src = [
      'export function f(n) {',
      '  let s = 0, k = 0;',
      '  for (let i = 0; i < n; i++) s += i;',
      '  for (const x of [1, 2]) { s += x; }',
      '  for (const key in { a: 1 }) s += key.length;',
      '  while (k < 3) k++;',
      '  do k--; while (k > 1);',
      "  outer: for (;;) { for (;;) break outer; }",
      "  if (s > 0) for (;;) break; else s = -1;",
      "  while (false) import('./g.js');",
      '  return s + k;',
      '}',
      '',
    ].join('\n');
    const loader = new ModuleLoader({ files: { 'src/f.js': src, 'src/g.js': '' }, makeUrl: dataUrl, builtins: {}, importHook: 'hook', loopGuard: 'guard' });
    const mod = loader.moduleAt(loader.urlFor('src/f.js'))!;
    expect(mod.code.split('\n').length).toBe(src.split('\n').length);
    expect(mod.code.match(/globalThis\["guard"\]\(\);/g)!.length).toBe(9);
    expect(mod.code).toContain('for (let i = 0; i < n; i++) {globalThis["guard"]();s += i;}');
    expect(mod.code).toContain('while (false) {globalThis["guard"]();globalThis["hook"]("src/f.js", \'./g.js\');}');
    let calls = 0;
    (globalThis as Record<string, unknown>).guard = () => void calls++;
    try {
      const { f } = (await import(/* @vite-ignore */ mod.url)) as { f: (n: number) => number };
      expect(f(4)).toBe(6 + 3 + 1 + 1); // the code runs as before: s = 10, k = 1
      expect(calls).toBe(4 + 2 + 1 + 3 + 2 + 2 + 1);
    } finally {
      delete (globalThis as Record<string, unknown>).guard;
    }
  });
});

describe('worker sandbox loop budget (where CPU time cannot be measured)', () => {
  const loops: FileMap = {
    'package.json': '{ "type": "module" }\n',
    'test/loop.test.js': `${HEAD}describe('loop', () => {
  it('first', () => { let s = 0; for (let i = 0; i < 500; i++) s += i; assert.equal(s, 124750); });
  it('grows', () => { const a = []; while (true) { try { a.push([a.length]); } catch {} } });
  it('never', () => {});
});
`,
    'test/ok.test.js': `${HEAD}it('loops 900 times', () => { let n = 0; for (let i = 0; i < 900; i++) n++; assert.equal(n, 900); });\n`,
  };
  it('stops a runaway loop at the budget, names the running test and keeps the results before it', async () => {
    const sb = await WorkerSandbox.create(loops, { timeoutMs: 60_000 }, inProcess, { loopBudget: 1000 });
    try {
      const r = await sb.runTests(['test/loop.test.js']);
      expect(r.timedOut).toBe(true);
      expect(r.exitCode).toBeNull();
      expect(r.tests.map((t) => [t.fullName, t.status])).toEqual([['loop > first', 'pass']]);
      expect(r.running).toBe('loop > grows');
      expect(r.output).toContain('[killed: the loop limit of 1000 iterations was reached (the time limit where CPU time cannot be measured)]');
      // The budget is per run: a run under it passes.
      const ok = await sb.runTests(['test/ok.test.js']);
      expect([ok.timedOut, ok.tests.map((t) => t.status)]).toEqual([false, ['pass']]);
    } finally {
      await sb.dispose();
    }
  });
  it('is off where the host measures CPU time (the node host)', async () => {
    const sb = await WorkerSandbox.create(loops, { timeoutMs: 60_000 }, inProcess, { cpuClock: true, loopBudget: 100 });
    try {
      const ok = await sb.runTests(['test/ok.test.js']);
      expect([ok.timedOut, ok.tests.map((t) => t.status)]).toEqual([false, ['pass']]);
    } finally {
      await sb.dispose();
    }
  });
});
