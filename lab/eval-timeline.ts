// Where an evaluation's wall time goes (docs/learning.md E138–E139): `webswe eval`'s evaluation with every
// policy call, episode sandbox start, test run and grading timed, and the CPU of the whole machine
// (/proc/stat), of this process and of the sandbox's runner processes (the spawner's reaped children: they
// are not this process's children, so `time` does not count them). Prints, per kind of work, the calls, the
// wall time any of them was in flight (their union), their sum and their spread; then how long generation,
// the sandbox, either or neither was busy. Linux only (/proc). One heavy job: run it on a quiet machine.
//   npx tsx lab/eval-timeline.ts --model runs/m-seed1/weights/rft [--tasks public/tasks/level0/test.jsonl]
//     [--max 96] [--samples 4] [--seed 1] [--threads 2] [--set key=value ...]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Timeline, total, union, type Span as Interval } from '../src/agent/timeline.ts';
import { openBackend } from '../src/cli/backend.ts';
import { readTaskFile } from '../src/cli/task-file.ts';
import { evalBase } from '../src/cli/train.ts';
import { loadModelDir } from '../src/model/load.node.ts';
import { parseOverrides, resolveConfig } from '../src/rl/config.ts';
import { evaluate } from '../src/rl/phases.ts';
import { openPolicyModel, phaseContext, runSandbox } from '../src/rl/session.ts';
import { sandboxFactory } from '../src/sandbox/index.node.ts';
import { spawner } from '../src/sandbox/spawner.node.ts';
import type { Sandbox, SandboxFactory } from '../src/sandbox/types.ts';

const { values: a } = parseArgs({
  options: {
    model: { type: 'string' }, tasks: { type: 'string', default: 'public/tasks/level0/test.jsonl' }, max: { type: 'string', default: '96' },
    samples: { type: 'string', default: '4' }, seed: { type: 'string', default: '1' }, threads: { type: 'string', default: '2' }, set: { type: 'string', multiple: true, default: [] },
  },
});
if (!a.model) throw new Error('--model DIR is required (a run\'s weights/<phase>/ or checkpoint/)');

interface Span extends Interval { kind: string }
const spans: Span[] = [];
async function timed<R>(kind: string, fn: () => Promise<R>): Promise<R> {
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    spans.push({ kind, start: t0, end: performance.now() });
  }
}
/** The episode loop's generation intervals, as they are recorded. */
class Recording extends Timeline {
  override add(kind: 'generation' | 'sandbox', start: number, end: number): void {
    super.add(kind, start, end);
    if (kind === 'generation') spans.push({ kind: 'generation', start, end });
  }
}
/** A factory whose sandboxes time their starts and test runs; an episode's sandbox prestarts, a grader's does not. */
const timedFactory = (create: SandboxFactory): SandboxFactory => async (files, opts) => {
  const role = opts?.prestart ? 'episode' : 'grading';
  const sb = await timed(`${role} sandbox start`, () => create(files, opts));
  const w: Sandbox = Object.create(sb);
  w.runTests = (f, o) => timed(`${role} test run`, () => sb.runTests(f, o));
  return w;
};
const seconds = (ss: readonly Interval[]) => total(ss) / 1000;
/** /proc/PID/stat's utime, stime, cutime, cstime in seconds. */
const procTimes = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ').slice(11, 15).map((x) => Number(x) / 100);
/** The machine's busy and total CPU seconds since boot. */
function machine(): { busy: number; all: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { busy: (f[0]! + f[1]! + f[2]! + f[5]! + f[6]!) / 100, all: f.slice(0, 8).reduce((x, y) => x + y, 0) / 100 };
}

const loaded = await loadModelDir(a.model);
const cfg = resolveConfig(await evalBase(a.model), parseOverrides([`eval.samples=${a.samples}`, `seed=${a.seed}`, ...a.set!]));
const tasks = readTaskFile(a.tasks!, { max: Number(a.max), difficulty: cfg.tasks.difficulty, select: cfg.tasks.select });
const { be } = await openBackend('wasm', a.threads);
const policy = await openPolicyModel(be, loaded, a.model);
const sandbox = timedFactory(runSandbox(cfg, sandboxFactory(cfg.agent.sandbox)));
const m0 = machine(), own0 = process.cpuUsage(), t0 = performance.now();
const ev = (await evaluate(phaseContext(cfg, be, policy, { sandbox, train: [], test: tasks, episodes: { timeline: new Recording() } }), 'eval'))!; // never stopped: no shouldStop
const wall = (performance.now() - t0) / 1000, own = process.cpuUsage(own0), m1 = machine();
const host = (spawner() as unknown as { host: { pid?: number } | null }).host?.pid;
const [sUser = 0, sSys = 0, rUser = 0, rSys = 0] = host ? procTimes(host) : [];

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
console.log(`pass@1 ${pct(ev.stats['pass@1'])} ± ${pct(ev.stats['pass@1_std'])}, pass@${ev.stats.k} ${pct(ev.stats['pass@k'])} on ${ev.stats.tasks} tasks; wall ${wall.toFixed(1)} s`);
console.log(`CPU: machine busy ${(m1.busy - m0.busy).toFixed(1)} s of ${(m1.all - m0.all).toFixed(1)}; this process ${((own.user + own.system) / 1e6).toFixed(1)} s; runner processes ${(rUser + rSys).toFixed(1)} s (user ${rUser.toFixed(1)}, sys ${rSys.toFixed(1)}); spawner ${(sUser + sSys).toFixed(1)} s`);
for (const kind of ['generation', 'episode sandbox start', 'episode test run', 'grading sandbox start', 'grading test run']) {
  const ss = spans.filter((s) => s.kind === kind);
  const ms = ss.map((s) => s.end - s.start).sort((x, y) => x - y);
  const at = (q: number) => (ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0).toFixed(0);
  console.log(`${kind.padEnd(22)} ${String(ss.length).padStart(5)} calls, in flight ${seconds(union(ss)).toFixed(1).padStart(5)} s, sum ${seconds(ss).toFixed(1).padStart(6)} s, median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms`);
}
const gen = union(spans.filter((s) => s.kind === 'generation')), box = union(spans.filter((s) => s.kind !== 'generation'));
const either = seconds(union([...gen, ...box]));
console.log(`busy: generation ${seconds(gen).toFixed(1)} s, sandbox ${seconds(box).toFixed(1)} s, either ${either.toFixed(1)} s, neither ${(wall - either).toFixed(1)} s`);
process.exit(0);
