// Decoding in windows on WebGPU (SwiftShader here), where it is the default: the one-step loop's tokens,
// log-probs, finishes, lengths and counters bit for bit, and at the micro shape one read-back round per
// eight decode steps (a fraction of a round per generated token); no forward past the largest budget left.
import { describe, expect, vi } from 'vitest';
import { KvGenerator, WEBGPU_WINDOW } from '../../../src/model/generate.ts';
import { initParams } from '../../../src/model/init.ts';
import { uploadParams } from '../../../src/model/params.ts';
import { MODEL_PRESETS } from '../../../src/model/presets.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { windowRuns } from '../../helpers/generation.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';
import { loadFixtureModel } from '../../helpers/model.ts';

describe('decoding windows on WebGPU', () => {
  gpuIt('match the one-step loop bit for bit, sampled and greedy', async () => {
    const be = await sharedBackend();
    const { model } = await loadFixtureModel(be, 'qwen2');
    expect(new KvGenerator(model, 1, 8).window).toBe(WEBGPU_WINDOW);
    for (const greedy of [false, true]) {
      const { runs } = await windowRuns(model, [1, WEBGPU_WINDOW], greedy);
      const [one, w] = runs;
      expect(one!.turns[0]![0]!.finish).toBe('stop');
      expect(w!.turns).toEqual(one!.turns);
      expect([w!.len, w!.counters, w!.keptLen, w!.keptCounters]).toEqual([one!.len, one!.counters, one!.keptLen, one!.keptCounters]);
      expect(w!.readRounds).toBeLessThan(one!.readRounds);
    }
  }, 120_000);

  gpuIt('reads back once per 8 decode steps at the micro shape', async () => {
    const be = await sharedBackend();
    const c = MODEL_PRESETS['scratch-160k'].config;
    const model = new Transformer(be, c, uploadParams(be, c, initParams(c, 1)));
    const G = 4, D = 32;
    const gen = new KvGenerator(model, G, 16 + D + 1);
    const out = await gen.generate(Array.from({ length: G }, (_, b) => [1 + b, 2, 3]), { seed: 5, maxTokens: D, stopIds: [] });
    gen.dispose();
    const tokens = out.reduce((a, g) => a + g.ids.length, 0);
    expect(tokens).toBe(G * D);
    expect(gen.readRounds).toBe(D / WEBGPU_WINDOW);
    expect(gen.readRounds / D).toBeLessThanOrEqual(1 / 8);
  }, 120_000);

  gpuIt('runs no forward past the largest budget left: a short generation costs what the one-step loop costs', async () => {
    const be = await sharedBackend();
    const c = MODEL_PRESETS['scratch-160k'].config;
    const model = new Transformer(be, c, uploadParams(be, c, initParams(c, 1)));
    // Budgets 3 and 1 (< the window of 8): prefill, then forwards after draws 0 and 1, then the last draws' append.
    const run = async (window: number) => {
      const layers = vi.spyOn(model, 'qkv');
      const gen = new KvGenerator(model, 2, 32);
      gen.window = window;
      const out = await gen.generate([[1, 2, 3], [4, 5]], { seed: 9, maxTokens: [3, 1], stopIds: [] });
      const forwards = layers.mock.calls.length / c.numLayers;
      layers.mockRestore();
      gen.dispose();
      return { out, forwards, len: [...gen.len] };
    };
    const one = await run(1), w = await run(WEBGPU_WINDOW);
    expect(one.out.map((g) => g.ids.length)).toEqual([3, 1]);
    expect(w.out).toEqual(one.out);
    expect(w.len).toEqual(one.len);
    expect(one.forwards).toBe(4);
    expect(w.forwards).toBe(one.forwards);
  }, 120_000);
});
