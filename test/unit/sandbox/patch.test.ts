// Unified diffs over file maps: makeDiff → applyDiff round trips (modified, new, deleted, renamed
// files, missing final newlines), git's own format accepted, and errors that name file, hunk and line.
import { describe, expect, it } from 'vitest';
import { applyDiff, applyDiffTo, makeDiff, parseDiff, PatchError } from '../../../src/sandbox/patch.ts';
import type { FileMap } from '../../../src/sandbox/types.ts';

const lines = (n: number, f = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';

const before: FileMap = {
  'src/roman.js': lines(30),
  'src/old.js': 'export const old = 1;\n',
  'README.md': 'no newline at the end',
};
const after: FileMap = {
  'src/roman.js': lines(30, (i) => (i === 3 ? 'LINE 3' : i === 20 ? 'LINE 20' : `line ${i}`)),
  'src/new.js': 'export const fresh = 2;\n',
  'README.md': 'still no newline, but changed',
};

function expectPatchError(fn: () => unknown, message: RegExp): PatchError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PatchError);
    expect((e as Error).message).toMatch(message);
    return e as PatchError;
  }
  throw new Error('expected a PatchError');
}

describe('makeDiff / applyDiff', () => {
  it('round-trips modified, created and deleted files', () => {
    const diff = makeDiff(before, after);
    expect(diff).toContain('diff --git a/src/new.js b/src/new.js\nnew file mode 100644\n--- /dev/null\n+++ b/src/new.js');
    expect(diff).toContain('diff --git a/src/old.js b/src/old.js\ndeleted file mode 100644\n--- a/src/old.js\n+++ /dev/null');
    expect(diff).toContain('\\ No newline at end of file');
    expect(diff.match(/^@@ /gm)).toHaveLength(5); // roman.js has two separate hunks
    const r = applyDiff(before, diff);
    expect(r.files).toEqual(after);
    expect(r.changed).toEqual(['README.md', 'src/new.js', 'src/old.js', 'src/roman.js']);
  });

  it('is empty for equal maps and leaves the input map untouched', () => {
    expect(makeDiff(before, { ...before })).toBe('');
    const copy = { ...before };
    applyDiff(before, makeDiff(before, after));
    expect(before).toEqual(copy);
  });

  it('creates and deletes empty files', () => {
    const diff = makeDiff({ 'a.txt': '' }, { 'b.txt': '' });
    expect(applyDiff({ 'a.txt': '' }, diff).files).toEqual({ 'b.txt': '' });
  });

  it('applies a patch as git writes it (index line, rename)', () => {
    const git = [
      'diff --git a/src/x.js b/src/y.js',
      'similarity index 80%',
      'rename from src/x.js',
      'rename to src/y.js',
      'index 1111111..2222222 100644',
      '--- a/src/x.js',
      '+++ b/src/y.js',
      '@@ -1,2 +1,2 @@',
      ' a',
      '-b',
      '+B',
      '',
    ].join('\n');
    expect(parseDiff(git)[0]).toMatchObject({ oldPath: 'src/x.js', newPath: 'src/y.js' });
    expect(applyDiff({ 'src/x.js': 'a\nb\n' }, git).files).toEqual({ 'src/y.js': 'a\nB\n' });
  });

  it('fits a hunk whose lines moved (the file grew above it)', () => {
    const diff = makeDiff(before, after);
    const shifted = { ...before, 'src/roman.js': 'header\n' + before['src/roman.js'] };
    expect(applyDiff(shifted, diff).files['src/roman.js']).toBe('header\n' + after['src/roman.js']);
  });
});

describe('applyDiff errors', () => {
  const diff = makeDiff(before, after);

  it('names the file, the hunk, the expected line and what was found', () => {
    const drifted = { ...before, 'src/roman.js': lines(30, (i) => (i === 21 ? 'changed 21' : `line ${i}`)) };
    const e = expectPatchError(() => applyDiff(drifted, diff), /^patch does not apply to src\/roman\.js: hunk 2 expected 'line 21' at line 21, found 'changed 21'$/);
    expect(e.file).toBe('src/roman.js');
    expect(e.hunk).toBe(2);
  });

  it('refuses to modify or delete a missing file, or create an existing one', () => {
    expectPatchError(() => applyDiff(before, makeDiff({ 'x.js': 'a\n' }, { 'x.js': 'b\n' })), /modifies x\.js, which does not exist/);
    expectPatchError(() => applyDiff({ 'README.md': 'x' }, makeDiff({ 'gone.js': 'a\n' }, {})), /deletes gone\.js, which does not exist/);
    expectPatchError(() => applyDiff({ 'src/new.js': 'x\n' }, makeDiff({}, { 'src/new.js': 'y\n' })), /creates src\/new\.js, which already exists/);
  });

  it('refuses paths outside the repo, empty and malformed patches, binary changes', () => {
    const escape = '--- a/../etc/passwd\n+++ b/../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n';
    expectPatchError(() => applyDiff({}, escape), /outside the repository: path "\.\.\/etc\/passwd" leaves the repository/);
    expectPatchError(() => applyDiff({}, ''), /^patch is empty/);
    expectPatchError(() => applyDiff({}, '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n'), /^patch is malformed/);
    expectPatchError(() => applyDiff({}, 'diff --git a/i.png b/i.png\nBinary files a/i.png and b/i.png differ\n'), /binary/);
  });

  it('changes nothing in a live repo when a later file does not apply', async () => {
    const repo: FileMap = { ...before };
    const io = {
      tryRead: async (p: string) => repo[p] ?? null,
      writeFile: async (p: string, t: string) => void (repo[p] = t),
      deleteFile: async (p: string) => void delete repo[p],
    };
    const bad = diff + makeDiff({ 'zzz.js': 'a\n' }, { 'zzz.js': 'b\n' });
    await expect(applyDiffTo(io, bad)).rejects.toThrow(/zzz\.js, which does not exist/);
    expect(repo).toEqual(before);
    await expect(applyDiffTo(io, diff)).resolves.toEqual({ changed: ['README.md', 'src/new.js', 'src/old.js', 'src/roman.js'] });
    expect(repo).toEqual(after);
  });
});
