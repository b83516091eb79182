// Guess and check (bc.expertGuesses): before the fix the expert tries up to N other one-token changes,
// each tested and undone, and those turns are imitated (no no_train mark). The guesses are the file's
// once-occurring candidates after the bug's, from the list's end (last first), each changed to a same-kind
// replacement and never the fix itself, so with agent.triedHints each guess names the last token of the
// observation before it. Episodes run on bundled level-0 tasks in real node sandboxes, with the sub edit
// command and the bare style.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runEpisodes } from '../../../src/agent/episode.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { ExpertPolicy } from '../../../src/agent/expert.ts';
import { goldPlan, orderedGuesses, subBetween } from '../../../src/agent/expert-plan.ts';
import { fixesFor, onceTokens } from '../../../src/agent/tools.ts';
import { Rng } from '../../../src/random.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';

const FILE = 'public/tasks/level0/val.jsonl';
const tasks = parseTaskFile(readFileSync(FILE, 'utf8'), FILE).tasks.filter((_, i) => i % 25 === 0); // 13 functions
const opts = episodeOptions(resolveConfig({ 'agent.editCommand': 'sub', 'agent.testReport': 'brief', 'agent.maxTurns': 14 }), { sandbox: 'node' });

/** Each task's buggy file, its once-occurring candidates and where the fix's token is among them (-1: not). */
const buggy = tasks.map((task) => {
  const [fp] = goldPlan(task);
  if (!fp || fp.kind !== 'modify') throw new Error(`${task.instance_id}: expected one modified file`);
  const fix = subBetween(fp.before, fp.after);
  const once = onceTokens(fp.before);
  return { fp, once, at: fix ? once.indexOf(fix.old) : -1 };
});

describe("guesses from the list's end", () => {
  it("are the once-occurring candidates after the bug's, last first, each changed once, at most N", () => {
    let some = 0;
    for (const { fp, once, at } of buggy) {
      const gs = orderedGuesses(fp.before, fp.after, 8, new Rng(7));
      if (at < 0 || at === once.length - 1) {
        expect(gs).toEqual([]); // no candidate, or the bug's is the last: nothing to try first
        continue;
      }
      some++;
      expect(gs.map((g) => g.from)).toEqual(once.slice(at + 1).reverse().slice(0, 8).filter((x) => x !== '!'));
      for (const g of gs) expect(g.text).toBe(fp.before.replace(g.from, g.to));
      expect(orderedGuesses(fp.before, fp.after, 2, new Rng(7)).map((g) => g.from)).toEqual(gs.slice(0, 2).map((g) => g.from).filter((x) => x !== '!'));
    }
    expect(some).toBeGreaterThan(2);
  });
  it('with agent.retryFixes, each of the N candidates is changed to every fix of it, then the bug\'s to its fixes before the right one', () => {
    let some = 0;
    for (const { fp, once, at } of buggy) {
      const gs = orderedGuesses(fp.before, fp.after, 3, new Rng(7), true);
      if (at < 0) {
        expect(gs).toEqual([]);
        continue;
      }
      const fix = subBetween(fp.before, fp.after)!;
      const others = once.slice(at + 1).reverse().slice(0, 3).flatMap((from) => fixesFor(from).map((to) => `${from} ${to}`));
      const own = fixesFor(fix.old).slice(0, Math.max(0, fixesFor(fix.old).indexOf(fix.new))).map((to) => `${fix.old} ${to}`);
      expect(gs.map((g) => `${g.from} ${g.to}`)).toEqual([...others, ...own].filter((p) => fp.before.replace(p.split(' ')[0]!, p.split(' ')[1]!) !== fp.after));
      for (const g of gs) expect(g.text).toBe(fp.before.replace(g.from, g.to));
      some += others.length > 3 ? 1 : 0;
    }
    expect(some).toBeGreaterThan(0); // a candidate with two fixes
    expect(orderedGuesses('let a = b * 2;\nreturn a < 3;\n', 'let a = b % 2;\nreturn a < 3;\n', 3, new Rng(1), true).map((g) => `${g.from} ${g.to}`)).toEqual(['3 2', '3 4', '< <=', '< >=', '2 1', '2 3', '* /']); // the bug's * came from %, its second fix
  });
  it('with agent.triedHints an expert names the last token of the observation before each guess', { timeout: 120_000 }, async () => {
    const o = episodeOptions(resolveConfig({ 'agent.editCommand': 'sub', 'agent.testReport': 'brief', 'agent.maxTurns': 30, 'agent.viewHints': true, 'agent.triedHints': true }), { sandbox: 'node' });
    const ts = await runEpisodes(tasks.map((task) => ({ task, seed: 1 })), new ExpertPolicy({ guesses: 8, style: 'bare', editCommand: 'sub' }), createNodeSandbox, o);
    let guessed = 0;
    for (const t of ts) {
      expect(t.reward.tests, t.task_id).toBe(1);
      t.turns.forEach((turn, i) => {
        if (turn.command?.name !== 'sub' || i === 0) return;
        const before = t.turns[i - 1]!;
        if (before.command?.name !== 'undo' && before.command?.name !== 'view') return;
        const last = before.observation.split(/\s/).at(-1);
        const isFix = t.turns.slice(i + 1).every((x) => x.command?.name !== 'undo');
        if (!isFix || last === (turn.command as { old: string }).old) expect((turn.command as { old: string }).old, t.task_id).toBe(last);
        if (!isFix) guessed++;
      });
    }
    expect(guessed).toBeGreaterThan(2);
    expect(new ExpertPolicy({ guesses: 2, style: 'bare', editCommand: 'sub' }).name).toBe("expert(noise=0, bare, sub, guesses ≤ 2 from the list's end)");
  });
});

describe('the guessing expert (node sandbox)', () => {
  it('tries up to N listed candidates (sub, run_tests that fail, undo), all imitated, then fixes the bug and submits', { timeout: 120_000 }, async () => {
    const N = 3;
    const specs = tasks.flatMap((task) => [0, 1, 2].map((seed) => ({ task, seed, id: `${task.instance_id}#${seed}` })));
    const ts = await runEpisodes(specs, new ExpertPolicy({ guesses: N, style: 'bare', editCommand: 'sub' }), createNodeSandbox, opts);
    const counts = new Set<number>();
    for (const t of ts) {
      expect(t.end_reason, t.task_id).toBe('submitted');
      expect(t.reward.tests, t.task_id).toBe(1);
      expect(t.turns.some((x) => x.no_train)).toBe(false);
      const names = t.turns.map((x) => x.command!.name);
      expect(names[0]).toBe('view');
      expect(names.at(-1)).toBe('submit');
      // view, k × (sub, run_tests, undo), sub (the fix), run_tests, submit: unless a guess passes the tests too.
      const k = names.filter((n) => n === 'undo').length;
      counts.add(k);
      expect(k).toBeLessThanOrEqual(N);
      for (let i = 0; i < k; i++) {
        expect(names.slice(1 + 3 * i, 4 + 3 * i)).toEqual(['sub', 'run_tests', 'undo']);
        expect(t.turns[2 + 3 * i]!.exit_code).not.toBe(0); // failing tests, or a guess that hangs (time limit)
      }
      if (names.length === 4 + 3 * k) expect(names.slice(-3)).toEqual(['sub', 'run_tests', 'submit']);
    }
    expect(counts.size).toBeGreaterThan(1); // the number of guesses varies with where the bug's token is listed
    // The same seed gives the same episode; guesses 0 is the plain expert.
    const again = await runEpisodes(specs.slice(0, 3), new ExpertPolicy({ guesses: N, style: 'bare', editCommand: 'sub' }), createNodeSandbox, opts);
    expect(again.map((t) => t.turns.map((x) => x.text))).toEqual(ts.slice(0, 3).map((t) => t.turns.map((x) => x.text)));
    const plain = await runEpisodes(specs.slice(0, 3), new ExpertPolicy({ guesses: 0, style: 'bare', editCommand: 'sub' }), createNodeSandbox, opts);
    for (const t of plain) expect(t.turns.map((x) => x.command!.name)).toEqual(['view', 'sub', 'run_tests', 'submit']);
    expect(() => new ExpertPolicy({ guesses: -1 })).toThrow(/guesses must be an integer ≥ 0/);
    expect(new ExpertPolicy({ guesses: 2, style: 'bare', editCommand: 'sub' }).name).toBe("expert(noise=0, bare, sub, guesses ≤ 2 from the list's end)");
  });
});
