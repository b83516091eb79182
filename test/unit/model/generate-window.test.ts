// Decoding in windows (KvGenerator.window: several decode steps per read-back, the ids staying on the
// device) gives the one-step loop's tokens, log-probs, finishes, cache lengths and sampling counters
// bit for bit, on the CPU backends (the gpu tier checks WebGPU, where windows are the default).
import { describe, expect, it } from 'vitest';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import type { Backend } from '../../../src/ops/backend.ts';
import type { Tensor } from '../../../src/ops/tensor.ts';
import { WasmBackend } from '../../../src/ops/wasm/backend.ts';
import { windowRuns } from '../../helpers/generation.ts';
import { loadFixtureModel } from '../../helpers/model.ts';

describe.each([
  ['fast-cpu', async () => new FastCpuBackend() as unknown as Backend<Tensor>],
  ['wasm', async () => (await WasmBackend.create(1)) as unknown as Backend<Tensor>],
])('decoding windows on %s', (_name, make) => {
  it.each([false, true])('match the one-step loop bit for bit (greedy: %s)', async (greedy) => {
    const { model } = await loadFixtureModel(await make(), 'qwen2');
    const { stop, runs } = await windowRuns(model, [1, 3, 8], greedy);
    const [one, ...windowed] = runs;
    // The cases the comparison is about happened: a stop inside a window, a budget, a predicate, an inactive row.
    expect(one!.turns[0]![0]).toMatchObject({ finish: 'stop' });
    expect(one!.turns[0]![0]!.ids.at(-1)).toBe(stop);
    expect(one!.turns[0]![1]).toMatchObject({ finish: 'length' });
    expect(one!.turns[0]![3]!.ids).toEqual([]);
    expect(one!.turns[1]![2]).toMatchObject({ finish: 'stop' });
    for (const w of windowed) {
      expect(w.turns, `window ${w.window}`).toEqual(one!.turns);
      expect([w.len, w.counters, w.keptLen, w.keptCounters], `window ${w.window}`).toEqual([one!.len, one!.counters, one!.keptLen, one!.keptCounters]);
      expect(w.readRounds).toBeLessThan(one!.readRounds);
    }
  });
});
