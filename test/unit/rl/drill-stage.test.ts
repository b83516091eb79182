// The drills-only stage before cloning (bc.drillSteps): its steps come first in the base phase's metrics
// at a constant rate after warm-up, cloning's are numbered on after them; a stop inside the stage, or at
// cloning's first step, writes a checkpoint, and the resumed run ends as an uninterrupted one (the same
// metrics, the same weights). The nano model on the fast CPU backend, level-0 val tasks in real node sandboxes.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { train } from '../../../src/rl/trainer.ts';
import { sandboxFactory } from '../../../src/sandbox/index.node.ts';
import { FileRunStore } from '../../../src/store/fs.node.ts';
import type { MetricRecord } from '../../../src/store/types.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';

const FILE = 'public/tasks/level0/val.jsonl';
const { tasks } = parseTaskFile(readFileSync(FILE, 'utf8'), FILE);
const base = {
  'model.preset': 'scratch-30k', seed: 4, 'run.phases': 'base', 'tasks.difficulty': 'token', 'agent.editCommand': 'sub', 'agent.viewHints': true,
  'agent.systemPrompt': 'brief', 'agent.testReport': 'brief', 'agent.contextTokens': 1024, 'agent.actionTokens': 32, 'agent.maxTurns': 3,
  'reward.lengthThreshold': 2, 'bc.expertStyle': 'bare', 'bc.expertNoise': 0, 'bc.episodes': 3, 'bc.epochs': 1, 'bc.batchEpisodes': 1,
  'bc.warmupSteps': 2, 'eval.samples': 1, 'bc.lr': 3e-3,
} as const;

async function go(over: Record<string, number>, stopAtRow?: number, dir = mkdtempSync(join(tmpdir(), 'webswe-drills-'))) {
  const store = await FileRunStore.open(dir);
  let rows = 0;
  const r = await train(resolveConfig({ ...base, ...over }), {
    be: new FastCpuBackend(), sandbox: sandboxFactory('node'), store, train: tasks.slice(0, 3), test: tasks.slice(3, 4),
    events: { metrics: (m) => (rows += m.filter((x) => x.phase === 'base' && x.step >= 0).length), shouldStop: () => stopAtRow !== undefined && rows >= stopAtRow },
  });
  const metrics = (await store.readMetrics()).map((m: MetricRecord) => ({ phase: m.phase, step: m.step, values: m.values }));
  return { r, dir, store, metrics, steps: metrics.filter((m) => m.phase === 'base' && m.step >= 0) };
}

describe('drills-only stage', () => {
  it('runs its steps first at a constant rate, then cloning; a stop inside it or at its end resumes to the same end', { timeout: 600_000 }, async () => {
    const full = await go({ 'bc.drillSteps': 6 });
    // 6 drill steps (warm-up over 2: bc.warmupSteps; then bc.lr flat), then 3 cloning steps (cosine, its own warm-up).
    expect(full.steps.map((m) => m.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(full.steps.slice(0, 6).map((m) => m.values.lr)).toEqual([1.5e-3, 3e-3, 3e-3, 3e-3, 3e-3, 3e-3]);
    expect(full.steps[6]!.values.lr).toBeCloseTo(1.5e-3, 9);
    // A drill trains one turn: its action tokens are a handful, an expert episode's several times more.
    expect(Math.max(...full.steps.slice(0, 6).map((m) => m.values.action_tokens!))).toBeLessThan(Math.min(...full.steps.slice(6).map((m) => m.values.action_tokens!)));

    // Stopped after the stage's third step, and again after the stage's last one (before cloning's first).
    for (const stopAt of [3, 6]) {
      const stopped = await go({ 'bc.drillSteps': 6 }, stopAt);
      expect(stopped.r.stopped).toBe(true);
      expect(stopped.steps.map((m) => m.step)).toEqual(Array.from({ length: stopAt }, (_, i) => i));
      expect((await stopped.store.loadCheckpoint())?.state).toMatchObject({ phase: 'base', step: stopAt, optimizerStep: stopAt === 6 ? 0 : stopAt });
      const resumed = await go({ 'bc.drillSteps': 6 }, undefined, stopped.dir);
      expect(resumed.r.resumedFrom).toEqual({ phase: 'base', step: stopAt });
      expect(resumed.metrics, `stopped at ${stopAt}`).toEqual(full.metrics);
      expect(readFileSync(join(resumed.dir, 'weights', 'base', 'model.safetensors'))).toEqual(readFileSync(join(full.dir, 'weights', 'base', 'model.safetensors')));
    }
    // And inside cloning after the stage: its checkpoint's step counts the stage's steps too.
    const late = await go({ 'bc.drillSteps': 6 }, 8);
    expect((await late.store.loadCheckpoint())?.state).toMatchObject({ phase: 'base', step: 8, optimizerStep: 2 });
    expect((await go({ 'bc.drillSteps': 6 }, undefined, late.dir)).metrics).toEqual(full.metrics);
  });

  it('names the setting to change when the stage cannot run', () => {
    expect(() => resolveConfig({ 'bc.drillSteps': 100, 'agent.viewHints': true, 'agent.editCommand': 'edit' })).toThrow(/set agent.editCommand=sub or the drills to 0/);
    expect(() => resolveConfig({ 'bc.drillSteps': 100, 'agent.editCommand': 'edit' })).toThrow(/set agent.editCommand=sub or the drills to 0/);
    // Without the list the stage runs: its drills name the token read off the code.
    expect(resolveConfig({ 'bc.drillSteps': 100, 'agent.editCommand': 'sub' }).bc.drillSteps).toBe(100);
  });
});
