// The worker sandbox in Chromium, driven through the page's `webswe.sandboxes.worker` hook: files and
// patches, per-test results and output the same as the node sandbox's for the same repository, a busy
// loop ended by Worker.terminate() at the time limit with the running test named, console output,
// process.exit, uncaught errors, syntax errors, and paths shown repo-relative.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createNodeSandbox } from '../../src/sandbox/node.node.ts';
import type { FileMap, RunResult } from '../../src/sandbox/types.ts';
import { noBrowserReason, openSandboxPage } from '../helpers/browser.ts';

if (noBrowserReason) console.warn(`browser tier: skipping, ${noBrowserReason}`);

const HEAD = "import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\n";
const files: FileMap = {
  'package.json': '{ "type": "module" }\n',
  'src/add.js': "export const add = (a, b) => a + b;\nconsole.log('args:', process.argv.slice(2).join(','));\n",
  'src/lexer.js': "export const lex = (s) => s.split(/\\s+/).filter(Boolean);\n",
  'src/parse.js': "import { lex } from './lexer.js';\nexport const parse = (s) => lex(s).map(Number);\n",
  'test/add.test.js': `${HEAD}import { add } from '../src/add.js';
import { parse } from '../src/parse.js';
describe('add', () => {
  describe('small # numbers', () => {
    it('adds', () => assert.equal(add(1, 2), 3));
    it('is wrong', () => assert.equal(add(1, 2), 4));
    it.skip('skipped', () => {});
    it.todo('later');
  });
  it('is async', async () => { await new Promise((r) => setTimeout(r, 5)); });
  it('parses', () => assert.deepEqual(parse('1 2  3'), [1, 2, 4]));
  it('is truthy', () => assert.ok(add(1, -1)));
  it('throws', () => assert.throws(() => parse('x'), /boom/));
});
it('top level', () => { console.log('from a test', { a: [1, 2] }); });
`,
  'test/loop.test.js': `${HEAD}describe('loop', () => {\n  it('first', () => {});\n  it('spins', () => { const a = []; while (true) a.push([a.length]); });\n  it('never', () => {});\n});\n`,
  // Busy without a loop (catastrophic backtracking): only the time limit ends it.
  'test/regex.test.js': `${HEAD}describe('regex', () => {\n  it('first', () => {});\n  it('spins', () => { /^(a+)+$/.test('a'.repeat(64) + 'b'); });\n  it('never', () => {});\n});\n`,
  'test/crash.test.js': `${HEAD}it('x', () => {});\nthrow new Error('top-level boom');\n`,
  'test/syntax.test.js': `${HEAD}it('x', () => {});\nconst y = ;\n`,
  'test/missing.test.js': `${HEAD}import { nothere } from '../src/none.js';\nit('x', () => {});\n`,
  'test/exit.test.js': `${HEAD}describe('s', () => { it('x', () => { process.exit(3); }); it('y', () => {}); });\n`,
  'test/timer-error.test.js': `${HEAD}it('async throw', async () => { await new Promise((_, rej) => setTimeout(() => rej(new RangeError('late')), 1)); });\nit('after', () => {});\n`,
  'test/uncaught.test.js': `${HEAD}describe('s', () => {
  it('timer throws', async () => { setTimeout(() => { throw new Error('from timer'); }, 1); await new Promise((r) => setTimeout(r, 50)); });
  it('rejection', async () => { Promise.reject(new Error('unhandled')); await new Promise((r) => setTimeout(r, 50)); });
  it('after', () => {});
});\n`,
  'test/pending.test.js': `${HEAD}describe('p', () => { it('hangs', () => new Promise(() => {})); it('next', () => {}); });\nit('later', () => {});\n`,
};

const brief = (r: RunResult) => r.tests.map((t) => [t.fullName, t.status, t.message ?? null]);

describe.skipIf(noBrowserReason)('worker sandbox in chromium', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const run = (script: string, arg: unknown): Promise<any> =>
    page.evaluate(
      async ({ script, arg }) => {
        const w = window as any;
        const fn = new Function('sandboxes', 'arg', `return (async () => { ${script} })();`);
        return fn(w.webswe.sandboxes, arg);
      },
      { script, arg },
    );
  const both = async (testFile: string, timeoutMs = 20_000) => {
    const node = await createNodeSandbox(files, { timeoutMs });
    try {
      const [n, w] = await Promise.all([
        node.runTests([testFile]),
        run('const sb = await sandboxes.worker(arg.files, { timeoutMs: arg.timeoutMs }); try { return await sb.runTests([arg.file]); } finally { await sb.dispose(); }', { files, file: testFile, timeoutMs }),
      ]);
      return { n: n as RunResult, w: w as RunResult };
    } finally {
      await node.dispose();
    }
  };

  beforeAll(async () => {
    ({ browser, page } = await openSandboxPage(inject('baseUrl'), errors));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('reports the same tests, statuses, messages and output as the node sandbox', async () => {
    const { n, w } = await both('test/add.test.js');
    expect(brief(w)).toEqual(brief(n));
    expect(w.exitCode).toBe(n.exitCode);
    expect(w.tests[0]!.file).toBe('test/add.test.js');
    expect(w.output).toBe(n.output);
  });

  it('ends a busy test at the time limit with Worker.terminate() and names the running test', async () => {
    const w: RunResult = await run('const sb = await sandboxes.worker(arg); try { return await sb.runTests(["test/regex.test.js"], { timeoutMs: 5000 }); } finally { await sb.dispose(); }', files);
    expect(w.timedOut).toBe(true);
    expect(w.exitCode).toBeNull();
    expect(w.tests.map((t) => t.fullName)).toEqual(['regex > first']);
    expect(w.running).toBe('regex > spins');
    expect(w.output).toMatch(/killed: the time limit of 5000 ms was reached/);
    expect(w.output).toContain('⧗ regex > spins (still running at the time limit)');
    // A runaway loop that allocates stops at the loop budget, long before the time limit and the tab's memory.
    const t0 = Date.now();
    const l: RunResult = await run('const sb = await sandboxes.worker(arg); try { return await sb.runTests(["test/loop.test.js"], { timeoutMs: 60000 }); } finally { await sb.dispose(); }', files);
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect([l.timedOut, l.exitCode, l.running, l.tests.map((t) => t.fullName)]).toEqual([true, null, 'loop > spins', ['loop > first']]);
    expect(l.output).toContain('[killed: the loop limit of 2000000 iterations was reached (the time limit where CPU time cannot be measured)]');
    // The page is still responsive and the next run works.
    const again: RunResult = await run('const sb = await sandboxes.worker(arg); try { return await sb.runTests(["test/add.test.js"]); } finally { await sb.dispose(); }', files);
    expect(again.tests.length).toBe(9);
  });

  it('reports load failures, crashes, exits and late errors as node does', async () => {
    for (const f of ['test/crash.test.js', 'test/syntax.test.js', 'test/missing.test.js', 'test/exit.test.js', 'test/timer-error.test.js', 'test/uncaught.test.js', 'test/pending.test.js']) {
      const { n, w } = await both(f);
      expect(brief(w), f).toEqual(brief(n));
      expect(w.exitCode, f).toBe(n.exitCode);
    }
    const syntax = (await both('test/syntax.test.js')).w;
    expect(syntax.output).toContain("test/syntax.test.js:4\nconst y = ;\n          ^\n\nSyntaxError: Unexpected token ';'");
    const crash = (await both('test/crash.test.js')).w;
    expect(crash.output).toMatch(/^Error: top-level boom\n {4}at test\/crash\.test\.js:4:7/);
    const missing = (await both('test/missing.test.js')).w;
    expect(missing.output).toContain("Error [ERR_MODULE_NOT_FOUND]: Cannot find module 'src/none.js' imported from test/missing.test.js");
  });

  it('replaces a runner Worker whose script failed to load and runs the job in a new one', async () => {
    // The first two requests for the runner script fail: the page's one fetch of it (Workers then load
    // it from its URL instead) and the first Worker's load (it is replaced by a fresh one).
    const context = await browser.newContext();
    let refused = 0;
    await context.route(/runner\.worker[^/]*\.js/, (route) => (refused++ < 2 ? route.abort('connectionreset') : route.continue()));
    try {
      const fresh = await context.newPage();
      await fresh.goto(inject('baseUrl'));
      await fresh.waitForFunction(() => (window as any).webswe?.sandboxes);
      const r = await fresh.evaluate(async (files) => {
        const sb = await (window as any).webswe.sandboxes.worker(files, { timeoutMs: 20_000 });
        try {
          const out = await sb.runTests(['test/add.test.js']);
          return { n: out.tests.length, timedOut: out.timedOut };
        } finally {
          await sb.dispose();
        }
      }, files);
      expect(refused).toBeGreaterThan(2); // two refused, later ones served
      expect(r).toEqual({ n: 9, timedOut: false });
    } finally {
      await context.close();
    }
  });

  it('runs at most one runner Worker per core at once; a queued run\'s time limit starts when its Worker does', async () => {
    // Counts the runner Workers running a job in a fresh page (posted a job, not yet exited or terminated).
    const context = await browser.newContext();
    await context.addInitScript(() => {
      const w = window as any;
      w.__runners = { busy: 0, peak: 0 };
      const Base = w.Worker;
      // A runner Worker is busy from the job posted to it until its 'exit' (a sandbox keeps it idle after).
      w.Worker = class extends Base {
        counted: boolean;
        busy = false;
        constructor(url: string, opts?: { name?: string }) {
          super(url, opts);
          this.counted = opts?.name === 'webswe-sandbox-runner';
          this.addEventListener('message', (e: MessageEvent) => {
            if (e.data?.type === 'exit') this.idle();
          });
        }
        idle() {
          if (this.busy) w.__runners.busy--;
          this.busy = false;
        }
        postMessage(m: unknown) {
          if (this.counted && !this.busy) {
            this.busy = true;
            w.__runners.peak = Math.max(w.__runners.peak, ++w.__runners.busy);
          }
          super.postMessage(m);
        }
        terminate() {
          this.idle();
          super.terminate();
        }
      };
    });
    try {
      const fresh = await context.newPage();
      await fresh.goto(inject('baseUrl'));
      await fresh.waitForFunction(() => (window as any).webswe?.sandboxes);
      const r = await fresh.evaluate(async (files) => {
        const w = window as any;
        const cap = Math.max(2, Math.min(8, navigator.hardwareConcurrency || 4));
        // 2 × cap busy runs (each ended at 1.5 s) first, then 2 × cap quick runs queued behind them:
        // those wait ≥ 1.5 s for a Worker, longer than their own 1.5 s limit.
        const one = async (file: string) => {
          const sb = await w.webswe.sandboxes.worker(files, { timeoutMs: 1500 });
          try {
            const out = await sb.runTests([file]);
            return { n: out.tests.length, timedOut: out.timedOut };
          } finally {
            await sb.dispose();
          }
        };
        const loops = Array.from({ length: 2 * cap }, () => one('test/regex.test.js'));
        const quick = Array.from({ length: 2 * cap }, () => one('test/add.test.js'));
        return { cap, loops: await Promise.all(loops), quick: await Promise.all(quick), peak: w.__runners.peak };
      }, files);
      expect(r.loops.every((l) => l.timedOut)).toBe(true);
      expect(r.quick).toEqual(Array.from({ length: 2 * r.cap }, () => ({ n: 9, timedOut: false })));
      expect(r.peak).toBeLessThanOrEqual(r.cap);
      expect(r.peak).toBeGreaterThanOrEqual(Math.min(r.cap, 2));
    } finally {
      await context.close();
    }
  });

  it("serves a sandbox's runs in one Worker: fresh modules, no timer or console left over; a cut-off run's successor and another sandbox get fresh ones", async () => {
    const r = await run(
      `const count = ['node', '-e', 'globalThis.__runs = (globalThis.__runs ?? 0) + 1; console.log("runs", globalThis.__runs)'];
       const sb = await sandboxes.worker(arg, { timeoutMs: 5000 });
       const other = await sandboxes.worker(arg, { timeoutMs: 5000 });
       try {
         const out = [];
         out.push((await sb.exec(count)).output, (await sb.exec(count)).output);
         // A run that exits with an interval still ticking and console replaced: neither reaches the next run.
         await sb.exec(['node', '-e', 'setInterval(() => console.log("tick"), 2); console.log = () => {}; process.exit(0)']);
         await new Promise((r) => setTimeout(r, 50));
         out.push((await sb.exec(['node', '-e', 'console.log("after")'])).output);
         const bumps = [];
         for (let i = 0; i < 3; i++) bumps.push((await sb.runTests(['test/bump.test.js'])).tests.map((t) => t.status).join());
         const spin = await sb.exec(['node', '-e', 'for (;;) {}'], { timeoutMs: 1000 });
         out.push((await sb.exec(count)).output, (await other.exec(count)).output);
         return { out, bumps, spun: spin.timedOut, shared: sb.sharedProcess };
       } finally {
         await sb.dispose();
         await other.dispose();
       }`,
      { ...files, 'src/bump.js': 'export let n = 0;\nexport const bump = () => ++n;\n', 'test/bump.test.js': `${HEAD}import { bump } from '../src/bump.js';\nit('first bump', () => assert.equal(bump(), 1));\n` },
    );
    // Runs 1 and 2 share a Worker (what one run's code leaves in its globals the next run of the same episode
    // sees: the documented weakness, and the evidence of the reuse); the module's own state never carries over.
    expect(r.out).toEqual(['runs 1\n', 'runs 2\n', 'after\n', 'runs 1\n', 'runs 1\n']);
    expect(r.bumps).toEqual(['pass', 'pass', 'pass']);
    expect(r.spun).toBe(true);
    expect(r.shared).toBe(true);
  });

  it("cannot forge the runner's events or end its Worker: postMessage and close are absent, as in node", async () => {
    // A test that posts a passing result and a clean exit in the runner's protocol, then a failing one: the
    // forged events would end the run at exit 0 with the real failure never reported (a forged reward).
    const forge = {
      ...files,
      'test/forge.test.js': `${HEAD}it('forges', () => { postMessage({ type: 'result', path: ['ghost'], status: 'pass', ms: 0 }); postMessage({ type: 'exit', code: 0 }); });\nit('real', () => assert.equal(1, 2));\n`,
    };
    const node = await createNodeSandbox(forge, { timeoutMs: 20_000 });
    try {
      const n = await node.runTests(['test/forge.test.js']);
      const nodeClose = await node.exec(['node', '-e', 'console.log(typeof postMessage, typeof close)']);
      const w = await run(
        `const sb = await sandboxes.worker(arg, { timeoutMs: 20000 });
         try {
           const tests = await sb.runTests(['test/forge.test.js']);
           const types = await sb.exec(['node', '-e', 'console.log(typeof postMessage, typeof close)']);
           const onmessage = await sb.exec(['node', '-e', 'globalThis.onmessage = () => {}; console.log("set")']);
           const after = await sb.exec(['node', '-e', 'console.log("still served")']);
           return { tests, types: types.output, onmessage: onmessage.output, after: after.output };
         } finally { await sb.dispose(); }`,
        forge,
      );
      expect(brief(w.tests)).toEqual(brief(n));
      expect(brief(w.tests).map((t) => t[1])).toEqual(['fail', 'fail']);
      expect(w.tests.exitCode).toBe(1);
      expect(w.types).toBe(nodeClose.output);
      expect(w.types).toBe('undefined undefined\n');
      // Code that sets onmessage does not deafen the runner to its sandbox's next run.
      expect([w.onmessage, w.after]).toEqual(['set\n', 'still served\n']);
    } finally {
      await node.dispose();
    }
  });

  it("hands a closed sandbox's Worker to the next sandbox only when its runs left the realm unchanged", async () => {
    // Which Worker a run is in: its performance.timeOrigin (a Worker's start time). A sandbox runs `before`
    // (and the task's tests), is closed; the next sandbox's first run reports the Worker and what it sees.
    const probe = ['node', '-e', "console.log(JSON.stringify([performance.timeOrigin, typeof leak, 'evil' in [], Object.isFrozen(Math), Error.stackTraceLimit, typeof fetch, typeof self]))"];
    const cases: Record<string, string> = {
      clean: 'const x = [1, 2].map((v) => v * 2); console.log(x)',
      'a global added': 'globalThis.leak = 1',
      // Refused in the hardened realm (src/sandbox/harden.mjs): the Worker is as it started and serves the next sandbox.
      'a prototype patched (refused)': 'Array.prototype.evil = 1',
      'a built-in setting (refused)': 'Error.stackTraceLimit = 1',
      'a property deleted and put back (refused)': 'const f = Array.prototype.map; delete Array.prototype.map; Array.prototype.map = f',
      'a Proxy made a prototype (refused)': "Object.setPrototypeOf(Math, new Proxy({}, { ownKeys() { throw new Error('ran'); }, getPrototypeOf() { throw new Error('ran'); } }))",
      // A check that read it would run the run's code: it must not (it would throw here, or loop forever).
      'a Proxy made the prototype of a global': "globalThis.box = {}; Object.setPrototypeOf(globalThis.box, new Proxy({}, { ownKeys() { throw new Error('ran'); }, getPrototypeOf() { throw new Error('ran'); } }))",
    };
    const withLate = {
      ...files,
      'src/late.js': 'export const late = 1;\n',
      // An import still loading when the run ends: its callback would run in the next sandbox's time.
      'test/late.test.js': `${HEAD}it('starts an import it does not wait for', () => { import('../src/late.js').then(() => { globalThis.leak = 'late'; }); });\n`,
    };
    const r = await run(
      `const out = {};
       const first = async (sb, argv) => JSON.parse((await sb.exec(argv)).output);
       for (const [name, code] of Object.entries(arg.cases)) {
         const a = await sandboxes.worker(arg.files, { timeoutMs: 5000 });
         const before = await first(a, arg.probe);
         await a.exec(['node', '-e', code]);
         await a.runTests(['test/add.test.js']);
         await a.dispose();
         const b = await sandboxes.worker(arg.files, { timeoutMs: 5000 });
         out[name] = { before, after: await first(b, arg.probe) };
         await b.dispose();
       }
       const a = await sandboxes.worker(arg.files, { timeoutMs: 5000 });
       const before = await first(a, arg.probe);
       await a.runTests(['test/late.test.js']);
       await a.dispose();
       const b = await sandboxes.worker(arg.files, { timeoutMs: 5000 });
       out['an import pending at the end'] = { before, after: await first(b, arg.probe) };
       await new Promise((r) => setTimeout(r, 50));
       out['an import pending at the end'].later = await first(b, arg.probe);
       await b.dispose();
       return out;`,
      { cases, probe, files: withLate },
    );
    const pristine = (x: unknown[]) => x.slice(1);
    for (const [name, { before, after }] of Object.entries(r as Record<string, { before: unknown[]; after: unknown[] }>)) {
      // What a run sees is the fresh realm, every time: Node's globals, not the browser's.
      expect(pristine(after), name).toEqual(['undefined', false, true, 10, 'undefined', 'undefined']);
      expect(pristine(before), name).toEqual(pristine(after));
      // The clean sandbox's Worker served the next one (and so did one whose changes were refused); any change ended it.
      if (name === 'clean' || name.endsWith('(refused)')) expect(after[0], name).toBe(before[0]);
      else expect(after[0], name).not.toBe(before[0]);
    }
    expect((r as Record<string, { later: unknown[] }>)['an import pending at the end']!.later.slice(1, 2)).toEqual(['undefined']);
  });

  it('runs `node FILE ARGS`, `node -e`, `node --test` and selected names; edits files; diffs', async () => {
    const out = await run(
      `const sb = await sandboxes.worker(arg);
       try {
         const script = await sb.exec(['node', 'src/add.js', 'a', 'b']);
         const evald = await sb.exec(['node', '-p', '6 * 7']);
         const all = await sb.exec(['node', '--test', 'test/add.test.js']);
         const named = await sb.runTests(['test/add.test.js'], { names: ['add > small # numbers > adds', 'top level'] });
         let refused = '';
         try { await sb.exec(['bash', '-c', 'id']); } catch (e) { refused = e.name + ': ' + e.message; }
         let escaped = '';
         try { await sb.readFile('../etc/passwd'); } catch (e) { escaped = e.name + ': ' + e.message; }
         await sb.applyPatch('--- a/src/add.js\\n+++ b/src/add.js\\n@@ -1,2 +1,2 @@\\n-export const add = (a, b) => a + b;\\n+export const add = (a, b) => a + b + 1;\\n console.log(\\'args:\\', process.argv.slice(2).join(\\',\\'));\\n');
         await sb.writeFile('notes/new.txt', 'hi');
         const listed = await sb.listFiles('notes');
         const diff = await sb.diff();
         const after = await sb.runTests(['test/add.test.js'], { names: ['add > small # numbers > adds'] });
         await sb.reset();
         return { script, evald, all: all.tests.length, named: named.tests.map((t) => t.fullName), refused, escaped, listed, diff, after: after.tests[0].status, files: await sb.listFiles() };
       } finally { await sb.dispose(); }`,
      files,
    );
    expect(out.script.output).toBe('args: a,b\n');
    expect(out.script.exitCode).toBe(0);
    expect(out.evald.output).toBe('42\n');
    expect(out.all).toBe(9);
    expect(out.named).toEqual(['add > small # numbers > adds', 'top level']);
    expect(out.refused).toMatch(/^CommandError: only `node` runs/);
    expect(out.escaped).toMatch(/^PathError: .*'\.\.' is not allowed/);
    expect(out.listed).toEqual(['notes/new.txt']);
    expect(out.diff).toContain('+export const add = (a, b) => a + b + 1;');
    expect(out.diff).toContain('+++ b/notes/new.txt');
    expect(out.after).toBe('fail');
    expect(out.files).toEqual(Object.keys(files).sort());
    expect(errors).toEqual([]);
  });
});
