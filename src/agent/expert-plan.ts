// What the scripted expert knows, derived from the gold patch: per file, the SEARCH/REPLACE edits a
// person would write (the changed lines plus just enough neighbours to match once), the enclosing
// function's name, and a plausible wrong first edit (a nearby operator or literal changed instead).
import { diffArrays } from 'diff';
import type { Rng } from '../random.ts';
import { applyDiff } from '../sandbox/patch.ts';
import { LEVEL0_OPERATORS } from '../tasks/levels.ts';
import { enumerateMutants } from '../tasks/mutate.ts';
import type { Task } from '../tasks/schema.ts';
import type { Command, Edit } from './commands.ts';
import { applyEdits, findLines, splitLines } from './edits.ts';
import { fixesBefore, fixesFor, onceTokens, replacementFor, subHits, SWAPPABLE } from './tools.ts';

/** A run of changed lines: [aStart, aEnd) of the old file became [bStart, bEnd) of the new one. */
export interface Change {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

export type FilePlan =
  | { kind: 'modify'; path: string; before: string; after: string; changes: Change[] }
  | { kind: 'create'; path: string; after: string }
  | { kind: 'delete'; path: string };

/** The changed line runs between two texts, in order. */
export function lineChanges(before: string, after: string): Change[] {
  const out: Change[] = [];
  let a = 0, b = 0;
  let cur: Change | null = null;
  for (const part of diffArrays(splitLines(before), splitLines(after))) {
    const n = part.value.length;
    if (!part.added && !part.removed) {
      if (cur) out.push(cur), (cur = null);
      a += n;
      b += n;
      continue;
    }
    cur ??= { aStart: a, aEnd: a, bStart: b, bEnd: b };
    if (part.removed) (a += n), (cur.aEnd = a);
    else (b += n), (cur.bEnd = b);
  }
  if (cur) out.push(cur);
  return out;
}

/** Changes grouped where they lie at most `gap` lines apart: a person views and edits each group. */
export function clusterChanges(changes: readonly Change[], gap = 15): Change[][] {
  const out: Change[][] = [];
  for (const c of changes) {
    const last = out.at(-1);
    if (last && c.aStart - last.at(-1)!.aEnd <= gap) last.push(c);
    else out.push([c]);
  }
  return out;
}

/** `before` with only some of lineChanges(before, after) applied (all of them give `after`). */
export function applyChanges(before: string, after: string, changes: readonly Change[]): string {
  const all = lineChanges(before, after);
  if (changes.length === all.length) return after;
  const A = splitLines(before), B = splitLines(after);
  const out: string[] = [];
  let a = 0;
  for (const c of [...changes].sort((x, y) => x.aStart - y.aStart)) {
    out.push(...A.slice(a, c.aStart), ...B.slice(c.bStart, c.bEnd));
    a = c.aEnd;
  }
  out.push(...A.slice(a));
  return out.join('\n') + (before.endsWith('\n') && out.length ? '\n' : '');
}

/** The gold patch as per-file plans (files in patch order). */
export function goldPlan(task: Task): FilePlan[] {
  const { files, changed } = applyDiff(task.files, task.patch);
  return changed.map((path): FilePlan => {
    const before = task.files[path];
    const after = files[path];
    if (after === undefined) return { kind: 'delete', path };
    if (before === undefined) return { kind: 'create', path, after };
    return { kind: 'modify', path, before, after, changes: lineChanges(before, after) };
  });
}

/** SEARCH/REPLACE edits taking `before` to `after`: each change widened by neighbouring lines until
 *  its old lines occur once (changes whose widened ranges meet are merged). Null when no such edits
 *  reproduce `after` exactly (e.g. only the final newline changed): write the whole file instead. */
export function editsBetween(before: string, after: string): Edit[] | null {
  const A = splitLines(before);
  const B = splitLines(after);
  // Fewest extra lines first; for the same count, more of them above (the line before a change
  // usually says where it is: the `if`, the function header).
  const widen = (c: Change) => {
    for (let extra = c.aStart === c.aEnd ? 1 : 0; ; extra++) {
      for (let up = extra; up >= 0; up--) {
        const lo = c.aStart - up, hi = c.aEnd + extra - up;
        if (lo < 0 || hi > A.length) continue;
        const old = A.slice(lo, hi);
        const whole = lo === 0 && hi === A.length;
        if (whole || (old.some((l) => l.trim() !== '') && findLines(A, old).length === 1)) return { lo, hi, blo: c.bStart - up, bhi: c.bEnd + extra - up };
      }
    }
  };
  const ranges: ReturnType<typeof widen>[] = [];
  let pending = lineChanges(before, after);
  while (pending.length) {
    const c = pending.shift()!;
    const r = widen(c);
    const prev = ranges.at(-1);
    if (prev && prev.hi >= r.lo) {
      // Merge with the previous range and widen the union again.
      ranges.pop();
      pending.unshift({ aStart: prev.lo, aEnd: r.hi, bStart: prev.blo, bEnd: r.bhi });
      continue;
    }
    ranges.push(r);
  }
  const text = (xs: string[]) => xs.map((l) => l + '\n').join('');
  const edits = ranges.map((r) => ({ search: text(A.slice(r.lo, r.hi)), replace: text(B.slice(r.blo, r.bhi)) }));
  const check = applyEdits(before, edits);
  return edits.length && check.ok && check.text === after ? edits : null;
}

/** `edit` commands taking `before` to `after`: one per changed run of lines, bottom to top, so that every
 *  command's line numbers are those of `before` (what the agent last viewed). */
export function lineEditsBetween(path: string, before: string, after: string): Extract<Command, { name: 'edit' }>[] {
  const B = splitLines(after);
  const text = (xs: string[]) => xs.map((l) => l + '\n').join('');
  return lineChanges(before, after)
    .reverse()
    .map((c) => ({ name: 'edit' as const, path, start: c.aStart + 1, end: c.aEnd, content: text(B.slice(c.bStart, c.bEnd)) }));
}

/** Code tokens of a line with their offsets: words, numbers, multi-character operators, single
 *  characters; runs of spaces are tokens too (so the line is covered). */
const TOKEN = /\s+|[A-Za-z_$][\w$]*|\d+(?:\.\d+)?|===|!==|\*\*=|>>>|==|!=|<=|>=|&&|\|\||\?\?|\+\+|--|\+=|-=|\*=|\/=|%=|=>|\*\*|\.\.\.|[^\s]/g;

/** The smallest `sub` taking line `a` to line `b`: the changed characters widened to whole tokens (one
 *  token at least) and then by neighbouring tokens until OLD occurs once on the line; null when the
 *  lines are equal. OLD and NEW have no leading or trailing spaces where the change allows. */
export function subBetween(a: string, b: string): { old: string; new: string } | null {
  if (a === b) return null;
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let q = 0;
  while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  const bounds = [...a.matchAll(TOKEN)].map((m) => ({ s: m.index, e: m.index + m[0].length, space: /^\s/.test(m[0]) }));
  // Token indices covering the changed span [p, a.length − q) of a.
  let i = bounds.findIndex((t) => t.e > p);
  if (i < 0) i = bounds.length - 1;
  let j = bounds.findIndex((t) => t.e >= a.length - q && t.s < Math.max(a.length - q, p + 1));
  if (j < 0 || j < i) j = i;
  // An insertion between tokens: take the token after it (the word a `!` goes before), or the one
  // before when that is a space or the line's end (the `<` an `=` goes after).
  if (a.length - q === p && (bounds[i] === undefined || bounds[i]!.s === p)) {
    if (bounds[i] === undefined || bounds[i]!.space) i = j = Math.max(0, (bounds[i] === undefined ? bounds.length : i) - 1);
  }
  const span = () => {
    // Spaces at the ends of the span are left out when the change is inside it.
    let lo = i, hi = j;
    while (lo < hi && bounds[lo]!.space && bounds[lo]!.e <= p) lo++;
    while (hi > lo && bounds[hi]!.space && bounds[hi]!.s >= a.length - q) hi--;
    const s = bounds[lo]!.s, e = bounds[hi]!.e;
    return { old: a.slice(s, e), new: b.slice(s, b.length - (a.length - e)) };
  };
  for (let grow = 0; grow < bounds.length * 2; grow++) {
    const r = span();
    if (r.old !== '' && a.indexOf(r.old) === a.lastIndexOf(r.old)) return r;
    if (grow % 2 === 0 ? j + 1 < bounds.length : i === 0) j = Math.min(bounds.length - 1, j + 1);
    else i = Math.max(0, i - 1);
  }
  return { old: a, new: b };
}

/** The commands of the chosen kind that take `before` to `after` in the file `path`, or null when the
 *  kind cannot express it (write the whole file then). sub: one `sub` per changed single line, `edit`
 *  for any other change; commands come bottom to top, so each one's line numbers are those the agent
 *  last saw. */
export function fixCommands(kind: 'replace' | 'edit' | 'sub', path: string, before: string, after: string): Command[] | null {
  if (kind === 'replace') {
    const edits = editsBetween(before, after);
    return edits ? [{ name: 'replace', path, edits }] : null;
  }
  const edits = lineEditsBetween(path, before, after);
  if (kind === 'edit') return edits.length ? edits : null;
  const A = splitLines(before);
  return edits.map((e): Command => {
    const lines = splitLines(e.content);
    if (e.end !== e.start || lines.length !== 1) return e;
    const s = subBetween(A[e.start - 1]!, lines[0]!);
    if (!s) return e;
    // The line is named only when OLD occurs elsewhere in the file too.
    const once = before.indexOf(s.old) === before.lastIndexOf(s.old);
    return once ? { name: 'sub', path, old: s.old, new: s.new } : { name: 'sub', path, line: e.start, old: s.old, new: s.new };
  });
}

const NAME_PATTERNS = [
  /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/,
  /^\s*(?:export\s+)?(?:default\s+)?class\s+([A-Za-z_$][\w$]*)/,
  /^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/, // top level only: not a function's locals
  /^\s*(?:static\s+|async\s+|get\s+|set\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{/,
];
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'function', 'return', 'with']);

/** The name of the function, method or class the 0-based line sits in (looking upwards). */
export function enclosingName(lines: readonly string[], line: number): string | undefined {
  for (let i = Math.min(line, lines.length - 1); i >= 0; i--) {
    for (const re of NAME_PATTERNS) {
      const m = re.exec(lines[i]!);
      if (m && !KEYWORDS.has(m[1]!)) return m[1];
    }
  }
  return undefined;
}

/** [start, end) ranges of a line that are inside string literals or a // comment. */
function quoted(line: string): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '/' && line[i + 1] === '/') return out.push([i, line.length]), out;
    if (ch !== '"' && ch !== "'" && ch !== '`') continue;
    let j = i + 1;
    while (j < line.length && line[j] !== ch) j += line[j] === '\\' ? 2 : 1;
    out.push([i, j + 1]);
    i = j;
  }
  return out;
}

/** Words people mix up: a wrong edit may swap one for its partner. */
const PAIRS: Record<string, string> = Object.fromEntries(
  ['next prev', 'head tail', 'lo hi', 'min max', 'left right', 'start end', 'first last', 'push unshift', 'floor ceil', 'width height', 'null undefined']
    .map((p) => p.split(' ') as [string, string])
    .flatMap(([a, b]) => [[a, b], [b, a]]),
);

const MUTATIONS: [RegExp, (s: string) => string][] = [
  [/(?<![=<>!])(<=|>=|<|>)(?![=<>])/g, (s) => ({ '<': '<=', '<=': '<', '>': '>=', '>=': '>' })[s]!],
  [/===|!==/g, (s) => (s === '===' ? '!==' : '===')],
  [/&&|\|\|/g, (s) => (s === '&&' ? '||' : '&&')],
  [/(?<=[\w)\]] )[+-](?= [\w(])/g, (s) => (s === '+' ? '-' : '+')],
  [/(?<![\w.$])\d+(?![\w.])/g, (s) => String(Number(s) + 1)],
  [/\btrue\b|\bfalse\b/g, (s) => (s === 'true' ? 'false' : 'true')],
  [new RegExp(`\\b(${Object.keys(PAIRS).join('|')})\\b`, 'g'), (s) => PAIRS[s]!],
];

export interface WrongEdit {
  /** The file after the wrong edit. */
  text: string;
  /** 0-based line changed. */
  line: number;
  from: string;
  to: string;
}

/** A plausible wrong first edit for `change`: an operator or literal on the buggy lines (outside the
 *  part the fix changes) or on a neighbouring line, so the bug stays. Null when there is none. */
export function wrongEdit(before: string, after: string, change: Change, rng: Rng): WrongEdit | null {
  const A = splitLines(before);
  const B = splitLines(after);
  const sites: { line: number; at: number; from: string; to: string }[] = [];
  const collect = (i: number, avoid: [number, number] | null) => {
    const line = A[i];
    if (line === undefined) return;
    const skip = quoted(line);
    if (avoid) skip.push(avoid);
    for (const [re, mutate] of MUTATIONS) {
      for (const m of line.matchAll(re)) {
        const at = m.index;
        if (skip.some(([s, e]) => at < e && at + m[0].length > s)) continue;
        sites.push({ line: i, at, from: m[0], to: mutate(m[0]) });
      }
    }
  };
  for (let i = change.aStart; i < change.aEnd; i++) {
    // The part of the buggy line the fix rewrites (when the lines pair up one to one).
    const fixed = change.aEnd - change.aStart === change.bEnd - change.bStart ? B[change.bStart + i - change.aStart]! : null;
    let avoid: [number, number] | null = null;
    if (fixed !== null) {
      const old = A[i]!;
      let p = 0;
      while (p < old.length && old[p] === fixed[p]) p++;
      let q = 0;
      while (q < old.length - p && old[old.length - 1 - q] === fixed[fixed.length - 1 - q]) q++;
      avoid = [Math.max(0, p - 1), old.length - q + 1];
    } else avoid = [0, A[i]!.length];
    collect(i, avoid);
  }
  for (let d = 1; d <= 3 && sites.length === 0; d++) for (const i of [change.aStart - d, change.aEnd - 1 + d]) collect(i, null);
  if (sites.length === 0) return null;
  const s = sites[rng.int(sites.length)]!;
  const lines = [...A];
  lines[s.line] = lines[s.line]!.slice(0, s.at) + s.to + lines[s.line]!.slice(s.at + s.from.length);
  return { text: lines.join('\n') + (before.endsWith('\n') ? '\n' : ''), line: s.line, from: s.from, to: s.to };
}

/**
 * The candidates to try before the fix's, in the order guessed: those `listed` (once-occurring operators and numbers,
 * file order, as agent.viewHints lists them) after `fixOld`, from the list's end. Empty when `fixOld` is not listed.
 * The next guess is then always the list's last candidate not yet tried: one answer for the context, a few tokens
 * before the action, not a choice among candidates (docs/learning.md, findings 27 and 29).
 */
export function guessQueue(listed: readonly string[], fixOld: string): string[] {
  const at = listed.indexOf(fixOld);
  return at < 0 ? [] : listed.slice(at + 1).reverse();
}

/**
 * The scripted expert's guesses from the list's end (guessQueue over the file's onceTokens), each changed to a
 * same-kind replacement, at most `n` (a candidate without one is skipped). None when the fix is not a
 * one-token sub of a listed candidate. `retry` (agent.retryFixes): each of the `n` candidates is changed to
 * every fix of it in fixesFor's order, and the fix's own token to those of its fixes before the right one (as
 * a search that cannot see the bug plays it: the replacement is a fixed order, not a coin it cannot call).
 */
export function orderedGuesses(before: string, after: string, n: number, rng: Rng, retry = false): WrongEdit[] {
  const fix = subBetween(before, after);
  const listed = onceTokens(before);
  if (n <= 0 || !fix || !listed.includes(fix.old)) return [];
  const queue = guessQueue(listed, fix.old).slice(0, n);
  const pairs: [string, string | undefined][] = retry
    ? [...queue.flatMap((from) => fixesFor(from).map((to): [string, string] => [from, to])), ...fixesBefore(fix.old, fix.new).map((to): [string, string] => [fix.old, to])]
    : queue.map((from) => [from, replacementFor(from, rng)]);
  return pairs.flatMap(([from, to]) => {
    const i = before.indexOf(from);
    if (to === undefined) return [];
    const text = before.slice(0, i) + to + before.slice(i + from.length);
    return text === after ? [] : [{ text, line: before.slice(0, i).split('\n').length - 1, from, to }];
  });
}

/**
 * A `sub OLD NEW` that the tool refuses in `text` (bc.expertRefusals): OLD is an operator the world swaps that is
 * not in the file, or occurs in it more than once, drawn uniformly; NEW its same-kind swap. The mistake a model
 * that cannot yet copy from the view makes (it names a token of another file); the expert makes it so that the
 * turn after such a refusal is shown. Null when every swappable operator occurs exactly once (no such sub).
 */
export function refusedSub(text: string, rng: Rng): { old: string; new: string } | null {
  const lines = splitLines(text);
  const pool = SWAPPABLE.filter((t) => subHits(lines, t).length !== 1);
  if (pool.length === 0) return null;
  const old = pool[rng.int(pool.length)]!;
  return { old, new: replacementFor(old, rng)! };
}
