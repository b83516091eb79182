// Training steps on the CPU backend with a small from-scratch model: SFT loss falls on a fixed
// batch; packing keeps episodes apart and masks what it should; a step run in passes (model.passTokens)
// makes the one-pass update; DAPO raises the reward of a one-step bandit within a few iterations
// (sampling → rewards → advantages → clipped update); dapoUpdate splits one batch into its mini-batch steps,
// the first scoring the policy that played.
import { describe, expect, it } from 'vitest';
import { freezeConfig, type ModelConfig } from '../../../src/model/config.ts';
import { KvGenerator } from '../../../src/model/generate.ts';
import { initParams } from '../../../src/model/init.ts';
import { uploadParams, zeroGrads } from '../../../src/model/params.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { groupAdvantages } from '../../../src/rl/advantages.ts';
import { AdamW } from '../../../src/rl/optimizer.ts';
import { packEpisodes, passes, sliceRows } from '../../../src/rl/pack.ts';
import { dapoUpdate } from '../../../src/rl/dapo.ts';
import { dapoStep, sftStep } from '../../../src/rl/steps.ts';

const be = new CpuBackend();
const config: ModelConfig = freezeConfig({
  modelType: 'qwen2', vocabSize: 32, hiddenSize: 32, intermediateSize: 64, numLayers: 2, numHeads: 4, numKvHeads: 2,
  headDim: 8, ropeTheta: 10000, rmsNormEps: 1e-6, tieWordEmbeddings: true, qkvBias: true, qkNorm: false, maxPositionEmbeddings: 256,
});
const hp = { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0, maxGradNorm: 1 };

function fresh(seed = 1) {
  const params = uploadParams(be, config, initParams(config, seed));
  const model = new Transformer(be, config, params);
  return { model, opt: new AdamW(be, params, zeroGrads(be, params), hp) };
}

describe('packEpisodes', () => {
  it('packs first-fit decreasing with restarting positions, segments and target-aligned masks', () => {
    const rows = packEpisodes([
      { ids: [1, 2, 3], mask: [0, 1, 1], logprobs: [0, -0.5, -0.25], advantage: 2 },
      { ids: [4, 5, 6, 7, 8], mask: [0, 0, 1, 1, 0] },
      { ids: [9, 10], mask: [0, 1] },
    ], 6);
    expect(rows.B).toBe(2);
    // Row 0: episode 1 (5 tokens); row 1: episode 0 (3) then episode 2 (2).
    expect([...rows.ids]).toEqual([4, 5, 6, 7, 8, 0, 1, 2, 3, 9, 10, 0]);
    expect([...rows.positions]).toEqual([0, 1, 2, 3, 4, 0, 0, 1, 2, 0, 1, 0]);
    expect([...rows.seg]).toEqual([0, 0, 0, 0, 0, -1, 0, 0, 0, 1, 1, -1]);
    // Position t is trained when token t+1 is an action token; never across episodes.
    expect([...rows.mask]).toEqual([0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0]);
    expect([...rows.targets].slice(6, 9)).toEqual([2, 3, 0]);
    expect([...rows.oldLogp].slice(6, 8)).toEqual([-0.5, -0.25]);
    expect([...rows.adv].slice(6, 8)).toEqual([2, 2]);
    expect(rows.actionTokens).toBe(5);
  });
  it('refuses an episode longer than a row', () => {
    expect(() => packEpisodes([{ ids: [1, 2, 3], mask: [0, 1, 1] }], 2)).toThrow(/3 tokens, more than a training row \(2\)/);
  });
});

describe('SFT', () => {
  it('loss falls on a fixed batch', async () => {
    const { model, opt } = fresh();
    const rows = packEpisodes([
      { ids: [1, 5, 6, 7, 8, 9, 2], mask: [0, 0, 1, 1, 1, 1, 1] },
      { ids: [1, 11, 12, 13, 2], mask: [0, 0, 1, 1, 1] },
    ], 8);
    const first = await sftStep(model, opt, rows, 1e-2);
    let last = first;
    for (let i = 0; i < 30; i++) last = await sftStep(model, opt, rows, 1e-2);
    expect(first.loss).toBeGreaterThan(3); // ≈ ln 32 at initialisation
    expect(last.loss).toBeLessThan(first.loss * 0.3);
    expect(last.gradNorm).toBeGreaterThan(0);
  });
});

describe('a step in passes (model.passTokens)', () => {
  // Three episodes of unequal length, one per row (T 9): the passes are rows {0}, {1}, {2} or {0, 1}, {2}.
  const episodes = [
    { ids: [1, 5, 6, 7, 8, 9, 2, 3, 4], mask: [0, 0, 1, 1, 1, 0, 1, 1, 1], logprobs: [0, 0, -2.1, -3, -1.2, 0, -2.5, -2.9, -3.3], advantage: 1.5 },
    { ids: [1, 11, 12, 13, 2, 14, 15], mask: [0, 0, 1, 1, 1, 1, 1], logprobs: [0, 0, -3.4, -3.1, -2.2, -4, -3.6], advantage: -0.5 },
    { ids: [1, 20, 21, 22, 23, 24], mask: [0, 0, 0, 1, 1, 1], logprobs: [0, 0, 0, -3.2, -3.5, -2.8], advantage: -1 },
  ];
  const T = 9;
  const paramsOf = async (model: Transformer<ReturnType<typeof be.fromArray>>) => new Map(await Promise.all([...model.params].map(async ([n, p]) => [n, await be.read(p)] as const)));
  // Weights agree to lr / 1000: AdamW's first step moves a weight by about lr · g / |g|, so where g is near
  // zero a difference in float summation order (passes add per-pass sums) shows at that scale.
  const expectSameUpdate = async (lr: number, run: (passTokens: number) => Promise<{ metrics: Awaited<ReturnType<typeof sftStep>>; model: Transformer<ReturnType<typeof be.fromArray>> }>) => {
    const whole = await run(0);
    const wholeParams = await paramsOf(whole.model);
    for (const passTokens of [T, 2 * T + 3]) {
      const cut = await run(passTokens);
      for (const k of ['loss', 'gradNorm', 'entropy', 'approxKl', 'clipFracLow', 'clipFracHigh', 'logpDrift'] as const) {
        if (whole.metrics[k] === undefined) continue;
        expect(cut.metrics[k], `${k}, passes of ${passTokens} tokens`).toBeCloseTo(whole.metrics[k]!, 5);
      }
      for (const [n, w] of await paramsOf(cut.model)) {
        const ref = wholeParams.get(n)!;
        let worst = 0;
        for (let i = 0; i < w.length; i++) worst = Math.max(worst, Math.abs(w[i]! - ref[i]!));
        expect(worst, `${n}, passes of ${passTokens} tokens`).toBeLessThan(lr / 1000);
      }
    }
  };
  it('cuts whole rows, at least one a pass, and keeps each pass its own counts', () => {
    const rows = packEpisodes(episodes, T);
    expect(passes(rows, 0)).toEqual([rows]);
    expect(passes(rows, 1000)).toEqual([rows]);
    expect(passes(rows, 1).map((p) => p.B)).toEqual([1, 1, 1]);
    expect(passes(rows, 2 * T + 3).map((p) => p.B)).toEqual([2, 1]);
    const parts = passes(rows, T);
    expect(parts.reduce((a, p) => a + p.actionTokens, 0)).toBe(rows.actionTokens);
    expect([...parts[1]!.ids]).toEqual([...rows.ids.subarray(T, 2 * T)]);
    expect(() => sliceRows(rows, 2, 4)).toThrow(/rows \[2, 4\) are not inside 0\.\.3/);
  });
  it('SFT: the same loss, norm and weights after the step as in one pass', async () => {
    await expectSameUpdate(1e-2, async (passTokens) => {
      const { model, opt } = fresh(5);
      return { model, metrics: await sftStep(model, opt, packEpisodes(episodes, T), 1e-2, passTokens) };
    });
  });
  it('DAPO: the same loss, clip fractions, KL, norm and weights after the step as in one pass', async () => {
    await expectSameUpdate(5e-2, async (passTokens) => {
      const { model, opt } = fresh(6);
      return { model, metrics: await dapoStep(model, opt, packEpisodes(episodes, T), 5e-2, { epsLow: 0.2, epsHigh: 0.28 }, 1, passTokens) };
    });
  });
});

describe('DAPO one-step bandit', () => {
  // Prompt [1, 2]; the policy answers one token; reward 1 when it is in GOOD. DAPO must raise
  // the mean reward within a few iterations (G = 8 samples per group, 2 groups per iteration).
  const GOOD = new Set([3, 4, 5, 6]);
  it('raises the reward', async () => {
    const { model, opt } = fresh(2);
    const meanReward: number[] = [];
    for (let it = 0; it < 8; it++) {
      const G = 16;
      const gen = new KvGenerator(model, G, 8);
      const out = await gen.generate(Array.from({ length: G }, () => [1, 2]), { seed: 100 + it, maxTokens: 1, stopIds: [] });
      const rewards: number[] = out.map((o) => (GOOD.has(o.ids[0]!) ? 1 : 0));
      meanReward.push(rewards.reduce((a, b) => a + b, 0) / G);
      const adv = groupAdvantages(rewards, 1e-6);
      if (adv.every((a) => a === 0)) continue; // dynamic sampling would drop this group
      const rows = packEpisodes(out.map((o, i) => ({ ids: [1, 2, o.ids[0]!], mask: [0, 0, 1], logprobs: [0, 0, o.logprobs[0]!], advantage: adv[i]! })), 4);
      const m = await dapoStep(model, opt, rows, 5e-2, { epsLow: 0.2, epsHigh: 0.28 });
      // On-policy first step: the behaviour log-probs equal the recomputed ones.
      expect(m.logpDrift!).toBeLessThan(1e-5);
      expect(m.approxKl!).toBeLessThan(1e-8);
    }
    const early = (meanReward[0]! + meanReward[1]!) / 2, late = (meanReward[6]! + meanReward[7]!) / 2;
    expect(early).toBeLessThan(0.4); // 4 good of 32 tokens ≈ 0.125 at initialisation
    expect(late).toBeGreaterThan(early + 0.3);
  });
});

describe('dapoUpdate (dapo.optimizerSteps: mini-batches of one batch)', () => {
  // Reward 1 for an even token: about half the answers at initialisation, so the batch has both signs.
  const GOOD = { has: (id: number) => id % 2 === 0 };
  const goodFraction = async (model: Transformer<ReturnType<typeof be.fromArray>>) => {
    const out = await new KvGenerator(model, 64, 8).generate(Array.from({ length: 64 }, () => [1, 2]), { seed: 999, maxTokens: 1, stopIds: [] });
    return out.filter((o) => GOOD.has(o.ids[0]!)).length / 64;
  };
  it('takes one step a mini-batch in one pass, the first on-policy, and moves the policy towards the rewarded answers', async () => {
    const played = fresh(2);
    const out = await new KvGenerator(played.model, 32, 8).generate(Array.from({ length: 32 }, () => [1, 2]), { seed: 5, maxTokens: 1, stopIds: [] });
    const adv = groupAdvantages(out.map((o) => (GOOD.has(o.ids[0]!) ? 1 : 0)), 1e-6);
    expect(adv.some((a) => a > 0) && adv.some((a) => a < 0)).toBe(true);
    const eps = out.map((o, i) => ({ ids: [1, 2, o.ids[0]!], mask: [0, 0, 1], logprobs: [0, 0, o.logprobs[0]!], advantage: adv[i]! }));
    const { model, opt } = fresh(2);
    const u = await dapoUpdate(model, opt, eps, { seed: 1, iteration: 0, optimizerSteps: 2, lr: () => 2e-2, firstStep: 0, clip: { epsLow: 0.2, epsHigh: 0.28 }, temperature: 1, passTokens: 0 });
    expect(u.steps).toHaveLength(2);
    expect(u.lastLr).toBe(2e-2);
    // The first step scores the policy that played: the behaviour log-probs equal the recomputed ones.
    expect(u.steps[0]!.logpDrift!).toBeLessThan(1e-5);
    expect(await goodFraction(model)).toBeGreaterThan(await goodFraction(fresh(2).model));
  });
});

describe('rollouts at a temperature τ ≠ 1', () => {
  it('the loss scores the tempered distribution: sampler log-probs equal the training forward at τ', async () => {
    const { model, opt } = fresh(3);
    for (const tau of [0.5, 0.8, 1.6]) {
      const G = 8;
      const gen = new KvGenerator(model, G, 12);
      const out = await gen.generate(Array.from({ length: G }, () => [1, 2]), { seed: 7, maxTokens: 4, stopIds: [], temperature: tau });
      const rows = packEpisodes(out.map((o) => ({ ids: [1, 2, ...o.ids], mask: [0, 0, ...o.ids.map(() => 1)], logprobs: [0, 0, ...o.logprobs], advantage: 0 })), 8);
      // Advantage 0: no update, only the self-check of the behaviour log-probs against the forward.
      const m = await dapoStep(model, opt, rows, 0, { epsLow: 0.2, epsHigh: 0.28 }, tau);
      expect(m.logpDrift!, `τ ${tau}`).toBeLessThan(1e-5);
      const plain = await dapoStep(model, opt, rows, 0, { epsLow: 0.2, epsHigh: 0.28 });
      expect(plain.logpDrift!, `τ ${tau} scored at 1`).toBeGreaterThan(1e-3);
    }
  });
  it('SFT at τ scores what the sampler at τ drew: its loss is the samples\' mean −logp (RFT\'s loss at rft.temperature)', async () => {
    const { model, opt } = fresh(3);
    for (const tau of [0.5, 0.3]) {
      const gen = new KvGenerator(model, 4, 12);
      const out = await gen.generate(Array.from({ length: 4 }, () => [1, 2]), { seed: 3, maxTokens: 4, stopIds: [], temperature: tau });
      const rows = packEpisodes(out.map((o) => ({ ids: [1, 2, ...o.ids], mask: [0, 0, ...o.ids.map(() => 1)] })), 8);
      const sampled = -out.flatMap((o) => o.logprobs).reduce((a, b) => a + b, 0) / rows.actionTokens;
      expect((await sftStep(model, opt, rows, 0, 0, tau)).loss, `τ ${tau}`).toBeCloseTo(sampled, 4);
      expect(Math.abs((await sftStep(model, opt, rows, 0)).loss - sampled), `τ ${tau} scored at 1`).toBeGreaterThan(1e-3);
    }
  });
  it("the gradient at τ is the chain rule's: (1/τ) · the gradient w.r.t. the tempered logits (finite differences)", async () => {
    const { model } = fresh(4);
    const tau = 0.7;
    const rows = packEpisodes([{ ids: [1, 2, 3, 4, 5], mask: [0, 0, 1, 1, 1] }], 6);
    const N = rows.B * rows.T;
    const batch = {
      B: rows.B, T: rows.T, ids: be.fromArray(rows.ids, [N]), targets: be.fromArray(rows.targets, [N]), positions: be.fromArray(rows.positions, [N]), seg: be.fromArray(rows.seg, [rows.B, rows.T]),
    };
    const loss = async () => {
      const st = model.forward(batch, { temperature: tau });
      const lp = await be.read(st.logp);
      let s = 0;
      for (let i = 0; i < N; i++) s += rows.mask[i]! * lp[i]!;
      return -s;
    };
    const grads = zeroGrads(be, model.params);
    const st = model.forward(batch, { temperature: tau });
    model.backward(st, be.fromArray(rows.mask.map((m) => -m), [N]), grads);
    const name = 'model.norm.weight';
    const w = (await be.read(model.params.get(name)!)) as Float32Array;
    const g = (await be.read(grads.get(name)!)) as Float32Array;
    const eps = 1e-3;
    for (const j of [0, 5, 17]) {
      const keep = w[j]!;
      w[j] = keep + eps;
      model.params.set(name, be.fromArray(w, [w.length], name));
      const up = await loss();
      w[j] = keep - eps;
      model.params.set(name, be.fromArray(w, [w.length], name));
      const down = await loss();
      w[j] = keep;
      model.params.set(name, be.fromArray(w, [w.length], name));
      expect(g[j]!).toBeCloseTo((up - down) / (2 * eps), 2);
    }
  });
});
