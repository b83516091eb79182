// One runner serving many jobs, one after another: a confined node process (runner-serve.ts) or a browser
// Worker (runner.worker.ts), each serving one sandbox (one episode) at a time. Each job is run by runner.ts;
// between jobs the globals a job may replace (console, process, the timer functions) are put back and every
// timer (and node immediate) it left is cleared, as a runner that exits leaves none. The timer functions count their timers between
// jobs too, so a timer started after its job ended (by a promise chain still running) is seen (pendingTimers):
// a Worker that has one is not handed to another sandbox. Modules are never shared: each job imports the
// repository's modules from URLs of its own. Errors nothing caught go to the running job's handler; one that
// comes with no job running taints the runner (host.taint). Core code: touches only globalThis, read when
// serveJobs runs (not when this module loads: node's startup snapshot loads it before the process's globals exist).
import type { RunJob } from './protocol.ts';
import { runJob, type RunnerHost } from './runner.ts';

type Timer = (cb: (...a: unknown[]) => void, ms?: number, ...a: unknown[]) => unknown;
type G = Record<string, unknown> & { setTimeout: Timer; setInterval: Timer; clearTimeout(id: unknown): void; clearInterval(id: unknown): void };

export interface JobQueue {
  /** Queue a job; it runs when the jobs before it are over. */
  push(job: RunJob): void;
  /** An error nothing caught (a process's uncaughtException, a Worker's 'error' event): the running job's. */
  uncaught(e: unknown): void;
  /** A job is running or waiting. */
  busy(): boolean;
  /** Timers started and not yet fired or cleared (between jobs: started after a job ended). */
  pendingTimers(): number;
}

export function serveJobs(host: Omit<RunnerHost, 'onUncaught'>): JobQueue {
  const g = globalThis as unknown as G;
  const saved = { console: g.console, process: g.process };
  // Calls name their `this` (a browser's timer functions refuse another one).
  const base = { setTimeout: g.setTimeout, setInterval: g.setInterval, clearTimeout: g.clearTimeout, clearInterval: g.clearInterval };

  // Node's immediates (the node runner keeps them: realm.ts NODE_GLOBALS) are counted as timeouts are.
  const immediate = typeof g.setImmediate === 'function' ? { set: g.setImmediate as (cb: (...a: unknown[]) => void, ...a: unknown[]) => unknown, clear: g.clearImmediate as (id: unknown) => void } : null;

  // Every timer a job starts is known, so none outlives it.
  const timeouts = new Set<unknown>(), intervals = new Set<unknown>(), immediates = new Set<unknown>();
  const tracked = {
    setTimeout: (cb: (...a: unknown[]) => void, ms?: number, ...a: unknown[]) => {
      const id = base.setTimeout.call(g, (...x: unknown[]) => {
        timeouts.delete(id);
        cb(...x);
      }, ms, ...a);
      timeouts.add(id);
      return id;
    },
    setInterval: (cb: (...a: unknown[]) => void, ms?: number, ...a: unknown[]) => {
      const id = base.setInterval.call(g, cb, ms, ...a);
      intervals.add(id);
      return id;
    },
    clearTimeout: (id: unknown) => void (timeouts.delete(id), base.clearTimeout.call(g, id)),
    clearInterval: (id: unknown) => void (intervals.delete(id), base.clearInterval.call(g, id)),
    ...(immediate && {
      setImmediate: (cb: (...a: unknown[]) => void, ...a: unknown[]) => {
        const id = immediate.set.call(g, (...x: unknown[]) => {
          immediates.delete(id);
          cb(...x);
        }, ...a);
        immediates.add(id);
        return id;
      },
      clearImmediate: (id: unknown) => void (immediates.delete(id), immediate.clear.call(g, id)),
    }),
  };
  /** Between jobs: no timer left, the globals as they were, the timer functions still counting. */
  const settle = () => {
    for (const id of timeouts) base.clearTimeout.call(g, id);
    for (const id of intervals) base.clearInterval.call(g, id);
    for (const id of immediates) immediate?.clear.call(g, id);
    timeouts.clear();
    intervals.clear();
    immediates.clear();
    Object.assign(g, tracked, saved);
  };
  settle();

  let handler: ((e: unknown) => void) | undefined;
  const queue: RunJob[] = [];
  let busy = false;
  async function drain(): Promise<void> {
    if (busy) return;
    busy = true;
    while (queue.length) {
      const job = queue.shift()!;
      try {
        await runJob(job, { ...host, onUncaught: (h) => (handler = h) });
      } finally {
        handler = undefined;
        settle();
      }
    }
    busy = false;
  }
  return {
    push(job) {
      queue.push(job);
      void drain();
    },
    uncaught: (e) => (handler ? handler(e) : host.taint?.(`an error was thrown after its run ended: ${String(e)}`)),
    busy: () => busy || queue.length > 0,
    pendingTimers: () => timeouts.size + intervals.size + immediates.size,
  };
}
