// Grading an episode on a fresh copy: a new sandbox holds the agent's final files, except that every
// one of the task's test files is the task's own (edited or deleted tests are restored); the test
// files run there, and the episode passes when every FAIL_TO_PASS and PASS_TO_PASS test passes.
import type { FileMap, Sandbox, SandboxFactory } from '../sandbox/types.ts';
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

/** Run the task's tests on a fresh sandbox of `final` (see gradedFiles). */
export async function gradeFiles(task: Task, final: FileMap, create: SandboxFactory, timeoutMs: number): Promise<FinalTests> {
  const sb = await create(gradedFiles(task, final), { timeoutMs });
  try {
    const run = await sb.runTests(task.test_files, { timeoutMs });
    const status = new Map<string, string>();
    for (const t of run.tests) if (status.get(t.fullName) !== 'fail') status.set(t.fullName, t.status);
    const wanted = [...task.FAIL_TO_PASS, ...task.PASS_TO_PASS];
    return {
      passed: wanted.filter((n) => status.get(n) === 'pass'),
      failed: wanted.filter((n) => status.get(n) !== 'pass'),
      timed_out: run.timedOut,
    };
  } finally {
    await sb.dispose().catch(() => undefined);
  }
}
