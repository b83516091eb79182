// `webswe bench sandbox`: the command over src/bench/sandbox.node.ts (ms to apply a gold patch and run
// the tests, per sandbox, beside plain `node --test`), with the CLI's conventions for input and output.
import type { Command } from 'commander';
import { DEFAULT_TASKS, runSandboxBench } from '../bench/sandbox.node.ts';
import { sandboxTable } from '../bench/sandbox.ts';
import { printJson, runCommand, UserError } from './output.ts';
import { readTaskFile } from './task-file.ts';

export function registerSandboxBench(bench: Command): void {
  bench
    .command('sandbox')
    .description('ms to apply a gold patch and run the tests, per sandbox (node, worker in Chromium) beside plain `node --test`')
    .option('--tasks <n>', 'tasks sampled from the file (spread over its libraries)', '30')
    .option('--file <path>', 'task file', DEFAULT_TASKS)
    .option('--timeout <ms>', 'time limit per run', '20000')
    .option('--no-browser', 'skip the worker sandbox (it needs Chromium)')
    .option('--json', 'print one JSON document on stdout')
    .action((opts: { tasks: string; file: string; timeout: string; browser: boolean; json?: boolean }) =>
      runCommand(async () => {
        const n = Number(opts.tasks);
        if (!Number.isInteger(n) || n < 1) throw new UserError(`--tasks must be a positive whole number, got "${opts.tasks}"`);
        const all = readTaskFile(opts.file);
        const t0 = performance.now();
        const doc = await runSandboxBench({ tasks: n, file: opts.file, browser: opts.browser, timeoutMs: Number(opts.timeout), log: (s) => process.stderr.write(`${s}\n`) }, all);
        const out = { ...doc, wall_s: (performance.now() - t0) / 1000 };
        if (opts.json) printJson(out);
        else console.log(sandboxTable(doc.results));
        process.exit(0);
      }),
    );
}
