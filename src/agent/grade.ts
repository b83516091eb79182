// Grading an episode on a fresh copy: a new sandbox holds the agent's final files, except that every one of the
// task's test files is the task's own (edited or deleted tests are restored); each test file runs in a sandbox of
// its own (so no file's run can rewrite what another reads), and the episode passes when every FAIL_TO_PASS and
// PASS_TO_PASS test was reported exactly once, by the runner, as passing (judgeRun). What the grader trusts and
// what it does not: docs/threat-model.md.
import type { FileMap, RunResult, Sandbox, SandboxFactory } from '../sandbox/types.ts';
import type { Task } from '../tasks/schema.ts';
import type { FinalTests } from './trajectory.ts';

/** Every regular file of a sandbox (symbolic links and the like are not repository files). */
export async function readRepo(sb: Sandbox): Promise<FileMap> {
  const files: FileMap = {};
  for (const p of await sb.listFiles()) files[p] = await sb.readFile(p);
  return files;
}

/** The files the grader runs: the agent's non-test files plus the task's original test files. */
export function gradedFiles(task: Task, final: FileMap): FileMap {
  const tests = new Set(task.test_files);
  const out: FileMap = {};
  for (const [p, text] of Object.entries(final)) if (!tests.has(p)) out[p] = text;
  for (const p of task.test_files) out[p] = task.files[p]!;
  return out;
}

/**
 * The verdict on a run of the task's test files: a wanted test passes when the runner reported it once, as passing.
 * The whole run fails (every wanted test in `failed`, the reasons in `problems`) when its report cannot be trusted:
 * a wanted test reported more than once (the code under test registered one of the same name, or reported it
 * itself), or lines on the report's channel that the runner did not write (RunResult.problems).
 */
export function judgeRun(task: Task, run: RunResult): FinalTests {
  const wanted = [...new Set([...task.FAIL_TO_PASS, ...task.PASS_TO_PASS])];
  const seen = new Map<string, { n: number; status: string }>();
  for (const t of run.tests) {
    const s = seen.get(t.fullName);
    if (s) s.n++;
    else seen.set(t.fullName, { n: 1, status: t.status });
  }
  const problems = [...(run.problems ?? [])];
  for (const name of wanted) {
    const n = seen.get(name)?.n ?? 0;
    if (n > 1) problems.push(`the test "${name}" was reported ${n} times (the runner reports each test once)`);
  }
  if (problems.length) return { passed: [], failed: [...task.FAIL_TO_PASS, ...task.PASS_TO_PASS], timed_out: run.timedOut, problems };
  const ok = (n: string) => seen.get(n)?.status === 'pass';
  const all = [...task.FAIL_TO_PASS, ...task.PASS_TO_PASS];
  return { passed: all.filter(ok), failed: all.filter((n) => !ok(n)), timed_out: run.timedOut };
}

/** Run the task's tests on fresh sandboxes of `final` (see gradedFiles), one a test file, and judge the runs. */
export async function gradeFiles(task: Task, final: FileMap, create: SandboxFactory, timeoutMs: number): Promise<FinalTests> {
  const files = gradedFiles(task, final);
  const runs: RunResult[] = [];
  for (const file of task.test_files) {
    const sb = await create(files, { timeoutMs });
    try {
      runs.push(await sb.runTests([file], { timeoutMs }));
    } finally {
      await sb.dispose().catch(() => undefined);
    }
  }
  const problems = runs.flatMap((r) => r.problems ?? []);
  return judgeRun(task, {
    tests: runs.flatMap((r) => r.tests),
    output: '',
    exitCode: runs.find((r) => r.exitCode !== 0)?.exitCode ?? 0,
    timedOut: runs.some((r) => r.timedOut),
    truncated: false,
    durationMs: runs.reduce((s, r) => s + r.durationMs, 0),
    ...(problems.length ? { problems } : {}),
  });
}
