// The worker sandbox (host side): the repository is an in-memory file map; each test file or command
// runs in a fresh runner (a dedicated Worker in browsers: see ../worker.browser.ts) that streams its
// results; at the time limit the runner is terminated and the results so far are kept, with the test
// that was running. Same paths, commands, output cap, report and results as the node sandbox.
// Core code: no DOM, no Node; the runners come from a RunnerFactory.
import { applyDiffTo, makeDiff } from '../patch.ts';
import {
  formatTestReport,
  isTestFile,
  resolveRepoPath,
  SANDBOX_DEFAULTS,
  type FileMap,
  type RunOptions,
  type RunResult,
  type Sandbox,
  type SandboxOptions,
  type TestResult,
} from '../types.ts';
import { CappedText, parseNodeCommand, runTestFiles } from '../runs.ts';
import { deadline } from '../../deadline.ts';
import type { RunJob, RunnerFactory } from './protocol.ts';

/** The shortest wall-clock limit a run gets where CPU time cannot be measured (a browser): below it, a Worker
 *  started on a loaded machine, not the code, would decide the verdict (a level-0 run takes 2-36 ms of CPU;
 *  the `micro` preset's 250 ms limit is CPU time under Node). */
export const MIN_WALL_LIMIT_MS = 1000;

/** Under a CPU clock (the Node host), how long a run may wait for its runner process to start before it is
 *  reported as killed: a backstop for a process that never boots, not a limit on the code (below the episode
 *  loop's own guard, abandonAfterMs: 10× the limit + 30 s). */
export const RUNNER_START_LIMIT_MS = 20_000;

/** Loop iterations a run may take where CPU time cannot be measured (RunJob.loopBudget): every bundled
 *  task's base and fixed runs pass at a tenth of it (200,000; docs/architecture.md "Sandboxes"), and a runaway
 *  loop that allocates at each iteration stops at tens of MB, not at the wall limit's GBs (a V8
 *  out-of-memory in a Worker crashes the tab). */
export const LOOP_BUDGET = 2_000_000;

/** What the host of the runners can do beyond a Worker (the Node host: ../worker-node.node.ts). */
export interface RunnerHostTraits {
  /** The runners stop a run at its CPU time limit (SandboxOptions.clock 'cpu'); wall time then stops it at 10×. */
  cpuClock?: boolean;
  /** Iterations RunJob.loopBudget allows where there is no CPU clock (default LOOP_BUDGET). */
  loopBudget?: number;
  /** Runs of one sandbox share a process: only a sandbox's first run is known untouched by earlier runs. */
  sharedProcess?: boolean;
  /** Called once at dispose (the Node host ends its processes). */
  close?(): void;
}

export class WorkerSandbox implements Sandbox {
  readonly kind = 'worker';
  private disposed = false;
  private base: FileMap = {};
  private files = new Map<string, string>();
  private readonly live = new Set<{ terminate(): void }>();
  /** Runs share one process (Sandbox.sharedProcess). */
  readonly sharedProcess: boolean;

  private constructor(
    private readonly opts: Required<SandboxOptions>,
    private readonly runners: RunnerFactory,
    private readonly traits: RunnerHostTraits,
  ) {
    this.sharedProcess = traits.sharedProcess ?? false;
  }

  /** In a browser `memoryMb` is not enforced (a Worker's heap cannot be capped; the time limit still ends
   *  it) and `clock` is wall time; the Node host caps the heap and measures CPU time (traits.cpuClock). */
  static async create(files: FileMap, options: SandboxOptions, runners: RunnerFactory, traits: RunnerHostTraits = {}): Promise<WorkerSandbox> {
    const sb = new WorkerSandbox({ ...SANDBOX_DEFAULTS, ...options }, runners, traits);
    await sb.reset(files);
    return sb;
  }

  private resolve(path: string, allowRoot = false): string {
    if (this.disposed) throw new Error('this sandbox was disposed');
    return resolveRepoPath(path, allowRoot);
  }

  private isFolder(rel: string): boolean {
    for (const p of this.files.keys()) if (p.startsWith(`${rel}/`)) return true;
    return false;
  }

  async readFile(path: string): Promise<string> {
    const rel = this.resolve(path);
    const text = this.files.get(rel);
    if (text !== undefined) return text;
    if (this.isFolder(rel)) throw new Error(`${rel} is a folder, not a file`);
    throw new Error(`no such file in the repository: ${rel}`);
  }

  async writeFile(path: string, text: string): Promise<void> {
    const rel = this.resolve(path);
    if (this.isFolder(rel)) throw new Error(`${rel} is a folder, not a file`);
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (this.files.has(dir)) throw new Error(`${dir} is a file, not a folder`);
    }
    this.files.set(rel, String(text));
  }

  async deleteFile(path: string): Promise<void> {
    const rel = this.resolve(path);
    if (this.files.delete(rel)) return;
    if (this.isFolder(rel)) throw new Error(`${rel} is a folder, not a file`);
    throw new Error(`no such file in the repository: ${rel}`);
  }

  async listFiles(dir = ''): Promise<string[]> {
    const rel = this.resolve(dir, true);
    if (rel === '') return [...this.files.keys()].sort();
    if (this.files.has(rel)) throw new Error(`${rel} is a file, not a folder`);
    const out = [...this.files.keys()].filter((p) => p.startsWith(`${rel}/`));
    if (out.length === 0) throw new Error(`no such folder in the repository: ${rel}`);
    return out.sort();
  }

  async applyPatch(diff: string): Promise<{ changed: string[] }> {
    if (this.disposed) throw new Error('this sandbox was disposed');
    return applyDiffTo(
      {
        tryRead: async (p) => this.files.get(this.resolve(p)) ?? null,
        writeFile: (p, t) => this.writeFile(p, t),
        deleteFile: (p) => this.deleteFile(p),
      },
      diff,
    );
  }

  async runTests(files: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    const limitMs = options.timeoutMs ?? this.opts.timeoutMs;
    // Wall time is shared by the files; CPU time (the Node host) is each file's own, as in the node sandbox.
    const shareLimit = !(this.opts.clock === 'cpu' && this.traits.cpuClock === true);
    return runTestFiles(files, options, { limitMs, outputLimit: this.opts.outputLimit, shareLimit }, (f) => this.resolve(f), (rel, left, namePattern) =>
      this.run([rel], left, { file: rel, limitMs, ...(namePattern !== undefined ? { namePattern } : {}) }));
  }

  async exec(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    const c = parseNodeCommand(argv);
    if (c.kind === 'tests') return this.runTests(c.files ?? (await this.listFiles()).filter(isTestFile), options);
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs;
    if (c.kind === 'eval') return this.run(c.args, timeoutMs);
    return this.run([this.resolve(c.script), ...c.args], timeoutMs);
  }

  /** One runner for `node ARGS`: events in, the result out; terminated at the limit. */
  private run(argv: string[], timeoutMs: number, extra: { file?: string; limitMs?: number; namePattern?: string } = {}): Promise<RunResult> {
    if (this.disposed) throw new Error('this sandbox was disposed');
    let started = performance.now();
    const out = new CappedText(this.opts.outputLimit);
    const tests: TestResult[] = [];
    let running: string[] | undefined;
    let sawTests = false;
    // The CPU clock (the Node host): the runner stops the run at timeoutMs of CPU time, wall time at 10× it.
    const cpu = this.opts.clock === 'cpu' && this.traits.cpuClock === true;
    const job: RunJob = { files: Object.fromEntries(this.files), argv, ...(extra.namePattern !== undefined ? { namePattern: extra.namePattern } : {}) };
    // Without a CPU clock (a browser) a loop budget stops runaway loops before they allocate the tab to death.
    if (this.traits.cpuClock !== true) job.loopBudget = this.traits.loopBudget ?? LOOP_BUDGET;
    return new Promise((resolve, reject) => {
      let port: ReturnType<RunnerFactory>;
      let settled = false;
      const finish = (code: number | null, timedOut: boolean, over?: 'cpu' | 'loops') => {
        if (settled) return;
        settled = true;
        disarm();
        port?.terminate();
        this.live.delete(port);
        const limit = Math.round(extra.limitMs ?? timeoutMs);
        if (timedOut) {
          out.push(
            over === 'cpu'
              ? `\n[killed: the CPU time limit of ${limit} ms was reached]\n`
              : over === 'loops'
                ? `\n[killed: the loop limit of ${job.loopBudget} iterations was reached (the time limit where CPU time cannot be measured)]\n`
                : `\n[killed: the time limit of ${cpu ? 10 * limit : Math.max(limit, MIN_WALL_LIMIT_MS)} ms was reached]\n`,
          );
        }
        const last = running?.join(' > ');
        const hung = timedOut && last !== undefined && !tests.some((t) => t.fullName === last) ? last : undefined;
        const result: RunResult = {
          tests,
          output: out.text() + (sawTests ? formatTestReport(tests, hung) : ''),
          exitCode: timedOut ? null : code,
          timedOut,
          truncated: out.dropped > 0,
          durationMs: performance.now() - started,
        };
        if (hung !== undefined) result.running = hung;
        resolve(result);
      };
      // The wall limit (../../deadline.ts): a runner's end that arrived while this thread was busy
      // (generating for other episodes) is read first, instead of a finished run being reported as killed.
      const arm = (ms = cpu ? 10 * timeoutMs : Math.max(timeoutMs, MIN_WALL_LIMIT_MS)) => deadline(ms, () => finish(null, true));
      let disarm = arm();
      try {
        port = this.runners();
        this.live.add(port);
        port.start(job, (e) => {
          if (settled) return;
          if (e.type === 'queued') {
            // Waiting for a runner (a capped browser host's queue, or a Node host's process starting) is not
            // the code's time. Under a CPU clock a runner that never starts is still stopped, far above any
            // start seen (a node start under load takes a second or two).
            disarm();
            if (cpu) disarm = arm(RUNNER_START_LIMIT_MS);
          } else if (e.type === 'started') {
            // Waiting for a runner is not the code's time: the limit and the duration run from here.
            disarm();
            disarm = arm();
            started = performance.now();
          } else if (e.type === 'limit') finish(null, true, e.clock);
          else if (e.type === 'out') out.push(e.text);
          else if (e.type === 'running') {
            sawTests = true;
            running = e.path;
          } else if (e.type === 'result') {
            sawTests = true;
            const t: TestResult = { fullName: e.path.join(' > '), status: e.status };
            if (e.message !== undefined) t.message = e.message;
            t.durationMs = e.ms;
            if (extra.file) t.file = extra.file;
            tests.push(t);
          } else if (e.type === 'exit') finish(e.code, false);
        }, cpu ? { cpuMs: timeoutMs } : undefined);
      } catch (e) {
        settled = true;
        disarm();
        reject(new Error(`could not start the worker sandbox's runner: ${(e as Error).message}`));
      }
    });
  }

  async diff(): Promise<string> {
    if (this.disposed) throw new Error('this sandbox was disposed');
    return makeDiff(this.base, Object.fromEntries(this.files));
  }

  async reset(files?: FileMap): Promise<void> {
    if (this.disposed) throw new Error('this sandbox was disposed');
    if (files) {
      for (const p of Object.keys(files)) if (resolveRepoPath(p) !== p) throw new Error(`file map path "${p}" is not in normal form; write "${resolveRepoPath(p)}"`);
      this.base = { ...files };
    }
    this.files = new Map(Object.entries(this.base));
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const p of this.live) p.terminate();
    this.live.clear();
    this.traits.close?.();
  }
}

export const createWorkerSandboxWith =
  (runners: RunnerFactory) =>
  (files: FileMap, options: SandboxOptions = {}): Promise<Sandbox> =>
    WorkerSandbox.create(files, options, runners);
