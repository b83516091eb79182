// The commands' effects on a Sandbox: view (numbered windows of at most 100 lines), search (plain
// text across files), replace (exact-once SEARCH/REPLACE), edit (a numbered line range's new text,
// refused when it would leave a JavaScript file that no longer parses), create, run_tests (per-test
// results and failure messages). Each returns the observation text and a status; truncateText cuts
// long ones.
import { ARITH, BOUNDARY, LOGIC, NEGATE, parseModule } from '../tasks/mutate.ts';
import type { Command } from './commands.ts';
import { applyEdits, numbered, splitLines } from './edits.ts';
import { resolveRepoPath, type RunResult, type Sandbox, type TestResult } from '../sandbox/types.ts';
import type { Rng } from '../random.ts';

export const VIEW_WINDOW = 100;
export const SEARCH_MAX_MATCHES = 50;
const LINE_MAX = 200;

export interface ToolContext {
  sandbox: Sandbox;
  /** The task's test files: what run_tests runs. */
  testFiles: readonly string[];
  /** Time limit of one test run, ms. */
  timeoutMs: number;
  /** The open file (the last one view, edit, replace or create acted on), kept by the episode across
   *  turns: view and edit without a PATH use it. */
  open?: { path?: string };
  /** How run_tests reports (default full). */
  report?: TestReport;
  /** A view of a whole file ends with its once-occurring operators and numbers (agent.viewHints). */
  viewHints?: boolean;
  /** An undo's observation ends with the file's once-occurring operators and numbers that no sub has named
   *  in this episode (agent.triedHints); needs `tried`. */
  triedHints?: boolean;
  /** Every sub that changed a file (its OLD and NEW text), in order, kept by the episode (agent.triedHints). */
  tried?: { old: string; new: string }[];
  /** agent.retryFixes: a candidate stays on the not-yet-tried list until each of its fixes (fixesFor) has been
   *  tried, not only until a sub has named it (with triedHints). */
  retryFixes?: boolean;
  /** agent.triedOnRefusal: a refused sub ends with the candidates not yet tried too (with triedHints). */
  triedOnRefusal?: boolean;
  /** agent.subTests: a sub runs the tests after its change, keeps it when every test passes and takes it
   *  back at once when any fails (one turn for sub, run_tests and undo). */
  subTests?: boolean;
  /** What each file change replaced (its path and former text, null for a created file), latest
   *  last, kept by the episode: undo takes back the latest. Without it changes cannot be undone. */
  history?: { path: string; text: string | null }[];
}

/** Write a file and remember what it replaced (for undo). */
async function write(ctx: ToolContext, path: string, text: string, before: string | null): Promise<void> {
  await ctx.sandbox.writeFile(path, text);
  ctx.history?.push({ path, text: before });
}

export type ToolStatus = 'ok' | 'error' | 'timeout';

export interface ToolResult {
  observation: string;
  status: ToolStatus;
  /** run_tests: the test process's exit code (null when killed); other commands: 0 done, 1 refused. */
  exitCode: number | null;
  /** The file a file command acted on (its PATH, or the open file it stood for). */
  file?: string;
}

/** The file a view or edit without PATH means: the open file, else the repository's only source file
 *  (.js outside the tests); refused when there is neither. */
async function implicitPath(ctx: ToolContext, cmd: string): Promise<string> {
  if (ctx.open?.path) return ctx.open.path;
  const sources = (await ctx.sandbox.listFiles()).filter((p) => /\.[cm]?js$/.test(p) && !ctx.testFiles.includes(p) && !/(^|\/)tests?\//.test(p));
  if (sources.length === 1) return sources[0]!;
  throw new CommandError(`no file is open and the repository has ${sources.length} source files: name one, e.g. ${cmd} ${sources[0] ?? 'src/lib.js'}`);
}

class CommandError extends Error {
  override name = 'CommandError';
}

const ok = (observation: string, file?: string): ToolResult => ({ observation, status: 'ok', exitCode: 0, ...(file ? { file } : {}) });
const refused = (observation: string): ToolResult => ({ observation, status: 'error', exitCode: 1 });
const clip = (line: string) => (line.length > LINE_MAX ? `${line.slice(0, LINE_MAX)}… (${line.length - LINE_MAX} more characters)` : line);

async function view(ctx: ToolContext, c: Extract<Command, { name: 'view' }>): Promise<ToolResult> {
  const path = resolveRepoPath(c.path ?? (await implicitPath(ctx, 'view')));
  const text = await ctx.sandbox.readFile(path);
  const lines = splitLines(text).map(clip);
  if (lines.length === 0) return ok(`${path} is empty`, path);
  const start = c.start ?? 1;
  if (start > lines.length) return refused(`${path} has ${lines.length} lines; START (${start}) is past its end`);
  const asked = c.end ?? start + VIEW_WINDOW - 1;
  const end = Math.min(asked, start + VIEW_WINDOW - 1, lines.length);
  const out = [`${path} (lines ${start}-${end} of ${lines.length})`, numbered(lines, start - 1, end - 1)];
  if (c.end !== undefined && asked > start + VIEW_WINDOW - 1 && end < lines.length) out.push(`(at most ${VIEW_WINDOW} lines are shown at once)`);
  if (end < lines.length) out.push(`(${lines.length - end} more lines below: view ${path} ${end + 1} ${Math.min(lines.length, end + VIEW_WINDOW)})`);
  else if (ctx.viewHints && start === 1) {
    // The candidates a one-token sub can name, a few tokens before the action instead of the whole file.
    const once = onceTokens(text);
    if (once.length) out.push(`operators and numbers that occur once: ${once.join(' ')}`);
  }
  return ok(out.join('\n'), path);
}

async function search(ctx: ToolContext, c: Extract<Command, { name: 'search' }>): Promise<ToolResult> {
  const where = c.path === undefined ? '' : resolveRepoPath(c.path, true);
  const files = (await ctx.sandbox.listFiles()).filter((f) => where === '' || f === where || f.startsWith(where + '/'));
  if (files.length === 0) return refused(`no file or folder named ${where} in the repository`);
  const hits: string[] = [];
  let total = 0;
  for (const f of files) {
    const lines = splitLines(await ctx.sandbox.readFile(f));
    lines.forEach((l, i) => {
      if (!l.includes(c.text)) return;
      total++;
      if (hits.length < SEARCH_MAX_MATCHES) hits.push(`${f}:${i + 1}: ${clip(l.trim())}`);
    });
  }
  const scope = where === '' ? 'the repository' : where;
  const shown = JSON.stringify(c.text);
  if (total === 0) return ok(`no matches for ${shown} in ${scope}`);
  const more = total > hits.length ? `\n(${total - hits.length} more matches not shown; search a narrower PATH or longer TEXT)` : '';
  return ok(`${total} match${total === 1 ? '' : 'es'} for ${shown} in ${scope}:\n${hits.join('\n')}${more}`);
}

async function replace(ctx: ToolContext, c: Extract<Command, { name: 'replace' }>): Promise<ToolResult> {
  let text: string;
  try {
    text = await ctx.sandbox.readFile(c.path);
  } catch (e) {
    if (/^no such file/.test((e as Error).message)) return refused(`${(e as Error).message}; replace edits an existing file (use create for a new one)`);
    throw e;
  }
  const path = resolveRepoPath(c.path);
  const r = applyEdits(text, c.edits);
  if (!r.ok) return refused(`${path} unchanged: ${r.error}`);
  await write(ctx, path, r.text, text);
  const lines = splitLines(r.text);
  const parts = r.spans.map((s) => numbered(lines, s.start - 3, s.end + 1));
  const what = c.edits.length === 1 ? `lines ${r.spans[0]!.start}-${r.spans[0]!.end}` : `${c.edits.length} places`;
  return ok(`edited ${path} (${what}); the new text with its neighbours:\n${parts.join('\n…\n')}`, path);
}

/** Why a JavaScript file's text does not parse as a module, or null when it does (or is not JavaScript). */
export function syntaxError(path: string, text: string): string | null {
  if (!/\.[cm]?js$/.test(path)) return null;
  try {
    parseModule(text);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

async function edit(ctx: ToolContext, c: Extract<Command, { name: 'edit' }>): Promise<ToolResult> {
  const path = resolveRepoPath(c.path ?? (await implicitPath(ctx, 'edit')));
  let text: string;
  try {
    text = await ctx.sandbox.readFile(path);
  } catch (e) {
    if (/^no such file/.test((e as Error).message)) return refused(`${(e as Error).message}; edit changes an existing file (use create for a new one)`);
    throw e;
  }
  const lines = splitLines(text);
  if (c.start > lines.length + 1 || c.end > lines.length) {
    return refused(`${path} unchanged: it has ${lines.length} lines; lines ${c.start}-${c.end} are past its end (view ${path} to see the numbers)`);
  }
  const fresh = splitLines(c.content);
  const next = [...lines.slice(0, c.start - 1), ...fresh, ...lines.slice(c.end)];
  const result = next.length ? next.join('\n') + '\n' : '';
  // The lint gate (SWE-agent's): an edit that breaks the syntax of a file that parsed is refused, so a
  // slip costs one turn instead of the episode.
  const broken = syntaxError(path, result);
  if (broken && !syntaxError(path, text)) {
    return refused(`${path} unchanged: after this edit it would not parse (${broken}); lines ${c.start}-${c.end} were:\n${numbered(lines.map(clip), c.start - 1, c.end - 1)}`);
  }
  await write(ctx, path, result, text);
  const shown = numbered(next.map(clip), c.start - 3, c.start - 1 + Math.max(fresh.length, 1));
  const what = fresh.length === 0 ? `deleted lines ${c.start}-${c.end}` : c.end < c.start ? `inserted ${fresh.length} line${fresh.length === 1 ? '' : 's'} at line ${c.start}` : `lines ${c.start}-${c.end} are now ${fresh.length} line${fresh.length === 1 ? '' : 's'}`;
  return ok(`edited ${path} (${what}); the new text with its neighbours:\n${shown}`, path);
}

/** JS operators (longest first) and numbers: what a one-token fix changes. */
const OPERATOR_OR_NUMBER = /===|!==|<=|>=|==|!=|&&|\|\||\?\?|\+\+|--|\+=|-=|\*=|\/=|%=|[<>+\-*/%!]|\b\d+(?:\.\d+)?\b/g;

/** The operators and numbers that occur exactly once in `text` (as sub needs them), in file order. */
export function onceTokens(text: string, max = 16): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(OPERATOR_OR_NUMBER)) {
    const t = m[0];
    if (!out.includes(t) && text.indexOf(t) === text.lastIndexOf(t)) out.push(t);
    if (out.length >= max) break;
  }
  return out;
}

/** A same-kind replacement for an operator: the task world's own mutation tables (a comparison becomes its
 *  boundary twin, an equality its negation), plus the update operators. */
const SWAP: Readonly<Record<string, string>> = {
  ...BOUNDARY, ...Object.fromEntries(['===', '!==', '==', '!='].map((o) => [o, NEGATE[o]!])), ...ARITH, ...LOGIC, '++': '--', '--': '++',
};

/** Every operator replacementFor has a swap for, in a fixed order. */
export const SWAPPABLE: readonly string[] = Object.keys(SWAP);

/** Can a drill name this token (a number, or an operator with a replacement)? */
export const nameable = (token: string) => /^\d+$/.test(token) || token in SWAP;

/** What a guess or a drill changes `token` to: its same-kind operator, or a neighbouring number. */
export function replacementFor(token: string, rng: Rng): string | undefined {
  if (/^\d+$/.test(token)) {
    const n = Number(token);
    return String(n === 0 ? 1 : rng.next() < 0.5 ? n - 1 : n + 1);
  }
  return SWAP[token];
}

/** Every (original, mutated) operator pair of the level-0 mutation tables. */
const MUTATED_FROM: readonly (readonly [string, string])[] = [BOUNDARY, NEGATE, ARITH, LOGIC].flatMap((table) => Object.entries(table));

/**
 * The replacements that undo a level-0 one-token mutation which left `token`, in a fixed order (agent.retryFixes):
 * its same-kind swap first (replacementFor's operator), then every other operator the task world's tables turn
 * into it (`>=` came from `>` by boundary or from `<` by negation: [`>`, `<`]; `*` from `/` or `%`; `&&` from `||`
 * or `??`); a number n came from n − 1 or n + 1 (0 only from 1). Empty for a token no sub can name. Without the
 * order a policy that named the bug's token with one replacement rarely tried the other (docs/learning.md).
 */
export function fixesFor(token: string): string[] {
  if (/^\d+$/.test(token)) {
    const n = Number(token);
    return n === 0 ? ['1'] : [String(n - 1), String(n + 1)];
  }
  const first = SWAP[token];
  if (first === undefined) return [];
  return [first, ...MUTATED_FROM.filter(([, to]) => to === token).map(([from]) => from)].filter((x, i, all) => all.indexOf(x) === i);
}

/** The first of `token`'s fixes (fixesFor) that no sub in `tried` has made, or none. */
export const nextFix = (token: string, tried: readonly { old: string; new: string }[]): string | undefined =>
  fixesFor(token).find((f) => !tried.some((s) => s.old === token && s.new === f));

/** The fixes of `token` that come before `right` in fixesFor's order (none when `right` is not one of them):
 *  what a search that tries them in order makes before it reaches the right one. */
export const fixesBefore = (token: string, right: string): string[] => {
  const fixes = fixesFor(token);
  return fixes.slice(0, Math.max(0, fixes.indexOf(right)));
};

/** Is `token` still to try: no sub has named it, or (retry, for a token with fixes) one of its fixes is untried? */
const untried = (token: string, tried: readonly { old: string; new: string }[], retry: boolean): boolean =>
  retry && fixesFor(token).length ? nextFix(token, tried) !== undefined : !tried.some((s) => s.old === token);

/** The line that ends an observation under agent.triedHints: the file's candidates no sub of the episode has
 *  named yet (agent.retryFixes: not yet with each of their fixes), in file order ('' when there are none, or
 *  without triedHints). */
function untriedLine(ctx: ToolContext, text: string): string {
  const left = ctx.triedHints && ctx.tried ? onceTokens(text).filter((t) => untried(t, ctx.tried!, ctx.retryFixes === true)) : [];
  return left.length ? `\nnot yet tried: ${left.join(' ')}` : '';
}

/** A refused sub's hint (agent.triedOnRefusal): the candidates not yet tried, as an undo and a taken-back sub end under
 *  agent.triedHints, so the guess after a refusal has its list a few tokens before it too. */
const hint = (ctx: ToolContext, text: string): string => (ctx.triedOnRefusal && ctx.triedHints && ctx.tried ? untriedLine(ctx, text) : '');

/** Where `sub OLD NEW` without a line finds OLD: the 0-based line of each hit, overlapping hits counted (`==` is in
 *  `===` twice), so a sub applies only when there is exactly one. */
export function subHits(lines: readonly string[], old: string): number[] {
  return lines.flatMap((l, k) => {
    const hits: number[] = [];
    for (let i = l.indexOf(old); i >= 0; i = l.indexOf(old, i + 1)) hits.push(k);
    return hits;
  });
}

async function sub(ctx: ToolContext, c: Extract<Command, { name: 'sub' }>): Promise<ToolResult> {
  const path = resolveRepoPath(c.path ?? (await implicitPath(ctx, 'sub')));
  let text: string;
  try {
    text = await ctx.sandbox.readFile(path);
  } catch (e) {
    if (/^no such file/.test((e as Error).message)) return refused(`${(e as Error).message}; sub changes an existing file`);
    throw e;
  }
  const lines = splitLines(text);
  const old = JSON.stringify(c.old);
  let at: number;
  if (c.line !== undefined) {
    const line = lines[c.line - 1];
    if (line === undefined) return refused(`${path} unchanged: it has ${lines.length} lines; line ${c.line} is past its end${hint(ctx, text)}`);
    const shown = `${c.line}| ${clip(line)}`;
    const i = line.indexOf(c.old);
    if (i < 0) return refused(`${path} unchanged: ${old} is not on line ${c.line}:\n${shown}${hint(ctx, text)}`);
    if (line.indexOf(c.old, i + 1) >= 0) return refused(`${path} unchanged: ${old} occurs more than once on line ${c.line}; give more of the text around it:\n${shown}${hint(ctx, text)}`);
    at = i;
  } else {
    // Anywhere in the file, once (across lines, so the lines it occurs on can be named).
    const where = subHits(lines, c.old);
    if (where.length === 0) return refused(`${path} unchanged: ${old} is not in the file${hint(ctx, text)}`);
    if (where.length > 1) {
      const on = [...new Set(where.map((k) => k + 1))];
      return refused(`${path} unchanged: ${old} occurs ${where.length} times, on line${on.length === 1 ? '' : 's'} ${on.join(', ')}; name the line, e.g. sub ${on[0]} ${c.old.includes(' ') ? old : c.old} ${JSON.stringify(c.new)}${hint(ctx, text)}`);
    }
    at = lines[where[0]!]!.indexOf(c.old);
    c = { ...c, line: where[0]! + 1 };
  }
  const n = c.line!;
  const next = [...lines];
  next[n - 1] = lines[n - 1]!.slice(0, at) + c.new + lines[n - 1]!.slice(at + c.old.length);
  const result = next.join('\n') + '\n';
  const broken = syntaxError(path, result);
  if (broken && !syntaxError(path, text)) return refused(`${path} unchanged: after this change it would not parse (${broken}); line ${n} is:\n${n}| ${clip(lines[n - 1]!)}${hint(ctx, text)}`);
  await write(ctx, path, result, text);
  ctx.tried?.push({ old: c.old, new: c.new });
  if (ctx.subTests) return testSub(ctx, path, n, text);
  return ok(`edited ${path} (line ${n}); the new text with its neighbours:\n${numbered(next.map(clip), n - 3, n)}`, path);
}

/** What a sub's observation says when agent.subTests took the change back (the file is as before). */
export const TAKEN_BACK = 'the tests fail, so the change was taken back';

/** A run_tests result in which every test passed (formatRun's head says none failed). */
const runPassed = (r: Pick<ToolResult, 'status' | 'exitCode' | 'observation'>) => r.status === 'ok' && r.exitCode === 0 && /^run_tests: 0 failed/.test(r.observation);

/** A recorded turn as the experts read it (the fields of trajectory.ts's TurnRecord they need; written out
 *  here because trajectory.ts imports this module's ToolStatus). */
type Turn = { command: Command | null; status: string; exit_code: number | null; observation: string };

/** Did this turn's tests all pass: a run_tests, or a sub that ran them (agent.subTests) and kept its change? */
export const testsPassed = (t: Turn): boolean =>
  (t.command?.name === 'run_tests' && runPassed({ status: t.status as ToolStatus, exitCode: t.exit_code, observation: t.observation })) ||
  (t.command?.name === 'sub' && t.status === 'ok' && t.exit_code === 0 && /\nrun_tests: 0 failed/.test(t.observation));

/** A sub whose change agent.subTests took back after its tests failed: tested and undone in one turn. */
export const takenBack = (t: Turn): boolean => t.command?.name === 'sub' && t.status !== 'ok' && t.observation.includes(TAKEN_BACK);

/** agent.subTests: the tests after the sub just written to line `n` of `path` (`before` its former text).
 *  Every test passing keeps the change (status ok); otherwise it is taken back at once (status error: the file
 *  is unchanged, as after a refused sub) and, with agent.triedHints, the candidates no sub has named follow.
 *  A taken-back sub reports the counts line alone, not the failures: a guess is then ~30 tokens of context
 *  instead of ~130, which a 1,536-token episode of many guesses would otherwise run out of. */
async function testSub(ctx: ToolContext, path: string, n: number, before: string): Promise<ToolResult> {
  const takeBack = async () => {
    ctx.history?.pop();
    await ctx.sandbox.writeFile(path, before);
  };
  let run: ToolResult;
  try {
    run = await runTests(ctx, { name: 'run_tests' });
  } catch (e) {
    await takeBack(); // a sandbox that failed to run the tests leaves no untested change behind
    throw e;
  }
  if (runPassed(run)) return { observation: `edited ${path} (line ${n}) and ran the tests:\n${run.observation}`, status: 'ok', exitCode: 0, file: path };
  await takeBack();
  const counts = run.observation.split('\n')[0]!;
  return { observation: `edited ${path} (line ${n}) and ran the tests; ${TAKEN_BACK}:\n${counts}${untriedLine(ctx, before)}`, status: 'error', exitCode: run.exitCode };
}

async function undo(ctx: ToolContext): Promise<ToolResult> {
  const last = ctx.history?.pop();
  if (!last) return refused('nothing to undo: no file was changed in this episode');
  if (last.text === null) await ctx.sandbox.deleteFile(last.path);
  else await ctx.sandbox.writeFile(last.path, last.text);
  const lines = splitLines(last.text ?? '');
  if (last.text === null) return ok(`undone: ${last.path} removed again`, last.path);
  // Guess and check: the candidates left, so the next guess is the first of the last list, not one of the
  // view's many (docs/learning.md, finding 27).
  return ok(`undone: ${last.path} is back as it was (${lines.length} lines)${untriedLine(ctx, last.text)}`, last.path);
}

async function create(ctx: ToolContext, c: Extract<Command, { name: 'create' }>): Promise<ToolResult> {
  const path = resolveRepoPath(c.path);
  const before = await ctx.sandbox.readFile(path).then(
    (t) => t,
    (e: Error) => (/^no such file/.test(e.message) ? null : Promise.reject(e)),
  );
  await write(ctx, path, c.content, before);
  const n = splitLines(c.content).length;
  return ok(`${before !== null ? 'overwrote' : 'created'} ${path} (${n} line${n === 1 ? '' : 's'})`, path);
}

/** The sandbox's own test report blocks (formatTestReport); run_tests writes its own summary instead. */
const REPORT = /\n── \d+ tests? reported ──\n[\s\S]*?\npass \d+, fail \d+, skip \d+, todo \d+\n/g;

const EQUAL_HEAD = /^Expected values to be (?:strictly |loosely )?(?:deep-)?equal:?$/;

/** A failure message in fewest lines: node:assert's equality messages ("Expected values to be strictly
 *  deep-equal:" + "A !== B", or a one-line +actual/-expected diff) become "got A, expected B"; other
 *  messages lose their blank lines. Longer diffs keep their +/- lines. */
export function compactFailure(message: string): string[] {
  const lines = message.split('\n').filter((l) => l.trim() !== '');
  if (!lines.length || !EQUAL_HEAD.test(lines[0]!.trim())) return lines;
  const rest = lines.slice(1);
  const ne = rest.length === 1 ? /^(.*\S) !==? (\S.*)$/.exec(rest[0]!.trim()) : null;
  if (ne) return [`got ${ne[1]}, expected ${ne[2]}`];
  // A one-line diff, maybe with node's caret under the first difference.
  const diff = rest.length === 4 && /^\s*\^$/.test(rest[3]!) ? rest.slice(0, 3) : rest;
  if (diff.length === 3 && diff[0]!.trim() === '+ actual - expected' && /^\+ /.test(diff[1]!) && /^- /.test(diff[2]!)) return [`got ${diff[1]!.slice(2)}, expected ${diff[2]!.slice(2)}`];
  return rest;
}

/** A test run as the agent reads it: a summary, failures with messages, the process's output, passes. */
/** How run_tests reports: full (every test, failures with up to 12 lines of message) or brief (the
 *  counts and the first BRIEF_FAILURES failures with two lines each; for small models' contexts). */
export type TestReport = 'full' | 'brief';
export const BRIEF_FAILURES = 3;

export function formatRun(r: RunResult, timeoutMs: number, missing: readonly string[] = [], report: TestReport = 'full'): string {
  const count = (s: TestResult['status']) => r.tests.filter((t) => t.status === s).length;
  const parts = [`${count('fail')} failed`, `${count('pass')} passed`];
  if (count('skip') + count('todo')) parts.push(`${count('skip') + count('todo')} skipped`);
  const head = r.timedOut
    ? `run_tests: stopped at the time limit of ${timeoutMs} ms (${parts.join(', ')} before it)`
    : `run_tests: ${parts.join(', ')} (exit code ${r.exitCode})`;
  const out = [head];
  for (const m of missing) out.push(`(${m} is missing from the repository; the grader runs the original)`);
  const brief = report === 'brief';
  const failed = r.tests.filter((t) => t.status === 'fail');
  for (const t of brief ? failed.slice(0, BRIEF_FAILURES) : failed) {
    out.push(`✖ ${t.fullName}`, ...compactFailure(t.message ?? '').slice(0, brief ? 2 : 12).map((l) => `    ${clip(l)}`));
  }
  if (brief && failed.length > BRIEF_FAILURES) out.push(`(${failed.length - BRIEF_FAILURES} more failing)`);
  if (r.running) out.push(`⧗ ${r.running} (still running at the time limit)`);
  const own = r.output.replace(REPORT, '\n').trim();
  // Brief: the process's own output only when no test was reported (a crash says why).
  if (own && (!brief || r.tests.length === 0)) out.push(r.tests.length === 0 ? 'no test was reported; the test process printed:' : '── output ──', own);
  if (!brief) for (const t of r.tests.filter((t) => t.status !== 'fail')) out.push(`${t.status === 'pass' ? '✔' : '﹣'} ${t.fullName}${t.status === 'pass' ? '' : ` # ${t.status}`}`);
  return out.join('\n');
}

async function runTests(ctx: ToolContext, c: Extract<Command, { name: 'run_tests' }>): Promise<ToolResult> {
  const present = new Set(await ctx.sandbox.listFiles());
  const files = ctx.testFiles.filter((f) => present.has(f));
  const missing = ctx.testFiles.filter((f) => !present.has(f));
  if (files.length === 0) return refused(`the test files (${missing.join(', ')}) are missing from the repository; nothing to run (the grader runs the original tests)`);
  const r = await ctx.sandbox.runTests(files, { timeoutMs: ctx.timeoutMs, ...(c.test !== undefined ? { names: [c.test] } : {}) });
  if (c.test !== undefined && r.tests.length === 0 && !r.timedOut) {
    return refused(`no test named ${JSON.stringify(c.test)} was reported; run run_tests without a name to see every test's full name ("describe > it")`);
  }
  return { observation: formatRun(r, ctx.timeoutMs, missing, ctx.report), status: r.timedOut ? 'timeout' : 'ok', exitCode: r.exitCode };
}

/** Run one parsed command (not submit) and describe what happened. Refusals (bad paths, no match,
 *  missing files) are observations with status 'error', never exceptions. */
export async function runTool(ctx: ToolContext, c: Command): Promise<ToolResult> {
  const r = await runCommand(ctx, c);
  if (r.file && r.status === 'ok' && ctx.open) ctx.open.path = r.file;
  return r;
}

async function runCommand(ctx: ToolContext, c: Command): Promise<ToolResult> {
  try {
    switch (c.name) {
      case 'view':
        return await view(ctx, c);
      case 'search':
        return await search(ctx, c);
      case 'replace':
        return await replace(ctx, c);
      case 'edit':
        return await edit(ctx, c);
      case 'sub':
        return await sub(ctx, c);
      case 'undo':
        return await undo(ctx);
      case 'create':
        return await create(ctx, c);
      case 'run_tests':
        return await runTests(ctx, c);
      case 'submit':
        return ok('submitted');
    }
  } catch (e) {
    const err = e as Error;
    const known = ['PathError', 'CommandError', 'PatchError'].includes(err.name) || /^no such (file|folder)|is a folder/.test(err.message);
    return refused(known ? `${c.name} refused: ${err.message}` : `${c.name} failed: ${err.name}: ${err.message}`);
  }
}

/** `text` cut to `budget` (as `count` measures) by dropping its middle: head and tail are kept, with a
 *  marker saying how many characters were cut. Returns the characters cut (0 when it fits). */
export function truncateText(text: string, budget: number, count: (s: string) => number): { text: string; cut: number } {
  if (count(text) <= budget) return { text, cut: 0 };
  const build = (keep: number) => {
    let head = text.slice(0, Math.ceil(keep * 0.75));
    const nl = head.lastIndexOf('\n');
    if (nl > head.length - 120 && nl > 0) head = head.slice(0, nl + 1); // end the head on a line break
    const tail = text.slice(text.length - (keep - Math.ceil(keep * 0.75)));
    const cut = text.length - head.length - tail.length;
    return { text: `${head}${head.endsWith('\n') ? '' : '\n'}[… ${cut} characters cut …]\n${tail}`, cut };
  };
  let lo = 0;
  let hi = Math.min(text.length - 1, budget * 16);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(build(mid).text) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return build(lo);
}
