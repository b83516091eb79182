// The pass-rate probe of the base phase (eval.probeEvery): every N steps, one episode on each of 8 held-out tasks,
// logged as probe_pass_rate in that step's row; the run's own metrics and weights are those of the same run without
// it, and a stop and resume reads the same probes. The scratch-30k model on the fast CPU backend, level-0 val tasks
// in real node sandboxes.
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
  'model.preset': 'scratch-30k', seed: 6, 'run.phases': 'base', 'tasks.difficulty': 'token', 'agent.editCommand': 'sub', 'agent.viewHints': true,
  'agent.systemPrompt': 'brief', 'agent.testReport': 'brief', 'agent.contextTokens': 1024, 'agent.actionTokens': 32, 'agent.maxTurns': 3,
  'reward.lengthThreshold': 2, 'bc.expertStyle': 'bare', 'bc.expertNoise': 0, 'bc.episodes': 4, 'bc.epochs': 1, 'bc.batchEpisodes': 1,
  'bc.drillSteps': 2, 'eval.samples': 1, 'bc.lr': 3e-3,
} as const;

async function go(probeEvery: number, stopAtRow?: number, dir = mkdtempSync(join(tmpdir(), 'webswe-probe-'))) {
  const store = await FileRunStore.open(dir);
  let rows = 0;
  const r = await train(resolveConfig({ ...base, 'eval.probeEvery': probeEvery }), {
    be: new FastCpuBackend(), sandbox: sandboxFactory('node'), store, train: tasks.slice(0, 4), test: tasks.slice(4, 14),
    events: { metrics: (m) => (rows += m.filter((x) => x.phase === 'base' && x.step >= 0).length), shouldStop: () => stopAtRow !== undefined && rows >= stopAtRow },
  });
  const metrics = (await store.readMetrics()).map((m: MetricRecord) => ({ phase: m.phase, step: m.step, values: m.values }));
  return { r, dir, metrics, weights: () => readFileSync(join(dir, 'weights', 'base', 'model.safetensors')) };
}

describe('the pass-rate probe', () => {
  it('reads every N base steps and changes nothing else; a resumed run reads the same', { timeout: 600_000 }, async () => {
    const plain = await go(0), probed = await go(2);
    const steps = probed.metrics.filter((m) => m.phase === 'base' && m.step >= 0);
    expect(steps.filter((m) => 'probe_pass_rate' in m.values).map((m) => m.step)).toEqual(steps.map((m) => m.step).filter((s) => (s + 1) % 2 === 0));
    for (const m of steps) if ('probe_pass_rate' in m.values) expect(m.values.probe_pass_rate! * 8 % 1).toBe(0); // a share of 8 episodes
    const without = probed.metrics.map((m) => ({ ...m, values: Object.fromEntries(Object.entries(m.values).filter(([k]) => k !== 'probe_pass_rate')) }));
    expect(without).toEqual(plain.metrics);
    expect(probed.weights()).toEqual(plain.weights());
    const stopped = await go(2, 3);
    expect(stopped.r.stopped).toBe(true);
    expect((await go(2, undefined, stopped.dir)).metrics).toEqual(probed.metrics);
  });
});
