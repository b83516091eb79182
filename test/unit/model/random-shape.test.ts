// A pretrained shape played with random weights (bench dist at the 0.5 B shape): its tokenizer is a BPE trained on
// the tasks and filled up to the shape's vocabulary, so every id the random model samples decodes; episodes play
// and verify through the same code as a loaded model folder's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../../../src/agent/trajectory.ts';
import { padVocab, trainBpe } from '../../../src/model/bpe.ts';
import { parseLoraTargets } from '../../../src/model/lora.ts';
import { randomShapeModel, type ModelShape } from '../../../src/model/shapes.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { openRunPolicy, tokenizerCorpus } from '../../../src/rl/session.ts';
import { sandboxFactory } from '../../../src/sandbox/index.node.ts';
import { playItem } from '../../../src/share/play.ts';
import { taskForWork, type WorkItem } from '../../../src/share/protocol.ts';
import { verifyResult } from '../../../src/share/verify.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';
import { smallQwen2 } from '../../helpers/model.ts';

const { tasks } = parseTaskFile(readFileSync('test/fixtures/tasks/handwritten.jsonl', 'utf8'), 'handwritten.jsonl');
const corpus = tokenizerCorpus(tasks);

describe('padVocab', () => {
  it('fills the vocabulary with tokens that decode to text and that encoding never produces', () => {
    const bpe = trainBpe(corpus, { vocabSize: 400 });
    const small = Tokenizer.fromJson(bpe.tokenizerJson, bpe.tokenizerConfig);
    const padded = padVocab(bpe, 3000);
    const tok = Tokenizer.fromJson(padded.tokenizerJson, padded.tokenizerConfig);
    expect(small.vocabSize).toBe(bpe.vocabSize);
    expect(tok.vocabSize).toBe(3000);
    for (const text of corpus.slice(0, 4)) expect(tok.encode(text)).toEqual(small.encode(text));
    expect(tok.decode([bpe.vocabSize, 2999])).toBe(`~${bpe.vocabSize.toString(36)}~~${(2999).toString(36)}~`);
    // Every id decodes; the trained ones as before.
    expect(tok.decode(Array.from({ length: 3000 }, (_, i) => i)).length).toBeGreaterThan(0);
    expect(tok.decode([5, 100, 300])).toBe(small.decode([5, 100, 300]));
    expect(() => padVocab(bpe, bpe.vocabSize - 1)).toThrow(/size must be an integer ≥ the \d+ tokens/);
    // Ids must run without a gap over the vocabulary and the added tokens (a filler id must not land on one).
    const model = bpe.tokenizerJson.model as { vocab: Record<string, number> };
    const gap = { ...bpe, tokenizerJson: { ...bpe.tokenizerJson, model: { ...model, vocab: Object.fromEntries(Object.entries(model.vocab).filter(([, id]) => id !== 100)) } } };
    expect(() => padVocab(gap, 3000)).toThrow(/the tokenizer's ids have a gap at 100/);
  });
});

describe('randomShapeModel', () => {
  it('plays and verifies an item at a pretrained shape with random weights, LoRA on, its samples mostly past the trained vocabulary', async () => {
    const shape: ModelShape = { ...smallQwen2({ vocab: 2000, layers: 1, ids: { bos: 1990, eos: 1999 } }), lora: { rank: 2, alpha: 4, targets: parseLoraTargets('q,v') } };
    const source = randomShapeModel(shape, corpus, 3, 400);
    // The stop token is the tokenizer's <|im_end|>, not the shape's filler id.
    expect(source.config).toMatchObject({ vocabSize: 2000, eosTokenIds: [2], bosTokenId: 0 });
    const cfg = resolveConfig({ 'model.preset': shape.name, 'model.loraRank': 2, 'model.loraAlpha': 4, 'model.loraTargets': 'q,v', 'agent.maxTurns': 2, 'agent.contextTokens': 2000, 'agent.actionTokens': 16, 'reward.lengthThreshold': 1 });
    const be = new FastCpuBackend();
    const policy = await openRunPolicy(cfg, be, { store: { readJson: async () => null, writeJson: async () => {} }, train: tasks, pretrained: source });
    expect(policy.lora?.rank).toBe(2);
    expect(policy.tokenizer.vocabSize).toBe(2000);
    const env = { model: policy.model, tokenizer: policy.tokenizer, stopIds: policy.stopIds, sandbox: sandboxFactory('node'), episodes: episodeOptions(cfg, { tokenizer: policy.tokenizer }) };
    const item: WorkItem = {
      format: 'webswe-work', version: 1, run: 'r', item: 'dapo/0/0/0', attempt: 0, policy_version: 0, task: taskForWork(tasks[0]!),
      policy_seed: 7, episodes: [{ seed: 1 }, { seed: 2 }], temperature: 1, max_turns: 2, context_tokens: 2000,
    };
    const result = await playItem(item, env);
    const sampled = (result.trajectories as Trajectory[]).flatMap((t) => t.tokens!.ids.filter((_, i) => t.tokens!.mask[i] === 1));
    expect(sampled.length).toBeGreaterThan(0);
    // About 1 − 400/2000 of a near-uniform random model's samples are filler ids; each one decoded.
    expect(sampled.filter((id) => id >= 400).length / sampled.length).toBeGreaterThan(0.5);
    const { stats } = await verifyResult(item, tasks[0]!, result, { ...env, limits: { maxResultBytes: 1 << 20, logprobTolerance: 2e-3 } });
    expect(stats).toMatchObject({ episodes: 2, audited: true });
    expect(stats.maxLogprobError).toBeLessThan(2e-3);
  }, 60_000);
});
