// The worker sandbox under Node (src/sandbox/worker-node.node.ts): its runs in one confined node process
// per sandbox. The same results as the node sandbox on bundled tasks (buggy and fixed); the process kept
// between runs and replaced after a run it had to stop (CPU limit, heap cap); confinement (no file, no
// child process, a bare environment, even for code that reaches Node's own modules past the shims); the
// next run untouched by a timer or a global an earlier run left; one process per sandbox; the run cache
// keeping only a sandbox's first run; a wall limit that counts the code's time, not a loaded machine's;
// runners started from node's startup snapshot of the runner reporting what runners loaded from stdin do.
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { formatRun } from '../../../src/agent/tools.ts';
import { sandboxFactory } from '../../../src/sandbox/index.node.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import { cachedFactory, RunCache } from '../../../src/sandbox/run-cache.ts';
import type { FileMap, Sandbox } from '../../../src/sandbox/types.ts';
import { confinedArgs, createNodeWorkerSandbox, RUNNER_ENV, RunnerPool, runnerLaunch } from '../../../src/sandbox/worker-node.node.ts';
import { WorkerSandbox } from '../../../src/sandbox/worker/sandbox.ts';
import type { Task } from '../../../src/tasks/schema.ts';

const HEAD = "import { describe, it, test } from 'node:test';\nimport assert from 'node:assert/strict';\n";
/** Node's own modules, reached past the runner's shims (the loader refuses `import 'node:fs'`). */
const NODE = "const node = (m) => new Function('m', 'return import(m)')(m);\n";

const execFileAsync = promisify(execFile);
const open: Sandbox[] = [];
const make = async (files: FileMap, opts = {}) => {
  const sb = await createNodeWorkerSandbox(files, { clock: 'cpu', ...opts });
  open.push(sb);
  return sb;
};
afterAll(async () => {
  for (const sb of open) await sb.dispose();
});

const tasks = readFileSync(new URL('../../../public/tasks/level0/val.jsonl', import.meta.url), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Task);

/** The gold fix applied to a task's files (level 0: one token at the mutation's 1-based line and column). */
function fixed(task: Task): FileMap {
  const m = task.mutation as unknown as { location: { file: string; line: number; column: number }; original: string; mutated: string };
  const lines = task.files[m.location.file]!.split('\n');
  const i = m.location.line - 1, at = m.location.column - 1;
  expect(lines[i]!.slice(at, at + m.mutated.length)).toBe(m.mutated);
  lines[i] = lines[i]!.slice(0, at) + m.original + lines[i]!.slice(at + m.mutated.length);
  return { ...task.files, [m.location.file]: lines.join('\n') };
}

describe('worker sandbox under node: the same results as the node sandbox', () => {
  it('on 24 val tasks, buggy and fixed: every test status and the agent reports (brief and full)', async () => {
    const picked = tasks.filter((_, i) => i % 13 === 0).slice(0, 24);
    for (const task of picked) {
      for (const files of [task.files, fixed(task)]) {
        const [a, b] = await Promise.all([createNodeSandbox(files, { clock: 'cpu', timeoutMs: 5000 }), make(files, { timeoutMs: 5000 })]);
        try {
          const [ra, rb] = await Promise.all([a.runTests(task.test_files), b.runTests(task.test_files)]);
          expect(rb.tests.map((t) => [t.fullName, t.status])).toEqual(ra.tests.map((t) => [t.fullName, t.status]));
          expect(rb.exitCode).toBe(ra.exitCode);
          expect(formatRun(rb, 5000, [], 'brief')).toBe(formatRun(ra, 5000, [], 'brief'));
          expect(formatRun(rb, 5000, [], 'full')).toBe(formatRun(ra, 5000, [], 'full'));
        } finally {
          await a.dispose();
        }
      }
      expect(tasks.length).toBeGreaterThan(100);
    }
  }, 120_000);
});

describe('worker sandbox under node: one process, kept and replaced', () => {
  it('runs every job of a sandbox in one process, fresh modules each time', async () => {
    const pool = new RunnerPool(256);
    const sb = await WorkerSandbox.create({ 'src/a.js': 'export let n = 0;\nexport const bump = () => ++n;\n', 'test/a.test.js': `${HEAD}import { bump } from '../src/a.js';\ntest('first bump', () => assert.equal(bump(), 1));\n` }, { clock: 'cpu' }, () => pool.port(), { cpuClock: true, sharedProcess: true, close: () => pool.close() });
    open.push(sb);
    for (let i = 0; i < 4; i++) {
      const r = await sb.runTests(['test/a.test.js']);
      expect(r.tests.map((t) => t.status)).toEqual(['pass']); // a module's state never carries over
    }
    expect(pool.started).toBe(1);
    await sb.dispose();
    expect(pool.closed).toBe(true);
  });

  it('stops a busy loop at its CPU limit (a sleeper outlives it), and the next run gets a new process', async () => {
    const pool = new RunnerPool(256);
    const sb = await WorkerSandbox.create({
      'test/spin.test.js': `${HEAD}test('first', () => {});\ntest('spins', () => { for (;;); });\n`,
      'test/sleep.test.js': `${HEAD}test('sleeps', async () => { await new Promise((r) => setTimeout(r, 700)); });\n`,
      'test/ok.test.js': `${HEAD}test('ok', () => {});\n`,
    }, { clock: 'cpu', timeoutMs: 400 }, () => pool.port(), { cpuClock: true, sharedProcess: true, close: () => pool.close() });
    open.push(sb);
    const slept = await sb.runTests(['test/sleep.test.js']);
    expect([slept.timedOut, slept.tests.map((t) => t.status)]).toEqual([false, ['pass']]);
    const spun = await sb.runTests(['test/spin.test.js']);
    expect(spun.timedOut).toBe(true);
    expect(spun.exitCode).toBeNull();
    expect(spun.running).toBe('spins');
    expect(spun.tests.map((t) => t.fullName)).toEqual(['first']);
    expect(spun.output).toMatch(/killed: the CPU time limit of 400 ms was reached/);
    const ok = await sb.runTests(['test/ok.test.js']);
    expect(ok.tests.map((t) => t.status)).toEqual(['pass']);
    expect(pool.started + pool.reused).toBe(2); // the first may be a closed sandbox's (the test above)
  });

  it('at the CPU limit reports every test that finished before it (six at once, three times)', async () => {
    // The limit is reported once the killed process's output is in, not when the CPU clock is read: a result
    // relayed late (a trainer generating holds this event loop) is still counted.
    const files = { 'test/spin.test.js': `${HEAD}test('fails first', () => assert.equal(1, 2));\ntest('spins', () => { for (;;); });\n` };
    for (let round = 0; round < 3; round++) {
      const sbs = await Promise.all(Array.from({ length: 6 }, () => make(files, { timeoutMs: 150 })));
      const rs = await Promise.all(sbs.map((sb) => sb.runTests(['test/spin.test.js'])));
      for (const r of rs) expect([r.timedOut, r.tests.map((t) => [t.fullName, t.status]), r.running]).toEqual([true, [['fails first', 'fail']], 'spins']);
      await Promise.all(sbs.map((sb) => sb.dispose()));
    }
  }, 60_000);

  it('caps the heap: a hog ends its process with node\'s out-of-memory report, and the next run works', async () => {
    const sb = await make({
      'test/hog.test.js': `${HEAD}it('hogs', () => { const a = []; for (;;) a.push(new Array(1e5).fill(1)); });\n`,
      'test/ok.test.js': `${HEAD}test('ok', () => {});\n`,
    }, { memoryMb: 48, timeoutMs: 15_000 });
    const hog = await sb.runTests(['test/hog.test.js']);
    expect(hog.timedOut).toBe(false);
    expect(hog.exitCode).not.toBe(0);
    expect(hog.output).toMatch(/heap/i);
    expect((await sb.runTests(['test/ok.test.js'])).tests.map((t) => t.status)).toEqual(['pass']);
  }, 30_000);

  it('clears the timers a run left and puts back the globals it replaced', async () => {
    const sb = await make({
      'test/leave.test.js': `${HEAD}test('leaves a timer and exits', () => { setInterval(() => { globalThis.leaked = (globalThis.leaked ?? 0) + 1; }, 5); process.exit(0); });\n`,
      'test/after.test.js': `${HEAD}test('sees no timer of it', async () => { await new Promise((r) => setTimeout(r, 60)); assert.equal(globalThis.leaked, undefined); });\n`,
    });
    const left = await sb.runTests(['test/leave.test.js']);
    expect(left.exitCode).toBe(0);
    const after = await sb.runTests(['test/after.test.js']);
    expect(after.tests.map((t) => [t.fullName, t.status, t.message])).toEqual([['sees no timer of it', 'pass', undefined]]);
  });
});

/** Holds this thread for `ms` (generation for other episodes does, for seconds on a loaded machine). */
const hold = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('worker sandbox under node: the wall limit counts the code, not the machine', () => {
  // A run's wall limit (10x its CPU limit) once started at the run's call, so a node start slowed by load
  // (32 gradings at once on two busy cores) killed runs that had not begun; and when the thread was held
  // past the limit, the timer fired before an end already delivered. Both flipped finished runs to killed.
  const OK = { 'test/ok.test.js': `${HEAD}test('ok', () => {});\n`, 'test/busy.test.js': `${HEAD}test('busy', () => { const end = Date.now() + 30; while (Date.now() < end); });\n` };

  it('a run whose process starts while this thread is held past the wall limit still runs its tests', async () => {
    const pool = new RunnerPool(256);
    const sb = await WorkerSandbox.create(OK, { clock: 'cpu', timeoutMs: 50 }, () => pool.port(), { cpuClock: true, sharedProcess: true, close: () => pool.close() });
    open.push(sb);
    const run = sb.runTests(['test/ok.test.js']);
    hold(1000); // 2x the 500 ms wall limit, before node has even been started
    const r = await run;
    expect([r.timedOut, r.tests.map((t) => t.status)]).toEqual([false, ['pass']]);
    expect(r.durationMs).toBeLessThan(1000); // from its start, not from the call
  });

  it('an end delivered while this thread is held past the wall limit wins over the limit', async () => {
    const pool = new RunnerPool(256);
    const held = () => {
      const port = pool.port();
      return {
        ...port,
        // Hold the thread when the test starts: its end (30 ms later) waits in the pipe behind the limit.
        start: (job: Parameters<typeof port.start>[0], on: Parameters<typeof port.start>[1], limits?: { cpuMs?: number }) =>
          port.start(job, (e) => (on(e), e.type === 'running' && hold(1500)), limits),
      };
    };
    const sb = await WorkerSandbox.create(OK, { clock: 'cpu', timeoutMs: 100 }, held, { cpuClock: true, sharedProcess: true, close: () => pool.close() });
    open.push(sb);
    const r = await sb.runTests(['test/busy.test.js']);
    expect([r.timedOut, r.tests.map((t) => t.status)]).toEqual([false, ['pass']]);
  });
});

describe('worker sandbox under node: confinement', () => {
  it("the code under test reaches nothing of node's past the shims: no code from strings, no node: module, no real process", async () => {
    const sb = await make({
      'test/escape.test.js': `${HEAD}${NODE}const refused = (fn) => assert.throws(fn, { name: 'EvalError', message: /Code generation from strings disallowed/ });
test('no new Function', () => refused(() => node('node:fs')));
test('no eval', () => refused(() => eval('1')));
test('no constructor of a function', () => refused(() => (async () => {}).constructor('return 1')));
test("its process is the runner's", () => { assert.equal(typeof process.binding, 'undefined'); assert.equal(process.env.WEBSWE_FAKE_SECRET, undefined); });
`,
      'test/plain.test.js': `${HEAD}import fs from 'node:fs';\n`,
    });
    const r = await sb.runTests(['test/escape.test.js']);
    expect(r.tests.map((t) => [t.fullName, t.status, t.message])).toEqual([
      ['no new Function', 'pass', undefined],
      ['no eval', 'pass', undefined],
      ['no constructor of a function', 'pass', undefined],
      ["its process is the runner's", 'pass', undefined],
    ]);
    // A plain import of a built-in other than node:test and node:assert is refused, as in a browser.
    const plain = await sb.runTests(['test/plain.test.js']);
    expect(plain.exitCode).toBe(1);
    expect(plain.output).toMatch(/node:fs/);
    // `node -e` and `-p` run (as a block: their let stays theirs), with node's own syntax errors.
    expect((await sb.exec(['node', '-p', 'let JSON = 6; JSON * 7'])).output).toBe('42\n');
    expect((await sb.exec(['node', '-p', 'typeof JSON.parse'])).output).toBe('function\n');
    const bad = await sb.exec(['node', '-e', '} let JSON = 1; {']);
    expect([bad.exitCode, bad.output]).toEqual([1, expect.stringMatching(/SyntaxError: Unexpected token '}'/)]);
  });

  it('forges no result: what a run writes is its output, never the runner\'s events', async () => {
    const forged = '{"type":"result","path":["fails"],"status":"pass","ms":1}\\n{"type":"exit","code":0}\\n';
    // Through node's own process where it could be reached (code from a string importing node:process), then the run's.
    const sb = await make({
      'test/forge.test.js': `${HEAD}test('fails', async () => {
  try { (await new Function('return import("node:process")')()).default.stdout.write('${forged}'); } catch {}
  process.stdout.write('${forged}');
  console.log('${forged}');
  assert.equal(1, 2);
});\n`,
    });
    const r = await sb.runTests(['test/forge.test.js']);
    expect([r.exitCode, r.tests.map((t) => [t.fullName, t.status])]).toEqual([1, [['fails', 'fail']]]);
    expect(r.output).toContain('"status":"pass"');
  });

  it('past the runner, node itself refuses files and processes, and the environment is bare (defence in depth)', async () => {
    process.env.WEBSWE_FAKE_SECRET = 'hunter2'; // must not reach the sandbox
    try {
      const code = `const out = {};
for (const [k, f] of Object.entries({ read: () => require('fs').readFileSync('/etc/passwd'), list: () => require('fs').readdirSync('/'),
  write: () => require('fs').writeFileSync('/tmp/webswe-escaped.txt', 'x'), spawn: () => require('child_process').execFileSync('/bin/true'),
  worker: () => new (require('worker_threads').Worker)('1', { eval: true }) })) { try { f(); out[k] = 'allowed'; } catch (e) { out[k] = e.code; } }
try { eval('1'); out.eval = 'allowed'; } catch (e) { out.eval = e.name; }
out.env = Object.keys(process.env).sort();
console.log(JSON.stringify(out));`;
      const { stdout } = await execFileAsync(process.execPath, [...confinedArgs(64), '-e', code], { env: RUNNER_ENV });
      expect(JSON.parse(stdout)).toEqual({ read: 'ERR_ACCESS_DENIED', list: 'ERR_ACCESS_DENIED', write: 'ERR_ACCESS_DENIED', spawn: 'ERR_ACCESS_DENIED', worker: 'ERR_ACCESS_DENIED', eval: 'EvalError', env: ['HOME', 'LANG', 'NO_COLOR', 'TZ'] });
    } finally {
      delete process.env.WEBSWE_FAKE_SECRET;
    }
  });

  it("hands a closed sandbox's process to the next sandbox only when its runs left the realm unchanged", async () => {
    // Which process a run is in: its performance.timeOrigin (the process's start). A sandbox runs the probe, then
    // `node -e CODE` and a test file, and is closed; the next sandbox's first run reports its process and what it sees.
    const probe = ['node', '-e', "console.log(JSON.stringify([performance.timeOrigin, typeof leak, 'evil' in [], Object.isFrozen(Math), Error.stackTraceLimit, typeof fetch, typeof Buffer]))"];
    const files = {
      'src/late.js': 'export const late = 1;\n',
      'test/ok.test.js': `${HEAD}test('ok', () => assert.equal(1, 1));\n`,
      // The runner's own classes are the realm too: an assertion error's prototype patched.
      'test/patch.test.js': `${HEAD}test('patches', () => { try { assert.equal(1, 2); } catch (e) { Object.getPrototypeOf(e).evil = 1; } });\n`,
      // An import still loading when the run ends: its callback would run in the next sandbox's time.
      'test/late.test.js': `${HEAD}it('starts an import it does not wait for', () => { import('../src/late.js').then(() => { globalThis.leak = 'late'; }); });\n`,
    };
    const cases: Record<string, [string, string]> = {
      clean: ['const x = [1, 2].map((v) => v * 2); console.log(x)', 'test/ok.test.js'],
      'a let in node -e (a block: not a global binding)': ['let leak = 1', 'test/ok.test.js'],
      'a global added': ['globalThis.leak = 1', 'test/ok.test.js'],
      // Refused in a hardened realm (TypeError): the process is as it started, and serves the next sandbox.
      'a prototype patched (refused)': ['Array.prototype.evil = 1', 'test/ok.test.js'],
      'a built-in setting (refused)': ['Error.stackTraceLimit = 1', 'test/ok.test.js'],
      'a runner class patched (refused)': ['1', 'test/patch.test.js'],
      'an import pending at the end': ['1', 'test/late.test.js'],
      // Code still running after its run's end (a promise chain longer than the runner's own): what it starts is seen.
      'a timer started after the run ended': ['let n = 0; const go = () => (++n < 200 ? Promise.resolve().then(go) : setTimeout(() => {}, 60000)); go()', 'test/ok.test.js'],
      'an immediate re-armed after the run ended': ['let n = 0; const go = () => (++n < 200 ? Promise.resolve().then(go) : setImmediate(function again() { setImmediate(again); })); go()', 'test/ok.test.js'],
    };
    const first = async (sb: Sandbox) => JSON.parse((await sb.exec(probe)).output) as unknown[];
    for (const [name, [code, test]] of Object.entries(cases)) {
      const a = await make(files);
      const before = await first(a);
      await a.runTests([test]);
      await a.exec(['node', '-e', code]); // last: what it leaves running is the next sandbox's concern
      await a.dispose();
      const b = await make(files);
      const after = await first(b);
      // What a run sees is the fresh realm, every time: node's synchronous globals, no fetch.
      expect(after.slice(1), name).toEqual(['undefined', false, true, 10, 'undefined', 'function']);
      expect(before.slice(1), name).toEqual(after.slice(1));
      if (name === 'clean' || name.startsWith('a let') || name.endsWith('(refused)')) expect(after[0], name).toBe(before[0]);
      else expect(after[0], name).not.toBe(before[0]);
      await new Promise((r) => setTimeout(r, 50));
      expect((await first(b)).slice(1, 2), name).toEqual(['undefined']);
      await b.dispose();
    }
  });

  it("one sandbox's process never serves another open sandbox: a global one run leaves is seen by its own later runs only", async () => {
    const files = {
      'test/set.test.js': `${HEAD}test('sets', () => { globalThis.planted = 1; });\n`,
      'test/get.test.js': `${HEAD}test('unplanted', () => assert.equal(globalThis.planted, undefined));\n`,
    };
    const a = await make(files), b = await make(files);
    await a.runTests(['test/set.test.js']);
    expect((await b.runTests(['test/get.test.js'])).tests.map((t) => t.status)).toEqual(['pass']);
    expect(a.sharedProcess).toBe(true);
  });

  it('the run cache keeps only the first run of a sandbox whose runs share a process', async () => {
    const cache = new RunCache();
    const create = cachedFactory((f, o) => createNodeWorkerSandbox(f, { clock: 'cpu', ...o }), cache);
    const files = { 'src/a.js': 'export const a = 1;\n', 'test/a.test.js': `${HEAD}import { a } from '../src/a.js';\ntest('a', () => assert.equal(a, 1));\n` };
    const sb = await create(files);
    open.push(sb);
    await sb.runTests(['test/a.test.js']); // first: kept
    await sb.writeFile('src/a.js', 'export const a = 2;\n');
    await sb.runTests(['test/a.test.js']); // second: run, not kept
    expect(cache.size).toBe(1);
    const other = await create({ ...files, 'src/a.js': 'export const a = 2;\n' });
    open.push(other);
    expect((await other.runTests(['test/a.test.js'])).tests.map((t) => t.status)).toEqual(['fail']);
    expect(cache.size).toBe(2); // the other sandbox's first run
  });

  it('starts its runners from a snapshot of the runner, which report what runners loaded from stdin report', async () => {
    const snap = await runnerLaunch(512), mod = await runnerLaunch(512, 'module');
    expect([snap.from, snap.code, snap.args[0]]).toEqual(['snapshot', null, '--snapshot-blob']);
    expect([mod.from, mod.args.includes('-e')]).toEqual(['module', true]);
    const jobs: { files: FileMap; tests: string[] }[] = tasks.filter((_, i) => i % 29 === 0).slice(0, 5).flatMap((t) => [{ files: t.files, tests: t.test_files }, { files: fixed(t), tests: t.test_files }]);
    jobs.push(
      { files: { 'test/syntax.test.js': `${HEAD}test('x', () => { assert.equal(1, 1) ) });\n` }, tests: ['test/syntax.test.js'] },
      { files: { 'src/m.js': 'export const f = () => 41 + 1;\n', 'test/dyn.test.js': `${HEAD}test('dynamic import', async () => { const m = await import('../src/m.js'); assert.equal(m.f(), 42); });\n` }, tests: ['test/dyn.test.js'] },
      { files: { 'test/escape.test.js': `${HEAD}${NODE}test('fs', async () => { const fs = await node('node:fs'); fs.readFileSync('/etc/passwd'); });\n` }, tests: ['test/escape.test.js'] },
      // No name of the runner's start is a module's free name (node -e BOOT's were global bindings: p, the real process).
      { files: { 'test/names.test.js': `${HEAD}test('names', () => assert.deepEqual([typeof p, typeof B, typeof c, typeof f, typeof require, typeof module], Array(6).fill('undefined')));\n` }, tests: ['test/names.test.js'] },
    );
    const runWith = async (prefer: 'snapshot' | 'module', job: (typeof jobs)[number]) => {
      const pool = new RunnerPool(512, prefer);
      const sb = await WorkerSandbox.create(job.files, { clock: 'cpu', timeoutMs: 5000 }, () => pool.port(), { cpuClock: true, sharedProcess: true, close: () => pool.close() });
      try {
        const r = await sb.runTests(job.tests);
        return { tests: r.tests.map((t) => [t.fullName, t.status, t.message]), exitCode: r.exitCode, brief: formatRun(r, 5000, [], 'brief'), full: formatRun(r, 5000, [], 'full') };
      } finally {
        await sb.dispose();
      }
    };
    for (const job of jobs) expect(await runWith('snapshot', job)).toEqual(await runWith('module', job));
    // What the last four report, so that the comparison above is between runs that did something.
    const [syntax, dyn, escape, names] = await Promise.all(jobs.slice(-4).map((j) => runWith('snapshot', j)));
    expect(names!.tests).toEqual([['names', 'pass', undefined]]);
    expect(syntax!.full).toMatch(/SyntaxError/);
    expect(dyn!.tests).toEqual([['dynamic import', 'pass', undefined]]);
    expect(escape!.tests[0]!.slice(0, 2)).toEqual(['fs', 'fail']);
    expect(String(escape!.tests[0]![2])).toMatch(/Code generation from strings disallowed/);
  });

  it('a program that closed its sandboxes exits by itself: the processes kept for later sandboxes do not hold it', () => {
    // Released processes are ended after 30 s unused; the program must not wait for that (the limit here is 20 s).
    const mod = fileURLToPath(new URL('../../../src/sandbox/worker-node.node.ts', import.meta.url));
    const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/esm/index.mjs', import.meta.url));
    const script = `import { createNodeWorkerSandbox } from ${JSON.stringify(mod)};
const sb = await createNodeWorkerSandbox({}, { clock: 'cpu' });
process.stdout.write((await sb.exec(['node', '-p', '6 * 7'])).output);
await sb.dispose();\n`;
    const r = spawnSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect([r.status, r.stdout]).toEqual([0, '42\n']);
  }, 30_000);

  it('is the `worker` sandbox that train, eval and solve use under Node, with CPU time limits', async () => {
    const sb = await sandboxFactory('worker')({ 'test/sleep.test.js': `${HEAD}test('sleeps', async () => { await new Promise((r) => setTimeout(r, 600)); });\n` }, { timeoutMs: 300 });
    open.push(sb);
    const r = await sb.runTests(['test/sleep.test.js']);
    expect([sb.kind, r.timedOut, r.tests.map((t) => t.status)]).toEqual(['worker', false, ['pass']]);
  });
});
