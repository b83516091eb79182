// `webswe bench sandbox [--json]`: median and p95 ms to apply a task's gold patch and run its tests, per
// sandbox, on a sample of the bundled tasks: the node sandbox, plain `node --test` and `node FILE` of
// the same files (the peers), and the worker sandbox in headless Chromium (the app built and served
// by Vite preview, driven with playwright-core; reported as not measured, with the reason, without it), and
// the worker sandbox under Node with its runner process started from the snapshot or from stdin.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeSandbox } from '../sandbox/node.node.ts';
import { createNodeWorkerSandbox } from '../sandbox/worker-node.node.ts';
import { applyDiff } from '../sandbox/patch.ts';
import type { Task } from '../tasks/schema.ts';
import { launchChromium, noBrowserReason } from './chromium.node.ts';
import { benchSandbox, row, sampleTasks, SANDBOX_TARGET_MS, type SandboxBenchRow } from './sandbox.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The task file `webswe bench sandbox` samples by default. */
export const DEFAULT_TASKS = join(ROOT, 'public/tasks/test.jsonl');

interface Options {
  tasks: number;
  file: string;
  browser: boolean;
  timeoutMs: number;
  log: (s: string) => void;
}

/** Wall time of one `node ARGS` process in `dir`, start to exit. */
function timeNode(dir: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: dir, env: { HOME: dir, LANG: 'C.UTF-8', TZ: 'UTC', NO_COLOR: '1' }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - t0));
  });
}

/** The peers: the patched repository in a temp folder, its test files run by plain node. */
async function benchPlainNode(tasks: Task[], o: Options): Promise<SandboxBenchRow[]> {
  const asTest: number[] = [];
  const direct: number[] = [];
  for (const [i, t] of tasks.entries()) {
    const dir = await mkdtemp(join(tmpdir(), 'webswe-bench-'));
    try {
      for (const [p, text] of Object.entries(applyDiff(t.files, t.patch).files)) {
        await mkdir(dirname(join(dir, p)), { recursive: true });
        await writeFile(join(dir, p), text);
      }
      if (i === 0) await timeNode(dir, ['--test', ...t.test_files]); // warm the disk cache
      asTest.push(await timeNode(dir, ['--test', ...t.test_files]));
      let sum = 0;
      for (const f of t.test_files) sum += await timeNode(dir, [f]);
      direct.push(sum);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    o.log(`bench sandbox: plain node ${i + 1}/${tasks.length}`);
  }
  const shape = `${tasks.length} tasks: run the patched repo's tests`;
  return [row('node --test (plain)', shape, asTest), row('node FILE (plain)', shape, direct)];
}

/** In the page: time each task as timeGoldRun (sandbox.ts) does, after three untimed warm-up runs. */
const PAGE_BENCH = `async ({ tasks, timeoutMs }) => {
  const create = window.webswe.sandboxes.worker;
  async function once(t) {
    const sb = await create(t.files, { timeoutMs });
    try {
      const t0 = performance.now();
      await sb.applyPatch(t.patch);
      const run = await sb.runTests(t.test_files);
      const ms = performance.now() - t0;
      const passed = new Set(run.tests.filter((x) => x.status === 'pass').map((x) => x.fullName));
      return { ms, ok: t.names.every((n) => passed.has(n)) };
    } finally {
      await sb.dispose();
    }
  }
  for (const t of tasks.slice(0, 3)) await once(t);
  const samples = [];
  let failed = 0;
  for (const t of tasks) {
    const r = await once(t);
    samples.push(r.ms);
    if (!r.ok) failed++;
  }
  return { samples, failed };
}`;

/** The worker sandbox in headless Chromium: build the app, serve it, time the runs in the page. */
async function benchWorkerInChromium(tasks: Task[], o: Options): Promise<{ samples: number[]; failed: number } | string> {
  if (noBrowserReason) return noBrowserReason;
  let vite: typeof import('vite');
  try {
    await import('playwright-core');
    vite = await import('vite');
  } catch (e) {
    return `playwright-core or vite is not installed (${(e as Error).message}); they are dev dependencies: npm install`;
  }
  const outDir = await mkdtemp(join(tmpdir(), 'webswe-bench-app-'));
  o.log('bench sandbox: building the app for Chromium');
  await vite.build({ root: ROOT, configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await vite.preview({ root: ROOT, configFile: join(ROOT, 'vite.config.ts'), build: { outDir }, preview: { port: 0, host: '127.0.0.1', open: false } });
  const addr = server.httpServer.address();
  const browser = await launchChromium();
  try {
    if (!addr || typeof addr === 'string') throw new Error('the preview server has no port');
    const page = await browser.newPage();
    await page.goto(`http://localhost:${addr.port}/`);
    await page.waitForFunction(() => (window as unknown as { webswe?: { sandboxes?: unknown } }).webswe?.sandboxes);
    o.log(`bench sandbox: worker sandbox in Chromium, ${tasks.length} tasks`);
    const slim = tasks.map((t) => ({ files: t.files, patch: t.patch, test_files: t.test_files, names: [...t.FAIL_TO_PASS, ...t.PASS_TO_PASS] }));
    // A string, not a function: tsx's transform would add helpers the page does not have.
    return (await page.evaluate(`(${PAGE_BENCH})(${JSON.stringify({ tasks: slim, timeoutMs: o.timeoutMs })})`)) as { samples: number[]; failed: number };
  } finally {
    await browser.close();
    await server.close();
    await rm(outDir, { recursive: true, force: true });
  }
}

/** The bench over `o.tasks` tasks sampled from `all` (the file `o.file`, read by the caller). */
export async function runSandboxBench(o: Options, all: readonly Task[]): Promise<{ results: SandboxBenchRow[]; tasks: string[]; file: string }> {
  const tasks = sampleTasks([...all], o.tasks);
  const shape = `${tasks.length} tasks: apply the gold patch, run the tests`;
  const peers = await benchPlainNode(tasks, o);
  const peer = peers[0]!;
  const withPeer = (r: SandboxBenchRow, kind: string): SandboxBenchRow => ({
    ...r,
    peer: peer.name,
    peer_ms: peer.ms,
    ratio: r.ms / peer.ms,
    target_ms: SANDBOX_TARGET_MS[kind]!,
    meets_target: r.ms < SANDBOX_TARGET_MS[kind]!,
  });
  o.log(`bench sandbox: node sandbox, ${tasks.length} tasks`);
  const node = await benchSandbox(createNodeSandbox, tasks, { timeoutMs: o.timeoutMs, warmup: 2, onProgress: (d) => o.log(`bench sandbox: node sandbox ${d}/${tasks.length}`) });
  const results = [withPeer(row('node sandbox', shape, node.samples, { failed_checks: node.failed }), 'node'), ...peers];
  // The worker sandbox under Node (the trainer's): a confined runner process a sandbox, started from the
  // runner's startup snapshot or with the runner module sent on stdin (what it did before the snapshot).
  for (const prefer of ['snapshot', 'module'] as const) {
    o.log(`bench sandbox: worker sandbox under node (${prefer}), ${tasks.length} tasks`);
    const w = await benchSandbox((files, opts) => createNodeWorkerSandbox(files, { clock: 'cpu', ...opts }, prefer), tasks, { timeoutMs: o.timeoutMs, warmup: 2 });
    results.push(withPeer(row(`worker sandbox (node, runner from ${prefer === 'snapshot' ? 'snapshot' : 'stdin'})`, shape, w.samples, { failed_checks: w.failed }), 'worker-node'));
  }
  const worker = o.browser ? await benchWorkerInChromium(tasks, o) : 'skipped (--no-browser)';
  if (typeof worker === 'string') results.push({ name: 'worker sandbox (chromium)', shape, ms: NaN, p95_ms: NaN, samples: 0, target_ms: SANDBOX_TARGET_MS.worker!, not_measured: worker });
  else results.push(withPeer(row('worker sandbox (chromium)', shape, worker.samples, { failed_checks: worker.failed }), 'worker'));
  return { results, tasks: tasks.map((t) => t.instance_id), file: o.file };
}
