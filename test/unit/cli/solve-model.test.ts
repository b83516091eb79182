// `webswe solve --policy model:DIR` on a saved model folder (a small random model with a BPE
// tokenizer, written as a Hugging Face folder): a real episode whose sampled tokens carry their
// behaviour log-probs.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { trainBpe } from '../../../src/model/bpe.ts';
import { freezeConfig } from '../../../src/model/config.ts';
import { initParams } from '../../../src/model/init.ts';
import { saveModelDir } from '../../../src/model/load.node.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';

const BIN = fileURLToPath(new URL('../../../bin/webswe.js', import.meta.url));
const TASKS = 'test/fixtures/tasks/handwritten.jsonl';

describe('webswe solve --policy model:DIR', () => {
  it('runs an episode with the saved model and records sampled tokens with log-probs', async () => {
    const { tasks } = parseTaskFile(readFileSync(TASKS, 'utf8'), TASKS);
    const bpe = trainBpe(tasks.flatMap((t) => [t.problem_statement, ...Object.values(t.files)]), { vocabSize: 320 });
    const config = freezeConfig({
      modelType: 'qwen2', vocabSize: 320, hiddenSize: 32, intermediateSize: 64, numLayers: 1, numHeads: 2, numKvHeads: 1, headDim: 16,
      ropeTheta: 10000, rmsNormEps: 1e-6, tieWordEmbeddings: true, qkvBias: true, qkNorm: false, maxPositionEmbeddings: 8192, eosTokenIds: [2],
    });
    const dir = mkdtempSync(join(tmpdir(), 'webswe-model-'));
    await saveModelDir(dir, { config, tensors: initParams(config, 5), tokenizerJson: bpe.tokenizerJson, tokenizerConfig: bpe.tokenizerConfig });
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [BIN, 'solve', '--task', TASKS, '--id', 'clamp__1', '--policy', `model:${dir}`, '--max-turns', '3', '--length-threshold', '2', '--json'], { timeout: 240_000, maxBuffer: 64 << 20 }, (e, stdout, stderr) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(t.policy).toBe(`model:${dir}`);
    expect(t.turns.length).toBeGreaterThan(0);
    expect(['max_turns', 'context_limit', 'submitted']).toContain(t.end_reason);
    const sampled = t.tokens.mask.filter((m: number) => m === 1).length;
    expect(sampled).toBeGreaterThan(0);
    t.tokens.mask.forEach((m: number, i: number) => expect(m === 1).toBe(t.tokens.logprobs[i] !== null));
    // --set: the agent settings a model was trained with (micro: the one-line system prompt), greedy decoding.
    const run = (...extra: string[]) => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [BIN, 'solve', '--task', TASKS, '--id', 'clamp__1', '--policy', `model:${dir}`, '--max-turns', '2', '--length-threshold', '1', '--json', ...extra], { timeout: 240_000, maxBuffer: 64 << 20 }, (e, stdout, stderr) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
    const [a, b] = await Promise.all([run('--set', 'agent.systemPrompt=brief', 'eval.temperature=0'), run('--seed', '9', '--set', 'agent.systemPrompt=brief', 'eval.temperature=0')]);
    expect(a.code, a.stderr).toBe(0);
    const ta = JSON.parse(a.stdout), tb = JSON.parse(b.stdout);
    expect(ta.system).toBe('Fix the bug. One command per turn.');
    expect(tb.tokens.ids).toEqual(ta.tokens.ids); // greedy: the seed does not matter
    // A bare model folder starts from the full system prompt (what a pretrained model reads)…
    const plain = await run();
    expect(JSON.parse(plain.stdout).system).toMatch(/^You are a software engineer/);
    // …a run's checkpoint/ from the run's own settings (config.json beside it).
    const runDir = join(dir, 'run');
    await saveModelDir(join(runDir, 'checkpoint'), { config, tensors: initParams(config, 5), tokenizerJson: bpe.tokenizerJson, tokenizerConfig: bpe.tokenizerConfig });
    writeFileSync(join(runDir, 'config.json'), JSON.stringify({ 'agent.maxTurns': 2, 'reward.lengthThreshold': 1, 'agent.systemPrompt': 'brief' }));
    const fromRun = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [BIN, 'solve', '--task', TASKS, '--id', 'clamp__1', '--policy', `model:${join(runDir, 'checkpoint')}`, '--json'], { timeout: 240_000, maxBuffer: 64 << 20 }, (e, stdout, stderr) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(fromRun.code, fromRun.stderr).toBe(0);
    const tr = JSON.parse(fromRun.stdout);
    expect(tr.system).toBe('Fix the bug. One command per turn.');
    expect(tr.turns.length).toBeLessThanOrEqual(2);
    const bad = await run('--set', 'agent.systemPrompt=short');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/agent\.systemPrompt/);
  });
});
