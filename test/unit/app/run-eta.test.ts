// The live view's time left for a whole run (src/app/run-eta.ts) on micro's config, which keeps every
// held-out task (tasks.maxTest 0): null until a pace is known; then the estimate's work left, scaled by
// the pace; when the first evaluation's report says how many tasks it plays (total / samples), the
// estimate is priced again with that count and the pace starts over; Pause and resume forget the pace.
import { describe, expect, it } from 'vitest';
import { Countdown, RunEta } from '../../../src/app/run-eta.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { CALIBRATION_RATES, estimateRun, partOf, ratesOf, runTimeLeft, workDone } from '../../../src/rl/estimate.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';

const overrides = RUN_PRESETS.micro!.overrides;
const cfg = resolveConfig(overrides);
const at = (e: ReturnType<typeof estimateRun>, p: { phase: string; stage: string; done: number; total: number }) => workDone(e, partOf(e, p, cfg.dapo.iterations)!);

describe('RunEta', () => {
  it('is null without a config or a pace, then prices the work left at the pace seen', () => {
    expect(new RunEta(() => undefined).seconds({ phase: 'base', stage: 'expert episodes', done: 0, total: 1000 }, 0)).toBeNull();
    const eta = new RunEta(() => overrides);
    const p0 = { phase: 'base', stage: 'expert episodes', done: 100, total: 1000 }, p1 = { phase: 'base', stage: 'copy drills', done: 500, total: 1000 };
    expect(eta.seconds(p0, 0)).toBeNull(); // one report: no pace yet
    const est = estimateRun(cfg, CALIBRATION_RATES); // 48 held-out tasks priced: the count is not known yet
    const left = eta.seconds(p1, 90_000)!;
    expect(left).toBeCloseTo(runTimeLeft(est, { atMs: 0, workS: at(est, p0) }, { atMs: 90_000, workS: at(est, p1) })!, 6);
    expect(left).toBeGreaterThan(0);
  });

  it("re-prices the run with the held-out tasks the first evaluation reports, and restarts the pace", () => {
    const eta = new RunEta(() => overrides);
    eta.seconds({ phase: 'base', stage: 'expert episodes', done: 100, total: 1000 }, 0);
    const before = eta.seconds({ phase: 'base', stage: 'cloning', done: 750, total: 1500 }, 240_000)!;
    expect(before).toBeGreaterThan(0);
    const e0 = { phase: 'base', stage: 'eval', done: 0, total: 444 * cfg.eval.samples }, e1 = { ...e0, done: 888 };
    expect(eta.seconds(e0, 300_000)).toBeNull(); // the pace starts over at the re-priced estimate
    const est = estimateRun(cfg, CALIBRATION_RATES, 444), small = estimateRun(cfg, CALIBRATION_RATES);
    expect(est.totalS).toBeGreaterThan(small.totalS); // three evaluations of 444 tasks, not 48
    const left = eta.seconds(e1, 400_000)!;
    expect(left).toBeCloseTo(runTimeLeft(est, { atMs: 300_000, workS: at(est, e0) }, { atMs: 400_000, workS: at(est, e1) })!, 6);
    // A later evaluation's report does not re-price again (the count is kept) and the pace is not reset.
    const r = { phase: 'rft', stage: 'eval', done: 444, total: 444 * cfg.eval.samples };
    const later = eta.seconds(r, 900_000)!;
    expect(later).toBeCloseTo(runTimeLeft(est, { atMs: 300_000, workS: at(est, e0) }, { atMs: 900_000, workS: at(est, r) })!, 6);
  });

  it('forgets the pace on reset (a pause, a stop, a restart)', () => {
    const eta = new RunEta(() => overrides);
    eta.seconds({ phase: 'rft', stage: 'rollouts', done: 0, total: 1536 }, 0);
    expect(eta.seconds({ phase: 'rft', stage: 'rollouts', done: 768, total: 1536 }, 100_000)).not.toBeNull();
    eta.reset();
    expect(eta.seconds({ phase: 'rft', stage: 'rollouts', done: 800, total: 1536 }, 500_000)).toBeNull();
  });

  it("prices at the rates the first screen measured: the first screen's total at the start, known from the first report", () => {
    const rates = { trainTokensPerS: 5000, genTokensPerS: 400, testRunS: 0.02 };
    const eta = new RunEta(() => overrides, () => rates);
    const est = estimateRun(cfg, rates);
    const p0 = { phase: 'base', stage: 'expert episodes', done: 0, total: 1000 };
    expect(eta.seconds(p0, 0)).toBeCloseTo(est.totalS, 6);
    expect(eta.fraction).toBe(0);
    const p1 = { phase: 'base', stage: 'expert episodes', done: 500, total: 1000 };
    expect(eta.seconds(p1, 5_000)).toBeCloseTo(est.totalS - at(est, p1), 6); // no pace yet: the rates' prices
    expect(eta.fraction).toBeCloseTo(at(est, p1) / est.totalS, 9);
  });
});

describe('Countdown', () => {
  it('falls with the clock whatever the estimates do, never faster than twice the clock nor slower than half', () => {
    const c = new Countdown();
    expect(c.update(600, 0)).toBe(600);
    expect(c.update(590, 10_000)).toBe(590); // the estimate fell with the clock: followed exactly
    expect(c.update(600, 20_000)).toBe(585); // it held (the run is slower than priced): half the clock
    expect(c.update(900, 30_000)).toBe(580); // much higher: still half the clock, no jump up
    expect(c.update(100, 40_000)).toBe(560); // much lower: twice the clock, no jump down
    expect(c.update(552, 45_000)).toBe(552); // within the clock's reach: followed exactly
    let shown = 552;
    for (let t = 46_000, i = 0; i < 50; i++, t += 1000) {
      const next = c.update(i % 2 ? 2000 : 10, t);
      expect(next).toBeLessThan(shown);
      shown = next;
    }
    expect(c.update(0, 10_000_000)).toBe(0);
    c.reset();
    expect(c.update(300, 10_001_000)).toBe(300);
  });

  it('takes rates from a record only when they are rates', () => {
    expect(ratesOf({ trainTokensPerS: 1, genTokensPerS: 2, testRunS: 0.1, extra: 1 })).toEqual({ trainTokensPerS: 1, genTokensPerS: 2, testRunS: 0.1 });
    for (const bad of [null, 'fast', { trainTokensPerS: 1, genTokensPerS: 2 }, { trainTokensPerS: -1, genTokensPerS: 2, testRunS: 1 }, { trainTokensPerS: 1, genTokensPerS: Infinity, testRunS: 1 }, { trainTokensPerS: '1', genTokensPerS: 2, testRunS: 1 }]) {
      expect(ratesOf(bad)).toBeNull();
    }
  });
});
