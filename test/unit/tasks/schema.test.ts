// The task file parser: good lines load, each malformed line is reported with its line and field,
// SWE-bench's JSON-string FAIL_TO_PASS / PASS_TO_PASS are accepted, and the path policy holds.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkTask, formatTaskError, formatTaskLine, parseTaskFile, type Task } from '../../../src/tasks/schema.ts';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/tasks/${name}`, import.meta.url)), 'utf8');

const good: Task = {
  instance_id: 'mini__1',
  repo: 'mini',
  files: { 'src/mini.js': 'export const one = () => 2;\n', 'test/mini.test.js': '' },
  problem_statement: 'one() returns 2',
  patch: 'diff --git a/src/mini.js b/src/mini.js\n',
  test_files: ['test/mini.test.js'],
  FAIL_TO_PASS: ['mini > one'],
  PASS_TO_PASS: [],
};
const line = (over: Record<string, unknown>) => JSON.stringify({ ...good, ...over });

describe('parseTaskFile', () => {
  it('reports every malformed line of malformed.jsonl with its line number and field', () => {
    const r = parseTaskFile(fixture('malformed.jsonl'), 'malformed.jsonl');
    expect(r.tasks.map((t) => t.instance_id)).toEqual(['mini__1', 'mini__11']);
    expect(r.lines).toEqual([1, 11]);
    const got = r.errors.map((e) => [e.line, e.field ?? null]);
    expect(got).toEqual([
      [2, null],
      [3, 'problem_statement'],
      [4, 'FAIL_TO_PASS'],
      [5, 'PASS_TO_PASS'],
      [6, 'test_files'],
      [7, 'files'],
      [8, 'instance_id'],
      [10, null],
      [12, 'files'],
      [13, 'FAIL_TO_PASS'],
      [14, 'repo'],
      [14, 'patch'],
    ]);
    const text = r.errors.map(formatTaskError);
    expect(text[0]).toMatch(/^malformed\.jsonl:2: not valid JSON/);
    expect(text[1]).toBe('malformed.jsonl:3: field problem_statement: is missing');
    expect(text[2]).toMatch(/field FAIL_TO_PASS: expected an array of strings .* got number/);
    expect(text[4]).toMatch(/"test\/other\.test\.js" is not one of the task's files/);
    expect(text[5]).toMatch(/"\.\.\/evil\.js" leaves the repository/);
    expect(text[6]).toMatch(/"mini__1" is already used on line 1/);
    expect(text[8]).toMatch(/backslash/);
  });

  it('accepts FAIL_TO_PASS / PASS_TO_PASS stored as JSON strings, and the optional fields', () => {
    const r = parseTaskFile(line({ FAIL_TO_PASS: '["mini > one"]', PASS_TO_PASS: '[]', split: 'train', difficulty: 2, created_by: 'hand' }), 'x.jsonl');
    expect(r.errors).toEqual([]);
    expect(r.tasks[0]!.FAIL_TO_PASS).toEqual(['mini > one']);
    expect(r.tasks[0]!.PASS_TO_PASS).toEqual([]);
    expect(r.tasks[0]!.split).toBe('train');
  });

  it('skips blank lines and keeps line numbers; ignores unknown SWE-bench fields', () => {
    const r = parseTaskFile(`\n${line({ base_commit: 'abc', hints_text: '' })}\r\n\n`, 'x.jsonl');
    expect(r.errors).toEqual([]);
    expect(r.lines).toEqual([2]);
    expect(Object.keys(r.tasks[0]!)).not.toContain('base_commit');
  });

  it('refuses absolute paths, names in both lists, duplicate names and bad optional fields', () => {
    const problems = (over: Record<string, unknown>) => checkTask({ ...good, ...over }).problems.map((p) => `${p.field}: ${p.message}`);
    expect(problems({ files: { '/etc/passwd': 'x', 'test/mini.test.js': '' } })[0]).toMatch(/^files: path "\/etc\/passwd" is absolute/);
    expect(problems({ files: { './src//a.js': 'x', 'test/mini.test.js': '' } })[0]).toMatch(/not in normal form; write "src\/a\.js"/);
    expect(problems({ PASS_TO_PASS: ['mini > one'] })).toEqual(['PASS_TO_PASS: "mini > one" is also in FAIL_TO_PASS']);
    expect(problems({ FAIL_TO_PASS: ['a', 'a'] })).toEqual(['FAIL_TO_PASS: names "a" twice']);
    expect(problems({ mutation: 'x' })[0]).toMatch(/^mutation: expected/);
    expect(problems({ difficulty: [] })[0]).toMatch(/^difficulty: expected a string or a number, got an array/);
    expect(problems({ test_files: [] })).toEqual(['test_files: expected a non-empty array of paths']);
    expect(checkTask({ ...good }).problems).toEqual([]);
  });

  it('formatTaskLine writes a line that parses back to the same task', () => {
    const t: Task = { ...good, mutation: { operator: 'flip', location: { file: 'src/mini.js', line: 1 } } };
    const r = parseTaskFile(formatTaskLine(t), 'x.jsonl');
    expect(r.tasks[0]).toEqual(t);
    expect(Object.keys(JSON.parse(formatTaskLine(t))).slice(0, 3)).toEqual(['instance_id', 'repo', 'files']);
  });

  it('parses the hand-written fixture without errors', () => {
    const r = parseTaskFile(fixture('handwritten.jsonl'), 'handwritten.jsonl');
    expect(r.errors).toEqual([]);
    expect(r.tasks).toHaveLength(10);
  });
});
