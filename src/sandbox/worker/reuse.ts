// A runner fit to serve more than one sandbox: serveJobs (job-queue.ts) on a realm locked down to Node's names
// (realm.ts lockdown), hardened (../harden.ts: no run can change what the runner or the tests call) and recorded fresh, and the check a job marked `verify` (the runner served another sandbox
// before) passes first: nothing tainted the runner (a lockdown that failed, an error with no run going, an import
// still loading at a run's end), no run is going, no timer was started after a run ended, and every recorded object
// (the global's graph and the runner's own classes a run can reach, runner.ts RUNNER_SHARED) is as it was. Else the
// runner answers 'dirty' without running the job and its host ends it and runs the job in a fresh runner. Shared by
// the browser's runner Worker (runner.worker.ts) and the node runner process (runner-serve.ts). Core code.
import type { RunJob } from './protocol.ts';
import { serveJobs } from './job-queue.ts';
import { harden, hardenIntrinsics } from '../harden.mjs';
import { changed, KEPT_GLOBALS, lockdown, PER_JOB_GLOBALS, snapshot } from './realm.ts';
import { installRunnerGlobals, RUNNER_SHARED, type RunnerHost } from './runner.ts';

export interface ReusableRunner {
  /** Run a job (one marked `verify` only if the check passes; else 'dirty' is posted). */
  push(job: RunJob): void;
  /** An error nothing caught: the running job's, else a taint. */
  uncaught(e: unknown): void;
}

/** Call once, after the host took from the global what it needs; `keep`: names kept beside realm.ts KEPT_GLOBALS. */
export function serveReusable(host: Omit<RunnerHost, 'onUncaught' | 'taint'>, keep: readonly string[] = []): ReusableRunner {
  /** Why this runner may not serve another sandbox (null: it may, if its realm is unchanged). */
  let tainted: string | null = null;
  const jobs = serveJobs({ ...host, taint: (reason) => void (tainted ??= reason) });
  const failed = lockdown(globalThis as unknown as Record<PropertyKey, unknown>, keep);
  if (failed.length) tainted = `the runner could not remove ${failed.join(', ')} from the global scope`;
  // Then hardened (../harden.ts): the intrinsics and the kept globals frozen and their bindings read-only, the
  // runner's classes a run can reach frozen, its own globals non-configurable getters; what a job replaces on the
  // global for each run (console, process, the timer functions: runner.ts, job-queue.ts) stays writable.
  const getters = installRunnerGlobals();
  hardenIntrinsics({ globals: [...KEPT_GLOBALS, ...keep].filter((k) => !PER_JOB_GLOBALS.includes(k)) });
  harden(RUNNER_SHARED, new Set(), ...getters);
  const fresh = snapshot(globalThis, RUNNER_SHARED);
  const check = (): string | null => {
    try {
      const timers = jobs.pendingTimers();
      return tainted ?? (jobs.busy() ? 'a run was still going' : timers ? `${timers} timer(s) were started after a run ended` : changed(fresh, globalThis));
    } catch (err) {
      return `the realm check failed: ${String(err)}`; // a getter of a changed realm that throws, say: not reused
    }
  };
  return {
    push(job) {
      if (job.verify) {
        const why = check();
        if (why !== null) return host.post({ type: 'dirty', reason: why });
      }
      jobs.push(job);
    },
    uncaught: jobs.uncaught,
  };
}
