// What the first screen, the Model view and `webswe gpu --preset` say about a priced DAPO iteration of qwen-coder-lora: the bound
// with one generation round and with every round dynamic sampling may take, each part, the rates with the
// slice's divisor and the context's factor, and the assumption that makes the figures upper bounds.
import { describe, expect, it } from 'vitest';
import { iterationLines, type MeasuredIteration } from '../../../src/rl/iteration.ts';
import { shapeOfModel } from '../../../src/model/shapes.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { duration, priceIteration } from '../../../src/rl/estimate.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';

describe('iterationLines', () => {
  const cfg = resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides);
  const model = shapeOfModel(cfg.model.preset)!.config;
  const rates = { trainTokensPerS: 200, genTokensPerS: 100, testRunS: 0.25 };
  const p = priceIteration(cfg, rates, model);
  const e: MeasuredIteration = { ...p, preset: 'qwen-coder-lora', model: cfg.model.preset, shape: 'qwen (2 of 24 blocks)', scale: 2.98, contextTokens: 8192, maxTurns: 20, backend: 'webgpu (nvidia hopper)', rates, measuredInS: 41.7 };

  it('says the bound, its parts and what it was priced on', () => {
    const f = p.contextFactor, ft = p.trainContextFactor;
    // A round: 64 episodes × (9,232 tokens at 100 / f tokens/s + 21 test runs of 0.25 s); the update 590,848 tokens at 200 / ft.
    const round = 64 * ((9232 * f) / 100 + 21 * 0.25), update = (64 * 9232 * ft) / 200;
    expect(p.roundS).toBeCloseTo(round, 6);
    expect(p.updateS).toBeCloseTo(update, 6);
    expect(ft).toBeGreaterThan(f);
    const lines = iterationLines(e);
    expect(lines[0]).toBe(`A DAPO iteration of qwen-coder-lora (Qwen/Qwen2.5-Coder-0.5B-Instruct) takes at most ${duration(round + update)} on this device (webgpu (nvidia hopper)) with one generation round, at most ${duration(3 * round + update)} with all 3 that dynamic sampling may take.`);
    expect(lines[1]).toBe(`Generation round: 64 episodes of at most 9,232 tokens, at most 21 test runs each: ≤ ${duration(round)}.`);
    expect(lines[2]).toBe(`Update: at most 590,848 tokens: ≤ ${duration(update)}.`);
    expect(lines[3]).toBe(`Rates of the whole model at a few positions: generation 100 tokens/s, training 200 tokens/s, a test run 0.25 s, measured on qwen (2 of 24 blocks) with random weights and divided by 2.98; attention over an episode that long makes a token ${f.toFixed(2)}× dearer to generate and ${ft.toFixed(2)}× to train; measured in 42 s.`);
    expect(lines[4]).toMatch(/^Every episode is priced at its budgets \(20 turns; its 8,192-token context full, plus one last turn; every token priced as sampled; the tests run every turn, at the measured time\)/);
    // Without dynamic sampling there is one round: no second figure.
    const one = priceIteration(resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides, { 'dapo.filterGroups': false }), rates, model);
    expect(iterationLines({ ...e, ...one })[0]).toMatch(/on this device \(webgpu \(nvidia hopper\)\)\.$/);
  });
});
