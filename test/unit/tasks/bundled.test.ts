// The bundled task sets, structurally (no sandbox, no GPU): both files parse, 2,000+ tasks, unique ids,
// no library in both splits, both difficulty tiers, gold patches that apply to src/ only, issue texts
// without paths or line numbers. Running every task is `webswe tasks validate public/tasks/test.jsonl`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyDiff } from '../../../src/sandbox/patch.ts';
import { parseTaskFile, type Task } from '../../../src/tasks/schema.ts';

const DIR = fileURLToPath(new URL('../../../public/tasks/', import.meta.url));
const load = (split: 'train' | 'test') => parseTaskFile(readFileSync(`${DIR}${split}.jsonl`, 'utf8'), `${split}.jsonl`);
const sets = { train: load('train'), test: load('test') };
const all: Task[] = [...sets.train.tasks, ...sets.test.tasks];

describe('bundled task sets', () => {
  it('parse without errors and hold at least 2,000 tasks', () => {
    expect(sets.train.errors).toEqual([]);
    expect(sets.test.errors).toEqual([]);
    expect(all.length).toBeGreaterThanOrEqual(2000);
    expect(sets.test.tasks.length).toBeGreaterThan(0);
  });

  it('use unique ids, "<repo>__<n>"', () => {
    expect(new Set(all.map((t) => t.instance_id)).size).toBe(all.length);
    for (const t of all) expect(t.instance_id).toMatch(new RegExp(`^${t.repo}__\\d+$`));
  });

  it('split by library: each file holds its own split, no library in both', () => {
    const libs = (ts: Task[]) => new Set(ts.map((t) => t.repo));
    const train = libs(sets.train.tasks);
    for (const l of libs(sets.test.tasks)) expect(train.has(l), l).toBe(false);
    for (const s of ['train', 'test'] as const) for (const t of sets[s].tasks) expect(t.split).toBe(s);
  });

  it('have every difficulty tier in each split', () => {
    for (const s of ['train', 'test'] as const) expect(new Set(sets[s].tasks.map((t) => t.difficulty))).toEqual(new Set(['easy', 'hard']));
    for (const t of all) {
      const parts = (t.mutation as { parts?: unknown[] } | undefined)?.parts;
      expect(t.difficulty === 'hard' ? parts?.length : 1, t.instance_id).toBe(t.difficulty === 'hard' ? 2 : 1);
    }
  });

  it('carry gold patches that apply and change src/ only, and tests that differ before and after', () => {
    for (const t of all) {
      const { files, changed } = applyDiff(t.files, t.patch);
      expect(changed.every((p) => p.startsWith('src/')), t.instance_id).toBe(true);
      expect(changed.some((p) => files[p] !== t.files[p]), t.instance_id).toBe(true);
      expect(t.FAIL_TO_PASS.length, t.instance_id).toBeGreaterThan(0);
      expect(t.PASS_TO_PASS.length, t.instance_id).toBeGreaterThan(0);
      expect(Object.keys(t.files).every((p) => p === 'package.json' || /^(src|test)\//.test(p)), t.instance_id).toBe(true);
    }
  });

  it('describe the bug without file paths, line numbers or the fix', () => {
    for (const t of all) {
      expect(t.problem_statement, t.instance_id).not.toMatch(/(^|[\s`'"(])(\.\.?\/)?(src|test)\/|\bline \d+|\.js:\d+/i);
      expect(t.problem_statement, t.instance_id).not.toMatch(/mutat|diff --git|@@ /i);
    }
  });

  it('match the counts their README states', () => {
    const readme = readFileSync(`${DIR}README.md`, 'utf8');
    expect(readme).toContain(`hold ${all.length} SWE-bench-style tasks`);
    for (const s of ['train', 'test'] as const) {
      const easy = sets[s].tasks.filter((t) => t.difficulty === 'easy').length;
      expect(readme).toContain(`| ${s} | ${new Set(sets[s].tasks.map((t) => t.repo)).size} | ${sets[s].tasks.length} | ${easy} | ${sets[s].tasks.length - easy} |`);
    }
  });
});
