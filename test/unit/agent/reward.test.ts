// Rewards, advantages, dynamic sampling, pass@k and the LR schedule, checked against
// values computed by hand from docs/dapo.md's formulas.
import { describe, expect, it } from 'vitest';
import { episodeReward, turnLengthPenalty } from '../../../src/agent/reward.ts';
import { dynamicSample, groupAdvantages, isDegenerateGroup } from '../../../src/rl/advantages.ts';
import { passStats } from '../../../src/rl/passk.ts';
import { cosineWithWarmup } from '../../../src/rl/schedule.ts';

describe('turn-length penalty (paper Eq. 4, L_thr 10, T_max 40)', () => {
  it('is 0 below the threshold and linear to −1 at T_max', () => {
    expect(turnLengthPenalty(9, 10, 40)).toBe(0);
    expect(turnLengthPenalty(10, 10, 40)).toBeCloseTo(0);
    expect(turnLengthPenalty(25, 10, 40)).toBeCloseTo(-0.5);
    expect(turnLengthPenalty(40, 10, 40)).toBeCloseTo(-1);
  });
  it('refuses T_max ≤ L_thr', () => {
    expect(() => turnLengthPenalty(5, 10, 10)).toThrow(/T_max \(10\) > L_thr \(10\)/);
  });
});

describe('episodeReward', () => {
  const cfg = { maxTurns: 40, lengthThreshold: 10, lengthPenalty: true };
  it('adds the parts', () => {
    expect(episodeReward(true, 4, cfg)).toEqual({ tests: 1, length_penalty: 0, total: 1 });
    const r = episodeReward(false, 40, cfg);
    expect(r.tests).toBe(0);
    expect(r.total).toBeCloseTo(-1);
    expect(episodeReward(false, 40, { ...cfg, lengthPenalty: false })).toEqual({ tests: 0, length_penalty: 0, total: 0 });
  });
});

describe('group advantages', () => {
  it('normalises by the unbiased group std', () => {
    // rewards 1,0,0,1: mean 0.5, unbiased std sqrt(1/3) = 0.57735
    const a = groupAdvantages([1, 0, 0, 1], 0);
    expect(a[0]).toBeCloseTo(0.5 / Math.sqrt(1 / 3), 6);
    expect(a[1]).toBeCloseTo(-0.5 / Math.sqrt(1 / 3), 6);
    expect(a.reduce((x, y) => x + y, 0)).toBeCloseTo(0, 12);
  });
  it('is zero for equal rewards and flags the group as degenerate', () => {
    expect(groupAdvantages([1, 1, 1], 1e-6)).toEqual([0, 0, 0]);
    expect(isDegenerateGroup([0, 0, 0])).toBe(true);
    expect(isDegenerateGroup([0, 0, 1])).toBe(false);
    expect(isDegenerateGroup([1, 0.9])).toBe(false); // same tests result, different length penalty
  });
});

describe('dynamic sampling', () => {
  // A generator that yields groups alternating degenerate / informative.
  const gen = () => {
    let i = 0;
    return async (count: number) => Array.from({ length: count }, () => ({ id: i, rewards: i++ % 2 === 0 ? [1, 1] : [1, 0] }));
  };
  it('refill keeps sampling until the batch is full, within the round bound', async () => {
    const st = await dynamicSample(4, gen(), { enabled: true, mode: 'refill', maxRounds: 5 });
    expect(st.kept).toHaveLength(4);
    expect(st.kept.every((g) => !isDegenerateGroup(g.rewards))).toBe(true);
    // ids 0-3 → 1, 3 kept; ids 4-5 → 5 kept; id 6 degenerate; id 7 kept: four rounds.
    expect(st.rounds).toBe(4);
    expect(st.dropped).toBe(st.generated - 4);
  });
  it('stops at the round bound with a partial batch', async () => {
    const st = await dynamicSample(4, gen(), { enabled: true, mode: 'refill', maxRounds: 1 });
    expect(st.kept).toHaveLength(2);
    expect(st.dropped).toBe(2);
  });
  it('shrink trains on what one round kept; disabled keeps everything', async () => {
    expect((await dynamicSample(4, gen(), { enabled: true, mode: 'shrink', maxRounds: 9 })).kept).toHaveLength(2);
    const all = await dynamicSample(4, gen(), { enabled: false, mode: 'refill', maxRounds: 9 });
    expect(all.kept).toHaveLength(4);
    expect(all.dropped).toBe(0);
  });
});

describe('pass@k', () => {
  it('pass@1 is the mean over sampling rounds with its std; pass@K any-of-K', () => {
    // 3 tasks × 2 samples: round 0 passes 2/3, round 1 passes 1/3.
    const s = passStats([
      [true, true],
      [true, false],
      [false, false],
    ]);
    expect(s['pass@1']).toBeCloseTo(0.5);
    expect(s['pass@1_std']).toBeCloseTo(Math.sqrt(((2 / 3 - 0.5) ** 2 + (1 / 3 - 0.5) ** 2) / 1));
    expect(s['pass@k']).toBeCloseTo(2 / 3);
    expect(s.k).toBe(2);
  });
  it('refuses ragged sample counts', () => {
    expect(() => passStats([[true], [true, false]])).toThrow(/same number/);
  });
});

describe('cosine schedule with warm-up', () => {
  it('warms up linearly, peaks, decays to 0', () => {
    expect(cosineWithWarmup(0, 110, 10, 1)).toBeCloseTo(0.1);
    expect(cosineWithWarmup(9, 110, 10, 1)).toBeCloseTo(1);
    expect(cosineWithWarmup(60, 110, 10, 1)).toBeCloseTo(0.5);
    expect(cosineWithWarmup(110, 110, 10, 1)).toBeCloseTo(0);
  });
});
