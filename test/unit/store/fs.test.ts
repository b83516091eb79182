// The file run store: metrics, trajectories, and checkpoints that are bit-exact, loadable as a
// Hugging Face folder, and atomic (an interrupted write leaves the previous checkpoint usable).
import { mkdtempSync, renameSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModelDir } from '../../../src/model/load.node.ts';
import { initParams } from '../../../src/model/init.ts';
import { scratch160k } from '../../../src/model/presets.ts';
import { FileRunStore } from '../../../src/store/fs.node.ts';
import type { Checkpoint } from '../../../src/store/types.ts';

const bytes = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const fresh = () => FileRunStore.open(mkdtempSync(join(tmpdir(), 'webswe-run-')));
const state = (step: number) => ({ phase: 'dapo', step, done: ['base', 'rft'], metricsCount: step, optimizerStep: step * 2, extra: { curriculum: { a: { attempts: 3, solved: 1 } } } });

describe('FileRunStore', () => {
  it('appends, reads and truncates metrics; writes trajectories per step', async () => {
    const s = await fresh();
    await s.appendMetrics([{ phase: 'dapo', step: 0, values: { reward: 0.5 } }, { phase: 'dapo', step: 1, values: { reward: 0.75 } }]);
    await s.appendMetrics([{ phase: 'dapo', step: 2, values: { reward: 1 }, timing: { wall_s: 3 } }]);
    expect((await s.readMetrics()).map((r) => r.values.reward)).toEqual([0.5, 0.75, 1]);
    await s.truncateMetrics(2);
    expect(await s.readMetrics()).toHaveLength(2);
    await s.writeTrajectories('rft', 3, [{ task_id: 'x' }, { task_id: 'y' }]);
    expect(await s.readTrajectories('rft', 3)).toEqual([{ task_id: 'x' }, { task_id: 'y' }]);
    expect(await s.listTrajectorySteps()).toEqual([{ phase: 'rft', step: 3 }]);
  });

  it('round-trips a checkpoint bit-exactly, as a Hugging Face folder', async () => {
    const s = await fresh();
    const params = initParams(scratch160k.config, 1);
    const adamM = new Map([...params].map(([k, v]) => [k, v.map((x) => x * 0.5)]));
    const adamV = new Map([...params].map(([k, v]) => [k, v.map((x) => x * x)]));
    await s.saveCheckpoint({ state: state(4), params, adamM, adamV, model: { config: scratch160k.config } });
    const ck = (await s.loadCheckpoint())!;
    expect(ck.state).toEqual(state(4));
    for (const [k, v] of params) {
      expect(bytes(ck.params.get(k)!).equals(bytes(v)), k).toBe(true);
      expect(bytes(ck.adamV!.get(k)!).equals(bytes(adamV.get(k)!)), k).toBe(true);
    }
    const hf = await loadModelDir(join(s.location, 'checkpoint'));
    expect(hf.config.hiddenSize).toBe(scratch160k.config.hiddenSize);
    await hf.close();
  });

  it('keeps the previous checkpoint when a write is interrupted', async () => {
    const s = await fresh();
    const params = initParams(scratch160k.config, 2);
    await s.saveCheckpoint({ state: state(1), params } as Checkpoint);
    // Interrupted after moving the old one aside, before the new one was renamed in:
    renameSync(join(s.location, 'checkpoint'), join(s.location, 'checkpoint.old'));
    mkdirSync(join(s.location, 'checkpoint.tmp'));
    writeFileSync(join(s.location, 'checkpoint.tmp', 'model.safetensors'), 'half-written');
    const ck = await s.loadCheckpoint();
    expect(ck?.state.step).toBe(1);
    // The next save replaces everything cleanly.
    await s.saveCheckpoint({ state: state(2), params } as Checkpoint);
    expect((await s.loadCheckpoint())?.state.step).toBe(2);
    expect(existsSync(join(s.location, 'checkpoint.old'))).toBe(false);
    expect(existsSync(join(s.location, 'checkpoint.tmp'))).toBe(false);
  });
});
