// What every sandbox (node, worker, WebContainer) does the same way around its own process runner:
// the `node …` command line it accepts, test files run one after another under one time limit and
// merged into one RunResult, and the output cap with its marker. Core code.
import { CommandError, exactNamePattern, type RunOptions, type RunResult } from './types.ts';

/** Node options that take code instead of a script. */
export const EVAL_FLAGS: readonly string[] = ['-e', '--eval', '-p', '--print'];

/** A `node …` command line as the sandboxes run it. */
export type NodeCommand =
  | { kind: 'tests'; files: string[] | null } // node --test [FILES] (null: every test file)
  | { kind: 'eval'; args: string[] } // node -e CODE …
  | { kind: 'script'; script: string; args: string[] }; // node FILE ARGS

/** Parse argv, refusing what no sandbox runs (another program, node options that could lift confinement). */
export function parseNodeCommand(argv: readonly string[]): NodeCommand {
  const [cmd, ...args] = argv;
  if (cmd !== 'node') throw new CommandError(`only \`node\` runs in this sandbox (got ${JSON.stringify(cmd ?? '')}); e.g. \`node test/lib.test.js\``);
  if (args[0] === '--test') {
    const given = args.slice(1);
    if (given.some((a) => a.startsWith('-'))) throw new CommandError('`node --test` takes only test files here, no further options');
    return { kind: 'tests', files: given.length ? given : null };
  }
  if (args[0] !== undefined && EVAL_FLAGS.includes(args[0])) return { kind: 'eval', args };
  if (args[0] === undefined || args[0].startsWith('-')) {
    throw new CommandError(`node options are not available in the sandbox (got ${JSON.stringify(args[0] ?? 'no script')}); run \`node FILE [ARGS]\`, \`node --test [FILES]\` or \`node -e CODE\``);
  }
  return { kind: 'script', script: args[0], args: args.slice(1) };
}

/**
 * Test files one after another (one process each), then merged: the time limit is shared by the files
 * (or, with `shareLimit` false, each file's own: a CPU-time clock), a file the limit leaves no time for
 * is reported as not run, and `names` selects tests (Node 20 matches --test-name-pattern against a
 * test's own name: `run` gets the pattern for each name's last " > " part, and the exact full names are
 * kept after).
 */
export async function runTestFiles(
  files: readonly string[],
  options: RunOptions,
  o: { limitMs: number; outputLimit: number; shareLimit?: boolean },
  resolve: (file: string) => string | Promise<string>,
  run: (rel: string, timeoutMs: number, namePattern: string | undefined) => Promise<RunResult>,
): Promise<RunResult> {
  const deadline = o.shareLimit === false ? Infinity : performance.now() + o.limitMs;
  const names = options.names ? new Set(options.names) : undefined;
  const pattern = options.names?.length ? exactNamePattern(options.names.map((n) => n.split(' > ').pop()!)).slice(1) : undefined;
  const runs: RunResult[] = [];
  for (const f of files) {
    const rel = await resolve(f);
    const left = deadline - performance.now();
    if (left <= 0) {
      runs.push({ tests: [], output: `[not run: the time limit was reached before ${rel}]\n`, exitCode: null, timedOut: true, truncated: false, durationMs: 0 });
      break;
    }
    const r = await run(rel, Math.min(left, o.limitMs), pattern);
    runs.push(r);
    if (r.timedOut) break;
  }
  const result = mergeRuns(runs, o.outputLimit);
  if (names) result.tests = result.tests.filter((t) => names.has(t.fullName));
  return result;
}

/** Keeps the first `limit` characters and counts the rest. */
export class CappedText {
  private parts: string[] = [];
  private kept = 0;
  dropped = 0;
  constructor(private readonly limit: number) {}
  push(s: string): void {
    const room = this.limit - this.kept;
    if (room > 0) {
      const piece = s.length <= room ? s : s.slice(0, room);
      this.parts.push(piece);
      this.kept += piece.length;
    }
    this.dropped += Math.max(0, s.length - Math.max(room, 0));
  }
  text(): string {
    const t = this.parts.join('');
    return this.dropped ? `${t}\n[output truncated: ${this.dropped} more characters not shown]\n` : t;
  }
}

/** Several test files' runs as one result: tests in file order, outputs joined under one cap. */
export function mergeRuns(runs: RunResult[], outputLimit: number): RunResult {
  if (runs.length === 0) return { tests: [], output: '', exitCode: 0, timedOut: false, truncated: false, durationMs: 0 };
  if (runs.length === 1) return { ...runs[0]! };
  const joined = runs.map((r) => r.output).join('');
  const cut = joined.length > outputLimit;
  const timed = runs.find((r) => r.timedOut);
  const result: RunResult = {
    tests: runs.flatMap((r) => r.tests),
    output: cut ? `${joined.slice(0, outputLimit)}\n[output truncated: ${joined.length - outputLimit} more characters not shown]\n` : joined,
    exitCode: timed ? null : (runs.find((r) => r.exitCode !== 0)?.exitCode ?? 0),
    timedOut: timed !== undefined,
    truncated: cut || runs.some((r) => r.truncated),
    durationMs: runs.reduce((s, r) => s + r.durationMs, 0),
  };
  if (timed?.running) result.running = timed.running;
  const problems = runs.flatMap((r) => r.problems ?? []);
  if (problems.length) result.problems = problems;
  return result;
}
