// The worker sandbox under Node: the browser's worker sandbox (an in-memory repository, node:test and
// node:assert as runner.ts emulates them) whose runs go to a confined `node` process instead of a Web
// Worker. One process serves one sandbox (one episode) at a time and runs its jobs one after another, each with
// fresh module instances; it starts at the sandbox's first run, not before, and a job that reaches its
// limit ends the process (the next run starts another). A test run then costs the module loads (~5-10 ms)
// instead of a node start (~85 ms a run in the node sandbox), which is most of a short episode's time.
// A closed sandbox's process serves a later sandbox when its runner finds its realm as it started (reuse.ts;
// `verify` on that sandbox's first job, 'dirty' → the job goes to a fresh process): a node start is ~50-75 ms of
// CPU and an episode needed two, its own and its grading's.
// A process starts from node's startup snapshot of the runner where node can build one (runnerLaunch: the
// runner compiled and loaded once, ~25 ms of CPU less a process), else from the runner module sent on stdin.
//
// Confinement: code generation from strings refused, so the code under test runs only as the loader's rewritten
// modules and reaches nothing of node's past the runner (runner-serve.ts: no node: module, no real process to
// write the runner's events with); Node's permission model with no path allowed at all (the runner's code
// arrives on stdin or in the snapshot node reads before it runs any code, kept in a private 0700 temporary
// directory; the repository's files inside each job), so neither the filesystem nor child processes nor workers
// are reachable; a heap cap; a stripped environment; its own process group, killed as a whole. What is weaker
// than the node sandbox's process per run: runs of one episode share the process, so what a run leaves in the
// realm can change what later runs of the same episode report. Never another episode's (a process serves another
// sandbox only with its realm unchanged) and never a reward: grading makes a sandbox of its own, whose first run
// is in a fresh or checked process, and the run cache keeps only a sandbox's first run (src/sandbox/run-cache.ts).
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './node-run.node.ts';
import { spawner, type RemoteProcess } from './spawner.node.ts';
import { SANDBOX_DEFAULTS, type FileMap, type Sandbox, type SandboxOptions } from './types.ts';
import type { RunJob, RunnerEvent, RunnerPort } from './worker/protocol.ts';
import { ReleasedRunners } from './worker/released.ts';
import { WorkerSandbox } from './worker/sandbox.ts';

const ENTRY = fileURLToPath(new URL('./worker/runner-process.node.ts', import.meta.url));
const SNAPSHOT_ENTRY = fileURLToPath(new URL('./worker/runner-snapshot.node.ts', import.meta.url));
/** The runner prebuilt beside this module (the portable bundle: scripts/bundle-node.mjs writes them). */
const PREBUILT = fileURLToPath(new URL('./worker-runner.js', import.meta.url));
const PREBUILT_SNAPSHOT = fileURLToPath(new URL('./worker-runner-snapshot.cjs', import.meta.url));
const CPU_POLL_MS = 25;

/** An entry module and what it imports as one file: the prebuilt one beside this module, else esbuild's. */
const bundled = (prebuilt: string, entry: string, format: 'esm' | 'cjs'): Promise<string> =>
  readFile(prebuilt, 'utf8').catch(() =>
    import('esbuild')
      .then((esbuild) => esbuild.build({ entryPoints: [entry], bundle: true, format, platform: 'node', target: 'node20', minify: true, write: false, logLevel: 'silent' }))
      .then((r) => r.outputFiles[0]!.text),
  );

/** runner-process.node.ts and what it imports, as one ES module (esbuild, once a process; or prebuilt), base64. */
let bundle: Promise<string> | null = null;
export function runnerBundle(): Promise<string> {
  return (bundle ??= bundled(PREBUILT, ENTRY, 'esm')
    .then((text) => Buffer.from(text).toString('base64'))
    .catch((e: Error) => {
      bundle = null;
      throw new Error(`could not build the worker sandbox's runner (${ENTRY}): ${e.message}`);
    }));
}

/** What `node -e` runs: read one line (the runner module, base64), hand the rest of stdin back, import it (the
 *  runner resumes stdin; `process` is off the global by then). A block: a script's top-level `const` is a global
 *  binding every later module would see (`p`, the real process, as a free name in a test). */
const BOOT =
  "{const p=process,B=Buffer,c=[];p.stdin.on('data',function f(b){c.push(b);const s=B.concat(c);const i=s.indexOf(10);if(i<0)return;" +
  "p.stdin.off('data',f);p.stdin.pause();const r=s.subarray(i+1);if(r.length)p.stdin.unshift(r);" +
  "import('data:text/javascript;base64,'+s.subarray(0,i).toString())})}";

/** Node 20 spells it --experimental-permission; Node 22.13+ made it --permission. */
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';

/** What V8 itself is told (a startup snapshot is built with them too): code generation from strings refused, so
 *  the code under test cannot write an import the loader did not rewrite (runner-serve.ts); a heap cap. */
const v8Flags = (memoryMb: number): string[] => ['--disallow-code-generation-from-strings', `--max-old-space-size=${memoryMb}`];
/** The confinement every runner process starts with: the permission model with nothing allowed, V8's flags. */
export const confinedArgs = (memoryMb: number): string[] => ['--disable-warning=ExperimentalWarning', PERMISSION_FLAG, ...v8Flags(memoryMb)];
export const runnerArgs = (memoryMb: number): string[] => [...confinedArgs(memoryMb), '-e', BOOT];
export const RUNNER_ENV = { HOME: '/', LANG: 'C.UTF-8', TZ: 'UTC', NO_COLOR: '1' };

/** How a runner process starts: node's arguments, and the runner module to send first on stdin (none when
 *  node starts from the runner's snapshot). */
export interface RunnerLaunch {
  args: string[];
  code: string | null;
  /** 'snapshot' or 'module' (what the process loads the runner from). */
  from: 'snapshot' | 'module';
}

/** Where this process keeps its snapshots: a private directory (mkdtemp: 0700) removed at exit. */
let snapshotDir: Promise<string> | null = null;
const privateDir = () =>
  (snapshotDir ??= mkdtemp(join(tmpdir(), 'webswe-runner-')).then((dir) => {
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }));

const run = (args: string[], input?: string) =>
  new Promise<{ out: string; err: string }>((resolve, reject) => {
    const p = execFile(process.execPath, args, { env: RUNNER_ENV, timeout: 30_000, maxBuffer: 1 << 20 }, (e, out, err) => (e ? reject(new Error(`${e.message}${err ? `: ${err.trim()}` : ''}`)) : resolve({ out, err })));
    p.stdin?.end(input ?? '');
  });

/** The runner's startup snapshot for a heap cap (V8 takes a snapshot only with the flags it was built
 *  with), built once a process from runner-snapshot.node.ts and checked: a process started from it, as
 *  confined as every runner, must say it is ready and run a job. Null where node cannot (then the module). */
async function buildSnapshot(memoryMb: number): Promise<string | null> {
  if (process.env.WEBSWE_RUNNER_SNAPSHOT === '0') return null;
  try {
    const source = await bundled(PREBUILT_SNAPSHOT, SNAPSHOT_ENTRY, 'cjs');
    const dir = await privateDir();
    const entry = join(dir, 'runner-snapshot.cjs'), blob = join(dir, `runner-${memoryMb}.blob`);
    await writeFile(entry, source, { mode: 0o600 });
    await run(['--disable-warning=ExperimentalWarning', ...v8Flags(memoryMb), '--snapshot-blob', blob, '--build-snapshot', entry]);
    // A module that imports another, as a job's modules do (a snapshot without dynamic import fails here).
    const job: RunJob = { files: { 'a.mjs': "console.log((await import('./b.mjs')).default);", 'b.mjs': "export default 'webswe-runner-ok';" }, argv: ['a.mjs'] };
    const { out, err } = await run(['--snapshot-blob', blob, ...confinedArgs(memoryMb)], `${JSON.stringify(job)}\n`);
    // Node's own stderr is a job's stderr: a warning printed there would change what the agent reads.
    return err === '' && out.startsWith('{"ready":true}\n') && out.includes('webswe-runner-ok') && out.includes('{"type":"exit","code":0}') ? blob : null;
  } catch {
    return null;
  }
}

const launches = new Map<string, Promise<RunnerLaunch>>();
/** How this process starts its runners for a heap cap: from the runner's snapshot where node can build one
 *  (~25 ms of CPU less a process: the runner is in the heap node starts from), else — or when `prefer` is
 *  'module', or WEBSWE_RUNNER_SNAPSHOT=0 — `node -e BOOT` with the runner module on stdin. */
export function runnerLaunch(memoryMb: number, prefer: 'snapshot' | 'module' = 'snapshot'): Promise<RunnerLaunch> {
  const key = `${memoryMb}/${prefer}`;
  let l = launches.get(key);
  if (!l) {
    l = (prefer === 'snapshot' ? buildSnapshot(memoryMb) : Promise.resolve(null)).then(async (blob): Promise<RunnerLaunch> =>
      blob ? { args: ['--snapshot-blob', blob, ...confinedArgs(memoryMb)], code: null, from: 'snapshot' } : { args: runnerArgs(memoryMb), code: await runnerBundle(), from: 'module' },
    );
    // A failure to build the module is not kept: the next run tries again.
    l.catch(() => launches.delete(key));
    launches.set(key, l);
  }
  return l;
}

/** One confined runner process and the job it is running. */
class Runner {
  readonly proc: RemoteProcess;
  onEvent: ((e: RunnerEvent) => void) | null = null;
  dead = false;
  /** Jobs written to it. */
  jobs = 0;
  /** It served a sandbox that is closed: its next job checks its realm first (RunJob.verify). */
  used = false;
  private lines = '';

  constructor(launch: RunnerLaunch, onDeath: (r: Runner) => void) {
    this.proc = spawner().spawn(process.execPath, launch.args, { cwd: '/', env: RUNNER_ENV });
    if (launch.code !== null) this.proc.write(`${launch.code}\n`);
    let loaded: () => void = () => undefined;
    this.ready = new Promise((resolve) => (loaded = resolve));
    this.proc.onData = (fd, s) => {
      // Node itself writes to stderr (a fatal out-of-memory error, say): the running job's stderr.
      if (fd === 2) return this.onEvent?.({ type: 'out', stream: 'stderr', text: s });
      const ls = (this.lines + s).split('\n');
      this.lines = ls.pop()!;
      for (const l of ls) {
        let e: RunnerEvent | { ready: true };
        try {
          e = JSON.parse(l) as RunnerEvent | { ready: true };
        } catch {
          continue; // not the runner's
        }
        if ('ready' in e) loaded();
        else this.onEvent?.(e);
      }
    };
    let started: (pid: number | undefined) => void = () => undefined;
    this.pid = new Promise((resolve) => (started = resolve));
    this.proc.onPid = started;
    this.proc.onClose = (code, signal, error) => {
      started(undefined);
      loaded();
      if (error !== undefined) this.onEvent?.({ type: 'out', stream: 'stderr', text: `could not start node for the worker sandbox: ${error}\n` });
      if (this.dead) return;
      this.dead = true;
      const on = this.onEvent;
      this.onEvent = null;
      // Stopped at its CPU limit: every line it wrote before the kill has been delivered by now (the spawner
      // relays a process's output before its end), so which tests finished before the limit does not
      // depend on how fast the relay was.
      on?.(this.limited ? { type: 'limit', clock: 'cpu' } : { type: 'exit', code: code ?? (signal === 'SIGABRT' ? 134 : 1) });
      onDeath(this);
    };
  }

  /** Set when it was stopped at a job's CPU limit (its end is then reported as the limit). */
  private limited = false;

  /** Kill it at a job's CPU limit; the job's end comes once its output is in. */
  stopAtLimit(): void {
    this.limited = true;
    this.proc.kill();
  }

  /** Its pid once the spawner has started it (undefined if it never started). */
  readonly pid: Promise<number | undefined>;
  /** Resolves once the runner module has loaded (or the process ended): jobs go in after it, so a job's
   *  CPU time starts there and not with node's own start. */
  readonly ready: Promise<void>;

  kill(): void {
    this.dead = true;
    this.onEvent = null;
    this.proc.kill();
  }
}

/** Processes of closed sandboxes, by launch (heap cap and how they start), for the next sandboxes (released.ts):
 *  each serves another sandbox only after its runner found its realm unchanged (runner-serve.ts, reuse.ts; 'dirty' →
 *  the job goes to a fresh process). A shelved process is ~40 MB of memory and no CPU, and does not keep a finished
 *  command waiting (nor does the shelf's sweep): they end with the spawner. */
const shelves = new Map<string, ReleasedRunners<Runner>>();
const shelf = (key: string): ReleasedRunners<Runner> => {
  let s = shelves.get(key);
  if (!s) {
    s = new ReleasedRunners<Runner>({
      jobs: (r) => r.jobs,
      alive: (r) => !r.dead,
      end: (r) => r.kill(),
      shelved: (r, on) => r.proc.setHolds(!on),
      unref: (t) => void t.unref(),
    });
    shelves.set(key, s);
  }
  return s;
};

/** The runner processes of one sandbox: one idle process is kept for its next run; its first comes from the
 *  released processes of closed sandboxes where one is free, and goes back there when the sandbox closes. */
export class RunnerPool {
  private idle: Runner | null = null;
  private readonly live = new Set<Runner>();
  /** Processes started so far, and released ones taken (tests read them). */
  started = 0;
  reused = 0;
  closed = false;
  private readonly key: string;

  /** `prefer`: runnerLaunch's (a test compares the two). */
  constructor(
    private readonly memoryMb: number,
    private readonly prefer: 'snapshot' | 'module' = 'snapshot',
  ) {
    this.key = `${memoryMb}/${prefer}`;
  }

  /** A RunnerPort for one job. limits.cpuMs: stop it when its process has used that much CPU time. */
  port(): RunnerPort {
    let runner: Runner | null = null;
    let over = false;
    let poll: ReturnType<typeof setInterval> | undefined;
    const end = () => clearInterval(poll);
    return {
      start: (job: RunJob, onEvent: (e: RunnerEvent) => void, limits?: { cpuMs?: number }) => {
        // The job's time limits run from when its code can start ('started', below), not from the node
        // start before it: 32 gradings at once start 32 processes, and on two cores busy generating the
        // last of them took over 2.5 s (10× a 250 ms CPU limit) to boot, so that finished runs were
        // reported as killed.
        onEvent({ type: 'queued' });
        let started = false;
        const send = (launch: RunnerLaunch, fresh: boolean) => {
          if (over || this.closed) return;
          runner = this.take(launch, fresh);
          const r = runner;
          const verify = r.used;
          r.onEvent = (e) => {
            if (e.type === 'dirty') {
              // A released process that is not as it started: ended, and the job runs in a fresh one.
              r.onEvent = null;
              end();
              this.drop(r);
              return send(launch, true);
            }
            r.used = false;
            if (e.type === 'exit' || e.type === 'limit') {
              r.onEvent = null;
              end();
              if (!over && !r.dead) this.idle ??= r; // free for the next run (a second idle one is not kept)
              if (!r.dead && this.idle !== r) this.drop(r);
            }
            onEvent(e);
          };
          void Promise.all([r.pid, r.ready]).then(([pid]) => {
            if (over || r.onEvent === null || runner !== r) return;
            const from = limits?.cpuMs === undefined || pid === undefined ? null : processCpuMs(pid);
            if (from !== null) {
              poll = setInterval(() => {
                const now = processCpuMs(pid!);
                if (now === null || now - from <= limits!.cpuMs!) return;
                end();
                r.stopAtLimit();
              }, CPU_POLL_MS);
            }
            if (!started) onEvent({ type: 'started' });
            started = true;
            r.jobs++;
            r.proc.write(`${JSON.stringify(verify ? { ...job, verify: true } : job)}\n`);
          });
        };
        void runnerLaunch(this.memoryMb, this.prefer).then(
          (launch) => send(launch, false),
          (e: Error) => {
            onEvent({ type: 'out', stream: 'stderr', text: `${e.message}\n` });
            onEvent({ type: 'exit', code: 1 });
          },
        );
      },
      terminate: () => {
        over = true;
        end();
        // After its exit event the process is idle and stays; before it, the job is cut off with it.
        if (runner && runner.onEvent) this.drop(runner);
      },
    };
  }

  /** Have the process of the next run ready now (SandboxOptions.prestart): a released one, else a fresh start. */
  prestart(): void {
    void runnerLaunch(this.memoryMb, this.prefer).then((launch) => {
      if (!this.closed && !this.idle) this.idle = this.take(launch, false);
    }, () => undefined);
  }

  /** The kept process, else (unless `fresh`) a released one, else a new one. */
  private take(launch: RunnerLaunch, fresh: boolean): Runner {
    let r = this.idle && !this.idle.dead ? this.idle : null;
    this.idle = null;
    if (!r && !fresh && (r = shelf(this.key).take() ?? null)) {
      r.used = true;
      this.reused++;
    }
    if (!r) {
      r = new Runner(launch, (d) => this.live.delete(d));
      this.started++;
    }
    this.live.add(r);
    return r;
  }

  private drop(r: Runner): void {
    r.kill();
    this.live.delete(r);
    if (this.idle === r) this.idle = null;
  }

  close(): void {
    this.closed = true;
    const keep = this.idle;
    for (const r of this.live) if (r !== keep) r.kill();
    this.live.clear();
    this.idle = null;
    if (keep) shelf(this.key).put(keep);
  }
}

/** The worker sandbox with its runs in confined node processes (one per sandbox, kept between runs);
 *  `prefer`: how they start (runnerLaunch; the bench measures both). */
export async function createNodeWorkerSandbox(files: FileMap, options: SandboxOptions = {}, prefer: 'snapshot' | 'module' = 'snapshot'): Promise<Sandbox> {
  const pool = new RunnerPool(options.memoryMb ?? SANDBOX_DEFAULTS.memoryMb, prefer);
  if (options.prestart) pool.prestart();
  return WorkerSandbox.create(files, options, () => pool.port(), { cpuClock: true, sharedProcess: true, close: () => pool.close() });
}
