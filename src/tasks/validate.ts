// Task validation in any sandbox: the base repo fails every FAIL_TO_PASS test and passes every
// PASS_TO_PASS test, the gold patch applies, and afterwards all of them pass; repeated runs must agree.
// Core code (no Node APIs): the caller passes a SandboxFactory. One bad task never stops the others.
import type { RunResult, Sandbox, SandboxFactory, TestResult } from '../sandbox/types.ts';
import type { Task } from './schema.ts';

export type VerdictCode =
  | 'ok'
  | 'malformed'
  | 'test_not_found'
  | 'fail_to_pass_passes_before'
  | 'pass_to_pass_fails_before'
  | 'patch_does_not_apply'
  | 'fails_after_fix'
  | 'flaky'
  | 'timeout'
  | 'sandbox_error';

export interface TaskVerdict {
  instance_id: string;
  valid: boolean;
  /** "ok", or the first problem found in words (a count of further problems is appended). */
  reason: string;
  code: VerdictCode;
  /** The task file's line, when known. */
  line?: number;
  duration_ms: number;
}

export interface ValidateOptions {
  /** Time limit per test run (all of a task's test files), ms. */
  timeoutMs: number;
  /** Runs of the base and of the fixed repo; results must agree across them (flakiness). */
  repeats: number;
  /** Tasks validated at once. */
  concurrency: number;
  /** Called as each task finishes (in completion order). */
  onVerdict?: (v: TaskVerdict, done: number, total: number) => void;
}

export const VALIDATE_DEFAULTS: Readonly<ValidateOptions> = Object.freeze({ timeoutMs: 5_000, repeats: 1, concurrency: 1 });
/** Repeats for building the bundled task sets (`tasks build`), where a flaky task must not slip in. */
export const BUILD_REPEATS = 3;

class Invalid extends Error {
  constructor(
    readonly code: VerdictCode,
    message: string,
  ) {
    super(message);
  }
}

const q = (name: string) => `'${name}'`;
const firstLine = (s: string | undefined) => (s ?? '').split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
/** A failure message on one line: "Expected values to be strictly equal: 0 !== 10". */
const brief = (s: string) => {
  const one = s.split('\n').map((l) => l.trim()).filter(Boolean).join(' ');
  return one.length > 160 ? `${one.slice(0, 157)}...` : one;
};
/** The line of a crash report that names the error ("SyntaxError: ..."), else its first line. */
const errorLine = (s: string) => s.split('\n').find((l) => /^\s*([A-Z]\w*)?Error\b/.test(l))?.trim() ?? firstLine(s);

/** Status per full name; a name reported twice counts as failing if either report fails. */
function statusMap(tests: TestResult[]): Map<string, TestResult> {
  const m = new Map<string, TestResult>();
  for (const t of tests) if (!m.has(t.fullName) || t.status === 'fail') m.set(t.fullName, t);
  return m;
}

/** Why a named test is absent: the run's own first error line when no test ran at all. */
function missing(kind: string, name: string, run: RunResult, when: string): Invalid {
  const why = run.tests.length === 0 && run.exitCode !== 0 ? ` (no test ran; the run ended with code ${run.exitCode}: ${errorLine(run.output)})` : '';
  return new Invalid('test_not_found', `${kind} test ${q(name)} was not reported ${when}${why}`);
}

/** `repeats` runs of the task's tests; throws on a time limit or on runs that disagree. */
async function runRepeated(sb: Sandbox, task: Task, opts: ValidateOptions, when: string): Promise<RunResult> {
  let first: RunResult | undefined;
  for (let i = 1; i <= opts.repeats; i++) {
    const run = await sb.runTests(task.test_files, { timeoutMs: opts.timeoutMs });
    if (run.timedOut) {
      const seen = new Set(run.tests.map((t) => t.fullName));
      const unreported = [...task.FAIL_TO_PASS, ...task.PASS_TO_PASS].filter((n) => !seen.has(n) && n !== run.running);
      const list = unreported.slice(0, 3).map(q).join(', ') + (unreported.length > 3 ? ` and ${unreported.length - 3} more` : '');
      if (!run.running && unreported.length === 0) {
        throw new Invalid('timeout', `timeout: every test reported, but the process had not exited at the ${opts.timeoutMs} ms limit ${when} (a timer or server keeps it alive?)`);
      }
      const what = run.running ? `test ${q(run.running)} was still running at` : 'the tests did not finish within';
      const which = opts.repeats > 1 ? ` (run ${i} of ${opts.repeats})` : '';
      throw new Invalid('timeout', `timeout: ${what} the ${opts.timeoutMs} ms limit ${when}${which}${unreported.length ? `; never reported: ${list}` : ''}`);
    }
    if (!first) {
      first = run;
      continue;
    }
    const a = statusMap(first.tests);
    const b = statusMap(run.tests);
    for (const name of new Set([...a.keys(), ...b.keys()])) {
      const sa = a.get(name)?.status ?? 'absent';
      const sb2 = b.get(name)?.status ?? 'absent';
      if (sa !== sb2) throw new Invalid('flaky', `flaky: test ${q(name)} was ${sa} in run 1 and ${sb2} in run ${i} ${when}`);
    }
  }
  return first!;
}

function check(problems: Invalid[]): void {
  if (problems.length === 0) return;
  const [p] = problems;
  throw new Invalid(p!.code, p!.message + (problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : ''));
}

async function validateIn(sb: Sandbox, task: Task, opts: ValidateOptions): Promise<void> {
  const base = await runRepeated(sb, task, opts, 'before the fix');
  const before = statusMap(base.tests);
  const problems: Invalid[] = [];
  for (const name of task.FAIL_TO_PASS) {
    const t = before.get(name);
    if (!t) problems.push(missing('FAIL_TO_PASS', name, base, 'before the fix'));
    else if (t.status === 'pass') problems.push(new Invalid('fail_to_pass_passes_before', `FAIL_TO_PASS test ${q(name)} passes before the fix`));
    else if (t.status !== 'fail') problems.push(new Invalid('test_not_found', `FAIL_TO_PASS test ${q(name)} is marked ${t.status} and does not run`));
  }
  for (const name of task.PASS_TO_PASS) {
    const t = before.get(name);
    if (!t) problems.push(missing('PASS_TO_PASS', name, base, 'before the fix'));
    else if (t.status !== 'pass') {
      problems.push(new Invalid('pass_to_pass_fails_before', `PASS_TO_PASS test ${q(name)} ${t.status === 'fail' ? 'fails' : `is marked ${t.status}`} before the fix${t.message ? `: ${brief(t.message)}` : ''}`));
    }
  }
  check(problems);

  await sb.reset(); // the tests may have written into the repo
  try {
    await sb.applyPatch(task.patch);
  } catch (e) {
    if ((e as Error).name !== 'PatchError') throw e; // by name: it may have crossed a worker boundary
    const msg = (e as Error).message;
    throw new Invalid('patch_does_not_apply', /^patch /.test(msg) ? msg : `patch does not apply: ${msg}`);
  }

  const gold = await runRepeated(sb, task, opts, 'after the fix');
  const after = statusMap(gold.tests);
  for (const [kind, names] of [['FAIL_TO_PASS', task.FAIL_TO_PASS], ['PASS_TO_PASS', task.PASS_TO_PASS]] as const) {
    for (const name of names) {
      const t = after.get(name);
      if (!t) problems.push(missing(kind, name, gold, 'after the fix'));
      else if (t.status !== 'pass') {
        problems.push(new Invalid('fails_after_fix', `${kind} test ${q(name)} ${t.status === 'fail' ? 'fails' : `is marked ${t.status}`} after the fix${t.message ? `: ${brief(t.message)}` : ''}`));
      }
    }
  }
  check(problems);
}

/** Validate one task in a fresh sandbox from `create`; never throws. */
export async function validateTask(task: Task, create: SandboxFactory, options: Partial<ValidateOptions> = {}): Promise<TaskVerdict> {
  const opts = { ...VALIDATE_DEFAULTS, ...options };
  const started = performance.now();
  const verdict = (code: VerdictCode, reason: string): TaskVerdict => ({
    instance_id: task.instance_id,
    valid: code === 'ok',
    reason,
    code,
    duration_ms: Math.round(performance.now() - started),
  });
  let sb: Sandbox | undefined;
  try {
    sb = await create(task.files, { timeoutMs: opts.timeoutMs });
    await validateIn(sb, task, opts);
    return verdict('ok', 'ok');
  } catch (e) {
    if (e instanceof Invalid) return verdict(e.code, e.message);
    return verdict('sandbox_error', `sandbox error: ${(e as Error).message}`);
  } finally {
    await sb?.dispose().catch(() => undefined);
  }
}

/** Validate many tasks, `concurrency` at a time; verdicts come back in the tasks' order. */
export async function validateTasks(tasks: readonly Task[], create: SandboxFactory, options: Partial<ValidateOptions> = {}): Promise<TaskVerdict[]> {
  const opts = { ...VALIDATE_DEFAULTS, ...options };
  const out: TaskVerdict[] = new Array(tasks.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await validateTask(tasks[i]!, create, opts);
      opts.onVerdict?.(out[i]!, ++done, tasks.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, tasks.length)) }, worker));
  return out;
}
