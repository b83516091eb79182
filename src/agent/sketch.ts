// Episode sketches: the text an episode on a task shows, written without running anything (the gold
// fix's first changed line, the tool's observation formats, a test run's summary), for the from-scratch
// tokenizer's training corpus. A tokenizer trained on repositories alone spends 7 tokens on "```command"
// and 6 on "submit"; with sketches beside the code, the format's own words become single tokens and a
// micro episode's action tokens shrink (each one a chance to sample wrong at T = 1).
import { applyDiff } from '../sandbox/patch.ts';
import type { Task } from '../tasks/schema.ts';
import { formatCommand, type Command } from './commands.ts';
import { numbered, splitLines } from './edits.ts';
import { lineChanges, subBetween } from './expert-plan.ts';
import { issueMessage } from './prompt.ts';
import { formatRun } from './tools.ts';

const turn = (reason: string, c: Command) => `${reason}\n${formatCommand(c)}`;

/** One episode's worth of text for `task`: issue, view, edit, a failing and a passing test run, submit. */
export function episodeSketch(task: Task): string {
  const parts = [issueMessage(task.repo, task.problem_statement, Object.keys(task.files).sort())];
  let fixed: Record<string, string>;
  try {
    fixed = applyDiff(task.files, task.patch).files;
  } catch {
    return parts[0]!;
  }
  const path = Object.keys(task.files).find((p) => fixed[p] !== undefined && fixed[p] !== task.files[p]);
  if (path) {
    const before = splitLines(task.files[path]!);
    const after = splitLines(fixed[path]!);
    const c = lineChanges(task.files[path]!, fixed[path]!)[0];
    parts.push(turn(`Read ${path}.`, { name: 'view', path }), `${path} (lines 1-${before.length} of ${before.length})\n${numbered(before, 0, before.length - 1)}`);
    if (c) {
      const start = c.aStart + 1, content = after.slice(c.bStart, c.bEnd).map((l) => l + '\n').join('');
      parts.push(turn(`Fix line ${start}.`, { name: 'edit', path, start, end: c.aEnd, content }));
      const s = c.aEnd - c.aStart === 1 && c.bEnd - c.bStart === 1 ? subBetween(before[c.aStart]!, after[c.bStart]!) : null;
      if (s) parts.push(formatCommand({ name: 'sub', line: start, old: s.old, new: s.new }), formatCommand({ name: 'view' }), formatCommand({ name: 'edit', start, end: c.aEnd, content }));
      parts.push(`edited ${path} (lines ${start}-${c.aEnd} are now ${c.bEnd - c.bStart} line${c.bEnd - c.bStart === 1 ? '' : 's'}); the new text with its neighbours:\n${numbered(after, c.bStart - 2, c.bEnd)}`);
    }
  }
  const names = [...task.FAIL_TO_PASS, ...task.PASS_TO_PASS];
  const run = (failing: readonly string[]) =>
    formatRun({ tests: names.map((fullName) => (failing.includes(fullName) ? { fullName, status: 'fail' as const, message: 'Expected values to be strictly equal:\n\n1 !== 2\n' } : { fullName, status: 'pass' as const })), output: '', exitCode: failing.length ? 1 : 0, timedOut: false, truncated: false, durationMs: 0 }, 5000);
  parts.push(turn('Run the tests.', { name: 'run_tests' }), run(task.FAIL_TO_PASS), turn('Not that; try again.', { name: 'run_tests' }), run([]));
  parts.push(turn('Tests pass. Submit.', { name: 'submit' }));
  return parts.join('\n');
}
