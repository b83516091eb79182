// `webswe tasks …`: the task world's commands. `tasks validate PATH` checks any .jsonl task file in a
// sandbox (base fails FAIL_TO_PASS and passes PASS_TO_PASS; the gold patch applies and passes all),
// prints a verdict per task and a summary, and exits 1 if any task is invalid.
import type { Command } from 'commander';
import { SingleBar } from 'cli-progress';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { sandboxFactory } from '../sandbox/index.node.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import { formatTaskError, parseTaskFile } from '../tasks/schema.ts';
import { validateTasks, VALIDATE_DEFAULTS, type TaskVerdict } from '../tasks/validate.ts';
import { printJson, runCommand, UserError } from './output.ts';
import { registerTasksBuild } from './tasks-build.ts';
import { registerTasksFunctions } from './tasks-functions.ts';

export interface ValidateReport {
  tasks: TaskVerdict[];
  valid: number;
  invalid: number;
}

interface ValidateFlags {
  sandbox: string;
  repeats: string;
  timeout: string;
  jobs: string;
  json?: boolean;
}

function positiveInt(flag: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UserError(`${flag} must be a positive integer, got "${v}"`);
  return n;
}

/** Progress on stderr: a bar on a terminal, else one plain line per `every` tasks and at the end. */
function progress(total: number, every = 10) {
  const counts = { valid: 0, invalid: 0 };
  const bar = process.stderr.isTTY ? new SingleBar({ format: 'validating {bar} {value}/{total} | {valid} valid, {invalid} invalid', stream: process.stderr, hideCursor: true, clearOnComplete: true }) : null;
  bar?.start(total, 0, counts);
  return {
    onVerdict(v: TaskVerdict, done: number) {
      counts[v.valid ? 'valid' : 'invalid']++;
      if (bar) bar.update(done, counts);
      else if (done % every === 0 || done === total) process.stderr.write(`validated ${done}/${total} tasks (${counts.valid} valid, ${counts.invalid} invalid)\n`);
    },
    stop: () => bar?.stop(),
  };
}

/** Parse and validate a task file; malformed lines become invalid verdicts in file order. */
export async function validateTaskFile(path: string, create: SandboxFactory, opts: { repeats: number; timeoutMs: number; jobs: number }): Promise<ValidateReport> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UserError(`cannot read the task file ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const parsed = parseTaskFile(text, path);
  if (parsed.tasks.length === 0 && parsed.errors.length === 0) throw new UserError(`${path} holds no tasks (expected one JSON object per line)`);
  const bad = new Map<number, TaskVerdict>();
  for (const e of parsed.errors) {
    const prev = bad.get(e.line);
    const reason = `malformed: ${formatTaskError(e)}`;
    if (prev) prev.reason += `; ${formatTaskError(e)}`;
    else bad.set(e.line, { instance_id: e.instance_id ?? `line ${e.line}`, valid: false, reason, code: 'malformed', line: e.line, duration_ms: 0 });
  }
  const total = parsed.tasks.length + bad.size;
  const bar = progress(total);
  let done = 0;
  for (const v of bad.values()) bar.onVerdict(v, ++done);
  const verdicts = await validateTasks(parsed.tasks, create, {
    repeats: opts.repeats,
    timeoutMs: opts.timeoutMs,
    concurrency: opts.jobs,
    onVerdict: (v) => bar.onVerdict(v, ++done),
  }).finally(() => bar.stop());
  verdicts.forEach((v, i) => (v.line = parsed.lines[i]));
  const all = [...verdicts, ...bad.values()].sort((a, b) => a.line! - b.line!);
  const valid = all.filter((v) => v.valid).length;
  return { tasks: all, valid, invalid: all.length - valid };
}

export function registerTasks(program: Command): Command {
  const tasks = program.command('tasks').description('build and check task sets (SWE-bench-style .jsonl records)');
  tasks
    .command('validate')
    .description('check each task in a sandbox: the base fails every FAIL_TO_PASS test and passes every PASS_TO_PASS test; the gold patch applies and then all pass. Exits 1 if any task is invalid')
    .argument('<path>', 'a .jsonl task file')
    .option('--sandbox <name>', "where the tests run: node (a confined process per run) or worker (the browser's emulated node:test, one confined process per task)", 'node')
    .option('--repeats <n>', 'runs of the base and of the fixed repo; their results must agree (flakiness)', String(VALIDATE_DEFAULTS.repeats))
    .option('--timeout <ms>', 'time limit per test run', String(VALIDATE_DEFAULTS.timeoutMs))
    .option('--jobs <n>', 'tasks validated at once', String(Math.min(4, availableParallelism())))
    .option('--json', 'print one JSON document on stdout')
    .action((path: string, flags: ValidateFlags) =>
      runCommand(async () => {
        let create: SandboxFactory;
        try {
          create = sandboxFactory(flags.sandbox);
        } catch (e) {
          throw new UserError((e as Error).message);
        }
        const opts = { repeats: positiveInt('--repeats', flags.repeats), timeoutMs: positiveInt('--timeout', flags.timeout), jobs: positiveInt('--jobs', flags.jobs) };
        const started = performance.now();
        const report = await validateTaskFile(path, create, opts);
        if (flags.json) printJson(report);
        else {
          const width = Math.min(40, Math.max(...report.tasks.map((v) => v.instance_id.length)));
          for (const v of report.tasks) console.log(`${v.valid ? '✓' : '✗'} ${v.instance_id.padEnd(width)}  ${v.valid ? `ok (${v.duration_ms} ms)` : v.reason}`);
          console.log(`${report.valid} valid, ${report.invalid} invalid (of ${report.tasks.length}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        }
        return report.invalid > 0 ? 1 : 0;
      }),
    );
  registerTasksBuild(tasks);
  registerTasksFunctions(tasks);
  return tasks;
}
