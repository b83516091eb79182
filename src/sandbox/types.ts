// The Sandbox interface every implementation (node processes, the browser worker, WebContainers)
// provides, the per-test and per-run result types, and the one path policy they all share.
// Core code: no DOM, no Node; every method is async so an implementation may live across a worker.

/** A repository as text files: repo-relative '/'-separated path → file text. */
export type FileMap = Record<string, string>;

export type TestStatus = 'pass' | 'fail' | 'skip' | 'todo';

/** One test as the test runner itself reported it (never inferred from an exit code). */
export interface TestResult {
  /** The describe path and the test's own name joined by " > ", e.g. "roman > toRoman > converts 4". */
  fullName: string;
  status: TestStatus;
  /** The failure message (assertion text with expected/actual) for 'fail'; the reason for 'skip'/'todo'. */
  message?: string;
  durationMs?: number;
  /** The test file that reported it (repo-relative). */
  file?: string;
}

export interface RunResult {
  /** Tests in report order, suites excluded. Tests that never finished (time limit) are absent. */
  tests: TestResult[];
  /** stdout and stderr interleaved as they arrived, cut at the output cap. */
  output: string;
  /** The process exit code; null when it was killed (time limit) or ended by a signal. */
  exitCode: number | null;
  timedOut: boolean;
  /** True when `output` was cut at the cap (it then ends with a marker saying how much was dropped). */
  truncated: boolean;
  durationMs: number;
  /** When timed out: the full name of the test that was running at the limit, if the runner said. */
  running?: string;
  /** Why the run's test report cannot be trusted (the code under test wrote on the runner's report channel, say);
   *  a grader fails a run that has any. Absent when there is none. */
  problems?: string[];
}

export interface RunOptions {
  /** Wall-clock limit for the whole call, in ms; the process tree is killed when it is reached. */
  timeoutMs?: number;
  /** Run (and report) only the tests with these full names. */
  names?: readonly string[];
}

/** One task repository in one episode. Paths are repo-relative and '/'-separated (see resolveRepoPath). */
export interface Sandbox {
  readonly kind: string;
  /** Runs of this sandbox share one process (the worker sandbox under Node), so a run's result may depend on
   *  what code run before it did to that process; only the first run's cannot. Absent: every run is fresh. */
  readonly sharedProcess?: boolean;
  readFile(path: string): Promise<string>;
  /** Creates parent folders as needed. */
  writeFile(path: string, text: string): Promise<void>;
  deleteFile(path: string): Promise<void>;
  /** Every regular file under `dir` (default: the whole repo), repo-relative, sorted. */
  listFiles(dir?: string): Promise<string[]>;
  /** Apply a git-style unified diff; throws PatchError (naming file, hunk and line) and changes nothing if it does not apply. */
  applyPatch(diff: string): Promise<{ changed: string[] }>;
  /** Run test files (node:test) and report each test from the runner's own report. */
  runTests(files: readonly string[], options?: RunOptions): Promise<RunResult>;
  /** Run a command, e.g. ['node', 'src/roman.js'], with the same confinement and limits. */
  exec(argv: readonly string[], options?: RunOptions): Promise<RunResult>;
  /** The repo's current state against the files it started from, as a git-style diff ('' when unchanged). */
  diff(): Promise<string>;
  /** Back to the starting files (or to `files`, which become the new start). */
  reset(files?: FileMap): Promise<void>;
  dispose(): Promise<void>;
}

export interface SandboxOptions {
  /** Default time limit per runTests/exec call, ms. */
  timeoutMs?: number;
  /** Output kept per run, in characters, before truncation. */
  outputLimit?: number;
  /** Heap limit for the test process, MiB. */
  memoryMb?: number;
  /** Start now what the first run will need (the worker sandbox under Node: its process), so that run does
   *  not wait for it; an episode's sandbox says so, a grader's (often answered by the run cache) does not. */
  prestart?: boolean;
  /**
   * What the time limit measures. 'wall' (default): elapsed time. 'cpu': the test process's CPU time,
   * which a loaded machine does not stretch, so a verdict of "too slow" does not depend on what else
   * runs (the task build uses it to be reproducible); wall time then still stops a process at 10× the
   * limit (one that sleeps or waits). Only the node sandbox on Linux can measure it (from /proc);
   * elsewhere 'cpu' falls back to wall time.
   */
  clock?: 'wall' | 'cpu';
}

export type SandboxFactory = (files: FileMap, options?: SandboxOptions) => Promise<Sandbox>;

export const SANDBOX_DEFAULTS = Object.freeze({ timeoutMs: 10_000, outputLimit: 64 * 1024, memoryMb: 512, clock: 'wall' as 'wall' | 'cpu', prestart: false as boolean });

/** A path the sandbox refuses; the message says why and what to write instead. */
export class PathError extends Error {
  override name = 'PathError';
}

/**
 * The path policy shared by every sandbox: a repo-relative path with '/' separators, no '..',
 * not absolute, no NUL, no backslash. Returns the normalised path ('./a//b/' → 'a/b'); '' is the
 * repo root and is accepted only when `allowRoot` is set (e.g. listing the whole repo).
 */
export function resolveRepoPath(path: string, allowRoot = false): string {
  const show = JSON.stringify(path);
  if (typeof path !== 'string') throw new PathError(`path must be a string, got ${typeof path}`);
  if (path.includes('\0')) throw new PathError(`path ${show} contains a NUL byte`);
  if (path.includes('\\')) throw new PathError(`path ${show} contains a backslash; use '/' to separate folders, e.g. "src/lib.js"`);
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('~')) {
    throw new PathError(`path ${show} is absolute; use a path relative to the repository root, e.g. "src/lib.js"`);
  }
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new PathError(`path ${show} leaves the repository: '..' is not allowed; use a path from the repository root`);
  if (parts.length === 0 && !allowRoot) throw new PathError(`path ${show} names the repository root, not a file`);
  return parts.join('/');
}

/** A command the sandbox will not run (not `node`, or a node option that would lift the confinement). */
export class CommandError extends Error {
  override name = 'CommandError';
}

/** Files `node --test` with no file arguments would pick up: *.test.js and the like, or anything under test/. */
export const isTestFile = (p: string) => /\.(test|spec)\.[cm]?js$/.test(p) || /(^|\/)test\/.*\.[cm]?js$/.test(p);

/** A regex source matching exactly these names (for --test-name-pattern and the like). */
export const exactNamePattern = (names: readonly string[]) =>
  `^(?:${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`;

const MARK: Record<TestStatus, string> = { pass: '✔', fail: '✖', skip: '﹣', todo: '﹣' };

/**
 * The human-readable test report every sandbox appends to a test run's output, so the agent sees
 * the same text whichever sandbox ran the tests: one line per test, failure messages indented.
 */
export function formatTestReport(tests: readonly TestResult[], running?: string): string {
  const lines = ['', `── ${tests.length} test${tests.length === 1 ? '' : 's'} reported ──`];
  for (const t of tests) {
    const tag = t.status === 'skip' || t.status === 'todo' ? ` # ${t.status.toUpperCase()}${t.message ? ` ${t.message}` : ''}` : '';
    lines.push(`${MARK[t.status]} ${t.fullName}${tag}`);
    if (t.status === 'fail' && t.message) lines.push(...t.message.trimEnd().split('\n').map((l) => `    ${l}`));
  }
  if (running !== undefined) lines.push(`⧗ ${running} (still running at the time limit)`);
  const n = (s: TestStatus) => tests.filter((t) => t.status === s).length;
  lines.push(`pass ${n('pass')}, fail ${n('fail')}, skip ${n('skip')}, todo ${n('todo')}`, '');
  return lines.join('\n');
}
