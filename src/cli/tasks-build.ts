// `webswe tasks build`: synthesise and validate the bundled task sets from the corpus (src/tasks/build.ts)
// and write <out>/train.jsonl, <out>/test.jsonl and <out>/README.md. Progress on stderr; with --json,
// one summary document on stdout.
import type { Command } from 'commander';
import { SingleBar } from 'cli-progress';
import { relative, resolve } from 'node:path';
import { createNodeSandbox } from '../sandbox/node.node.ts';
import { BUILD_DEFAULTS, buildTasks, type BuildEvent, type Tally } from '../tasks/build.ts';
import { DEFAULT_OUT, loadCorpus, writeTaskSets } from '../tasks/build.node.ts';
import { FUNCTION_WORLD_DEFAULTS, ISSUE_VOICES, voicesFlag, type IssueVoices } from '../tasks/build-functions.ts';
import { buildFunctionLevel, levelOut, loadFunctionCorpus, writeLevel } from '../tasks/build-functions.node.ts';
import { worldSummary } from '../tasks/build-functions.ts';
import { printJson, runCommand, UserError } from './output.ts';

interface BuildFlags {
  level: string;
  seed: string;
  out?: string;
  perLibrary: string;
  jobs: string;
  timeout: string;
  libraries?: string;
  voices?: string;
  json?: boolean;
}

function int(flag: string, v: string, min: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UserError(`${flag} must be an integer ≥ ${min}, got "${v}"`);
  return n;
}

/** A bar on a terminal; else one line per finished library. */
function progress(total: number, libraries: number) {
  const c = { kept: 0, tried: 0, libs: 0 };
  const bar = process.stderr.isTTY
    ? new SingleBar({ format: 'building {bar} {value}/{total} kept | {tried} candidates tried | {libs}/{libraries} libraries', stream: process.stderr, hideCursor: true, clearOnComplete: true })
    : null;
  bar?.start(total, 0, { ...c, libraries });
  return {
    onEvent(e: BuildEvent) {
      if (e.type === 'checked') {
        c.tried++;
        if (e.kept) c.kept++;
        if (!bar && c.tried % 200 === 0) process.stderr.write(`… ${c.kept} kept of ${c.tried} tried\n`);
      } else {
        c.libs++;
        if (!bar) process.stderr.write(`${e.lib}: ${e.skipped ? `skipped (${e.skipped})` : 'done'} — ${c.libs}/${libraries} libraries, ${c.kept} kept of ${c.tried} tried\n`);
      }
      bar?.update(Math.min(c.kept, total), { ...c, libraries });
    },
    stop: () => bar?.stop(),
  };
}

/** Levels 0 and 1: the function corpus, validated, written to <out> (default public/tasks/level<N>). */
async function buildLevel(level: 0 | 1, flags: BuildFlags): Promise<number> {
  const seed = int('--seed', flags.seed, 0);
  const concurrency = int('--jobs', flags.jobs, 1);
  const timeoutMs = int('--timeout', flags.timeout, 100);
  const voices = (flags.voices ?? 'calls') as IssueVoices;
  if (!ISSUE_VOICES.includes(voices)) throw new UserError(`--voices must be one of ${ISSUE_VOICES.join(', ')}, got "${flags.voices}"`);
  const out = resolve(flags.out ?? levelOut(level, voices));
  const started = performance.now();
  process.stderr.write(`checking the function corpus…\n`);
  const corpus = await loadFunctionCorpus();
  for (const s of corpus.skipped) process.stderr.write(`webswe: left out ${s.where}: ${s.reason}\n`);
  const o = { ...FUNCTION_WORLD_DEFAULTS, seed, voices };
  const bar = process.stderr.isTTY ? new SingleBar({ format: 'validating {bar} {value}/{total}', stream: process.stderr, hideCursor: true, clearOnComplete: true }) : null;
  let started_bar = false;
  const b = await buildFunctionLevel(level, corpus, {
    ...o,
    timeoutMs,
    concurrency,
    create: (files, opts) => createNodeSandbox(files, { ...opts, clock: 'cpu' }),
    onVerdict: (_v, done, total) => {
      if (bar && !started_bar) (bar.start(total, 0), (started_bar = true));
      if (bar) bar.update(done);
      else if (done % 500 === 0 || done === total) process.stderr.write(`validated ${done}/${total}\n`);
    },
  }).finally(() => bar?.stop());
  const shownOut = relative(process.cwd(), out) || '.';
  const command = `npx webswe tasks build --level ${level} --seed ${seed}${voicesFlag(voices)}${flags.out ? ` --out ${shownOut}` : ''}`;
  const files = await writeLevel(out, level, b, corpus, o, command);
  const s = worldSummary(b.tasks);
  const wall_s = Math.round((performance.now() - started) / 100) / 10;
  if (flags.json) printJson({ level, ...s, candidates: b.candidates, dropped: b.dropped.length, skipped_functions: corpus.skipped.length, files, wall_s });
  else {
    console.log(`level ${level}: ${s.tasks} tasks from ${s.functions} functions${s.hard ? ` (${s.hard} with two bugs)` : ''} (${b.candidates} candidates; ${b.dropped.length} dropped by the validator)`);
    for (const k of ['train', 'val', 'test'] as const) console.log(`  ${k.padEnd(5)} ${String(s.splits[k].tasks).padStart(6)} tasks  ${String(s.splits[k].functions).padStart(4)} functions`);
    for (const [op, n] of Object.entries(s.operators).sort()) console.log(`  ${op.padEnd(18)} ${n}`);
    for (const f of files) console.log(`wrote ${relative(process.cwd(), f.path)} (${(f.bytes / 1024).toFixed(0)} KiB)`);
    console.log(`${s.tasks} tasks in ${wall_s} s`);
  }
  return s.tasks > 0 ? 0 : 1;
}

const drops = (t: Tally) => Object.entries(t.dropped).map(([r, n]) => `${r} ${n}`).join(', ') || '-';

export function registerTasksBuild(tasks: Command): Command {
  return tasks
    .command('build')
    .description('synthesise bugs in the corpus libraries, keep those validated in the node sandbox, and write train.jsonl, test.jsonl (split by library) and README.md')
    .option('--level <n>', 'the rung of the task world: 0 one function per task, 1 a module of a few functions (both from corpus/functions/), 2 the corpus libraries', '2')
    .option('--seed <n>', 'seed for the candidate order, the split and the issue voices', String(BUILD_DEFAULTS.seed))
    .option('--out <dir>', 'where the sets go (default: public/tasks)')
    .option('--per-library <n>', 'tasks per library, a third of them hard (two bugs)', String(BUILD_DEFAULTS.perLibrary))
    .option('--jobs <n>', 'sandboxes at work at once', String(BUILD_DEFAULTS.concurrency))
    .option('--timeout <ms>', 'time limit per test run (CPU time of the test process on Linux, so load does not change the result)', String(BUILD_DEFAULTS.timeoutMs))
    .option('--libraries <names>', 'only these corpus libraries, comma-separated (the split still covers the whole corpus)')
    .option('--voices <kind>', "levels 0 and 1: the issue text, calls (one sentence per bug: what the call returns and should return) or reports (a user's bug report in one of level 2's voices; default out public/tasks/level<N>-reports)")
    .option('--json', 'print one JSON summary document on stdout')
    .action((flags: BuildFlags) =>
      runCommand(async () => {
        if (!['0', '1', '2'].includes(flags.level)) throw new UserError(`--level must be 0, 1 or 2, got "${flags.level}"`);
        if (flags.level !== '2') return buildLevel(Number(flags.level) as 0 | 1, flags);
        if (flags.voices) throw new UserError('--voices is for levels 0 and 1 (level 2 always writes reports in several voices)');
        const seed = int('--seed', flags.seed, 0);
        const perLibrary = int('--per-library', flags.perLibrary, 1);
        const concurrency = int('--jobs', flags.jobs, 1);
        const timeoutMs = int('--timeout', flags.timeout, 100);
        const out = resolve(flags.out ?? DEFAULT_OUT);
        const { libraries: all, unreadable } = await loadCorpus();
        for (const u of unreadable) process.stderr.write(`webswe: skipping corpus library ${u.name}: ${u.reason}\n`);
        const wanted = flags.libraries?.split(',').map((s) => s.trim()).filter(Boolean);
        const unknown = wanted?.filter((w) => !all.some((l) => l.name === w));
        if (unknown?.length) throw new UserError(`no corpus library named ${unknown.join(', ')}; choose from: ${all.map((l) => l.name).join(', ')}`);
        const libs = wanted ? all.filter((l) => wanted.includes(l.name)) : all;
        const started = performance.now();
        const bar = progress(libs.length * perLibrary, libs.length);
        const { tasks, summary } = await buildTasks(libs, { seed, perLibrary, concurrency, timeoutMs, create: createNodeSandbox, onEvent: (e) => bar.onEvent(e) }, all.map((l) => l.name)).finally(() => bar.stop());
        const shownOut = relative(process.cwd(), out) || '.';
        const command = `npx webswe tasks build --seed ${seed} --per-library ${perLibrary}${flags.out ? ` --out ${shownOut}` : ''}${wanted ? ` --libraries ${wanted.join(',')}` : ''}`;
        const files = await writeTaskSets(out, tasks, summary, command);
        const wall_s = Math.round((performance.now() - started) / 100) / 10;
        if (flags.json) printJson({ ...summary, unreadable, files, wall_s });
        else {
          for (const [k, s] of Object.entries(summary.splits)) console.log(`${k}: ${s.tasks} tasks (${s.easy} easy, ${s.hard} hard) from ${s.libraries.length} libraries`);
          for (const [op, t] of Object.entries(summary.operators)) console.log(`  ${op.padEnd(18)} ${String(t.candidates).padStart(5)} tried ${String(t.kept).padStart(5)} kept   dropped: ${drops(t)}`);
          console.log(`  ${'hard (two bugs)'.padEnd(18)} ${String(summary.hard.candidates).padStart(5)} tried ${String(summary.hard.kept).padStart(5)} kept   dropped: ${drops(summary.hard)}`);
          for (const l of summary.libraries.filter((x) => x.skipped)) console.log(`skipped ${l.name}: ${l.skipped}`);
          for (const f of files) console.log(`wrote ${relative(process.cwd(), f.path)} (${(f.bytes / 1024).toFixed(0)} KiB)`);
          console.log(`${summary.tasks} tasks in ${wall_s} s`);
        }
        return summary.tasks > 0 ? 0 : 1;
      }),
    );
}
