// The messages between the worker sandbox (host side, sandbox.ts) and its test-runner Worker
// (runner.worker.ts → runner.ts): one job per Worker, events streamed back as they happen, so the
// host has the results so far and the running test when it terminates a Worker at the time limit.
import type { FileMap, TestStatus } from '../types.ts';

export interface RunJob {
  files: FileMap;
  /** What follows `node`: [script, ...args] or ['-e' | '--eval' | '-p' | '--print', code]. */
  argv: string[];
  /** Node 20's --test-name-pattern (a RegExp source): a test runs when its or a suite's name matches. */
  namePattern?: string;
  /** Where CPU time cannot be measured (a browser's Worker): loop iterations allowed in the whole run,
   *  counted at each iteration's start; past it the run stops ('limit', clock 'loops'). A runaway loop
   *  that allocates would otherwise grow its Worker's heap until the time limit, and a V8 out-of-memory
   *  in any Worker ends the whole tab. */
  loopBudget?: number;
  /** The Worker served another sandbox before (worker.browser.ts): it first compares its realm with its fresh
   *  one (realm.ts) and answers 'dirty' instead of running the job when anything changed. */
  verify?: boolean;
}

export type RunnerEvent =
  | { type: 'out'; stream: 'stdout' | 'stderr'; text: string }
  /** A test or suite started (node:test's test:dequeue). */
  | { type: 'running'; path: string[] }
  | { type: 'result'; path: string[]; status: TestStatus; message?: string; ms: number }
  /** The run is over: what `node` would have exited with. */
  | { type: 'exit'; code: number }
  /** The job waits for a free runner (a host that caps its runners); its time limit is paused until 'started'. */
  | { type: 'queued' }
  /** The queued job got its runner: the time limit runs from here. */
  | { type: 'started' }
  /** The run was stopped at its CPU time limit (a host that can measure it: RunnerLimits) or, where it
   *  cannot, at its loop budget (RunJob.loopBudget). */
  | { type: 'limit'; clock: 'cpu' | 'loops' }
  /** Answer to a job with `verify`: the Worker's realm is not its fresh one (why), the job did not run. */
  | { type: 'dirty'; reason: string };

/** Limits a runner may enforce itself (the Node host measures its process's CPU time; a Worker cannot). */
export interface RunnerLimits {
  cpuMs?: number;
}

/** What the host needs of a runner: a dedicated Worker in browsers, a stand-in in tests. */
export interface RunnerPort {
  start(job: RunJob, onEvent: (e: RunnerEvent) => void, limits?: RunnerLimits): void;
  /** Stop it at once (a runaway loop included); no event arrives afterwards. */
  terminate(): void;
}

export type RunnerFactory = () => RunnerPort;
