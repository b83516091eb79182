// The model policy in real multi-turn episodes (node sandbox, a hand-written task, a BPE tokenizer
// trained on the task's text, a small random model): sampled tokens are exactly the mask-1 tokens,
// and their behaviour log-probs equal the training forward's recomputation on the packed episodes
// (DAPO's ratios start at 1). Tolerance 2e-5: same math, cache path vs packed path.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runEpisodes } from '../../../src/agent/episode.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { trainBpe } from '../../../src/model/bpe.ts';
import { freezeConfig } from '../../../src/model/config.ts';
import { initParams } from '../../../src/model/init.ts';
import { uploadParams } from '../../../src/model/params.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { compareArrays } from '../../../src/ops/compare.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { ModelPolicy } from '../../../src/rl/model-policy.ts';
import { packEpisodes } from '../../../src/rl/pack.ts';
import { sandboxFactory } from '../../../src/sandbox/index.node.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';
import type { EpisodeView } from '../../../src/agent/policy.ts';
import { loadFixtureModel } from '../../helpers/model.ts';

const be = new CpuBackend();

describe('model policy: cohorts', () => {
  it('a cohort shrinks to its live episodes as others end, and they sample what they would have', async () => {
    const { model } = await loadFixtureModel(be, 'qwen2');
    const V = model.c.vocabSize;
    const tokenizer = { decode: (ids: readonly number[]) => ids.join(' '), encode: () => [], tokenToId: () => undefined };
    const play = async (compact: boolean) => {
      const policy = new ModelPolicy(model, tokenizer, { contextTokens: 200, stopIds: [V - 1], sampling: { temperature: 1 }, seed: 9, compact });
      const ctx = Array.from({ length: 8 }, (_, i) => [1 + i, 2, 3 + (i % 3)]);
      const view = (i: number): EpisodeView => ({ id: `e${i}`, index: i, task: {} as EpisodeView['task'], seed: i, messages: [], turns: [], tokenIds: ctx[i]!, maxTokens: 5 });
      const out: Record<string, number[][]> = {};
      let live = [0, 1, 2, 3, 4, 5, 6, 7];
      for (let turn = 0; turn < 4; turn++) {
        const turns = await policy.act(live.map(view));
        live.forEach((i, k) => {
          (out[`e${i}`] ??= []).push([...turns[k]!.tokenIds!, ...turns[k]!.logprobs!.map((x) => Math.round(x * 1e6))]);
          ctx[i]!.push(...turns[k]!.tokenIds!, 30 + turn, 31);
        });
        // Episodes end at different turns: 3 after the first, 2 more after the second.
        const ending = turn === 0 ? [1, 4, 6] : turn === 1 ? [0, 7] : [];
        for (const i of ending) policy.release(`e${i}`);
        live = live.filter((i) => !ending.includes(i));
      }
      return out;
    };
    expect(await play(true)).toEqual(await play(false));
  });
});

describe('model policy', () => {
  it('samples turns whose behaviour log-probs equal the training forward', async () => {
    const file = new URL('../../fixtures/tasks/handwritten.jsonl', import.meta.url);
    const { tasks } = parseTaskFile(readFileSync(file, 'utf8'), 'handwritten.jsonl');
    const task = tasks.find((t) => t.instance_id === 'clamp__1')!;
    const bpe = trainBpe([task.problem_statement, ...Object.values(task.files)], { vocabSize: 400 });
    const tok = Tokenizer.fromJson(bpe.tokenizerJson, bpe.tokenizerConfig);
    const config = freezeConfig({
      modelType: 'qwen2', vocabSize: 400, hiddenSize: 32, intermediateSize: 64, numLayers: 1, numHeads: 2, numKvHeads: 1,
      headDim: 16, ropeTheta: 10000, rmsNormEps: 1e-6, tieWordEmbeddings: true, qkvBias: true, qkNorm: false, maxPositionEmbeddings: 4096,
    });
    const model = new Transformer(be, config, uploadParams(be, config, initParams(config, 3)));
    const cfg = resolveConfig({ 'agent.maxTurns': 12, 'agent.contextTokens': 1500, 'agent.actionTokens': 12, 'agent.observationTokens': 60, 'reward.lengthThreshold': 4 });
    const eot = tok.tokenToId('<|im_end|>')!;
    const policy = new ModelPolicy(model, tok, { contextTokens: 1500, stopIds: [eot], sampling: { temperature: 1 }, seed: 11 });
    const trajs = await runEpisodes(
      [0, 1, 2].map((i) => ({ task, seed: i })),
      policy,
      sandboxFactory('node'),
      episodeOptions(cfg, { tokenizer: tok }),
    );
    let sampled = 0;
    for (const t of trajs) {
      expect(t.end_reason).toMatch(/^(max_turns|context_limit|submitted)$/);
      const arr = t.tokens!;
      expect(arr.ids.length).toBe(arr.mask.length);
      // Every mask-1 token has a behaviour log-prob; nothing else does.
      arr.mask.forEach((m, i) => expect(m === 1, `token ${i}`).toBe(arr.logprobs[i] !== null));
      sampled += arr.mask.reduce((a: number, b) => a + b, 0);
    }
    expect(sampled).toBeGreaterThan(30);
    const eps = trajs.map((t) => ({ ids: t.tokens!.ids, mask: t.tokens!.mask, logprobs: t.tokens!.logprobs.map((x) => x ?? 0) }));
    const rows = packEpisodes(eps, Math.max(...eps.map((e) => e.ids.length)));
    const N = rows.B * rows.T;
    const st = model.forward({
      B: rows.B, T: rows.T,
      ids: be.fromArray(rows.ids, [N]), targets: be.fromArray(rows.targets, [N]),
      positions: be.fromArray(rows.positions, [N]), seg: be.fromArray(rows.seg, [rows.B, rows.T]),
    });
    const logp = await be.read(st.logp);
    const got: number[] = [], want: number[] = [];
    for (let i = 0; i < N; i++) if (rows.mask[i]) (got.push(logp[i]!), want.push(rows.oldLogp[i]!));
    expect(got.length).toBe(sampled);
    const cmp = compareArrays('behaviour vs recomputed log-probs', got, want, { atol: 2e-5, rtol: 1e-5 });
    expect(cmp.ok, cmp.report).toBe(true);
  });
});
