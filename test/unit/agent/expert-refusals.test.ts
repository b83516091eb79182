// Refusals (bc.expertRefusals): after its first view the expert names, with probability p, an operator the file does
// not hold exactly once, a sub the tool refuses, marked not to imitate; then it reads the file again (imitated) and
// goes on; the refusal takes one guess's place, so the episode is no longer. Episodes run on bundled report-voiced
// level-0 tasks in real node sandboxes with micro-find's agent (no lists, no self-testing sub).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runEpisodes } from '../../../src/agent/episode.ts';
import { ExpertPolicy } from '../../../src/agent/expert.ts';
import { goldPlan, refusedSub } from '../../../src/agent/expert-plan.ts';
import { SWAPPABLE } from '../../../src/agent/tools.ts';
import { Rng } from '../../../src/random.ts';
import { ConfigError, resolveConfig } from '../../../src/rl/config.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';

const FILE = 'public/tasks/level0-reports/val.jsonl';
const tasks = parseTaskFile(readFileSync(FILE, 'utf8'), FILE).tasks.filter((_, i) => i % 25 === 0); // 6 functions
const cfg = resolveConfig({ ...RUN_PRESETS['micro-find']!.overrides, 'agent.sandbox': 'node', 'agent.commandTimeoutMs': 5000 });
const opts = episodeOptions(cfg, { sandbox: 'node' });
/** Hits of `t` as sub counts them: overlapping, line by line (`==` is twice in `===`). */
const occurrences = (text: string, t: string) => text.split('\n').reduce((n, l) => n + [...l].filter((_, i) => l.startsWith(t, i)).length, 0);

describe('refusedSub', () => {
  it('names a swappable operator the file does not hold exactly once, with its swap; none when every one occurs once', () => {
    for (const task of tasks) {
      const fp = goldPlan(task)[0]!;
      if (fp.kind !== 'modify') throw new Error('expected a modified file');
      const seen = new Set<string>();
      for (let s = 0; s < 20; s++) {
        const bad = refusedSub(fp.before, new Rng(s))!;
        expect(SWAPPABLE).toContain(bad.old);
        expect(occurrences(fp.before, bad.old), `${task.instance_id}: ${bad.old}`).not.toBe(1);
        expect(bad.new).not.toBe(bad.old);
        seen.add(bad.old);
      }
      expect(seen.size).toBeGreaterThan(3); // drawn, not one fixed token
    }
    expect(refusedSub(SWAPPABLE.join(' ').replace(/\S+/g, 'x'), new Rng(1))).not.toBeNull();
  });
});

describe('the refusing expert (node sandbox)', () => {
  it('makes a refused sub (not imitated), reads the file again (imitated), then guesses one fewer, fixes and submits', { timeout: 120_000 }, async () => {
    const specs = tasks.flatMap((task) => [0, 1].map((seed) => ({ task, seed, id: `${task.instance_id}#${seed}` })));
    const expert = (refusals: number) => new ExpertPolicy({ guesses: 3, style: 'bare', editCommand: 'sub', refusals });
    const ts = await runEpisodes(specs, expert(1), createNodeSandbox, opts);
    for (const t of ts) {
      expect(t.end_reason, t.task_id).toBe('submitted');
      expect(t.reward.tests, t.task_id).toBe(1);
      const names = t.turns.map((x) => x.command!.name);
      expect(names.slice(0, 3)).toEqual(['view', 'sub', 'view']);
      expect(t.turns[1]!.status).not.toBe('ok');
      expect(t.turns[1]!.observation).toMatch(/unchanged: .* (is not in the file|occurs \d+ times)/);
      expect(t.turns.map((x) => x.no_train === true)).toEqual(t.turns.map((_, i) => i === 1));
      expect(t.turns[2]!.observation).toBe(t.turns[0]!.observation); // the same file, read again
      expect(names.filter((n) => n === 'undo').length).toBeLessThanOrEqual(2); // one guess fewer than 3
      expect(t.turns.length).toBeLessThanOrEqual(12); // the length of an episode of 3 guesses without the refusal
    }
    // refusals 0 is the expert without them: no turn marked, no second view.
    for (const t of await runEpisodes(specs.slice(0, 4), expert(0), createNodeSandbox, opts)) {
      expect(t.turns.some((x) => x.no_train)).toBe(false);
      expect(t.turns.filter((x) => x.command?.name === 'view')).toHaveLength(1);
    }
    // p = 0.5: some episodes refuse, some do not, and the same seed gives the same episode.
    const half = await runEpisodes(specs, expert(0.5), createNodeSandbox, opts);
    const refusing = half.filter((t) => t.turns.some((x) => x.no_train)).length;
    expect(refusing).toBeGreaterThan(0);
    expect(refusing).toBeLessThan(half.length);
    const again = await runEpisodes(specs.slice(0, 4), expert(0.5), createNodeSandbox, opts);
    expect(again.map((t) => t.turns.map((x) => x.text))).toEqual(half.slice(0, 4).map((t) => t.turns.map((x) => x.text)));
    expect(() => new ExpertPolicy({ refusals: 2 })).toThrow(/refusals must be in \[0, 1\]/);
    expect(expert(0.5).name).toBe("expert(noise=0, bare, sub, guesses ≤ 3 from the list's end, refusals=0.5)");
  });
  it('is refused by the config for an edit command other than sub, naming the fix', () => {
    expect(() => resolveConfig({ 'bc.expertRefusals': 0.5, 'agent.editCommand': 'replace' })).toThrow(ConfigError);
    expect(() => resolveConfig({ 'bc.expertRefusals': 0.5, 'agent.editCommand': 'replace' })).toThrow(/set agent.editCommand=sub or bc.expertRefusals=0/);
    expect(resolveConfig({ 'bc.expertRefusals': 0.5, 'agent.editCommand': 'sub' }).bc.expertRefusals).toBe(0.5);
  });
});
