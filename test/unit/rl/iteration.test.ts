// What the first screen, the Model view and `webswe gpu --preset` say about a priced DAPO iteration of qwen-coder-lora: the bound
// with one generation round and with every round dynamic sampling may take, each part, the rates with the
// slice's divisor and the context's factor, and the assumption that makes the figures upper bounds.
import { describe, expect, it } from 'vitest';
import { iterationLines, type MeasuredIteration } from '../../../src/rl/iteration.ts';
import { shapeOfModel } from '../../../src/model/shapes.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { priceIteration } from '../../../src/rl/estimate.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';

describe('iterationLines', () => {
  const cfg = resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides);
  const model = shapeOfModel(cfg.model.preset)!.config;
  const rates = { trainTokensPerS: 200, genTokensPerS: 100, testRunS: 0.25 };
  const p = priceIteration(cfg, rates, model);
  const e: MeasuredIteration = { ...p, preset: 'qwen-coder-lora', model: cfg.model.preset, shape: 'qwen (2 of 24 blocks)', scale: 2.98, contextTokens: 8192, maxTurns: 20, backend: 'webgpu (nvidia hopper)', rates, measuredInS: 41.7 };

  it('says the bound, its parts and what it was priced on', () => {
    const f = p.contextFactor;
    // A round: 64 episodes × (8,192 tokens at 100 / f tokens/s + 20 test runs of 0.25 s); the update 524,288 tokens at 200 / f.
    const round = 64 * (8192 * f / 100 + 5), update = (524288 * f) / 200;
    expect(p.roundS).toBeCloseTo(round, 6);
    expect(p.updateS).toBeCloseTo(update, 6);
    const lines = iterationLines(e);
    const hm = (s: number) => `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
    expect(lines[0]).toBe(`A DAPO iteration of qwen-coder-lora (Qwen/Qwen2.5-Coder-0.5B-Instruct) takes at most ${hm(round + update)} on this device (webgpu (nvidia hopper)) with one generation round, at most ${hm(3 * round + update)} with all 3 that dynamic sampling may take.`);
    expect(lines[1]).toBe(`Generation round: 64 episodes of at most 8,192 tokens, 20 test runs each: ≤ ${hm(round)}.`);
    expect(lines[2]).toBe(`Update: at most 524,288 tokens: ≤ ${Math.floor(update / 60)} min ${Math.round(update % 60)} s.`);
    expect(lines[3]).toBe(`Rates of the whole model at a few positions: generation 100 tokens/s, training 200 tokens/s, a test run 0.25 s, measured on qwen (2 of 24 blocks) with random weights and divided by 2.98; at a context of 8,192 tokens attention makes each token ${f.toFixed(2)}× dearer; measured in 42 s.`);
    expect(lines[4]).toMatch(/^Every episode is priced at its budgets \(20 turns, 8,192 tokens\)/);
    // Without dynamic sampling there is one round: no second figure.
    const one = priceIteration(resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides, { 'dapo.filterGroups': false }), rates, model);
    expect(iterationLines({ ...e, ...one })[0]).toMatch(/on this device \(webgpu \(nvidia hopper\)\)\.$/);
  });
});
