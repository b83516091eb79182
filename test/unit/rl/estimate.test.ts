// The run estimate against a measured run: `webswe train --preset micro --seed 1` on a 2-core CPU
// (fast CPU backend, node sandbox) took 1,688 s to its last evaluation. Its own metrics give the
// three device rates (cloning rows: 2,066 training tokens/s; the RFT rollout row: 193 action tokens/s
// of generation and 325 s of sandbox work for 1,024 episodes of ~4 test runs, 0.079 s a run). Priced
// at those rates, the estimate of the same config must land within 25 % of the measured time, and
// scale with the work a config asks for.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/rl/config.ts';
import { CALIBRATION_RATES, contextFactor, dapoIteration, duration, episodeTokens, estimateRun, partOf, phaseTotals, priceIteration, runTimeLeft, workDone } from '../../../src/rl/estimate.ts';
import { tokenWeights } from '../../../src/model/config.ts';
import { shapeOfModel } from '../../../src/model/shapes.ts';
import { modelPreset } from '../../../src/model/presets.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';

// The calibration run's config: the micro preset as it was then (no DAgger, RFT on 256 tasks × 4, 48 held-out tasks),
// written over today's: six turns in a 1,024-token context, no guess and check or copy drills, the node sandbox,
// rollouts and evaluation at T 0.5, ten DAPO iterations.
const CALIBRATION_RUN = {
  'model.trainRows': 0, 'tasks.maxTest': 48, 'agent.maxTurns': 6, 'agent.contextTokens': 1024,
  'agent.viewHints': false, 'agent.triedHints': false, 'agent.triedOnRefusal': false, 'agent.retryFixes': false, 'agent.subTests': false,
  'agent.sandbox': 'node', 'agent.commandTimeoutMs': 1000, 'bc.expertGuesses': 0, 'bc.copyDrills': 0, 'bc.drillSteps': 0,
  'rft.tasks': 256, 'rft.samplesPerTask': 4, 'rft.temperature': 0.5, 'dapo.iterations': 10, 'dapo.temperature': 0.5, 'dapo.refusedTurns': 'train', 'eval.temperature': 0.5,
};
const micro = resolveConfig(RUN_PRESETS.micro!.overrides, CALIBRATION_RUN);
const RATES = CALIBRATION_RATES;

describe('estimateRun', () => {
  it('prices micro within 25 % of a measured CLI run', () => {
    const e = estimateRun(micro, RATES);
    expect(e.parts.map((p) => p.name)).toEqual(['expert episodes', 'cloning updates', 'evaluation of base', 'RFT rollouts', 'RFT updates', 'evaluation of RFT', 'DAPO', 'evaluation of DAPO']);
    expect(phaseTotals(e).map((p) => p.phase)).toEqual(['base', 'rft', 'dapo']);
    expect(e.totalS).toBeGreaterThan(1688 * 0.75);
    expect(e.totalS).toBeLessThan(1688 * 1.25);
  });
  it('follows the config: fewer phases, more DAPO iterations, a slower device', () => {
    const base = estimateRun(micro, RATES).totalS;
    expect(estimateRun(resolveConfig(RUN_PRESETS.micro!.overrides, { ...CALIBRATION_RUN, 'run.phases': 'base' }), RATES).totalS).toBeLessThan(base / 2);
    expect(estimateRun(resolveConfig(RUN_PRESETS.micro!.overrides, { ...CALIBRATION_RUN, 'dapo.iterations': 20 }), RATES).totalS).toBeGreaterThan(base * 1.2);
    expect(estimateRun(micro, { ...RATES, trainTokensPerS: RATES.trainTokensPerS / 2, genTokensPerS: RATES.genTokensPerS / 2 }).totalS).toBeGreaterThan(base * 1.7);
  });

  it('places progress reports in the run and corrects the time left by the measured pace, without jumps', () => {
    const e = estimateRun(micro, RATES);
    const at = (phase: string, stage: string, done: number, total: number) => {
      const x = partOf(e, { phase, stage, done, total }, 10);
      expect(x, `${phase}/${stage}`).not.toBeNull();
      return workDone(e, x!);
    };
    // Reports in run order give growing work.
    const seq = [at('base', 'expert episodes', 500, 1000), at('base', 'update', 1, 500), at('base', 'update', 250, 500), at('base', 'eval', 96, 192),
      at('rft', 'rollouts', 512, 1024), at('rft', 'update', 10, 27), at('rft', 'eval', 0, 192), at('dapo', 'rollouts (iteration 3, round 1)', 64, 64),
      at('dapo', 'iterations', 5, 10), at('dapo', 'eval', 192, 192)];
    for (let i = 1; i < seq.length; i++) expect(seq[i]).toBeGreaterThan(seq[i - 1]!);
    expect(seq.at(-1)).toBeCloseTo(e.totalS, 6);
    expect(partOf(e, { phase: 'base', stage: 'warming up', done: 0, total: 1 }, 10)?.index).toBe(1); // any other cloning stage: updates
    // A device twice as slow as priced: after a minute of work the time left is twice the priced work left.
    const w0 = at('base', 'update', 100, 500), w1 = at('base', 'update', 200, 500);
    const left = runTimeLeft(e, { atMs: 0, workS: w0 }, { atMs: 2000 * (w1 - w0), workS: w1 })!;
    expect(left).toBeCloseTo(2 * (e.totalS - w1), 3);
    // One slow step moves it by its share only: the same pace, then a step that takes 3× as long.
    const w2 = at('base', 'update', 201, 500);
    const after = runTimeLeft(e, { atMs: 0, workS: w0 }, { atMs: 2000 * (w1 - w0) + 6000 * (w2 - w1), workS: w2 })!;
    expect(Math.abs(after - left) / left).toBeLessThan(0.05);
    // Too little seen yet: no figure.
    expect(runTimeLeft(e, { atMs: 0, workS: w0 }, { atMs: 5000, workS: w0 + 1 })).toBeNull();
  });

  it('prices the present micro: its drills-only stage, the drills in its cloning, and every held-out task it evaluates', () => {
    const cfg = resolveConfig(RUN_PRESETS.micro!.overrides);
    const e = estimateRun(cfg, RATES, 444);
    expect(e.parts.map((p) => p.name).slice(0, 3)).toEqual(['expert episodes', 'copy drills', 'cloning updates']);
    // A stage stopped by the copy probe is priced at the ~1,900 steps it took on val (at most bc.drillSteps), 4 drills of
    // ~300 tokens a step at the calibration's training rate; a fixed stage at its steps.
    expect(e.parts[1]!.seconds).toBeCloseTo((1900 * 4 * 300) / RATES.trainTokensPerS, 6);
    const fixed = estimateRun(resolveConfig(RUN_PRESETS.micro!.overrides, { 'bc.drillUntil': 0, 'bc.drillSteps': 1000 }), RATES, 444);
    expect(fixed.parts[1]!.seconds).toBeCloseTo((1000 * 4 * 300) / RATES.trainTokensPerS, 6);
    // Cloning prices the 2,000 mixed drills too: more than the expert episodes alone.
    const noDrills = estimateRun(resolveConfig(RUN_PRESETS.micro!.overrides, { 'bc.copyDrills': 0 }), RATES, 444);
    expect(e.parts[2]!.seconds).toBeGreaterThan(noDrills.parts[2]!.seconds * 2);
    // tasks.maxTest 0 keeps every test task: the caller's count prices the evaluations (48 when it has none).
    const evalOf = (x: typeof e) => x.parts.find((p) => p.name === 'evaluation of base')!.seconds;
    expect(evalOf(e) / evalOf(estimateRun(cfg, RATES))).toBeCloseTo(444 / 48, 6);
    // A report of the drills stage sits between the expert episodes and cloning.
    const at = (stage: string, done: number) => workDone(e, partOf(e, { phase: 'base', stage, done, total: 1000 }, 10)!);
    expect(at('copy drills', 0)).toBeGreaterThan(at('expert episodes', 999));
    expect(at('update', 0)).toBeGreaterThan(at('copy drills', 999));
  });

  it('prices a pretrained model\'s episodes at their budgets: every figure an upper bound', () => {
    // micro's episodes are its measured level-0 ones.
    expect(episodeTokens(resolveConfig(RUN_PRESETS.micro!.overrides))).toMatchObject({ action: 8, perTurn: 100, bound: false });
    expect(estimateRun(micro, RATES).bound).toBe(false);
    // qwen-coder-lora: 20 turns; an 8,192-token context, checked after each action (≤ 512 tokens) and each
    // observation (≤ 1,024 tokens and ≤ 16 of template): an episode holds at most 8,192 + 1,040 = 9,232 tokens,
    // each priced as sampled; the tests run every turn and once more to grade, none hidden behind generation.
    const qwen = resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides);
    expect(episodeTokens(qwen)).toEqual({ action: 461.6, perTurn: 461.6, testRuns: 21, sandboxExposed: 1, bound: true });
    // A longer action budget than an observation's is the last turn's overrun instead.
    expect(episodeTokens(resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides, { 'agent.actionTokens': 2048 })).perTurn * 20).toBeCloseTo(8192 + 2048, 9);
    // An iteration by hand: 64 episodes; a round plays each to 9,232 tokens and 21 test runs; dynamic sampling
    // takes at most dapo.maxGenBatches (3) rounds; the update trains every token once.
    const r = { trainTokensPerS: 20, genTokensPerS: 4, testRunS: 0.5 };
    const it = dapoIteration(qwen, r);
    expect(it.episodes).toBe(64);
    expect(it.rounds).toBe(3);
    expect(it.roundS).toBeCloseTo(64 * (9232 / 4 + 21 * 0.5), 6);
    expect(it.updateS).toBeCloseTo((64 * 9232) / 20, 6);
    expect(it.seconds).toBeCloseTo(3 * it.roundS + it.updateS, 6);
    expect(dapoIteration(resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides, { 'dapo.filterGroups': false }), r).rounds).toBe(1);
    // Activation recomputation redoes each layer's forward in the backward: half a LoRA step more (frozen
    // weights have no dW), a third of a full fine-tune's.
    expect(dapoIteration(resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides, { 'model.recompute': true }), r).updateS).toBeCloseTo((it.updateS * 3) / 2, 6);
    const full = resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides, { 'model.loraRank': 0 });
    expect(dapoIteration(resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides, { 'model.loraRank': 0, 'model.recompute': true }), r).updateS).toBeCloseTo((dapoIteration(full, r).updateS * 4) / 3, 6);
    // The whole run is a bound too, its DAPO part iterations × the iteration, RFT keeping every episode.
    const e = estimateRun(qwen, r, 80);
    expect(e.bound).toBe(true);
    expect(e.parts.find((p) => p.name === 'DAPO')!.seconds).toBeCloseTo(40 * it.seconds, 3);
    expect(e.parts.find((p) => p.name === 'RFT updates')!.seconds).toBeCloseTo((400 * 4 * 9232) / 20, 3);
  });

  it('prices a bound at its episode\'s length: attention over half of it on average, by the arithmetic', () => {
    const q = shapeOfModel('Qwen/Qwen2.5-Coder-0.5B-Instruct')!.config;
    // 24 layers × 14 heads × 64 dims × 8,192 tokens over the 494 M weights a token is multiplied by (tied embedding).
    expect(tokenWeights(q)).toBe(494032768);
    expect(contextFactor(q, 8192)).toBeCloseTo(1 + (24 * 14 * 64 * 8192) / 494032768, 9);
    expect(contextFactor(q, 8192)).toBeGreaterThan(1.35);
    expect(contextFactor(q, 8192)).toBeLessThan(1.37);
    expect(contextFactor(q, 1024) - 1).toBeCloseTo((contextFactor(q, 8192) - 1) / 8, 9);
    // A LoRA step: forward 2W + A, backward 2W + 2A (no dW for the frozen weights): (4W + 3A) / 4W.
    expect(contextFactor(q, 8192, true) - 1).toBeCloseTo(1.5 * (contextFactor(q, 8192) - 1), 9);
    const qwen = resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides);
    const r = { trainTokensPerS: 20, genTokensPerS: 4, testRunS: 0.5 };
    const f = contextFactor(q, 9232), ft = contextFactor(q, 9232, true);
    const p = priceIteration(qwen, r, q);
    expect(p).toMatchObject({ bound: true, tokensPerEpisode: 9232, testRuns: 21, contextFactor: f, trainContextFactor: ft, rounds: 3, episodes: 64 });
    expect(p.updateS).toBeCloseTo(dapoIteration(qwen, r).updateS * ft, 6);
    expect(p.roundS).toBeCloseTo(64 * ((9232 * f) / 4 + 21 * 0.5), 6);
    // micro's measured episodes are not scaled.
    const m = resolveConfig(RUN_PRESETS.micro!.overrides);
    expect(priceIteration(m, RATES, modelPreset(m.model.preset)!.config)).toMatchObject({ bound: false, contextFactor: 1, trainContextFactor: 1, ...dapoIteration(m, RATES) });
  });

  it('says a duration with its parts rounded together', () => {
    expect([0.4, 59.6, 239.6, 3599.6, 3570, 7170, 7200, 90061].map(duration)).toEqual(['0 s', '1 min 0 s', '4 min 0 s', '1 h 0 min', '59 min 30 s', '2 h 0 min', '2 h 0 min', '25 h 1 min']);
    expect([NaN, -1, Infinity].map(duration)).toEqual(['…', '…', '…']);
  });
});
