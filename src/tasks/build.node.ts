// The task build's file-system side: corpus libraries read from corpus/libraries/<lib>/ (package.json,
// src/ and test/ only), and the sets written as <out>/train.jsonl and <out>/test.jsonl beside a README
// of their statistics, the split rule and the command that rebuilt them.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTestFile, type FileMap } from '../sandbox/types.ts';
import { OPERATORS } from './mutate.ts';
import { formatTaskLine, type Task } from './schema.ts';
import type { BuildSummary, Library, Tally } from './build.ts';

export const CORPUS_DIR = fileURLToPath(new URL('../../corpus/libraries/', import.meta.url));
export const DEFAULT_OUT = fileURLToPath(new URL('../../public/tasks/', import.meta.url));

async function walkFiles(root: string, rel: string, out: FileMap): Promise<void> {
  const ents = await readdir(join(root, rel), { withFileTypes: true }).catch(() => []);
  for (const e of ents.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = `${rel}/${e.name}`;
    if (e.isDirectory()) await walkFiles(root, p, out);
    else if (e.isFile() && /\.(m?js|cjs|json)$/.test(e.name)) out[p] = await readFile(join(root, p), 'utf8');
  }
}

/** Every library of the corpus; one that cannot be read comes back in `unreadable` with the reason. */
export async function loadCorpus(dir = CORPUS_DIR): Promise<{ libraries: Library[]; unreadable: { name: string; reason: string }[] }> {
  const libraries: Library[] = [];
  const unreadable: { name: string; reason: string }[] = [];
  const names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  for (const name of names) {
    const root = join(dir, name);
    const files: FileMap = {};
    try {
      files['package.json'] = await readFile(join(root, 'package.json'), 'utf8');
      const pkg = (JSON.parse(files['package.json']) as { name?: unknown }).name;
      await walkFiles(root, 'src', files);
      await walkFiles(root, 'test', files);
      const testFiles = Object.keys(files).filter((p) => p.startsWith('test/') && isTestFile(p));
      if (testFiles.length === 0) throw new Error('no test files under test/');
      if (!Object.keys(files).some((p) => p.startsWith('src/') && p.endsWith('.js'))) throw new Error('no .js files under src/');
      libraries.push({ name, pkg: typeof pkg === 'string' && pkg ? pkg : name, files, testFiles });
    } catch (e) {
      unreadable.push({ name, reason: (e as Error).message });
    }
  }
  return { libraries, unreadable };
}

const dropped = (t: Tally) =>
  Object.entries(t.dropped)
    .sort((a, b) => b[1] - a[1])
    .map(([r, n]) => `${r} ${n}`)
    .join(', ') || '—';

/** The README beside the sets: what they are, how they were made, their counts. Deterministic. */
export function taskSetReadme(s: BuildSummary, command: string): string {
  const tiers = (k: 'train' | 'test') => `| ${k} | ${s.splits[k].libraries.length} | ${s.splits[k].tasks} | ${s.splits[k].easy} | ${s.splits[k].hard} |`;
  const ops = [...OPERATORS.filter((o) => s.operators[o]), ...Object.keys(s.operators).filter((o) => !(OPERATORS as readonly string[]).includes(o))];
  const skipped = s.libraries.filter((l) => l.skipped);
  return `# Bundled task sets

\`train.jsonl\` and \`test.jsonl\` hold ${s.tasks} SWE-bench-style tasks (the record is \`src/tasks/schema.ts\`), one per
line, synthesised from the small libraries in \`corpus/libraries/\`. Rebuilt with

\`\`\`sh
${command}
\`\`\`

which is deterministic: the same corpus and the same seed (${s.seed}) give the same files, byte for byte.
Check them with \`npx webswe tasks validate public/tasks/test.jsonl\` (and \`train.jsonl\`).

## How a task is made

- **Mutants.** acorn parses each \`src/\` file; every site of every operator gives one mutant, made by splicing the
  source text at the node's position, so the gold patch (\`patch\`, mutated → original) changes only that token or line.
  Operators, in the manner of StrykerJS: ${OPERATORS.map((o) => `\`${o}\``).join(', ')} (see \`src/tasks/mutate.ts\`).
  Mutants that give the same text are kept once.
- **Order.** Each operator's mutants are shuffled with \`Rng(hash(seed:library))\` and dealt out round-robin over
  the operators, so every operator is tried early.
- **Kept only when validated** in the node sandbox: at least one test fails (FAIL_TO_PASS), at least one passes
  (PASS_TO_PASS), every test is still reported, three runs agree, no run hits the time limit (the test process's
  CPU time, which load does not stretch, so a loaded machine builds the same sets; a candidate that hits it is
  tried once more with twice the limit), and the gold patch
  applied in the sandbox gives back the library's own files, whose tests pass three times out of three (checked
  once per library). A mutant no test notices is an equivalent mutant and is dropped.
- **Tiers.** \`easy\`: one mutant. \`hard\`: two kept mutants of the same library on different lines, combined and
  validated again (FAIL_TO_PASS = what the pair breaks); each bug alone already fails a test, so both must be fixed.
  Per library: ${s.per_library} tasks, a third of them hard; the hard tier fills in when easy ones run short.
- **Issue text** (\`problem_statement\`) is written from the failing test run: the call under test and its input
  (found with acorn in the failing test), what came back and what was expected (from node:assert's message; a probe
  run names the assertion when the message fits several), in one of several voices. Hard tasks describe one failure
  per bug. No line numbers, no file paths, no hint of the fix. \`mutation\` (operator, file, line, column, original
  → mutated) is metadata for analysis, never shown to the agent.

## Split rule

By library, never by bug: the library names are sorted, shuffled with \`Rng(seed)\`, and the first
round(25 % × libraries) go to \`test\`; the rest to \`train\`. No library is in both.

- test: ${s.splits.test.libraries.join(', ')}
- train: ${s.splits.train.libraries.join(', ')}

## Counts

| split | libraries | tasks | easy | hard |
|---|---|---|---|---|
${tiers('train')}
${tiers('test')}

| operator (easy tier) | candidates tried | kept | dropped |
|---|---|---|---|
${ops.map((o) => `| ${o} | ${s.operators[o]!.candidates} | ${s.operators[o]!.kept} | ${dropped(s.operators[o]!)} |`).join('\n')}
| hard (two combined) | ${s.hard.candidates} | ${s.hard.kept} | ${dropped(s.hard)} |

Candidates are counted up to the last one a library needed. Drop reasons: \`equivalent\` (no test fails),
\`breaks_all\` (no test passes), \`tests_missing\` (some test no longer reported), \`timeout\`, \`flaky\`,
\`gold_mismatch\`, \`sandbox_error\`.

| library | split | mutants | easy | hard |
|---|---|---|---|---|
${s.libraries.map((l) => `| ${l.name} | ${l.split} | ${l.mutants} | ${l.easy} | ${l.hard} |`).join('\n')}
${skipped.length ? `\nSkipped libraries: ${skipped.map((l) => `${l.name} (${l.skipped})`).join('; ')}.\n` : ''}`;
}

/** Write <out>/train.jsonl, <out>/test.jsonl and <out>/README.md; returns the paths and their sizes. */
export async function writeTaskSets(out: string, tasks: readonly Task[], summary: BuildSummary, command: string): Promise<{ path: string; bytes: number }[]> {
  await mkdir(out, { recursive: true });
  const written: { path: string; bytes: number }[] = [];
  for (const split of ['train', 'test'] as const) {
    const text = tasks.filter((t) => t.split === split).map((t) => formatTaskLine(t) + '\n').join('');
    const path = join(out, `${split}.jsonl`);
    await writeFile(path, text);
    written.push({ path, bytes: Buffer.byteLength(text) });
  }
  const readme = taskSetReadme(summary, command);
  await writeFile(join(out, 'README.md'), readme);
  written.push({ path: join(out, 'README.md'), bytes: Buffer.byteLength(readme) });
  return written;
}
