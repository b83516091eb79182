// One runner serving many jobs, one after another: a confined node process (runner-serve.ts) or a browser
// Worker (runner.worker.ts), each serving one sandbox (one episode). Each job is run by runner.ts; between
// jobs the globals a job may replace (console, process, the timer functions) are put back and every timer it
// left is cleared, as a runner that exits leaves none. Modules are never shared: each job imports the
// repository's modules from URLs of its own. Errors nothing caught go to the running job's handler.
// Core code: touches only globalThis, read when serveJobs runs (not when this module loads: node's
// startup snapshot loads it before the process's globals exist).
import type { RunJob } from './protocol.ts';
import { runJob, type RunnerHost } from './runner.ts';

type Timer = (cb: (...a: unknown[]) => void, ms?: number, ...a: unknown[]) => unknown;
type G = Record<string, unknown> & { setTimeout: Timer; setInterval: Timer; clearTimeout(id: unknown): void; clearInterval(id: unknown): void };

export interface JobQueue {
  /** Queue a job; it runs when the jobs before it are over. */
  push(job: RunJob): void;
  /** An error nothing caught (a process's uncaughtException, a Worker's 'error' event): the running job's. */
  uncaught(e: unknown): void;
}

export function serveJobs(host: Omit<RunnerHost, 'onUncaught'>): JobQueue {
  const g = globalThis as unknown as G;
  const saved = { console: g.console, process: g.process };
  // The originals are put back; calls name their `this` (a browser's timer functions refuse another one).
  const base = { setTimeout: g.setTimeout, setInterval: g.setInterval, clearTimeout: g.clearTimeout, clearInterval: g.clearInterval };

  // Every timer a job starts is known, so none outlives it.
  const timeouts = new Set<unknown>(), intervals = new Set<unknown>();
  const track = () => {
    g.setTimeout = (cb, ms, ...a) => {
      const id = base.setTimeout.call(g, (...x: unknown[]) => {
        timeouts.delete(id);
        cb(...x);
      }, ms, ...a);
      timeouts.add(id);
      return id;
    };
    g.setInterval = (cb, ms, ...a) => {
      const id = base.setInterval.call(g, cb, ms, ...a);
      intervals.add(id);
      return id;
    };
    g.clearTimeout = (id) => (timeouts.delete(id), base.clearTimeout.call(g, id));
    g.clearInterval = (id) => (intervals.delete(id), base.clearInterval.call(g, id));
  };
  const untrack = () => {
    for (const id of timeouts) base.clearTimeout.call(g, id);
    for (const id of intervals) base.clearInterval.call(g, id);
    timeouts.clear();
    intervals.clear();
    Object.assign(g, base, saved);
  };

  let handler: ((e: unknown) => void) | undefined;
  const queue: RunJob[] = [];
  let busy = false;
  async function drain(): Promise<void> {
    if (busy) return;
    busy = true;
    while (queue.length) {
      const job = queue.shift()!;
      track();
      try {
        await runJob(job, { ...host, onUncaught: (h) => (handler = h) });
      } finally {
        handler = undefined;
        untrack();
      }
    }
    busy = false;
  }
  return {
    push(job) {
      queue.push(job);
      void drain();
    },
    uncaught: (e) => handler?.(e),
  };
}
