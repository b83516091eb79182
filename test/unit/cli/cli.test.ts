// The `webswe` command as a user runs it: a real node process through bin/webswe.js.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../../bin/webswe.js', import.meta.url));
const webswe = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
/** For a command that measures a 0.5 B shape on the CPU (~40 s alone, more beside other tests). */
const slowWebswe = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 240_000 });

describe('webswe CLI', () => {
  it('--help lists the commands', () => {
    const r = webswe('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/gpu/);
    expect(r.stdout).toMatch(/serve/);
  });
  it('gpu --json prints one JSON document with adapter, limits, features and the backend auto really picks', () => {
    const r = webswe('gpu', '--json');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(expect.arrayContaining(['adapter', 'limits', 'features', 'backend', 'backendReason']));
    expect(doc.backendReason).toBeTruthy();
    if (doc.adapter) {
      expect(typeof doc.adapter.vendor).toBe('string');
      expect(typeof doc.adapter.isFallbackAdapter).toBe('boolean');
      expect(doc.limits.maxStorageBufferBindingSize).toBeGreaterThanOrEqual(128 * 2 ** 20);
      // SwiftShader (CI, this machine) is a fallback: auto runs on the CPU backend there, and says so.
      expect(doc.backend).toBe(doc.adapter.isFallbackAdapter ? 'wasm' : 'webgpu');
      if (doc.adapter.isFallbackAdapter) expect(doc.backendReason).toMatch(/software fallback/);
    } else {
      expect(doc.backend).toBe('wasm');
      expect(doc.reason).toBeTruthy();
    }
  });
  it('gpu names the same backend that train --backend auto announces', () => {
    const text = webswe('gpu').stdout;
    const line = text.split('\n').find((l) => l.startsWith('backend:'));
    expect(line).toBeTruthy();
    const doc = JSON.parse(webswe('gpu', '--json').stdout);
    expect(line).toMatch(new RegExp(`^backend:\\s+${doc.backend} \\(`));
  });
  it('gpu --preset prices a run preset, the pretrained one too: measured on a hardware adapter, by the rule elsewhere; an unknown preset is named', { timeout: 300_000 }, () => {
    for (const [preset, shape] of [['micro', 'scratch-160k'], ['qwen-coder-lora', "Qwen/Qwen2.5-Coder-0.5B-Instruct \\(2 of 24 blocks\\), its rates over [\\d.]+ for the whole model's arithmetic"]]) {
      const r = slowWebswe('gpu', '--preset', preset!, '--json');
      expect(r.status, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout);
      if (doc.adapter && !doc.adapter.isFallbackAdapter) {
        expect(doc.measured.webgpu.runS).toBeGreaterThan(0);
        expect(doc.backendReason).toMatch(new RegExp(`^measured (before )?at ${shape}: the run priced at`));
      } else {
        expect(doc.backend).toBe('wasm');
        expect(doc.measured).toBeUndefined();
      }
      // On any machine, one DAPO iteration priced on the backend auto opened: the pretrained preset's an upper bound
      // at its 0.5 B shape (a slice, its rates over ~3), micro's an "about" at its own.
      const it = doc.iteration;
      expect(it.backend).toMatch(new RegExp(`^${doc.backend}`));
      expect(it.bound).toBe(preset === 'qwen-coder-lora');
      expect(it.episodes).toBe(64);
      expect(it.roundS).toBeGreaterThan(0);
      expect(it.updateS).toBeGreaterThan(0);
      expect(it.seconds).toBeCloseTo(it.rounds * it.roundS + it.updateS, 6);
      expect(it.rates.testRunS).toBeGreaterThan(0);
      if (preset === 'qwen-coder-lora') expect(it).toMatchObject({ rounds: 3, tokensPerEpisode: 9232, testRuns: 21, shape: 'Qwen/Qwen2.5-Coder-0.5B-Instruct (2 of 24 blocks)' });
      else expect(it).toMatchObject({ contextFactor: 1, scale: 1 });
    }
    // The text says the price, its parts and what it was priced on (the bound's lines: test/unit/rl/iteration.test.ts).
    const text = webswe('gpu', '--preset', 'micro');
    expect(text.stdout).toMatch(/^A DAPO iteration of micro \(scratch-160k\) takes about .* on this device \(wasm .* with one generation round, about .* with the 2\.1 that dynamic sampling takes on average\.\n  Generation round: 64 episodes of about 1,[0-9]{3} tokens, about \d+ test runs each: about /m);
    const bad = webswe('gpu', '--preset', 'nope');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--preset must be a run preset \(micro, micro-find, tiny, qwen-coder-lora\), got "nope"/);
  });
  it('tasks build --voices: names a bad kind and refuses it at level 2, before any work', () => {
    const bad = webswe('tasks', 'build', '--level', '0', '--voices', 'poems');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--voices must be one of calls, reports, got "poems"/);
    const two = webswe('tasks', 'build', '--level', '2', '--voices', 'reports');
    expect(two.status).not.toBe(0);
    expect(two.stderr).toMatch(/--voices is for levels 0 and 1/);
  });
  it('an unknown command fails with a message, not a stack trace', () => {
    const r = webswe('frobnicate');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});
