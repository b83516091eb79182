// Task synthesis: each library's mutants are tried in a seeded order and a candidate is kept only when,
// in a sandbox, some tests fail and some pass, three runs agree and the gold patch gives back the
// library's own files; a hard tier combines two kept bugs; libraries are split train/test as a whole.
// Core code (no Node APIs): the caller passes the libraries' files and a SandboxFactory.
import { makeDiff } from '../sandbox/patch.ts';
import type { FileMap, SandboxFactory, TestResult } from '../sandbox/types.ts';
import { Rng } from '../random.ts';
import { failureFacts, instrumentTests, readProbes, writeIssue, type Failure, type Probe } from './issue-text.ts';
import { applyMutants, candidateOrder, enumerateLibrary, overlaps, type Mutant } from './mutate.ts';
import type { Task } from './schema.ts';
import { BUILD_REPEATS } from './validate.ts';

/** A corpus library: its repo files (package.json, src/, test/) and its test files. */
export interface Library {
  name: string;
  /** The package name users import (package.json "name"). */
  pkg: string;
  files: FileMap;
  testFiles: string[];
}

export interface BuildOptions {
  seed: number;
  /** Tasks per library: a third of them (rounded down) hard; the hard tier fills in when easy ones run short. */
  perLibrary: number;
  /** Sandboxes at work at once. */
  concurrency: number;
  /** Time limit per test run, ms of the test process's CPU time where the sandbox can measure it
   *  (SandboxOptions.clock 'cpu'), so that a loaded machine keeps and drops the same candidates. */
  timeoutMs: number;
  /** Share of the libraries that go to the test split. */
  testFraction: number;
  create: SandboxFactory;
  onEvent?: (e: BuildEvent) => void;
}

export const BUILD_DEFAULTS = Object.freeze({ seed: 1, perLibrary: 70, concurrency: 4, timeoutMs: 4_000, testFraction: 0.25 });
const MEMORY_MB = 256;

export type Tier = 'easy' | 'hard';
export type DropReason = 'equivalent' | 'breaks_all' | 'tests_missing' | 'timeout' | 'flaky' | 'gold_mismatch' | 'sandbox_error';
export type BuildEvent = { type: 'checked'; lib: string; tier: Tier; kept: boolean } | { type: 'library'; lib: string; skipped?: string };

interface Kept {
  mutants: Mutant[];
  files: FileMap;
  patch: string;
  fail: string[];
  pass: string[];
  described: Failure[];
  probes: Map<string, Probe>;
}

export interface Tally {
  candidates: number;
  kept: number;
  dropped: Partial<Record<DropReason, number>>;
}

export interface LibraryReport {
  name: string;
  split: 'train' | 'test';
  easy: number;
  hard: number;
  mutants: number;
  skipped?: string;
}

export interface BuildSummary {
  seed: number;
  per_library: number;
  tasks: number;
  splits: Record<'train' | 'test', { libraries: string[]; tasks: number; easy: number; hard: number }>;
  /** Candidates tried per operator (easy tier) and for the hard tier, what was kept and why the rest was dropped. */
  operators: Record<string, Tally>;
  hard: Tally;
  libraries: LibraryReport[];
}

/** FNV-1a, for seeds derived from names. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The split rule: sort the names, shuffle them with Rng(seed), the first round(n × fraction) (at least one) go to test. */
export function splitLibraries(names: readonly string[], seed: number, testFraction: number): Map<string, 'train' | 'test'> {
  const order = new Rng(seed).shuffle([...names].sort());
  const nTest = Math.max(1, Math.round(order.length * testFraction));
  return new Map(order.map((n, i) => [n, i < nTest ? 'test' : 'train']));
}

/** At most `n` sandbox jobs at once, first come first served. */
export class Limiter {
  private active = 0;
  private queue: (() => void)[] = [];
  constructor(private readonly n: number) {}
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.n) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      return await job();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}

/**
 * The first `k` items (in order) that `test` keeps, testing up to `width` at once. The answer does not
 * depend on timing: items are started in order, and only the prefix up to the k-th kept one counts.
 */
export async function firstKept<T, R>(items: readonly T[], k: number, width: number, test: (x: T) => Promise<R | DropReason>) {
  const results: (R | DropReason | undefined)[] = [];
  let next = 0;
  const prefixDone = () => {
    let c = 0;
    for (let i = 0; i < next && c < k; i++) {
      if (results[i] === undefined) return false;
      if (typeof results[i] !== 'string') c++;
    }
    return c >= k;
  };
  const worker = async () => {
    while (next < items.length && !prefixDone()) {
      const i = next++;
      results[i] = await test(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, width) }, worker));
  const tried: { item: T; result: R | DropReason }[] = [];
  let c = 0;
  for (let i = 0; i < results.length && c < k; i++) {
    tried.push({ item: items[i]!, result: results[i]! });
    if (typeof results[i] !== 'string') c++;
  }
  return { kept: tried.filter((t): t is { item: T; result: R } => typeof t.result !== 'string').map((t) => t.result), tried };
}

const TIMES_OUT = 'its tests time out';
const statusOf = (tests: TestResult[]) => new Map(tests.map((t) => [t.fullName, t.status]));

/** The library's own tests, BUILD_REPEATS times: all must pass, the same names each time. */
async function baseline(lib: Library, o: BuildOptions): Promise<string[] | string> {
  const sb = await o.create(lib.files, { timeoutMs: o.timeoutMs, memoryMb: MEMORY_MB, clock: 'cpu' });
  try {
    let names: string[] | undefined;
    for (let i = 0; i < BUILD_REPEATS; i++) {
      const r = await sb.runTests(lib.testFiles);
      const bad = r.tests.find((t) => t.status !== 'pass');
      if (r.timedOut) return TIMES_OUT;
      if (bad) return `its test '${bad.fullName}' does not pass (${bad.status})`;
      if (r.tests.length < 2) return `it has ${r.tests.length} test(s); at least 2 are needed`;
      const now = r.tests.map((t) => t.fullName);
      if (names && now.join('\n') !== names.join('\n')) return 'its tests differ from run to run';
      names = now;
    }
    return names!;
  } finally {
    await sb.dispose();
  }
}

/**
 * One candidate in a sandbox: BUILD_REPEATS runs that agree, some tests failing and some passing,
 * a probe run when the failure to describe fits several assertions, and the gold patch applied.
 */
async function check(lib: Library, names: string[], mutants: Mutant[], o: BuildOptions, describe: (fail: TestResult[]) => Failure[]): Promise<Kept | DropReason> {
  const files = applyMutants(lib.files, mutants);
  const patch = makeDiff(files, lib.files);
  const sb = await o.create(files, { timeoutMs: o.timeoutMs, memoryMb: MEMORY_MB, clock: 'cpu' });
  try {
    let first: TestResult[] = [];
    for (let i = 0; i < BUILD_REPEATS; i++) {
      const r = await sb.runTests(lib.testFiles);
      if (r.timedOut) return 'timeout';
      if (i === 0) {
        first = r.tests;
        if (!r.tests.some((t) => t.status === 'fail')) return 'equivalent';
        if (!r.tests.some((t) => t.status === 'pass')) return 'breaks_all';
        if (r.tests.map((t) => t.fullName).join('\n') !== names.join('\n')) return 'tests_missing';
      } else {
        const a = statusOf(first);
        const b = statusOf(r.tests);
        if (a.size !== b.size || [...a].some(([n, s]) => b.get(n) !== s)) return 'flaky';
      }
    }
    const fail = first.filter((t) => t.status === 'fail');
    const described = describe(fail);
    const sources = Object.fromEntries(lib.testFiles.map((f) => [f, lib.files[f]!]));
    let probes = new Map<string, Probe>();
    if (described.some((f) => !failureFacts(sources, lib.pkg, f).certain)) {
      for (const f of lib.testFiles) await sb.writeFile(f, instrumentTests(lib.files[f]!, described.map((d) => d.fullName)));
      probes = readProbes((await sb.runTests(lib.testFiles, { names: described.map((d) => d.fullName) })).output);
    }
    // The gold patch must give back the library's own files, whose tests pass (checked by `baseline`).
    await sb.reset();
    await sb.applyPatch(patch);
    for (const p of Object.keys(lib.files)) if ((await sb.readFile(p)) !== lib.files[p]) return 'gold_mismatch';
    const pass = first.filter((t) => t.status === 'pass').map((t) => t.fullName);
    return { mutants, files, patch, fail: fail.map((t) => t.fullName), pass, described, probes };
  } catch {
    return 'sandbox_error';
  } finally {
    await sb.dispose().catch(() => undefined);
  }
}

const toFailure = (t: TestResult): Failure => ({ fullName: t.fullName, message: t.message ?? '', ...(t.file ? { file: t.file } : {}) });

/** For a two-bug candidate: a failure only bug a causes and one only bug b causes, when there are such. */
function describeTwo(fail: TestResult[], a: Kept, b: Kept): Failure[] {
  const only = (x: Kept, y: Kept) => fail.filter((t) => x.fail.includes(t.fullName) && !y.fail.includes(t.fullName));
  const head = only(a, b)[0] ?? only(b, a)[0] ?? fail[0];
  if (!head) return [];
  const other = a.fail.includes(head.fullName) && !b.fail.includes(head.fullName) ? only(b, a) : only(a, b);
  const second = other.find((t) => t.message !== head.message); // none when the first bug masks the second
  return [head, ...(second ? [second] : [])].map(toFailure);
}

const location = (m: Mutant) => ({ operator: m.operator, location: { file: m.file, line: m.line, column: m.column }, original: m.original, mutated: m.mutated });

function toTask(lib: Library, k: Kept, id: string, split: string, tier: Tier, seed: number): Task {
  const sources = Object.fromEntries(lib.testFiles.map((f) => [f, lib.files[f]!]));
  const facts = k.described.map((f) => failureFacts(sources, lib.pkg, f, k.probes.get(f.fullName)));
  const parts = k.mutants.map(location);
  const mutation = parts.length === 1 ? parts[0]! : { operator: parts.map((p) => p.operator).join('+'), location: parts[0]!.location, parts };
  return {
    instance_id: id,
    repo: lib.name,
    files: k.files,
    problem_statement: writeIssue(facts, lib.pkg, new Rng(hash32(`${seed}:${id}`))),
    patch: k.patch,
    test_files: lib.testFiles,
    FAIL_TO_PASS: k.fail,
    PASS_TO_PASS: k.pass,
    split,
    difficulty: tier,
    mutation,
    created_by: `webswe tasks build --seed ${seed}`,
    test_command: `node --test ${lib.testFiles.join(' ')}`,
  };
}

/** One library's tasks: easy ones first, then hard ones, numbered `<name>__1`, `<name>__2`, …. */
export async function buildLibrary(lib: Library, split: 'train' | 'test', o: BuildOptions, limiter: Limiter) {
  const report: LibraryReport = { name: lib.name, split, easy: 0, hard: 0, mutants: 0 };
  const tried: { tier: Tier; operator: string; result: Kept | DropReason }[] = [];
  // A stall under load is not a hang: a time limit (or a sandbox failure) is looked at once more, with twice the time.
  const twice = async <R>(job: (opts: BuildOptions) => Promise<R | DropReason | string>) => {
    const r = await limiter.run(() => job(o));
    return r === 'timeout' || r === 'sandbox_error' || r === TIMES_OUT ? limiter.run(() => job({ ...o, timeoutMs: 2 * o.timeoutMs })) : r;
  };
  const names = await twice((opts) => baseline(lib, opts));
  if (typeof names === 'string') {
    o.onEvent?.({ type: 'library', lib: lib.name, skipped: names });
    return { tasks: [] as Task[], report: { ...report, skipped: names }, tried };
  }
  const rng = new Rng(hash32(`${o.seed}:${lib.name}`));
  const mutants = enumerateLibrary(lib.files);
  report.mutants = mutants.length;
  const nHard = Math.floor(o.perLibrary / 3);
  const run = (tier: Tier, ms: Mutant[], describe: (f: TestResult[]) => Failure[]) =>
    twice((opts) => check(lib, names, ms, opts, describe)).then((r) => (o.onEvent?.({ type: 'checked', lib: lib.name, tier, kept: typeof r !== 'string' }), r as Kept | DropReason));

  const easy = await firstKept(candidateOrder(mutants, rng), o.perLibrary - nHard, o.concurrency, (m) => run('easy', [m], (f) => f.slice(0, 1).map(toFailure)));
  for (const t of easy.tried) tried.push({ tier: 'easy', operator: t.item.operator, result: t.result });

  const pairs: [Kept, Kept][] = [];
  easy.kept.forEach((a, i) => easy.kept.slice(i + 1).forEach((b) => {
    const [x, y] = [a.mutants[0]!, b.mutants[0]!];
    if (!overlaps(x, y) && (x.file !== y.file || x.line !== y.line)) pairs.push([a, b]);
  }));
  const hard = await firstKept(rng.shuffle(pairs), o.perLibrary - easy.kept.length, o.concurrency, ([a, b]) =>
    run('hard', [...a.mutants, ...b.mutants], (f) => describeTwo(f, a, b)),
  );
  for (const t of hard.tried) tried.push({ tier: 'hard', operator: 'hard', result: t.result });

  const tasks = [...easy.kept.map((k) => ['easy', k] as const), ...hard.kept.map((k) => ['hard', k] as const)].map(([tier, k], i) =>
    toTask(lib, k, `${lib.name}__${i + 1}`, split, tier, o.seed),
  );
  Object.assign(report, { easy: easy.kept.length, hard: hard.kept.length });
  o.onEvent?.({ type: 'library', lib: lib.name });
  return { tasks, report, tried };
}

/** Every library's tasks (libraries side by side, sharing `concurrency` sandboxes) and the summary. */
export async function buildTasks(libs: readonly Library[], options: Partial<BuildOptions> & { create: SandboxFactory }, allNames = libs.map((l) => l.name)) {
  const o: BuildOptions = { ...BUILD_DEFAULTS, ...options };
  const splits = splitLibraries(allNames, o.seed, o.testFraction);
  const limiter = new Limiter(o.concurrency);
  // Two libraries at a time: one keeps the sandboxes busy while the other changes phase; each finishes early.
  const libLimiter = new Limiter(2);
  const sorted = [...libs].sort((a, b) => (a.name < b.name ? -1 : 1));
  const results = await Promise.all(sorted.map((lib) => libLimiter.run(() => buildLibrary(lib, splits.get(lib.name) ?? 'train', o, limiter))));
  const tasks = results.flatMap((r) => r.tasks);
  const tally = (): Tally => ({ candidates: 0, kept: 0, dropped: {} });
  const summary: BuildSummary = {
    seed: o.seed,
    per_library: o.perLibrary,
    tasks: tasks.length,
    splits: { train: { libraries: [], tasks: 0, easy: 0, hard: 0 }, test: { libraries: [], tasks: 0, easy: 0, hard: 0 } },
    operators: {},
    hard: tally(),
    libraries: results.map((r) => r.report),
  };
  for (const r of results) {
    const s = summary.splits[r.report.split];
    if (!r.report.skipped) s.libraries.push(r.report.name);
    Object.assign(s, { tasks: s.tasks + r.tasks.length, easy: s.easy + r.report.easy, hard: s.hard + r.report.hard });
    for (const t of r.tried) {
      const y = t.tier === 'hard' ? summary.hard : (summary.operators[t.operator] ??= tally());
      y.candidates++;
      if (typeof t.result === 'string') y.dropped[t.result] = (y.dropped[t.result] ?? 0) + 1;
      else y.kept++;
    }
  }
  return { tasks, summary };
}
