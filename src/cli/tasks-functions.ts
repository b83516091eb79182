// `webswe tasks check-functions FILE…`: checks function-corpus files (levels 0 and 1 of the task world):
// each function's shape, its examples run through the oracle, and how many of its level-0 mutants the
// examples kill (each killed mutant is a candidate task). Exits 1 when any function is unusable.
import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseCorpusFile } from '../tasks/functions.ts';
import { checkFunction, type FunctionReport } from '../tasks/functions-oracle.node.ts';
import { printJson, runCommand, UserError } from './output.ts';

export interface CheckFunctionsReport {
  files: { file: string; errors: string[] }[];
  functions: (Omit<FunctionReport, 'killed' | 'cases'> & { examples: number; killed: number })[];
  usable: number;
  candidates: number;
  errors: number;
}

export async function checkFunctionFiles(paths: readonly string[]): Promise<CheckFunctionsReport> {
  const report: CheckFunctionsReport = { files: [], functions: [], usable: 0, candidates: 0, errors: 0 };
  const seen = new Map<string, string>();
  for (const path of paths) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      throw new UserError(`cannot read ${path}: ${(e as Error).message}`);
    }
    const family = basename(path).replace(/\.m?js$/, '');
    const parsed = parseCorpusFile(family, text);
    report.files.push({ file: path, errors: parsed.errors });
    report.errors += parsed.errors.length;
    for (const fn of parsed.functions) {
      const r = checkFunction(fn);
      const other = seen.get(fn.name);
      if (other) r.errors.push(`${fn.name}: also defined in ${other}; function names are unique across the corpus`);
      seen.set(fn.name, path);
      report.functions.push({ name: r.name, family: r.family, lines: r.lines, errors: r.errors, mutants: r.mutants, hangs: r.hangs, examples: r.cases.length, killed: r.killed.length });
      if (r.errors.length) report.errors += r.errors.length;
      else (report.usable++, (report.candidates += r.killed.length));
    }
  }
  return report;
}

export function registerTasksFunctions(tasks: Command): Command {
  return tasks
    .command('check-functions')
    .description('check function-corpus files (levels 0 and 1): shape, examples through the oracle, and the level-0 mutants the examples kill. Exits 1 if any function is unusable')
    .argument('<files...>', 'corpus files, e.g. corpus/functions/*.js')
    .option('--json', 'print one JSON document on stdout')
    .action((files: string[], flags: { json?: boolean }) =>
      runCommand(async () => {
        const r = await checkFunctionFiles(files);
        if (flags.json) printJson(r);
        else {
          for (const f of r.files) for (const e of f.errors) console.log(`✗ ${f.file}: ${e}`);
          for (const fn of r.functions) {
            if (fn.errors.length) for (const e of fn.errors) console.log(`✗ ${fn.family}.${fn.name}: ${e}`);
            else console.log(`✓ ${fn.family}.${fn.name}: ${fn.lines} lines, ${fn.examples} examples, kills ${fn.killed} of ${fn.mutants} mutants${fn.hangs ? ` (${fn.hangs} hang)` : ''}`);
          }
          console.log(`${r.usable} usable functions of ${r.functions.length}, ${r.candidates} candidate tasks, ${r.errors} problems`);
        }
        return r.errors > 0 ? 1 : 0;
      }),
    );
}
