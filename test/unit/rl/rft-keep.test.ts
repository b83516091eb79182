// rft.keep: which of RFT's K rollouts a task are trained on — every success (the paper), the successes of
// tasks not always solved (mixed), or one success a task with the fewest turns (shortest).
import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../../../src/agent/trajectory.ts';
import { keptForRft } from '../../../src/rl/collect.ts';
import { ConfigError, resolveConfig } from '../../../src/rl/config.ts';

/** A rollout as keptForRft reads it: its task, whether the tests passed, how many turns it took. */
const ep = (task: string, pass: boolean, turns: number, tag: string): Trajectory =>
  ({ task_id: task, reward: { tests: pass ? 1 : 0 }, turns: Array.from({ length: turns }, () => ({})), tag }) as unknown as Trajectory;
const tags = (ts: Trajectory[]) => ts.map((t) => (t as unknown as { tag: string }).tag);

// Task a: solved 3 of 3 (turns 5, 3, 3); b: 1 of 3 (turns 7); c: none; d: 2 of 3, interleaved with the others.
const ROLLOUTS = [
  ep('a', true, 5, 'a0'), ep('b', false, 14, 'b0'), ep('a', true, 3, 'a1'), ep('c', false, 14, 'c0'), ep('d', true, 6, 'd0'),
  ep('a', true, 3, 'a2'), ep('b', true, 7, 'b1'), ep('d', false, 14, 'd1'), ep('d', true, 4, 'd2'), ep('b', false, 14, 'b2'), ep('c', false, 9, 'c1'),
];

describe('rft.keep', () => {
  it('solved keeps every success, in order (the default: the paper)', () => {
    expect(resolveConfig({}).rft.keep).toBe('solved');
    expect(tags(keptForRft(ROLLOUTS, 'solved'))).toEqual(['a0', 'a1', 'd0', 'a2', 'b1', 'd2']);
  });
  it('mixed keeps the successes of tasks some sample failed, none of a task every sample solved', () => {
    expect(tags(keptForRft(ROLLOUTS, 'mixed'))).toEqual(['d0', 'b1', 'd2']);
  });
  it('shortest keeps one success a task, the first with the fewest turns', () => {
    expect(tags(keptForRft(ROLLOUTS, 'shortest'))).toEqual(['a1', 'b1', 'd2']);
  });
  it('keeps nothing from rollouts that all failed, and refuses an unknown choice by name', () => {
    const fails = ROLLOUTS.filter((t) => t.reward.tests !== 1);
    for (const k of ['solved', 'mixed', 'shortest'] as const) expect(keptForRft(fails, k)).toEqual([]);
    expect(() => resolveConfig({ 'rft.keep': 'best' })).toThrow(ConfigError);
    expect(() => resolveConfig({ 'rft.keep': 'best' })).toThrow(/rft\.keep.*solved, mixed, shortest/);
  });
});
