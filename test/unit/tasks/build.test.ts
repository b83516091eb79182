// The task build end to end: a few tasks from one corpus library, made in the real node sandbox and then
// checked by the validator (`tasks validate`'s core); and the pieces that make the build deterministic
// (the in-order search under concurrency, the library split).
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/random.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import { buildTasks, firstKept, Limiter, splitLibraries } from '../../../src/tasks/build.ts';
import { loadCorpus } from '../../../src/tasks/build.node.ts';
import { formatTaskLine, parseTaskFile } from '../../../src/tasks/schema.ts';
import { validateTasks } from '../../../src/tasks/validate.ts';

describe('buildTasks on one library, in the node sandbox', () => {
  it('makes easy and hard tasks that the validator accepts', { timeout: 120_000 }, async () => {
    const { libraries } = await loadCorpus();
    const roman = libraries.find((l) => l.name === 'roman')!;
    expect(roman.testFiles).toEqual(['test/roman.test.js']);
    expect(Object.keys(roman.files).sort()).toEqual(['package.json', 'src/roman.js', 'test/roman.test.js']);

    const { tasks, summary } = await buildTasks([roman], { seed: 5, perLibrary: 3, concurrency: 2, create: createNodeSandbox }, libraries.map((l) => l.name));
    expect(tasks.map((t) => [t.instance_id, t.difficulty])).toEqual([
      ['roman__1', 'easy'],
      ['roman__2', 'easy'],
      ['roman__3', 'hard'],
    ]);
    const split = splitLibraries(libraries.map((l) => l.name), 5, 0.25).get('roman');
    for (const t of tasks) {
      expect(t.split).toBe(split);
      expect(t.FAIL_TO_PASS.length).toBeGreaterThan(0);
      expect(t.PASS_TO_PASS.length).toBeGreaterThan(0);
      expect(t.patch).toMatch(/^diff --git a\/src\/roman\.js b\/src\/roman\.js\n/);
      expect(t.problem_statement).not.toMatch(/(src|test)\/|\bline \d+|roman\.js/);
    }
    expect((tasks[2]!.mutation as { parts?: unknown[] }).parts).toHaveLength(2);
    expect(summary).toMatchObject({ seed: 5, tasks: 3, hard: { kept: 1 } });
    expect(Object.values(summary.operators).reduce((n, t) => n + t.kept, 0)).toBe(2);

    // The records round-trip through the task file format, and the validator finds every one valid.
    const parsed = parseTaskFile(tasks.map(formatTaskLine).join('\n'), 'built.jsonl');
    expect(parsed.errors).toEqual([]);
    const verdicts = await validateTasks(parsed.tasks, createNodeSandbox, { repeats: 1, concurrency: 2 });
    expect(verdicts.map((v) => [v.instance_id, v.reason])).toEqual(tasks.map((t) => [t.instance_id, 'ok']));
  });
});

describe('determinism', () => {
  it('firstKept picks the same items whatever order the checks finish in', async () => {
    const items = Array.from({ length: 40 }, (_, i) => i);
    const keep = (i: number) => i % 3 !== 0;
    for (const seed of [1, 2, 3]) {
      const rng = new Rng(seed);
      const delays = items.map(() => rng.int(5));
      const r = await firstKept(items, 7, 4, (i) => new Promise<number | 'equivalent'>((res) => setTimeout(() => res(keep(i) ? i : 'equivalent'), delays[i])));
      expect(r.kept).toEqual([1, 2, 4, 5, 7, 8, 10]);
      expect(r.tried.map((t) => t.item)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    }
    expect((await firstKept(items, 100, 3, async (i) => (keep(i) ? i : 'timeout'))).kept).toHaveLength(26);
  });

  it('splits by library: seeded, a quarter to test, none in both', () => {
    const names = Array.from({ length: 32 }, (_, i) => `lib${i}`);
    const a = splitLibraries(names, 1, 0.25);
    expect([...a.values()].filter((s) => s === 'test')).toHaveLength(8);
    expect(splitLibraries([...names].reverse(), 1, 0.25)).toEqual(a);
    expect(splitLibraries(names, 2, 0.25)).not.toEqual(a);
  });

  it('Limiter runs at most n jobs at once', async () => {
    const lim = new Limiter(2);
    let now = 0;
    let peak = 0;
    await Promise.all(Array.from({ length: 8 }, () => lim.run(async () => {
      peak = Math.max(peak, ++now);
      await new Promise((r) => setTimeout(r, 2));
      now--;
    })));
    expect(peak).toBe(2);
  });
});
