// Overlapping generation with sandbox work (rl/collect.ts): a sequence's sampled tokens depend on
// its random stream, not on which sequences share its generator; collect with overlap plays exactly
// the episodes of running its batches one by one (real node sandboxes, a small random model), for
// pairs of batches and for a lone batch split in two; and the halves really take turns: a policy
// call runs while the other half's command is still running. Plus the timeline's interval sums.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatCommand } from '../../../src/agent/commands.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import type { Policy } from '../../../src/agent/policy.ts';
import { Timeline } from '../../../src/agent/timeline.ts';
import type { Trajectory } from '../../../src/agent/trajectory.ts';
import { trainBpe } from '../../../src/model/bpe.ts';
import { freezeConfig } from '../../../src/model/config.ts';
import { KvGenerator } from '../../../src/model/generate.ts';
import { initParams } from '../../../src/model/init.ts';
import { uploadParams } from '../../../src/model/params.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { collect } from '../../../src/rl/collect.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { ModelPolicy } from '../../../src/rl/model-policy.ts';
import { sandboxFactory } from '../../../src/sandbox/index.node.ts';
import type { FileMap, RunResult, SandboxFactory } from '../../../src/sandbox/types.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';
import { MemorySandbox } from '../../../src/sandbox/memory.ts';

const be = new FastCpuBackend();
const { tasks } = parseTaskFile(readFileSync('test/fixtures/tasks/handwritten.jsonl', 'utf8'), 'handwritten.jsonl');
const task = tasks.find((t) => t.instance_id === 'clamp__1')!;
const bpe = trainBpe([task.problem_statement, ...Object.values(task.files)], { vocabSize: 400 });
const tok = Tokenizer.fromJson(bpe.tokenizerJson, bpe.tokenizerConfig);
const config = freezeConfig({
  modelType: 'qwen2', vocabSize: 400, hiddenSize: 32, intermediateSize: 64, numLayers: 1, numHeads: 2, numKvHeads: 1,
  headDim: 16, ropeTheta: 10000, rmsNormEps: 1e-6, tieWordEmbeddings: true, qkvBias: true, qkNorm: false, maxPositionEmbeddings: 4096,
});
const model = new Transformer(be, config, uploadParams(be, config, initParams(config, 5)));
const eot = tok.tokenToId('<|im_end|>')!;

/** A trajectory without its wall-clock timings: what must not depend on the schedule. */
const played = (ts: readonly Trajectory[]) => ts.map((t) => ({ ...t, timing: undefined, turns: t.turns.map((u) => ({ ...u, timing: undefined })) }));

describe('random streams', () => {
  it("a sequence's tokens depend on its stream, not on the sequences generated with it", async () => {
    const prompts = [[5, 6, 7, 8], [9, 10], [11, 12, 13, 14, 15, 16]];
    const gen = async (rows: number[], streams?: number[]) => {
      const g = new KvGenerator(model, rows.length, 64);
      if (streams) streams.forEach((s, b) => (g.streams[b] = s));
      const first = await g.generate(rows.map((r) => prompts[r]!), { seed: 77, maxTokens: 8, stopIds: [] });
      const second = await g.generate(rows.map(() => [20, 21]), { seed: 77, maxTokens: 8, stopIds: [] }); // a later turn
      g.dispose();
      return rows.map((_, b) => ({ ids: [...first[b]!.ids, ...second[b]!.ids], logprobs: [...first[b]!.logprobs, ...second[b]!.logprobs] }));
    };
    const together = await gen([0, 1, 2]);
    expect(await gen([2, 0], [2, 0])).toEqual([together[2], together[0]]);
    expect(await gen([1], [1])).toEqual([together[1]]);
    // Without its stream, a sequence alone in a generator draws row 0's stream: other tokens.
    expect((await gen([2]))[0]!.ids).not.toEqual(together[2]!.ids);
    const g = new KvGenerator(model, 2, 16);
    g.streams[1] = 0;
    await expect(g.generate([[1], [2]], { seed: 1, maxTokens: 2, stopIds: [] })).rejects.toThrow(/streams must be distinct/);
  });
});

describe('collect with overlap', () => {
  it('plays the same episodes as running the batches one by one (pairs, and a lone batch split)', async () => {
    const cfg = resolveConfig({ 'agent.maxTurns': 3, 'agent.contextTokens': 1500, 'agent.actionTokens': 12, 'agent.observationTokens': 60, 'reward.lengthThreshold': 2 });
    const specs = Array.from({ length: 6 }, (_, i) => ({ task, seed: 100 + i }));
    const run = async (overlap: boolean) => {
      const timeline = new Timeline();
      const ts = await collect(
        specs,
        (b) => new ModelPolicy(model, tok, { contextTokens: 1600, stopIds: [eot], sampling: { temperature: 1 }, seed: 40 + b }),
        sandboxFactory('node'),
        { ...episodeOptions(cfg, { tokenizer: tok }), overlap, timeline },
        2, // batches 0 and 1 run as a pair, batch 2 split in two
      );
      return { ts, timeline };
    };
    const on = await run(true), off = await run(false);
    expect(on.ts).toHaveLength(6);
    for (const t of on.ts) expect(t.end_reason).toMatch(/^(max_turns|context_limit|submitted)$/);
    expect(on.ts.reduce((a, t) => a + t.action_tokens, 0)).toBeGreaterThan(50);
    expect(played(on.ts)).toEqual(played(off.ts));
    // Both kinds of work were recorded; generation never overlapped itself (one gate).
    expect(on.timeline.busy('generation')).toBeGreaterThan(0);
    expect(on.timeline.busy('sandbox')).toBeGreaterThan(0);
  });

  it("runs one half's commands while the other half is at the policy", async () => {
    // Episode sandboxes hold each run_tests until a policy call releases it (or a 10 s fallback);
    // the policy notes whether a command was in flight when it was called. Lockstep batches one by
    // one could never see one; the overlap scheme must.
    const held: (() => void)[] = [];
    let created = 0;
    const report = (): RunResult => ({ tests: [], output: '', exitCode: 0, timedOut: false, truncated: false, durationMs: 0 });
    const create: SandboxFactory = async (files: FileMap) => {
      const episodeSandbox = created++ < 2; // both episodes start before any grading sandbox exists
      const sb = new MemorySandbox(files, report);
      if (episodeSandbox) {
        sb.runTests = () =>
          new Promise<RunResult>((resolve) => {
            const release = () => (clearTimeout(timer), held.splice(held.indexOf(release) >>> 0, 1), resolve(report()));
            const timer = setTimeout(release, 10_000);
            held.push(release);
          });
      }
      return sb;
    };
    const seen: boolean[] = [];
    const script = [formatCommand({ name: 'run_tests' }), formatCommand({ name: 'run_tests' }), formatCommand({ name: 'submit' })];
    const policy: Policy = {
      name: 'scripted',
      version: 0,
      async act(states) {
        await new Promise((r) => setImmediate(r)); // like generation: the other half's continuations run meanwhile
        seen.push(held.length > 0);
        [...held].forEach((release) => release());
        return states.map((s) => ({ text: `Next.\n${script[s.turns.length]}` }));
      },
    };
    const opts = { ...episodeOptions(resolveConfig({ 'agent.maxTurns': 4, 'reward.lengthThreshold': 2 })), overlap: true };
    for (const batch of [1, 2]) {
      // batch 1: two batches of one episode run as a pair; batch 2: one batch of two, split in two.
      created = 0;
      seen.length = 0;
      const ts = await collect([{ task, seed: 1 }, { task, seed: 2 }], () => policy, create, opts, batch);
      expect(ts.map((t) => t.end_reason)).toEqual(['submitted', 'submitted']);
      expect(seen.filter(Boolean).length, `policy calls that saw a command in flight (batch ${batch}): ${seen}`).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('timeline', () => {
  it('counts parallel intervals once and measures the overlap of the two kinds', () => {
    const t = new Timeline();
    t.add('sandbox', 0, 1000);
    t.add('sandbox', 500, 1500); // parallel sandboxes: 0–1.5 s once
    t.add('sandbox', 3000, 4000);
    t.add('generation', 1000, 3500);
    t.add('generation', 4000, 4000); // empty
    expect(t.busy('sandbox')).toBeCloseTo(2.5, 9);
    expect(t.busy('generation')).toBeCloseTo(2.5, 9);
    expect(t.overlap()).toBeCloseTo(1.0, 9); // 1–1.5 s and 3–3.5 s
  });
});
