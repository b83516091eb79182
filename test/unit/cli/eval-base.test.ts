// `webswe eval` runs episodes as the model was trained: a run's checkpoint/ takes the run's agent,
// reward and eval settings and its task tier and selection from ../config.json; a bare folder gets the config's defaults, whose
// full system prompt documents the action format (what a pretrained model reads).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evalBase } from '../../../src/cli/train.ts';
import { resolveConfig } from '../../../src/rl/config.ts';

describe('webswe eval settings', () => {
  it("takes a run's agent/reward/eval settings, else the defaults (the full prompt)", async () => {
    const root = mkdtempSync(join(tmpdir(), 'webswe-evalbase-'));
    const run = join(root, 'run');
    mkdirSync(join(run, 'checkpoint'), { recursive: true });
    writeFileSync(join(run, 'config.json'), JSON.stringify({ seed: 3, 'model.preset': 'scratch-5m', 'agent.maxTurns': 16, 'agent.systemPrompt': 'brief', 'agent.contextTokens': 4096, 'reward.lengthThreshold': 10, 'eval.temperature': 0.5, 'tasks.train': 'mine.jsonl', 'tasks.difficulty': 'token', 'tasks.select': 'spread' }));
    const fromRun = await evalBase(join(run, 'checkpoint'));
    expect(fromRun).toEqual({ 'agent.maxTurns': 16, 'agent.systemPrompt': 'brief', 'agent.contextTokens': 4096, 'reward.lengthThreshold': 10, 'eval.temperature': 0.5, 'tasks.difficulty': 'token', 'tasks.select': 'spread' });
    const cfg = resolveConfig(fromRun);
    expect([cfg.agent.maxTurns, cfg.agent.systemPrompt, cfg.eval.temperature]).toEqual([16, 'brief', 0.5]);

    const bare = join(root, 'model');
    mkdirSync(bare);
    expect(resolveConfig(await evalBase(bare)).agent).toMatchObject({ systemPrompt: 'full', maxTurns: 40, contextTokens: 4096, editCommand: 'replace' });
    // A config.json beside the folder that is not a run's (a model's) is ignored.
    writeFileSync(join(root, 'config.json'), JSON.stringify({ model_type: 'qwen2' }));
    expect(resolveConfig(await evalBase(bare)).agent.systemPrompt).toBe('full');
  });
});
