// `webswe train --backend wasm --threads N`: the WASM backend's results do not depend on the thread
// count (work is split by output blocks; no sum is split across threads), so a seeded run on 1 and
// on 2 threads writes the same metrics and the same weights, bit for bit, and `webswe eval` of them reads the
// same numbers on either; a bad --threads refuses.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../../bin/webswe.js', import.meta.url));
// The micro model (HS 16: every hot op on the WASM kernels) on two fixture tasks: cloning (no copy drills or
// guesses), then evaluation (generation against the KV cache).
const SET = [
  'model.preset=scratch-160k', 'run.phases=base', 'tasks.train=test/fixtures/agent/mutations.jsonl', 'tasks.test=test/fixtures/agent/mutations.jsonl',
  'tasks.maxTrain=2', 'tasks.maxTest=2', 'tasks.difficulty=any', 'agent.maxTurns=3', 'reward.lengthThreshold=2', 'agent.contextTokens=1536',
  'bc.episodes=6', 'bc.epochs=1', 'bc.batchEpisodes=2', 'bc.copyDrills=0', 'bc.drillSteps=0', 'bc.expertGuesses=0', 'eval.samples=2', 'eval.temperature=1',
].flatMap((s) => ['--set', s]);

const train = (out: string, threads: string) =>
  spawnSync(process.execPath, [BIN, 'train', '--preset', 'micro', '--backend', 'wasm', '--threads', threads, '--seed', '3', '--out', out, ...SET], { encoding: 'utf8' });
const metrics = (dir: string) =>
  readFileSync(join(dir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => {
    const { phase, step, values } = JSON.parse(l) as { phase: string; step: number; values: Record<string, unknown> };
    const timeless = Object.fromEntries(Object.entries(values).filter(([k]) => !/(_s|_ms|per_s|wall)$/.test(k)));
    return { phase, step, values: timeless };
  });

describe('webswe train on the wasm backend: 1 thread and 2 threads', () => {
  it('write the same metrics and the same weights', () => {
    const root = mkdtempSync(join(tmpdir(), 'webswe-threads-'));
    const one = train(join(root, 'one'), '1'), two = train(join(root, 'two'), '2');
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    expect(one.stderr).toMatch(/backend wasm \(1 thread\)/);
    expect(two.stderr).toMatch(/backend wasm \(2 threads\)/);
    const m = metrics(join(root, 'one'));
    expect(m.some((r) => r.phase === 'base' && 'loss' in r.values)).toBe(true);
    expect(metrics(join(root, 'two'))).toEqual(m);
    expect(readFileSync(join(root, 'two', 'weights', 'base', 'model.safetensors'))).toEqual(readFileSync(join(root, 'one', 'weights', 'base', 'model.safetensors')));
    // `webswe eval` of the phase's weights, twice and on another thread count: the same episodes and numbers.
    const evalRun = (threads: string) => {
      const r = spawnSync(process.execPath, [BIN, 'eval', '--model', join(root, 'one', 'weights', 'base'), '--tasks', 'test/fixtures/agent/mutations.jsonl', '--max', '2', '--samples', '2', '--backend', 'wasm', '--threads', threads, '--json'], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const { phases } = JSON.parse(r.stdout) as { phases: Record<string, unknown>[] };
      return Object.fromEntries(Object.entries(phases[0]!).filter(([k]) => k !== 'wall_s'));
    };
    const first = evalRun('1');
    expect(first.tasks).toBe(2);
    expect(evalRun('2')).toEqual(first);
  }, 600_000);

  it('refuses a bad --threads, --threads with another backend, and the old backend name cpu, in one line', () => {
    for (const [args, msg] of [[['--threads', '0'], /--threads must be a whole number from 1 to 256, got "0"/], [['--backend', 'fast-cpu', '--threads', '2'], /--threads applies to the wasm backend/], [['--backend', 'cpu'], /--backend cpu is now called fast-cpu/]] as const) {
      const r = spawnSync(process.execPath, [BIN, 'train', ...args, '--out', mkdtempSync(join(tmpdir(), 'webswe-threads-bad-')), ...SET], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'))).toHaveLength(1);
    }
  });
});
