// SEARCH/REPLACE edits on a file's text: each edit's old lines must occur exactly once (whole lines,
// exact characters); a miss names the closest lines in the file, several hits name their lines.
// Edits apply in order, all or nothing. Shared by the `replace` tool and the scripted expert.
import type { Edit } from './commands.ts';

export type EditResult =
  | { ok: true; text: string; /** 1-based first and last line of each edit's new text in the result. */ spans: { start: number; end: number }[] }
  | { ok: false; /** 0-based index of the edit that failed. */ index: number; error: string };

/** A file's lines without the final newline's empty tail: "a\nb\n" → ["a", "b"]. */
export const splitLines = (text: string): string[] => {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

/** 0-based starts of every place `needle` occurs as whole consecutive lines of `hay`. */
export function findLines(hay: readonly string[], needle: readonly string[]): number[] {
  const at: number[] = [];
  if (needle.length === 0) return at;
  for (let i = 0; i + needle.length <= hay.length; i++) {
    let k = 0;
    while (k < needle.length && hay[i + k] === needle[k]) k++;
    if (k === needle.length) at.push(i);
  }
  return at;
}

/** Dice coefficient over character bigrams: 1 for equal strings, 0 for nothing in common. */
function similarity(a: string, b: string): number {
  a = a.trim();
  b = b.trim();
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i + 1 < a.length; i++) grams.set(a.slice(i, i + 2), (grams.get(a.slice(i, i + 2)) ?? 0) + 1);
  let common = 0;
  for (let i = 0; i + 1 < b.length; i++) {
    const g = b.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      common++;
      grams.set(g, n - 1);
    }
  }
  return (2 * common) / (a.length + b.length - 2);
}

/** The window of the file most like `needle`: 0-based start and a score in [0, 1]. */
export function closestLines(hay: readonly string[], needle: readonly string[]): { start: number; score: number } | null {
  const n = Math.min(needle.length, hay.length);
  if (n === 0) return null;
  let best = { start: 0, score: -1 };
  for (let i = 0; i + n <= hay.length; i++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += similarity(hay[i + k]!, needle[k]!);
    if (s > best.score) best = { start: i, score: s };
  }
  return { start: best.start, score: best.score / needle.length };
}

/** Lines `from`..`to` (0-based, inclusive) numbered as `view` numbers them. */
export function numbered(lines: readonly string[], from: number, to: number): string {
  const width = String(to + 1).length;
  const out: string[] = [];
  for (let i = Math.max(0, from); i <= Math.min(to, lines.length - 1); i++) out.push(`${String(i + 1).padStart(width)}| ${lines[i]}`);
  return out.join('\n');
}

function describeMiss(lines: string[], old: string[], which: string): string {
  const near = closestLines(lines, old);
  if (!near || near.score < 0.3) return `${which}: no match: the SEARCH lines do not occur in the file (and nothing close does); view the file and copy the lines exactly`;
  const end = near.start + old.length - 1;
  const ws = old.every((l, k) => lines[near.start + k] !== undefined && l.trim() === lines[near.start + k]!.trim());
  const hint = ws ? ' They match if spaces are ignored: copy the indentation exactly.' : '';
  return `${which}: no match: the SEARCH lines do not occur exactly in the file.${hint} The closest lines are ${near.start + 1}-${end + 1}:\n${numbered(lines, near.start, end)}`;
}

/** Apply `edits` in order to `text`; on any failure nothing is applied and the failing edit is named. */
export function applyEdits(text: string, edits: readonly Edit[]): EditResult {
  let lines = splitLines(text);
  const finalNewline = text === '' || text.endsWith('\n');
  const spans: { start: number; end: number }[] = [];
  for (let e = 0; e < edits.length; e++) {
    const which = edits.length > 1 ? `edit block ${e + 1} of ${edits.length}` : 'the edit block';
    const old = splitLines(edits[e]!.search);
    const neu = splitLines(edits[e]!.replace);
    const at = findLines(lines, old);
    if (at.length === 0) return { ok: false, index: e, error: describeMiss(lines, old, which) };
    if (at.length > 1) {
      const where = at.slice(0, 8).map((i) => i + 1).join(', ') + (at.length > 8 ? ', …' : '');
      return { ok: false, index: e, error: `${which}: ${at.length} matches (at lines ${where}); add neighbouring lines to the SEARCH part so it matches exactly once` };
    }
    const start = at[0]!;
    lines = [...lines.slice(0, start), ...neu, ...lines.slice(start + old.length)];
    // Earlier spans after this edit shift by the change in length.
    const shift = neu.length - old.length;
    for (const s of spans) if (s.start - 1 > start) (s.start += shift), (s.end += shift);
    spans.push({ start: start + 1, end: start + Math.max(neu.length, 1) });
  }
  const out = lines.join('\n') + (finalNewline && lines.length ? '\n' : '');
  return { ok: true, text: out, spans };
}
