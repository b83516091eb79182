// Choosing a run's tasks: the N shortest, or spread (one task of every repository before a second of
// any, in a seeded order), the difficulty tier, and determinism.
import { describe, expect, it } from 'vitest';
import { isTokenFix, selectTasks } from '../../../src/tasks/select.ts';
import type { Task } from '../../../src/tasks/schema.ts';

const task = (repo: string, n: number, size = n): Task => ({
  instance_id: `${repo}__${n}`, repo, files: { 'src/a.js': 'x'.repeat(size) }, problem_statement: 'p', patch: 'd', test_files: ['t'], FAIL_TO_PASS: ['a'], PASS_TO_PASS: [], difficulty: n % 2 ? 'easy' : 'hard',
});
const tasks = [...[1, 2, 3, 4].map((n) => task('a', n)), ...[1, 2].map((n) => task('b', n, 10 + n)), task('c', 1, 50)];

describe('selectTasks', () => {
  it('shortest: the N with the fewest characters, ties by id', () => {
    expect(selectTasks(tasks, { max: 3, difficulty: 'any' }).map((t) => t.instance_id)).toEqual(['a__1', 'a__2', 'a__3']);
    expect(selectTasks(tasks, { max: 0, difficulty: 'hard' }).map((t) => t.instance_id)).toEqual(['a__2', 'a__4', 'b__2']);
  });
  it('spread: every repository once before any twice, the same order for the same seed', () => {
    const three = selectTasks(tasks, { max: 3, difficulty: 'any', select: 'spread', seed: 1 });
    expect(new Set(three.map((t) => t.repo))).toEqual(new Set(['a', 'b', 'c']));
    const all = selectTasks(tasks, { max: 0, difficulty: 'any', select: 'spread', seed: 1 });
    expect(all).toHaveLength(tasks.length);
    expect(all.slice(3, 5).map((t) => t.repo).sort()).toEqual(['a', 'b']);
    expect(selectTasks(tasks, { max: 5, difficulty: 'any', select: 'spread', seed: 1 })).toEqual(all.slice(0, 5));
    expect(selectTasks(tasks, { max: 0, difficulty: 'any', select: 'spread', seed: 2 }).map((t) => t.instance_id)).not.toEqual(all.map((t) => t.instance_id));
  });
  it('token: one-bug tasks whose fix is one token occurring once in its file (sub OLD NEW)', () => {
    const mutant = (src: string, original: string, mutated: string, extra: object = {}): Task => ({
      ...task('m', 1), files: { 'src/m.js': src }, mutation: { operator: 'x', location: { file: 'src/m.js', line: 1, column: 1 }, function: 'm', original, mutated, ...extra } as unknown as Task['mutation'],
    });
    expect(isTokenFix(mutant('return a <= b;', '<', '<='))).toBe(true);
    expect(isTokenFix(mutant('for (let i = 1; i < n; i++) {}', '0', '1'))).toBe(true);
    expect(isTokenFix(mutant('return a <= b || c <= d;', '<', '<='))).toBe(false); // OLD twice: the line must be named
    expect(isTokenFix(mutant('return !(a < b);', 'a < b', '!(a < b)'))).toBe(false); // spaces: quoted
    expect(isTokenFix(mutant("return s + '!';", "'!'", "''"))).toBe(false);
    expect(isTokenFix(mutant('return a <= b;', '<', '<=', { parts: [] }))).toBe(false); // two bugs
    expect(isTokenFix(task('a', 1))).toBe(false); // no mutation record (a library task)
    const set = [mutant('return a <= b;', '<', '<='), mutant('return !(a < b);', 'a < b', '!(a < b)'), task('a', 1)];
    expect(selectTasks(set, { max: 0, difficulty: 'token' })).toEqual([set[0]]);
  });
});
