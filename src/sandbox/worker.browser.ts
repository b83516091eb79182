// The worker sandbox in a browser page (or a dedicated worker): a SandboxFactory whose runs go to a module
// Worker of their sandbox (src/sandbox/worker/runner.worker.ts), kept between its runs (RunnerPool), with
// one fresh Worker kept spawned ahead so a sandbox's first run does not wait for a Worker to start, and the
// Workers of closed sandboxes reused by later ones when their realm is unchanged (worker/released.ts, reuse.ts).
// Worker.terminate() ends a runaway test at the time limit.
// The built runner script is fetched once and Workers start from a blob: URL of it: no request per
// run, and no revalidation (Vite's preview server answers 304s without the COEP header, and Chromium
// then refuses the Worker script now and then: net::ERR_BLOCKED_BY_RESPONSE). A Worker that still
// fails before its job starts is replaced, after a pause, and the job sent again.
// At most MAX_LIVE runner Workers run jobs at once; later jobs wait in a queue (the host is told with
// 'queued' and 'started' events, and its wall-time limit runs from 'started'): an evaluation's 64
// episodes otherwise start 64+ Workers, each a V8 isolate of its own. (What crashed the tab was not
// their number but a runaway loop's allocations: RunJob.loopBudget.)
import runnerUrl from './worker/runner.worker.ts?worker&url';
import { ReleasedRunners } from './worker/released.ts';
import { WorkerSandbox } from './worker/sandbox.ts';
import type { RunJob, RunnerEvent, RunnerPort } from './worker/protocol.ts';
import type { SandboxFactory } from './types.ts';

/** Pauses before each further fresh Worker when one fails before the job's first event (ms). */
const RETRY_DELAYS_MS = [100, 500, 2000];

/** Where Workers load the runner from: a blob: URL of the built script (the script's URL in dev). */
let scriptUrl: Promise<string> | null = null;
const runnerScript = () =>
  (scriptUrl ??= import.meta.env.DEV
    ? Promise.resolve(runnerUrl)
    : fetch(runnerUrl)
        .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status}`))))
        .then((text) => URL.createObjectURL(new Blob([text], { type: 'text/javascript' })))
        .catch(() => runnerUrl));

interface Spawned {
  worker: Worker;
  /** Jobs posted to it. */
  jobs: number;
  /** It served a sandbox that is closed: its next job checks its realm first (RunJob.verify). */
  used?: boolean;
  /** Set when the Worker failed before it ran a job (its script did not load). */
  failed?: string;
  /** Called on that failure once a job is waiting for it. */
  onFail?: (message: string) => void;
}

function spawn(url: string): Spawned {
  const worker = new Worker(url, { type: 'module', name: 'webswe-sandbox-runner' });
  const s: Spawned = { worker, jobs: 0 };
  worker.onerror = (e) => {
    // Errors inside a job are handled in the Worker; one that reaches here means the runner itself failed.
    e.preventDefault();
    s.failed = e.message || 'the runner script did not load';
    s.onFail?.(s.failed);
  };
  return s;
}

/** Runner Workers running jobs at once: one per core, 2 to 8 (a job is 2-36 ms of CPU; more at once only
 *  adds isolates). The spare Worker waiting for the next job is not counted. */
export const MAX_LIVE = Math.max(2, Math.min(8, (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) || 4));

let live = 0;
const waiting: Array<() => void> = [];
/** Resolves when a slot is free (at once when one is); the caller must call the returned release once. */
function slot(): Promise<() => void> | (() => void) {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    live--;
    const next = waiting.shift();
    if (next) next();
  };
  if (live < MAX_LIVE) {
    live++;
    return release;
  }
  return new Promise((resolve) =>
    waiting.push(() => {
      live++;
      resolve(release);
    }),
  );
}

let spare: Spawned | null = null;
/** The spare Worker (unless it failed to load), with a new spare spawned behind it. */
function take(url: string): Spawned {
  let s = spare;
  if (!s || s.failed !== undefined) {
    s?.worker.terminate();
    s = spawn(url);
  }
  spare = spawn(url);
  return s;
}

/** Workers of closed sandboxes whose runs all ended on their own (no limit, no failure), waiting for another
 *  sandbox (released.ts): it takes one before the spare, and the Worker checks its realm before that sandbox's first
 *  job (runner.worker.ts, reuse.ts: a Worker whose runs changed anything answers 'dirty' and is ended, the job going
 *  to a fresh one). */
const released = new ReleasedRunners<Spawned>({ jobs: (s) => s.jobs, alive: (s) => s.failed === undefined, end: (s) => s.worker.terminate() });

/** Idle Workers kept across all sandboxes at most (each is a V8 isolate: an evaluation's ~100 episodes at
 *  once would otherwise keep ~100); past it a run's Worker ends with the run, as before the pools. */
export const MAX_IDLE = 32;
let idleCount = 0;

/**
 * The runner Workers of one sandbox (one episode): one Worker serves its runs one after another and is kept
 * between them (runner.worker.ts), so an episode pays one Worker start, not one a run (~25-40 ms of the
 * browser's serialized time each). A run cut off (time limit, loop limit, a stop)
 * ends its Worker, and the next run takes a fresh one. At most MAX_LIVE Workers run jobs at once (a kept
 * Worker waits for a slot like a new one). What is weaker than a Worker per run: runs of one episode share a
 * Worker, so code that escapes the runner's shims can change what later runs of the same episode report, as
 * under the Node host (worker-node.node.ts); never another episode's and never a reward: a closed sandbox's Worker
 * serves another only after it checked that its realm is as it started (every object reachable from its locked
 * down global: realm.ts) and that nothing of the runs can still run (no timer, import or error after a run's end),
 * else it is ended; grading makes a sandbox of its own, and the run cache keeps only a sandbox's first run
 * (Sandbox.sharedProcess).
 */
export class RunnerPool {
  private idle: Spawned | null = null;
  private closed = false;

  port(): RunnerPort {
    let current: Spawned | null = null;
    let over = false;
    /** The job's 'exit' arrived: its Worker is kept (or ended), never cut off by terminate(). */
    let ended = false;
    let release: (() => void) | null = null;
    const begin = async (job: RunJob, onEvent: (e: RunnerEvent) => void): Promise<void> => {
      const got = slot();
      if (got instanceof Promise) {
        onEvent({ type: 'queued' });
        release = await got;
        if (over) return release();
        onEvent({ type: 'started' });
      } else release = got;
      await run(job, onEvent, 1);
    };
    const run = async (job: RunJob, onEvent: (e: RunnerEvent) => void, attempt: number, fresh = false): Promise<void> => {
      const s = this.take(await runnerScript(), fresh);
      if (over || this.closed) return s.worker.terminate();
      current = s;
      const verify = s.used === true;
      s.used = false;
      let started = false;
      let reusable = true;
      const fail = (message: string): void => {
        if (over || current !== s) return;
        s.worker.terminate();
        if (!started && attempt <= RETRY_DELAYS_MS.length) {
          setTimeout(() => void (over || run(job, onEvent, attempt + 1)), RETRY_DELAYS_MS[attempt - 1]);
          return;
        }
        onEvent({ type: 'out', stream: 'stderr', text: `the worker sandbox's runner failed${started ? '' : ` (${attempt} Workers in a row)`}: ${message}\n` });
        release?.();
        onEvent({ type: 'exit', code: 1 });
      };
      s.onFail = fail;
      s.worker.onmessage = (e: MessageEvent<RunnerEvent>) => {
        if (e.data.type === 'dirty') {
          // Another sandbox's runs changed its realm: ended, and the job goes to a fresh Worker.
          s.worker.terminate();
          if (!over && current === s) void run(job, onEvent, attempt, true);
          return;
        }
        started = true;
        if (over || current !== s) return;
        if (e.data.type === 'limit') reusable = false; // stopped inside the code: the Worker is not trusted again
        if (e.data.type === 'exit') {
          ended = true;
          release?.();
          if (reusable) this.keep(s);
          else s.worker.terminate();
        }
        onEvent(e.data);
      };
      if (s.failed !== undefined) return fail(s.failed);
      s.jobs++;
      s.worker.postMessage(verify ? { ...job, verify: true } : job);
    };
    return {
      start: (job, onEvent) => void begin(job, onEvent),
      terminate() {
        over = true;
        // After its exit the Worker is kept (or already ended); before it, the job is cut off with it.
        if (!ended) current?.worker.terminate();
        release?.();
      },
    };
  }

  /** The kept Worker, else (unless `fresh`) a released one, else the spare (a fresh one). */
  private take(url: string, fresh: boolean): Spawned {
    const kept = this.idle;
    if (kept) {
      this.idle = null;
      idleCount--;
      if (kept.failed === undefined) return kept;
      kept.worker.terminate(); // it failed while idle
    }
    const r = fresh ? undefined : released.take();
    return r ? Object.assign(r, { used: true }) : take(url);
  }

  /** Keep a Worker whose job ended for the sandbox's next run (one at most, MAX_IDLE in all). */
  private keep(s: Spawned): void {
    s.worker.onmessage = null;
    delete s.onFail;
    if (this.closed || this.idle || idleCount >= MAX_IDLE || s.failed !== undefined) return s.worker.terminate();
    this.idle = s;
    idleCount++;
  }

  /** Its idle Worker goes to the released ones (for another sandbox, after a check) or is ended. */
  close(): void {
    this.closed = true;
    const s = this.idle;
    if (!s) return;
    this.idle = null;
    idleCount--;
    released.put(s);
  }
}

/** The worker sandbox: an in-memory repository whose commands run in a dedicated Worker (one kept per sandbox). */
export const createWorkerSandbox: SandboxFactory = (files, options = {}) => {
  const pool = new RunnerPool();
  return WorkerSandbox.create(files, options, () => pool.port(), { sharedProcess: true, close: () => pool.close() });
};
