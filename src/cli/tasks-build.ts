// `webswe tasks build`: synthesise and validate the bundled task sets from the corpus (src/tasks/build.ts)
// and write <out>/train.jsonl, <out>/test.jsonl and <out>/README.md. Progress on stderr; with --json,
// one summary document on stdout.
import type { Command } from 'commander';
import { SingleBar } from 'cli-progress';
import { relative, resolve } from 'node:path';
import { createNodeSandbox } from '../sandbox/node.node.ts';
import { BUILD_DEFAULTS, buildTasks, type BuildEvent, type Tally } from '../tasks/build.ts';
import { DEFAULT_OUT, loadCorpus, writeTaskSets } from '../tasks/build.node.ts';
import { printJson, runCommand, UserError } from './output.ts';

interface BuildFlags {
  seed: string;
  out?: string;
  perLibrary: string;
  jobs: string;
  timeout: string;
  libraries?: string;
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

const drops = (t: Tally) => Object.entries(t.dropped).map(([r, n]) => `${r} ${n}`).join(', ') || '-';

export function registerTasksBuild(tasks: Command): Command {
  return tasks
    .command('build')
    .description('synthesise bugs in the corpus libraries, keep those validated in the node sandbox, and write train.jsonl, test.jsonl (split by library) and README.md')
    .option('--seed <n>', 'seed for the candidate order, the split and the issue voices', String(BUILD_DEFAULTS.seed))
    .option('--out <dir>', 'where the sets go (default: public/tasks)')
    .option('--per-library <n>', 'tasks per library, a third of them hard (two bugs)', String(BUILD_DEFAULTS.perLibrary))
    .option('--jobs <n>', 'sandboxes at work at once', String(BUILD_DEFAULTS.concurrency))
    .option('--timeout <ms>', 'time limit per test run (CPU time of the test process on Linux, so load does not change the result)', String(BUILD_DEFAULTS.timeoutMs))
    .option('--libraries <names>', 'only these corpus libraries, comma-separated (the split still covers the whole corpus)')
    .option('--json', 'print one JSON summary document on stdout')
    .action((flags: BuildFlags) =>
      runCommand(async () => {
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
