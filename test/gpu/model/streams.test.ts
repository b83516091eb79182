// KV-cache generation on WebGPU with per-sequence random streams (KvGenerator.streams, the model
// policy's per-episode streams): sequences generated apart, at their streams, draw the tokens they
// draw together (the gather + sample path of the sampler), over two turns.
import { describe, expect } from 'vitest';
import { KvGenerator } from '../../../src/model/generate.ts';
import { compareArrays } from '../../../src/ops/compare.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';
import { loadFixtureModel } from '../../helpers/model.ts';

describe('random streams on WebGPU', () => {
  gpuIt("a sequence's tokens depend on its stream, not on the sequences generated with it", async () => {
    const be = await sharedBackend();
    const { model } = await loadFixtureModel(be, 'qwen2');
    const prompts = [[1, 2, 3, 4, 5], [9, 8], [5, 4, 3, 2, 1, 10, 11]];
    const gen = async (rows: number[], streams?: number[]) => {
      const g = new KvGenerator(model, rows.length, 48);
      if (streams) streams.forEach((s, b) => (g.streams[b] = s));
      const first = await g.generate(rows.map((r) => prompts[r]!), { seed: 31, maxTokens: 6, stopIds: [] });
      const second = await g.generate(rows.map(() => [20, 21]), { seed: 31, maxTokens: 6, stopIds: [] });
      g.dispose();
      return rows.map((_, b) => ({ ids: [...first[b]!.ids, ...second[b]!.ids], logprobs: [...first[b]!.logprobs, ...second[b]!.logprobs] }));
    };
    const together = await gen([0, 1, 2]);
    const apart = await gen([2, 0], [2, 0]);
    [2, 0].forEach((r, b) => {
      expect(apart[b]!.ids, `sequence ${r}`).toEqual(together[r]!.ids);
      const cmp = compareArrays(`sequence ${r} log-probs`, apart[b]!.logprobs, together[r]!.logprobs, { atol: 1e-5, rtol: 1e-5 });
      expect(cmp.ok, cmp.report).toBe(true);
    });
  });
});
