// Git-style unified diffs over file maps: applyDiff (new, deleted, renamed and modified files; errors
// that name the file, the hunk and the line) and makeDiff (before → after as a `diff --git` patch).
// Parsing, hunk fitting and formatting are jsdiff's (`diff` package); this file adds the file-level rules.
import { applyPatch, formatPatch, parsePatch, structuredPatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import { resolveRepoPath, type FileMap } from './types.ts';

/** A diff that does not apply; `file` and `hunk` (1-based) say where when known. */
export class PatchError extends Error {
  override name = 'PatchError';
  constructor(
    message: string,
    readonly file?: string,
    readonly hunk?: number,
  ) {
    super(message);
  }
}

/** One file's change, paths repo-relative; null old path = created, null new path = deleted. */
export interface FileChange {
  oldPath: string | null;
  newPath: string | null;
  patch: StructuredPatch;
}

const DEV_NULL = '/dev/null';

/** 'a/src/x.js' → 'src/x.js' (git's prefixes; a diff without them is taken as repo-relative). */
function stripPrefix(name: string | undefined, prefix: 'a/' | 'b/'): string | null {
  if (name === undefined || name === '') throw new PatchError('patch is malformed: a file section has no ---/+++ file names');
  const bare = name.split('\t')[0]!.trim();
  if (bare === DEV_NULL) return null;
  const rel = bare.startsWith(prefix) ? bare.slice(2) : bare;
  try {
    return resolveRepoPath(rel);
  } catch (e) {
    throw new PatchError(`patch names a file outside the repository: ${(e as Error).message}`);
  }
}

/** Parse a unified diff into per-file changes (throws PatchError when it is not one). */
export function parseDiff(diff: string): FileChange[] {
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(diff);
  } catch (e) {
    throw new PatchError(`patch is malformed: ${(e as Error).message}`);
  }
  patches = patches.filter((p) => p.hunks.length > 0 || p.isGit || p.oldFileName || p.newFileName);
  if (patches.length === 0) throw new PatchError('patch is empty: expected a unified diff with ---/+++ headers and @@ hunks');
  return patches.map((p) => {
    if (p.isBinary) throw new PatchError(`patch changes a binary file (${p.newFileName ?? p.oldFileName}); only text files are supported`);
    const oldPath = p.isCreate ? null : stripPrefix(p.oldFileName, 'a/');
    const newPath = p.isDelete ? null : stripPrefix(p.newFileName, 'b/');
    if (oldPath === null && newPath === null) throw new PatchError('patch is malformed: a file section goes from /dev/null to /dev/null');
    return { oldPath, newPath, patch: p };
  });
}

const show = (s: string | undefined) => (s === undefined ? 'end of file' : `'${s.length > 80 ? s.slice(0, 77) + '...' : s}'`);

/** Why `hunk` does not fit at the line its header states: the first old-side line that differs. */
function explainHunk(lines: string[], hunk: StructuredPatchHunk): string {
  const start = Math.max(hunk.oldStart - 1, 0);
  const old = hunk.lines.filter((l) => l[0] === ' ' || l[0] === '-').map((l) => l.slice(1));
  for (let i = 0; i < old.length; i++) {
    if (lines[start + i] !== old[i]) return `expected ${show(old[i])} at line ${start + i + 1}, found ${show(lines[start + i])}`;
  }
  return `does not match at line ${start + 1} (its end-of-file newline marker does not match the file)`;
}

/** Apply one file's hunks to `source`, or throw naming the first hunk that does not fit. */
function applyHunks(source: string, change: FileChange, file: string): string {
  const out = applyPatch(source, change.patch);
  if (out !== false) return out;
  const lines = source.split('\n');
  const hunks = change.patch.hunks;
  // The first prefix of hunks that fails names the culprit (jsdiff itself only says "false").
  for (let k = 1; k <= hunks.length; k++) {
    if (applyPatch(source, { ...change.patch, hunks: hunks.slice(0, k) }) === false) {
      throw new PatchError(`patch does not apply to ${file}: hunk ${k} ${explainHunk(lines, hunks[k - 1]!)}`, file, k);
    }
  }
  throw new PatchError(`patch does not apply to ${file}: the end-of-file newline does not match`, file, hunks.length);
}

/**
 * Apply a git-style unified diff to a file map. Returns a new map and the paths it changed;
 * throws PatchError (and changes nothing) when any part does not apply.
 */
export function applyDiff(files: FileMap, diff: string): { files: FileMap; changed: string[] } {
  const result: FileMap = { ...files };
  const changed = new Set<string>();
  for (const change of parseDiff(diff)) {
    const { oldPath, newPath } = change;
    let source = '';
    if (oldPath !== null) {
      if (!Object.hasOwn(result, oldPath)) {
        const verb = newPath === null ? 'deletes' : 'modifies';
        throw new PatchError(`patch does not apply to ${oldPath}: it ${verb} ${oldPath}, which does not exist`, oldPath);
      }
      source = result[oldPath]!;
    } else if (newPath !== null && Object.hasOwn(result, newPath)) {
      throw new PatchError(`patch does not apply to ${newPath}: it creates ${newPath}, which already exists`, newPath);
    }
    const text = change.patch.hunks.length ? applyHunks(source, change, (oldPath ?? newPath)!) : source;
    if (newPath === null) {
      if (text !== '') throw new PatchError(`patch does not apply to ${oldPath}: it deletes ${oldPath} but does not remove all of its lines`, oldPath!);
      delete result[oldPath!];
      changed.add(oldPath!);
      continue;
    }
    if (oldPath !== null && oldPath !== newPath && !change.patch.isCopy) {
      delete result[oldPath];
      changed.add(oldPath);
    }
    result[newPath] = text;
    changed.add(newPath);
  }
  return { files: result, changed: [...changed].sort() };
}

/** The git-style unified diff taking `before` to `after` ('' when they are equal). */
export function makeDiff(before: FileMap, after: FileMap, context = 3): string {
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const patches: StructuredPatch[] = [];
  for (const p of paths) {
    const a = Object.hasOwn(before, p) ? before[p]! : null;
    const b = Object.hasOwn(after, p) ? after[p]! : null;
    if (a === b) continue;
    const sp = structuredPatch(a === null ? DEV_NULL : `a/${p}`, b === null ? DEV_NULL : `b/${p}`, a ?? '', b ?? '', undefined, undefined, {
      context,
    });
    sp.isGit = true;
    if (a === null) Object.assign(sp, { isCreate: true, newMode: '100644' });
    if (b === null) Object.assign(sp, { isDelete: true, oldMode: '100644' });
    patches.push(sp);
  }
  return patches.length ? formatPatch(patches) : '';
}

/** What applyDiffTo needs from a sandbox: read (null when absent), write and delete repo files. */
export interface PatchTarget {
  tryRead(path: string): Promise<string | null>;
  writeFile(path: string, text: string): Promise<void>;
  deleteFile(path: string): Promise<void>;
}

/** Apply a diff to a live repo: every hunk is checked before any file is touched. */
export async function applyDiffTo(target: PatchTarget, diff: string): Promise<{ changed: string[] }> {
  const paths = new Set(parseDiff(diff).flatMap((c) => [c.oldPath, c.newPath].filter((p): p is string => p !== null)));
  const current: FileMap = {};
  for (const p of paths) {
    const text = await target.tryRead(p);
    if (text !== null) current[p] = text;
  }
  const { files, changed } = applyDiff(current, diff);
  for (const p of changed) {
    if (Object.hasOwn(files, p)) await target.writeFile(p, files[p]!);
    else await target.deleteFile(p);
  }
  return { changed };
}
