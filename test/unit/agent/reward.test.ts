// Rewards, advantages, dynamic sampling, curriculum, pass@k and the LR schedule, checked against
// values computed by hand from docs/dapo.md's formulas.
import { describe, expect, it } from 'vitest';
import { episodeReward, overlongPenalty, turnLengthPenalty } from '../../../src/agent/reward.ts';
import { dynamicSample, groupAdvantages, isDegenerateGroup, keyedAdvantages } from '../../../src/rl/advantages.ts';
import { Curriculum } from '../../../src/rl/curriculum.ts';
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

describe('overlong shaping (DAPO: L_max 20480, L_cache 4096)', () => {
  it('is 0, linear in the buffer, then −1', () => {
    expect(overlongPenalty(16384, 20480, 4096)).toBe(0);
    expect(overlongPenalty(18432, 20480, 4096)).toBeCloseTo(-0.5);
    expect(overlongPenalty(20480, 20480, 4096)).toBeCloseTo(-1);
    expect(overlongPenalty(20481, 20480, 4096)).toBe(-1);
  });
});

describe('episodeReward', () => {
  const cfg = { maxTurns: 40, lengthThreshold: 10, lengthPenalty: true, overlongBuffer: false, overlongBufferLen: 512, overlongPenaltyFactor: 1, maxResponseTokens: 4096 };
  it('adds the parts', () => {
    expect(episodeReward(true, 4, 100, cfg)).toEqual({ tests: 1, length_penalty: 0, overlong_penalty: 0, total: 1 });
    const r = episodeReward(false, 40, 100, cfg);
    expect(r.tests).toBe(0);
    expect(r.total).toBeCloseTo(-1);
    const o = episodeReward(true, 4, 4096 - 256, { ...cfg, overlongBuffer: true, overlongPenaltyFactor: 2 });
    expect(o.overlong_penalty).toBeCloseTo(-1); // (3584 − 3840)/512 · 2
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
  it('with token counts (dapo.baseline = tokens) balances the token-level push and keeps the std', () => {
    // 7 successes of 60 trained tokens, one failure of 130 that ran to the turn limit.
    const rewards = [1, 1, 1, 1, 1, 1, 1, 0];
    const tokens = [60, 60, 60, 60, 60, 60, 60, 130];
    const plain = groupAdvantages(rewards, 0);
    const one = (r: number[], eps: number, n: number[]) => keyedAdvantages(r, n.map((x) => ({ all: x })), eps).map((x) => x.all!);
    const a = one(rewards, 0, tokens);
    const push = (adv: number[]) => adv.reduce((s, x, i) => s + x * tokens[i]!, 0);
    expect(push(plain)).toBeLessThan(-100); // the episode mean: a net push down on shared tokens
    expect(push(a)).toBeCloseTo(0, 9);
    // Same std (the rewards' own), a lower baseline: R̄ = 420 / 550.
    const std = Math.sqrt((7 * (1 / 8) ** 2 + (7 / 8) ** 2) / 7);
    expect(a[0]).toBeCloseTo((1 - 420 / 550) / std, 9);
    expect(a[7]).toBeCloseTo((0 - 420 / 550) / std, 9);
    // Equal lengths: the same as the episode mean; a degenerate group stays at zero.
    one([1, 0, 0, 1], 0, [5, 5, 5, 5]).forEach((x, i) => expect(x).toBeCloseTo(groupAdvantages([1, 0, 0, 1], 0)[i]!, 12));
    expect(one([1, 1], 1e-6, [3, 9])).toEqual([0, 0]);
    expect(() => one([1, 0], 0, [3])).toThrow(/1 token counts for 2 rewards/);
  });
  it('per command (dapo.baseline = command) pushes no command as a whole up or down', () => {
    // Three successes (a view, one sub, a submit) and a failure that spent its turns on subs.
    const rewards = [1, 1, 1, 0];
    const counts: Record<string, number>[] = [{ view: 3, sub: 8, submit: 3 }, { view: 3, sub: 16, submit: 3 }, { view: 3, sub: 8, submit: 3 }, { view: 3, sub: 90 }];
    const a = keyedAdvantages(rewards, counts, 0);
    for (const k of ['view', 'sub', 'submit']) expect(a.reduce((s, x, i) => s + (x[k] ?? 0) * (counts[i]![k] ?? 0), 0), k).toBeCloseTo(0, 9);
    const std = Math.sqrt((3 * 0.25 ** 2 + 0.75 ** 2) / 3);
    expect(a[0]!.view).toBeCloseTo((1 - 0.75) / std, 9); // every episode viewed: the view's baseline is the plain mean
    expect(a[0]!.sub).toBeCloseTo((1 - 32 / 122) / std, 9); // the failure's 90 sub tokens pull the sub's baseline down
    expect(a[3]!.sub).toBeCloseTo((0 - 32 / 122) / std, 9);
    expect(a[3]!.submit).toBeUndefined(); // only the commands an episode has
    expect(a[0]!.submit).toBeCloseTo(0, 9); // only successes submitted: nothing to contrast
    // One command only: the token-weighted baseline.
    const only = keyedAdvantages([1, 0, 0], [{ sub: 5 }, { sub: 9 }, { sub: 20 }], 1e-6).map((x) => x.sub!);
    const tok = keyedAdvantages([1, 0, 0], [{ all: 5 }, { all: 9 }, { all: 20 }], 1e-6).map((x) => x.all!);
    only.forEach((x, i) => expect(x).toBeCloseTo(tok[i]!, 9));
    expect(() => keyedAdvantages([1, 0], [{ sub: 1 }], 0)).toThrow(/1 token counts for 2 rewards/);
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

describe('curriculum', () => {
  it('drops tasks solved ≥ 2/3 so far and tasks never solved', () => {
    const c = new Curriculum();
    for (const s of [true, true, false]) c.record('easy', s);
    for (const s of [false, false, false]) c.record('never', s);
    for (const s of [true, false, false]) c.record('mid', s);
    const r = c.filter(['easy', 'never', 'mid', 'new'], 2 / 3);
    expect(r).toEqual({ kept: ['mid', 'new'], tooEasy: ['easy'], neverSolved: ['never'] });
    expect(Curriculum.fromJSON(c.toJSON()).filter(['easy'], 2 / 3).tooEasy).toEqual(['easy']);
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
