// The scripted expert: with noise 0 it solves hand-written and corpus-mutation tasks the way a person
// would; with noise 1 it makes a plausible wrong edit, sees the tests fail, and recovers; it is
// deterministic for a seed and varies its wording across seeds. Episodes run in real node sandboxes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runEpisodes } from '../../../src/agent/episode.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { ExpertPolicy, failingTests } from '../../../src/agent/expert.ts';
import { editsBetween, enclosingName, goldPlan, lineChanges, wrongEdit } from '../../../src/agent/expert-plan.ts';
import type { EpisodeView } from '../../../src/agent/policy.ts';
import { Rng } from '../../../src/random.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import { parseTaskFile, type Task } from '../../../src/tasks/schema.ts';

const load = (f: string) => parseTaskFile(readFileSync(f, 'utf8'), f).tasks;
const handwritten = load('test/fixtures/tasks/handwritten.jsonl');
const VALID = ['clamp__1', 'clamp__6', 'clamp__9']; // the fixture's valid tasks (the others are invalid on purpose)
const tasks: Task[] = [...handwritten.filter((t) => VALID.includes(t.instance_id)), ...load('test/fixtures/agent/mutations.jsonl')];
const opts = episodeOptions(resolveConfig(), { sandbox: 'node' });

describe('expert plan', () => {
  it('derives the smallest SEARCH/REPLACE edits that match once', () => {
    const before = 'a\nx = 1\nb\nx = 1\nc\n';
    const after = 'a\nx = 1\nb\nx = 2\nc\n';
    expect(editsBetween(before, after)).toEqual([{ search: 'b\nx = 1\n', replace: 'b\nx = 2\n' }]);
    expect(editsBetween('a\nb\n', 'a\nb\nc\n')).toEqual([{ search: 'b\n', replace: 'b\nc\n' }]);
    expect(editsBetween('a\n', 'a')).toBeNull(); // only the final newline changes: no line edit can say that
  });
  it('merges changes whose widened ranges meet', () => {
    const before = 'q\nw\nq\nw\nq\n';
    const after = 'Q\nw\nQ\nw\nq\n';
    const edits = editsBetween(before, after)!;
    expect(edits).toHaveLength(1);
    expect(edits[0]).toEqual({ search: 'q\nw\nq\nw\n', replace: 'Q\nw\nQ\nw\n' });
  });
  it('names the enclosing function, class or top-level constant (not a local)', () => {
    const lines = ['export const TABLE = [', '];', 'export function toRoman(num) {', '  let out = 1;', '  return out;', '}'];
    expect(enclosingName(lines, 4)).toBe('toRoman');
    expect(enclosingName(lines, 1)).toBe('TABLE');
    expect(enclosingName(['class Trie {', '  insert(word) {', '    x();'], 2)).toBe('insert');
  });
  it('a wrong edit changes a nearby operator or literal but leaves the bug in place', () => {
    const t = tasks.find((x) => x.instance_id === 'clamp__1')!;
    const [fp] = goldPlan(t);
    if (fp?.kind !== 'modify') throw new Error('expected a modify plan');
    for (let seed = 0; seed < 5; seed++) {
      const w = wrongEdit(fp.before, fp.after, fp.changes[0]!, new Rng(seed))!;
      expect(w.text).not.toBe(fp.before);
      expect(w.text).not.toBe(fp.after);
      expect(w.text).toMatch(/return lo;\n {2}return x;/); // the buggy `return lo` is still there
    }
  });
  it('reads failing tests and their messages from a run_tests observation', () => {
    const obs = 'run_tests: 1 failed, 1 passed (exit code 1)\n✖ a > b\n    Expected values to be strictly equal:\n    0 !== 10\n✔ a > c';
    expect(failingTests(obs)).toEqual([{ name: 'a > b', message: 'Expected values to be strictly equal: 0 !== 10' }]);
  });
});

describe('expert episodes (node sandbox)', () => {
  it('with noise 0 solves every task: run the tests, search, view, replace, run the tests, submit (a short single-file repo: view it whole first)', async () => {
    const ts = await runEpisodes(tasks.map((task) => ({ task, seed: 1 })), new ExpertPolicy({ noise: 0 }), createNodeSandbox, opts);
    for (const t of ts) {
      expect({ id: t.task_id, end: t.end_reason, reward: t.reward.total, failed: t.tests.failed }).toEqual({ id: t.task_id, end: 'submitted', reward: 1, failed: [] });
      expect(t.turns.every((x) => x.format_error === null)).toBe(true);
      const sources = Object.keys(t.tests.passed.length ? tasks.find((x) => x.instance_id === t.task_id)!.files : {}).filter((p) => p.startsWith('src/'));
      const short = sources.length === 1 && tasks.find((x) => x.instance_id === t.task_id)!.files[sources[0]!]!.split('\n').length <= 61;
      expect(t.turns[0]!.command).toEqual(short ? { name: 'view', path: sources[0] } : { name: 'run_tests' });
      expect(t.turns.at(-1)!.command).toEqual({ name: 'submit' });
      expect(t.turns.at(-2)!.exit_code).toBe(0); // it checked the fix before submitting
    }
    const names = ts.find((t) => t.task_id === 'clamp__1')!.turns.map((x) => x.command!.name);
    expect(names).toEqual(['view', 'replace', 'run_tests', 'submit']);
    const long = ts.filter((t) => t.turns[0]!.command?.name === 'run_tests' && t.task_id !== 'clamp__9');
    expect(long.length).toBeGreaterThan(0);
    for (const t of long) expect(t.turns.map((x) => x.command!.name).slice(0, 3)).toEqual(['run_tests', 'search', 'view']);
    const created = ts.find((t) => t.task_id === 'clamp__9')!; // the gold patch adds a file
    expect(created.turns.some((x) => x.command?.name === 'create' && x.command.path === 'src/bounds.js')).toBe(true);
  });

  it('with noise 1 makes a wrong edit, sees the failure, recovers; the same seed gives the same episode', async () => {
    const task = tasks.find((t) => t.instance_id === 'roman__1')!;
    const [a, b] = await runEpisodes([{ task, seed: 5 }, { task, seed: 5, id: 'again' }], new ExpertPolicy({ noise: 1 }), createNodeSandbox, opts);
    expect(a!.end_reason).toBe('submitted');
    expect(a!.reward.tests).toBe(1);
    const names = a!.turns.map((x) => x.command!.name);
    expect(names).toEqual(['run_tests', 'search', 'view', 'replace', 'run_tests', 'view', 'replace', 'run_tests', 'submit']);
    expect(a!.turns[4]!.exit_code).toBe(1); // the wrong edit did not fix it
    expect(a!.turns[5]!.text).toMatch(/fails|failing|did not help/);
    expect(b!.turns.map((x) => x.text)).toEqual(a!.turns.map((x) => x.text));
  });

  it('in the terse style runs the same episode (same commands, same edits) with one short sentence a turn', async () => {
    const task = tasks.find((t) => t.instance_id === 'roman__1')!;
    const [full] = await runEpisodes([{ task, seed: 5 }], new ExpertPolicy({ noise: 1 }), createNodeSandbox, opts);
    const [terse] = await runEpisodes([{ task, seed: 5 }], new ExpertPolicy({ noise: 1, style: 'terse' }), createNodeSandbox, opts);
    expect(new ExpertPolicy({ style: 'terse' }).name).toBe('expert(noise=0, terse)');
    expect(terse!.reward.tests).toBe(1);
    expect(terse!.turns.map((x) => x.command)).toEqual(full!.turns.map((x) => x.command));
    const reasons = terse!.turns.map((x) => x.text.slice(0, x.text.indexOf('```')).trim());
    expect(reasons).toEqual(['Run the tests.', expect.stringMatching(/^Find `\w+`\.$/), expect.stringMatching(/^Read src\/roman\.js near line \d+\.$/), expect.stringMatching(/^Try line \d+\.$/),
      'Run the tests.', 'Not that; try again.', expect.stringMatching(/^Fix line \d+\.$/), 'Run the tests.', 'Tests pass. Submit.']);
    expect(terse!.action_tokens).toBeLessThan(full!.action_tokens);
  });

  it('varies its wording across seeds, deterministically', async () => {
    const policy = new ExpertPolicy();
    const view = (seed: number): EpisodeView => ({ id: `v${seed}`, task: tasks[0]!, seed, messages: [], turns: [], maxTokens: 256 });
    const first = await policy.act([0, 1, 2, 3, 4, 5, 6, 7].map(view));
    expect(new Set(first.map((o) => o.text)).size).toBeGreaterThan(1);
    expect((await policy.act([view(3)]))[0]).toEqual(first[3]);
    expect(() => new ExpertPolicy({ noise: 2 })).toThrow(/noise must be in \[0, 1\]/);
  });

  it('plans every gold change (line runs in order)', () => {
    expect(lineChanges('a\nb\nc\nd\n', 'a\nB\nc\nD\nE\n')).toEqual([
      { aStart: 1, aEnd: 2, bStart: 1, bEnd: 2 },
      { aStart: 3, aEnd: 4, bStart: 3, bEnd: 5 },
    ]);
  });
});
