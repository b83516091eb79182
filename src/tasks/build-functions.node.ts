// Building levels 0 and 1 on disk: read corpus/functions/*.js, check each function through the oracle
// (functions-oracle.node.ts), make the level's tasks (build-functions.ts), validate every one in the node
// sandbox with the validator `webswe tasks validate` uses (gold runs of one function share a content
// cache: run-cache.ts), and write <out>/train.jsonl, val.jsonl, test.jsonl and README.md.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedFactory, RunCache } from '../sandbox/run-cache.ts';
import type { SandboxFactory } from '../sandbox/types.ts';
import { level0Tasks, level1Tasks, worldSummary, type FunctionSplit, type FunctionWorldOptions } from './build-functions.ts';
import { checkFunction } from './functions-oracle.node.ts';
import { parseCorpusFile, type CheckedFunction } from './functions.ts';
import { LEVEL0_OPERATORS } from './levels.ts';
import { formatTaskLine, type Task } from './schema.ts';
import { validateTasks, type TaskVerdict } from './validate.ts';

export const FUNCTIONS_DIR = fileURLToPath(new URL('../../corpus/functions/', import.meta.url));
export const levelOut = (level: 0 | 1, voices: FunctionWorldOptions['voices'] = 'calls') => fileURLToPath(new URL(`../../public/tasks/level${level}${voices === 'calls' ? '' : `-${voices}`}/`, import.meta.url));

export interface CorpusCheck {
  functions: CheckedFunction[];
  /** Functions (or files) left out, with the reason. */
  skipped: { where: string; reason: string }[];
  families: string[];
}

/** Every usable function of the corpus folder (files in name order, functions in file order). */
export async function loadFunctionCorpus(dir = FUNCTIONS_DIR): Promise<CorpusCheck> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.js')).sort();
  const out: CorpusCheck = { functions: [], skipped: [], families: [] };
  const seen = new Set<string>();
  for (const name of names) {
    const family = name.replace(/\.js$/, '');
    const parsed = parseCorpusFile(family, await readFile(join(dir, name), 'utf8'));
    out.families.push(family);
    for (const e of parsed.errors) out.skipped.push({ where: name, reason: e });
    for (const fn of parsed.functions) {
      if (seen.has(fn.name)) {
        out.skipped.push({ where: `${family}.${fn.name}`, reason: 'the name is used by an earlier file' });
        continue;
      }
      const r = checkFunction(fn);
      if (r.errors.length) out.skipped.push({ where: `${family}.${fn.name}`, reason: r.errors.join('; ') });
      else if (r.killed.length) {
        seen.add(fn.name);
        out.functions.push({ fn, cases: r.cases, killed: r.killed });
      } else out.skipped.push({ where: `${family}.${fn.name}`, reason: 'its examples kill none of its mutants' });
    }
  }
  return out;
}

export interface LevelBuild {
  tasks: Task[];
  dropped: { instance_id: string; code: string; reason: string }[];
  candidates: number;
}

/** Make a level's candidate tasks and keep those the validator accepts. */
export async function buildFunctionLevel(level: 0 | 1, corpus: CorpusCheck, o: FunctionWorldOptions & { create: SandboxFactory; timeoutMs: number; concurrency: number; onVerdict?: (v: TaskVerdict, done: number, total: number) => void }): Promise<LevelBuild> {
  const candidates = level === 0 ? level0Tasks(corpus.functions, o) : level1Tasks(corpus.functions, o);
  const cache = new RunCache(8192);
  const verdicts = await validateTasks(candidates, cachedFactory(o.create, cache), { repeats: 1, timeoutMs: o.timeoutMs, concurrency: o.concurrency, ...(o.onVerdict ? { onVerdict: o.onVerdict } : {}) });
  const tasks: Task[] = [];
  const dropped: LevelBuild['dropped'] = [];
  verdicts.forEach((v, i) => (v.valid ? tasks.push(candidates[i]!) : dropped.push({ instance_id: v.instance_id, code: v.code, reason: v.reason })));
  return { tasks, dropped, candidates: candidates.length };
}

function readme(level: 0 | 1, b: LevelBuild, corpus: CorpusCheck, o: FunctionWorldOptions, command: string): string {
  const s = worldSummary(b.tasks);
  const row = (k: FunctionSplit) => `| ${k} | ${s.splits[k].functions} | ${s.splits[k].tasks} |`;
  const drops = new Map<string, number>();
  for (const d of b.dropped) drops.set(d.code, (drops.get(d.code) ?? 0) + 1);
  return `# Level ${level} tasks

${level === 0 ? 'One function alone in `src/<name>.js` with one bug' : `A module of ${o.moduleSize} functions of one family in \`src/<family>.js\` with one bug (\`easy\`) or, in a third as many tasks, two bugs in two of its functions (\`hard\`, ${s.hard} tasks)`}, from the function
corpus in \`corpus/functions/\` (${corpus.families.length} files). Rebuilt with

\`\`\`sh
${command}
\`\`\`

deterministically (same corpus, same seed ${o.seed}, same files). Check them with \`npx webswe tasks validate\`.

- **Tests** are the function's examples (\`EXAMPLES\` in its corpus file), one \`node:test\` test per call, named
  by the call; the expected values are what the correct function returns (or the error it throws).
- **Bugs** are one-token mutants (${LEVEL0_OPERATORS.map((x) => `\`${x}\``).join(', ')}) that some example notices and
  that leave some test passing; each is validated in the node sandbox (the base fails FAIL_TO_PASS and passes
  PASS_TO_PASS, the gold patch makes all pass).
- **Issue text**: ${o.voices === 'calls' ? 'the first failing call, what it does and what it should do' : "a user's bug report in one of five voices (a terse maintainer, a friendly user, a structured report, a CI failure, a short question): the first failing call, what it did and what was expected, and a snippet that reproduces it"}. No line numbers, no hint of the fix.
- **Split by function**: a function's name hashed with the seed puts it in \`train\` (${Math.round(100 * (1 - o.testFraction - o.valFraction))} %), \`val\`
  (${Math.round(100 * o.valFraction)} %; settings are chosen there) or \`test\` (${Math.round(100 * o.testFraction)} %). No function of \`val\` or \`test\` is in a training
  task${level === 1 ? ', and level-1 modules group functions of one split only' : ''}.

| split | functions | tasks |
|---|---|---|
${row('train')}
${row('val')}
${row('test')}

| operator | tasks |
|---|---|
${Object.entries(s.operators).sort().map(([k, n]) => `| ${k} | ${n} |`).join('\n')}

${b.candidates} candidates, ${b.tasks.length} kept${drops.size ? `; dropped by the validator: ${[...drops].map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}.
${corpus.skipped.length} corpus functions left out (\`webswe tasks check-functions corpus/functions/*.js\` says why).
`;
}

/** Write <out>/{train,val,test}.jsonl and README.md; returns the paths and sizes. */
export async function writeLevel(out: string, level: 0 | 1, b: LevelBuild, corpus: CorpusCheck, o: FunctionWorldOptions, command: string): Promise<{ path: string; bytes: number }[]> {
  await mkdir(out, { recursive: true });
  const written: { path: string; bytes: number }[] = [];
  for (const split of ['train', 'val', 'test'] as const) {
    const text = b.tasks.filter((t) => t.split === split).map((t) => formatTaskLine(t) + '\n').join('');
    const path = join(out, `${split}.jsonl`);
    await writeFile(path, text);
    written.push({ path, bytes: Buffer.byteLength(text) });
  }
  const text = readme(level, b, corpus, o, command);
  await writeFile(join(out, 'README.md'), text);
  written.push({ path: join(out, 'README.md'), bytes: Buffer.byteLength(text) });
  return written;
}
