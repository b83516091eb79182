// One confined `node` process for the node sandbox: Node's permission model (reads and writes only
// inside the repo, no child processes or workers), a heap cap, a stripped environment, a time limit
// that kills the whole process group, an output cap, and per-test results from node-reporter.mjs
// (the process's own output, then the report formatted from those results, as every sandbox does).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CappedText } from './runs.ts';
import { spawner } from './spawner.node.ts';
import { deadline } from '../deadline.ts';
import { formatTestReport, type RunResult, type TestResult, type TestStatus } from './types.ts';

/** The reporter module (also the preload that hardens the process) and what it imports: the confined process is
 *  allowed to read these two files outside the repo. */
export const REPORTER_PATH = fileURLToPath(new URL('./node-reporter.mjs', import.meta.url));
export const HARDEN_PATH = fileURLToPath(new URL('./harden.mjs', import.meta.url));

export interface NodeRunSpec {
  /** The repo folder (a real path): the process's cwd and the only place it may read or write. */
  root: string;
  /** Node arguments after the sandbox's own flags: [script, ...args] or ['-e', code]. */
  args: readonly string[];
  timeoutMs: number;
  /** The limit to name when it is hit (a multi-file run gives each file what is left of its limit). */
  limitMs?: number;
  outputLimit: number;
  memoryMb: number;
  /** The repo-relative file the tests come from, recorded on each TestResult. */
  file?: string;
  /** 'cpu': timeoutMs is the process's CPU time (see SandboxOptions.clock); wall time stops it at 10×. */
  clock?: 'wall' | 'cpu';
}

/** Linux clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on every Linux ABI in use). */
const USER_HZ = 100;
const PROC_POLL_MS = 25;

/** CPU milliseconds (user + system) a live process has used, from /proc; null where there is no /proc. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, utime 14, stime 15.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / USER_HZ;
  } catch {
    return null;
  }
}

/** Whether CPU time can be measured here. */
export const CPU_CLOCK = processCpuMs(process.pid) !== null;

/** The whole environment the code under test sees: nothing inherited (no tokens, no NODE_OPTIONS, no PATH). */
export function sandboxEnv(root: string): Record<string, string> {
  return { HOME: root, LANG: 'C.UTF-8', TZ: 'UTC', NO_COLOR: '1' };
}

/** A run's report key: the reporter (node-reporter.mjs) takes it from the environment and deletes it there before
 *  any of the repository's code runs, and writes it on every line; a line without it is not the runner's. */
export const reportKey = (): string => randomBytes(16).toString('hex');

/** Node 20 spells it --experimental-permission; Node 22.13+ made it --permission. */
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';

export function nodeArgs(spec: NodeRunSpec): string[] {
  // Node 20 reads a comma in --allow-fs-read as a list separator.
  for (const p of [spec.root, REPORTER_PATH, HARDEN_PATH]) if (p.includes(',')) throw new Error(`the node sandbox cannot confine a path with a comma in it: ${p}`);
  return [
    '--disable-warning=ExperimentalWarning',
    PERMISSION_FLAG,
    `--allow-fs-read=${spec.root}`,
    `--allow-fs-read=${REPORTER_PATH}`,
    `--allow-fs-read=${HARDEN_PATH}`,
    `--allow-fs-write=${spec.root}`,
    `--max-old-space-size=${spec.memoryMb}`,
    // The reporter first, as a preload: it hardens the process before the repository's code runs.
    `--import=${REPORTER_PATH}`,
    `--test-reporter=${REPORTER_PATH}`,
    '--test-reporter-destination=stderr', // it writes nothing there: its lines go to fd 3
    ...spec.args,
  ];
}

/** The sandbox folder is an implementation detail: show repo-relative paths, as other sandboxes do. */
const repoRelative = (text: string, root: string) => text.split(`file://${root}/`).join('').split(`${root}/`).join('');

interface ReporterLine {
  k: string;
  e: 'result' | 'running';
  path: string[];
  status?: TestStatus;
  message?: string;
  ms?: number;
}

const STATUSES: readonly string[] = ['pass', 'fail', 'skip', 'todo'];
/** Characters a report line may have (a failure message is cut at the output cap long before). */
const REPORT_LINE_LIMIT = 1 << 20;

export function runNode(spec: NodeRunSpec): Promise<RunResult> {
  const started = performance.now();
  const out = new CappedText(spec.outputLimit);
  const tests: TestResult[] = [];
  let running: string[] | undefined;
  let sawTests = false;
  let pending = '';
  // Lines on the report channel without the run's key: the code under test wrote them (it can write to fd 3).
  let foreign = 0;
  const key = reportKey();
  const onReport = (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop()!;
    if (pending.length > REPORT_LINE_LIMIT) (foreign++, (pending = ''));
    for (const l of lines) {
      let r: ReporterLine;
      try {
        r = JSON.parse(l) as ReporterLine;
      } catch {
        if (l !== '') foreign++;
        continue;
      }
      if (r?.k !== key) {
        foreign++;
        continue;
      }
      if (!Array.isArray(r.path) || r.path.some((p) => typeof p !== 'string')) continue;
      sawTests = true;
      if (r.e === 'running') running = r.path;
      else if (r.e === 'result' && STATUSES.includes(r.status!)) {
        const t: TestResult = { fullName: r.path.join(' > '), status: r.status! };
        if (typeof r.message === 'string') t.message = repoRelative(r.message, spec.root);
        if (typeof r.ms === 'number') t.durationMs = r.ms;
        if (spec.file) t.file = spec.file;
        tests.push(t);
      }
    }
  };

  return new Promise((resolve, reject) => {
    // Started by the spawner process (spawner.node.ts), not forked from this one; stdin is closed at once.
    const child = spawner().spawn(process.execPath, nodeArgs(spec), { cwd: spec.root, env: { ...sandboxEnv(spec.root), WEBSWE_REPORT_KEY: key }, fds: 4 });
    child.end();
    let timedOut = false;
    const killGroup = () => child.kill();
    const cpu = spec.clock === 'cpu' && CPU_CLOCK;
    let cpuOver = false;
    // The wall limit (../deadline.ts): an end delivered while this thread was busy (generating for other
    // episodes) is read before the run is called killed.
    const disarm = deadline(cpu ? 10 * spec.timeoutMs : spec.timeoutMs, () => {
      if (child.closed) return;
      timedOut = true;
      killGroup();
    });
    // The CPU clock: poll the process's user + system time (the sandbox forbids it child processes).
    let poll: ReturnType<typeof setInterval> | undefined;
    if (cpu)
      child.onPid = (pid) => {
        if (child.closed) return;
        poll = setInterval(() => {
          const ms = processCpuMs(pid);
          if (ms !== null && ms > spec.timeoutMs) {
            timedOut = cpuOver = true;
            killGroup();
          }
        }, PROC_POLL_MS);
      };
    child.onData = (fd, s) => (fd === 3 ? onReport(s) : out.push(s));
    child.onClose = (code, _signal, error) => {
      disarm();
      clearInterval(poll);
      if (error !== undefined && !timedOut) {
        reject(new Error(`could not start node for the sandbox: ${error}`));
        return;
      }
      if (pending) onReport('\n');
      const limit = Math.round(spec.limitMs ?? spec.timeoutMs);
      if (timedOut) out.push(cpuOver ? `\n[killed: the CPU time limit of ${limit} ms was reached]\n` : `\n[killed: the time limit of ${cpu ? 10 * limit : limit} ms was reached]\n`);
      // The last test (or suite) to start, if it never finished: where the time went.
      const last = running?.join(' > ');
      const hung = timedOut && last !== undefined && !tests.some((t) => t.fullName === last) ? last : undefined;
      const result: RunResult = {
        tests,
        output: repoRelative(out.text(), spec.root) + (sawTests ? formatTestReport(tests, hung) : ''),
        exitCode: timedOut ? null : code,
        timedOut,
        truncated: out.dropped > 0,
        durationMs: performance.now() - started,
      };
      if (hung !== undefined) result.running = hung;
      if (foreign > 0) result.problems = [`${foreign} line(s) on the test report's channel did not come from the test runner`];
      resolve(result);
    };
  });
}
