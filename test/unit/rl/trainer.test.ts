// The pipeline driver with the nano preset on the fast CPU backend and real node sandboxes: a second
// run with the same seed writes identical metrics, and when it is stopped after its first DAPO
// iteration and resumed from the checkpoint it ends with the same metrics as the uninterrupted one
// (timings aside: they are wall-clock and kept apart in `timing`); the same when it is stopped in the
// middle of behaviour cloning (a mid-phase checkpoint: weights, next step, AdamW's moments).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { flattenConfig, resolveConfig } from '../../../src/rl/config.ts';
import { train } from '../../../src/rl/trainer.ts';
import { sandboxFactory } from '../../../src/sandbox/index.node.ts';
import { FileRunStore } from '../../../src/store/fs.node.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';
import type { MetricRecord } from '../../../src/store/types.ts';

const FILE = 'test/fixtures/agent/mutations.jsonl';
const { tasks } = parseTaskFile(readFileSync(FILE, 'utf8'), FILE);
const cfg = resolveConfig({
  'model.preset': 'scratch-30k', seed: 3, 'run.phases': 'base,dapo', 'agent.contextTokens': 1536, 'agent.actionTokens': 48, 'agent.maxTurns': 3,
  'reward.lengthThreshold': 2, 'bc.episodes': 2, 'bc.epochs': 1, 'rft.batchEpisodes': 2, 'dapo.iterations': 2, 'dapo.tasksPerIteration': 1,
  'dapo.groupSize': 2, 'dapo.filterGroups': false, 'dapo.optimizerSteps': 1, 'eval.samples': 2, 'run.checkpointEvery': 1,
});

async function run(stopAfterDapo?: number, dir = mkdtempSync(join(tmpdir(), 'webswe-train-'))) {
  const store = await FileRunStore.open(dir);
  let dapoRows = 0;
  const r = await train(cfg, {
    be: new FastCpuBackend(), sandbox: sandboxFactory('node'), store, train: tasks.slice(0, 2), test: tasks.slice(2, 3),
    events: { metrics: (rows) => (dapoRows += rows.filter((x) => x.phase === 'dapo').length), shouldStop: () => stopAfterDapo !== undefined && dapoRows >= stopAfterDapo },
  });
  return { r, dir, metrics: (await store.readMetrics()).map((m: MetricRecord) => ({ phase: m.phase, step: m.step, values: m.values })) };
}

describe('trainer', () => {
  it('same seed ⇒ same metrics; stop + resume ⇒ the uninterrupted metrics', async () => {
    const a = await run();
    expect(a.r.phases.map((p) => p.phase)).toEqual(['base', 'dapo']);
    expect(a.metrics.filter((m) => m.phase === 'dapo')).toHaveLength(2);
    // A second run with the same seed, stopped after its first DAPO iteration: identical so far…
    const c1 = await run(1);
    expect(c1.r.stopped).toBe(true);
    expect(c1.metrics).toEqual(a.metrics.slice(0, c1.metrics.length));
    // …and resumed from its checkpoint, identical to the end.
    const c2 = await run(undefined, c1.dir);
    expect(c2.r.resumedFrom).toEqual({ phase: 'dapo', step: 1 });
    expect(c2.metrics).toEqual(a.metrics);
    expect(c2.r.phases.map((p) => p['pass@1'])).toEqual(a.r.phases.map((p) => p['pass@1']));
    // Each finished phase's weights stay in the run folder as a Hugging Face folder; base's are not dapo's.
    expect(await (await FileRunStore.open(a.dir)).listPhaseWeights()).toEqual(['base', 'dapo']);
    for (const p of ['base', 'dapo']) expect(readdirSync(join(a.dir, 'weights', p)).sort()).toEqual(['config.json', 'generation_config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']);
    expect(readFileSync(join(a.dir, 'weights', 'base', 'model.safetensors'))).not.toEqual(readFileSync(join(a.dir, 'weights', 'dapo', 'model.safetensors')));
    expect(readFileSync(join(a.dir, 'weights', 'dapo', 'model.safetensors'))).toEqual(readFileSync(join(a.dir, 'checkpoint', 'model.safetensors')));
  }, 1_200_000);

  it('stopped inside behaviour cloning, it resumes at the step it stopped and ends as an uninterrupted run', async () => {
    const bc = resolveConfig({
      'model.preset': 'scratch-30k', seed: 5, 'run.phases': 'base', 'agent.contextTokens': 1536, 'agent.actionTokens': 48, 'agent.maxTurns': 3,
      'reward.lengthThreshold': 2, 'bc.episodes': 4, 'bc.epochs': 2, 'bc.batchEpisodes': 1, 'eval.samples': 1, 'run.checkpointSteps': 3,
    });
    // A backend that reports device memory, as WebGPU's does: the phase resets its peak and its evaluation
    // row carries the phase's figures (timing, with the wall-clock values).
    class Metered extends FastCpuBackend {
      resets = 0;
      memory() {
        return { liveBytes: 3 * 2 ** 20, peakBytes: 5 * 2 ** 20, pooledBytes: 2 ** 20, evictedBytes: 2 * 2 ** 20, resetPeak: () => void this.resets++ };
      }
    }
    const metered = new Metered();
    const go = async (stopAfterSteps?: number, dir = mkdtempSync(join(tmpdir(), 'webswe-bc-'))) => {
      const store = await FileRunStore.open(dir);
      let steps = 0;
      const r = await train(bc, {
        be: metered, sandbox: sandboxFactory('node'), store, train: tasks.slice(0, 2), test: tasks.slice(2, 3),
        events: { metrics: (rows) => (steps += rows.filter((x) => x.phase === 'base' && x.step >= 0).length), shouldStop: () => stopAfterSteps !== undefined && steps >= stopAfterSteps },
      });
      return { r, dir, store, metrics: (await store.readMetrics()).map((m: MetricRecord) => ({ phase: m.phase, step: m.step, values: m.values })) };
    };
    const a = await go();
    expect(a.metrics.filter((m) => m.phase === 'base' && m.step >= 0)).toHaveLength(8);
    expect(metered.resets).toBe(1);
    expect((await a.store.readMetrics()).find((m) => m.phase === 'eval-base')?.timing).toMatchObject({ gpu_peak_mib: 5, gpu_pooled_mib: 1, gpu_evicted_mib: 2 });
    const b1 = await go(5);
    expect(b1.r.stopped).toBe(true);
    expect(b1.r.phases).toEqual([]);
    // The stop wrote a checkpoint at the step it stopped before (5), not only the periodic one (3).
    const ck = await b1.store.loadCheckpoint();
    expect(ck?.state).toMatchObject({ phase: 'base', step: 5, optimizerStep: 5 });
    expect(ck?.adamM?.size).toBeGreaterThan(0);
    // The trainer alone writes the run's record: its config, and its results whenever it returns.
    expect(await b1.store.readJson('results.json')).toMatchObject({ phases: [], stopped: true });
    expect(await b1.store.readJson('config.json')).toMatchObject({ seed: 5, 'bc.episodes': 4 });
    const b2 = await go(undefined, b1.dir);
    expect(b2.r.resumedFrom).toEqual({ phase: 'base', step: 5 });
    expect(await b2.store.readJson('results.json')).toMatchObject({ phases: [{ phase: 'base' }], stopped: false, resumed_from: { phase: 'base', step: 5 } });
    expect(b2.metrics).toEqual(a.metrics);
    expect(readFileSync(join(b2.dir, 'weights', 'base', 'model.safetensors'))).toEqual(readFileSync(join(a.dir, 'weights', 'base', 'model.safetensors')));
  }, 600_000);

  it('stopped during RFT rollouts, it drops the partial batch, keeps the last checkpoint whole, and resumes to the same end', async () => {
    const rft = resolveConfig({
      'model.preset': 'scratch-30k', seed: 7, 'run.phases': 'base,rft', 'agent.contextTokens': 1536, 'agent.actionTokens': 48, 'agent.maxTurns': 3,
      'reward.lengthThreshold': 2, 'bc.episodes': 2, 'bc.epochs': 1, 'rft.samplesPerTask': 2, 'agent.rolloutBatch': 2, 'eval.samples': 1,
    });
    const go = async (stop: boolean, dir = mkdtempSync(join(tmpdir(), 'webswe-rft-'))) => {
      const store = await FileRunStore.open(dir);
      let rolled = 0;
      const r = await train(rft, {
        be: new FastCpuBackend(), sandbox: sandboxFactory('node'), store, train: tasks.slice(0, 2), test: tasks.slice(2, 3),
        events: { progress: (p) => p.phase === 'rft' && p.stage === 'rollouts' && (rolled = p.done), shouldStop: () => stop && rolled >= 2 },
      });
      return { r, dir, store, metrics: (await store.readMetrics()).map((m: MetricRecord) => ({ phase: m.phase, step: m.step, values: m.values })) };
    };
    const a = await go(false);
    expect(a.r.phases.map((p) => p.phase)).toEqual(['base', 'rft']);
    const b1 = await go(true);
    expect(b1.r.stopped).toBe(true);
    // The first batch of rollouts was played, the stop came before the second: nothing of RFT is kept.
    expect((await b1.store.listTrajectorySteps()).map((s) => s.phase)).not.toContain('rft');
    expect(b1.metrics.some((m) => m.phase === 'rft')).toBe(false);
    expect((await b1.store.loadCheckpoint())?.state).toMatchObject({ phase: 'base', step: 0, done: ['base'] });
    const b2 = await go(false, b1.dir);
    expect(b2.metrics).toEqual(a.metrics);
  }, 600_000);

  it('stopped during an evaluation, it keeps no partial reading and resumes to the same end', async () => {
    const base = resolveConfig({ ...flattenConfig(cfg), 'run.phases': 'base', 'eval.samples': 2, 'agent.rolloutBatch': 2 });
    const go = async (stop: boolean, dir = mkdtempSync(join(tmpdir(), 'webswe-evalstop-'))) => {
      const store = await FileRunStore.open(dir);
      let evaluated = 0;
      const r = await train(base, {
        be: new FastCpuBackend(), sandbox: sandboxFactory('node'), store, train: tasks.slice(0, 2), test: tasks.slice(2, 4),
        events: { progress: (p) => p.stage === 'eval' && (evaluated = p.done), shouldStop: () => stop && evaluated >= 2 },
      });
      return { r, dir, store, metrics: (await store.readMetrics()).map((m: MetricRecord) => ({ phase: m.phase, step: m.step, values: m.values })) };
    };
    const a = await go(false);
    const b1 = await go(true);
    // Two of the four evaluation episodes were played when the stop came: no pass@1 of them, no eval row.
    expect(b1.r.stopped).toBe(true);
    expect(b1.r.phases).toEqual([]);
    expect(b1.metrics.some((m) => m.phase === 'eval-base')).toBe(false);
    expect((await b1.store.listTrajectorySteps()).map((s) => s.phase)).not.toContain('eval-base');
    // The phase trained to its end: its checkpoint says so, and the resume only evaluates (no row written twice).
    expect((await b1.store.loadCheckpoint())?.state).toMatchObject({ phase: 'base', done: [], extra: { trained: 'base' } });
    const b2 = await go(false, b1.dir);
    expect(b2.r.phases.map((p) => p['pass@1'])).toEqual(a.r.phases.map((p) => p['pass@1']));
    expect(b2.metrics).toEqual(a.metrics);
  }, 600_000);
});
