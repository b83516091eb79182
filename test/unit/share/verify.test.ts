// Verification of contributed episodes (src/share/verify.ts): an honest contributor's group (played with
// real node sandboxes by a small random model whose turns end at varied lengths) passes all four checks
// and comes back as the learner's own replay; each forgery is caught by the check meant for it, naming
// it: a claimed reward the tests do not give, an observation the sandbox did not print, a behaviour
// log-prob off by 0.05, an episode played with another seed (real samples, consistent log-probs: only
// the sampling check can tell), a stale version, another task's episodes, malformed and oversized messages.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../../../src/agent/trajectory.ts';
import { playItem } from '../../../src/share/play.ts';
import { parseResultMessage, ResultError, taskForWork, type ResultLimits, type ResultMessage, type WorkItem } from '../../../src/share/protocol.ts';
import { drawCounters, samplingMiss, verifyResult } from '../../../src/share/verify.ts';
import { trainBpe } from '../../../src/model/bpe.ts';
import { freezeConfig } from '../../../src/model/config.ts';
import { initParams } from '../../../src/model/init.ts';
import { uploadParams } from '../../../src/model/params.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { sandboxFactory } from '../../../src/sandbox/index.node.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';

const be = new FastCpuBackend();
const { tasks } = parseTaskFile(readFileSync('test/fixtures/tasks/handwritten.jsonl', 'utf8'), 'handwritten.jsonl');
const task = tasks.find((t) => t.instance_id === 'clamp__1')!;
const other = tasks.find((t) => t.instance_id !== 'clamp__1')!;
const bpe = trainBpe([task.problem_statement, ...Object.values(task.files)], { vocabSize: 400 });
const tok = Tokenizer.fromJson(bpe.tokenizerJson, bpe.tokenizerConfig);
const eot = tok.tokenToId('<|im_end|>')!;
const config = freezeConfig({
  modelType: 'qwen2', vocabSize: 400, hiddenSize: 32, intermediateSize: 64, numLayers: 1, numHeads: 2, numKvHeads: 1,
  headDim: 16, ropeTheta: 10000, rmsNormEps: 1e-6, tieWordEmbeddings: true, qkvBias: true, qkNorm: false, maxPositionEmbeddings: 4096,
});
const values = initParams(config, 5);
// A long end-of-turn embedding row: its (tied) logit swings widely, so turns end at varied lengths and
// the cohort's draw counters (max over the live turns) differ from each episode's own token count.
const emb = values.get('model.embed_tokens.weight')!;
for (let j = 0; j < config.hiddenSize; j++) emb[eot * config.hiddenSize + j]! *= 60;
const model = new Transformer(be, config, uploadParams(be, config, values));
const cfg = resolveConfig({ 'agent.maxTurns': 3, 'agent.contextTokens': 3000, 'agent.actionTokens': 16, 'agent.observationTokens': 60, 'reward.lengthThreshold': 2, 'reward.lengthPenalty': false });
const episodes = episodeOptions(cfg, { tokenizer: tok });
const sandbox = sandboxFactory('node');
const limits: ResultLimits = { maxResultBytes: 1 << 20, logprobTolerance: 2e-3 };
const env = { model, tokenizer: tok, stopIds: [eot], sandbox, episodes, limits };

const item: WorkItem = {
  format: 'webswe-work', version: 1, run: 'r1', item: 'dapo/0/0/0', attempt: 0, policy_version: 3,
  task: taskForWork(task), policy_seed: 4242, episodes: [{ seed: 11 }, { seed: 12 }, { seed: 13 }],
  temperature: 1, max_turns: 3, context_tokens: 3000,
};
const honest = await playItem(item, { model, tokenizer: tok, stopIds: [eot], sandbox, episodes });
const copy = (m: ResultMessage): ResultMessage & { trajectories: Trajectory[] } => JSON.parse(JSON.stringify(m));
const reason = async (m: ResultMessage, it: WorkItem = item) => {
  try {
    await verifyResult(it, task, m, env);
    return 'accepted';
  } catch (e) {
    if (!(e instanceof ResultError)) throw e;
    return e.reason;
  }
};

describe('verifying a contributed group', () => {
  it('accepts an honest group and returns the replay, with varied turn lengths exercised', async () => {
    const ts = honest.trajectories as Trajectory[];
    const lengths = ts.flatMap((t) => t.tokens!.segments.filter((s) => s.kind === 'assistant').map((s) => s.end - s.start));
    expect(new Set(lengths).size).toBeGreaterThan(2);
    // The counter arithmetic is not trivial here: some turn starts at a cohort count (max over the live
    // turns) other than the episode's own tokens so far.
    const turns = ts.map((t) => t.tokens!.segments.filter((s) => s.kind === 'assistant').map((s) => ({ ids: t.tokens!.ids.slice(s.start, s.end).filter((_, i) => t.tokens!.mask[s.start + i] === 1), logprobs: [] })));
    const D = drawCounters(turns);
    expect(turns.some((tt) => tt.some((_, t) => D[t] !== tt.slice(0, t).reduce((a, x) => a + x.ids.length, 0)))).toBe(true);
    const { trajectories, stats } = await verifyResult(item, task, honest, env);
    expect(trajectories.map((t) => t.tokens!.ids)).toEqual(ts.map((t) => t.tokens!.ids));
    expect(trajectories.map((t) => t.reward)).toEqual(ts.map((t) => t.reward));
    expect(stats.actionTokens).toBe(ts.reduce((a, t) => a + t.tokens!.mask.filter(Boolean).length, 0));
    expect(stats.maxLogprobError).toBeLessThan(1e-4);
  });

  it('catches a claimed reward the tests do not give', async () => {
    const m = copy(honest);
    const t = m.trajectories[0]!;
    expect(t.reward.total).toBe(0);
    t.reward = { ...t.reward, tests: 1, total: 1 };
    expect(await reason(m)).toBe('reward_mismatch');
  });

  it('catches an observation the sandbox did not print', async () => {
    const m = copy(honest);
    const t = m.trajectories[1]!;
    const seg = t.tokens!.segments.find((s) => s.kind === 'observation')!;
    t.tokens!.ids[seg.start + 1] = (t.tokens!.ids[seg.start + 1]! + 1) % 400;
    expect(await reason(m)).toBe('replay_mismatch');
  });

  it('catches a forged behaviour log-prob', async () => {
    const m = copy(honest);
    const t = m.trajectories[2]!;
    const i = t.tokens!.mask.indexOf(1);
    t.tokens!.logprobs[i] = t.tokens!.logprobs[i]! - 0.05;
    expect(await reason(m)).toBe('logprob_mismatch');
  });

  it('catches real samples that are not the seeded draws (another policy seed)', async () => {
    const forged = await playItem({ ...item, policy_seed: 999 }, { model, tokenizer: tok, stopIds: [eot], sandbox, episodes });
    expect(await reason(forged)).toBe('not_sampled');
  });

  it('refuses stale versions, other episodes and wrong counts', async () => {
    expect(await reason({ ...honest, policy_version: 2 })).toBe('stale');
    expect(await reason({ ...honest, trajectories: honest.trajectories.slice(0, 2) })).toBe('wrong_episodes');
    const m = copy(honest);
    m.trajectories[0]!.task_id = other.instance_id;
    expect(await reason(m)).toBe('wrong_episodes');
    expect(await reason({ ...honest, item: 'dapo/0/0/9' })).toBe('unknown_item');
  });

  it('refuses malformed and oversized messages before any work', async () => {
    const enc = (x: unknown) => new TextEncoder().encode(JSON.stringify(x));
    const why = (b: Uint8Array) => {
      try {
        parseResultMessage(b, limits);
        return 'parsed';
      } catch (e) {
        return (e as ResultError).reason;
      }
    };
    expect(why(enc(honest))).toBe('parsed');
    expect(why(new Uint8Array((1 << 20) + 1))).toBe('oversized');
    expect(why(new Uint8Array([0xff, 0xfe]))).toBe('malformed');
    expect(why(enc({ ...honest, trajectories: 'x' }))).toBe('malformed');
    const m = copy(honest);
    m.trajectories[0]!.tokens!.mask[3] = 7 as 0;
    expect(await reason(m)).toBe('malformed');
    const n = copy(honest);
    n.trajectories[0]!.tokens!.ids.push(5);
    expect(await reason(n)).toBe('malformed');
    // A behaviour log-prob no honest draw has (below e⁻³⁰): refused before any check, audited or not, so that an
    // unaudited claim cannot make DAPO's ratio overflow.
    const low = copy(honest);
    const t = low.trajectories[0]!.tokens!;
    t.logprobs[t.mask.indexOf(1)] = -1e300;
    expect(await reason(low)).toBe('malformed');
  });
});

describe('the sampling check', () => {
  it("counts the cohort's draws: each call draws as often as its longest live turn", () => {
    const turn = (n: number) => ({ ids: new Array(n).fill(1), logprobs: new Array(n).fill(-1) });
    expect(drawCounters([[turn(3), turn(5)], [turn(7)], [turn(2), turn(1), turn(4)]])).toEqual([0, 7, 12, 16]);
  });

  it("measures how far u misses a token's interval of the inverse CDF", () => {
    const row = Float32Array.from([0, Math.log(3)]); // p = [0.25, 0.75]
    expect(samplingMiss(row, 0, 0.1)).toBe(0);
    expect(samplingMiss(row, 1, 0.1)).toBeCloseTo(0.15, 6);
    expect(samplingMiss(row, 0, 0.3)).toBeCloseTo(0.05, 6);
    expect(samplingMiss(row, 1, 0.999)).toBe(0);
  });
});
