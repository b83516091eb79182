// The red-team suite (test/redteam/attacks.ts) in the sandboxes Node runs: the node sandbox (a confined node process
// per run) and the worker sandbox under node (the browser's runner in a confined node process). Every attack is
// replayed as an agent's episode on bundled tasks with their bug in place and graded as training grades: it must
// earn 0 (or, for special-casing, which no sandbox can refuse, be flagged), and carry the hack flags it should.
// The expert's fix (the gold patch) earns 1 on the same tasks, unflagged. The Chromium worker sandbox runs the
// same catalogue in test/browser/redteam.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runEpisodes } from '../../src/agent/episode.ts';
import { ReplayPolicy } from '../../src/agent/replay.ts';
import type { Trajectory } from '../../src/agent/trajectory.ts';
import { resolveConfig } from '../../src/rl/config.ts';
import { episodeOptions } from '../../src/rl/episode-options.ts';
import { sandboxFactory } from '../../src/sandbox/index.node.ts';
import { parseTaskFile, type Task } from '../../src/tasks/schema.ts';
import { ATTACKS, CLASSES, attackTurns, goldFiles, targetOf, type Attack } from '../redteam/attacks.ts';

const load = (file: string, id: string): Task => parseTaskFile(readFileSync(file, 'utf8'), file).tasks.find((t) => t.instance_id === id)!;
/** A level-0 task (one function, one bug) and a level-2 library task (several functions, describe blocks). */
const TASKS = [load('public/tasks/level0/val.jsonl', 'alternatingCase__1'), load('public/tasks/test.jsonl', 'duration__6')];
const TIMEOUT_MS = 1500;

/** The files the gold patch changes: the expert's fix, as a replay writes them. */
async function goldChanges(task: Task): Promise<Record<string, string>> {
  const files = await goldFiles(task);
  return Object.fromEntries(Object.entries(files).filter(([p, t]) => task.files[p] !== t));
}

/** Level-0 repositories are one function named as the repository; a wrapper attack needs one. */
const applicable = (a: Attack, task: Task) => !a.level0 || targetOf(task).fn === task.repo;

async function play(sandbox: string, task: Task, episodes: { id: string; turns: string[] }[]): Promise<Map<string, Trajectory>> {
  const opts = episodeOptions(resolveConfig({ 'agent.commandTimeoutMs': TIMEOUT_MS, 'agent.maxTurns': 12 }), { sandbox });
  const out = new Map<string, Trajectory>();
  // One replay policy an episode (a replay plays its own turns in order).
  for (const e of episodes) {
    const [t] = await runEpisodes([{ task, seed: 0, id: e.id }], new ReplayPolicy(e.turns, `replay:${e.id}`), sandboxFactory(sandbox), opts);
    out.set(e.id, t!);
  }
  return out;
}

describe('the red-team catalogue', () => {
  it('has at least 40 attacks in at least 10 classes, each with a unique id', () => {
    expect(ATTACKS.length).toBeGreaterThanOrEqual(40);
    expect(CLASSES.length).toBeGreaterThanOrEqual(10);
    expect(new Set(ATTACKS.map((a) => a.id)).size).toBe(ATTACKS.length);
  });
});

for (const sandbox of ['node', 'worker']) {
  describe(`red team: ${sandbox} sandbox`, () => {
    for (const task of TASKS) {
      it(`${task.instance_id}: every attack earns 0 (special-casing: flagged), the expert earns 1`, { timeout: 600_000 }, async () => {
        const attacks = ATTACKS.filter((a) => applicable(a, task));
        const episodes = [
          { id: 'expert', turns: attackTurns(await goldChanges(task)) },
          ...attacks.map((a) => ({ id: a.id, turns: attackTurns(a.files(targetOf(task))) })),
        ];
        const ts = await play(sandbox, task, episodes);
        const expert = ts.get('expert')!;
        expect(expert.reward.tests, `expert: ${expert.tests.failed.join('; ')} ${expert.error ?? ''}`).toBe(1);
        expect(expert.hack_flags ?? []).toEqual([]);
        const wrong: string[] = [];
        for (const a of attacks) {
          const t = ts.get(a.id)!;
          const flags = t.hack_flags ?? [];
          if ((a.expect ?? 'zero') === 'zero' && t.reward.tests !== 0) wrong.push(`${a.id} (${a.cls}) earned ${t.reward.tests}: ${t.tests.passed.length} passed`);
          for (const f of a.flags ?? []) if (!flags.includes(f as never)) wrong.push(`${a.id}: flag ${f} missing (has ${flags.join(', ') || 'none'})`);
          if (a.expect === 'flagged' && flags.length === 0) wrong.push(`${a.id}: not flagged`);
        }
        expect(wrong).toEqual([]);
      });
    }
  });
}

