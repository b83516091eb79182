// The transformer on the WebGPU kernels against PyTorch (same fixtures as the CPU test): logits,
// log-probs and every gradient; and KV-cache generation whose behaviour log-probs equal the GPU
// training forward's. Tolerances as the CPU test's, loosened ×5 for f32 accumulation on the GPU
// (the CPU references accumulate in f64).
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';
import { loadFixtureModel, referenceBatch } from '../../helpers/model.ts';
import { scoreSequences, twoTurnRollout } from '../../helpers/generation.ts';

describe.each(['qwen2', 'qwen3'])('%s on WebGPU vs PyTorch', (name) => {
  gpuIt('forward and every parameter gradient', async () => {
    const be = await sharedBackend();
    const { model, ref, grads: makeGrads } = await loadFixtureModel(be, name);
    const { batch, dlogp, mask } = referenceBatch(be, ref.input_ids);
    const st = model.forward(batch);
    const logits = compareArrays('logits', await be.read(st.logits), ref.logits.data, { atol: 1e-4, rtol: 5e-4 });
    expect(logits.ok, logits.report).toBe(true);
    const lp = [...(await be.read(st.logp))].filter((_, i) => mask[i]);
    const lpc = compareArrays('logp', lp, ref.logprobs.data, { atol: 1e-4, rtol: 5e-4 });
    expect(lpc.ok, lpc.report).toBe(true);
    const grads = makeGrads();
    model.backward(st, dlogp, grads);
    for (const n of Object.keys(ref.grads)) {
      const r = compareArrays(`d ${n}`, await be.read(grads.get(n)!), ref.grads[n]!.data, { atol: 5e-5, rtol: 5e-3 });
      expect(r.ok, r.report).toBe(true);
    }
  });
});

describe('generation on WebGPU', () => {
  gpuIt('behaviour log-probs equal the training forward over two turns', async () => {
    const be = await sharedBackend();
    const { model } = await loadFixtureModel(be, 'qwen2');
    const r = await twoTurnRollout(model, [[1, 2, 3, 4, 5], [9, 8]], [[20, 21], [22, 23, 24]], 99);
    const scores = await scoreSequences(model, r.seqs);
    for (let b = 0; b < 2; b++) {
      const cmp = compareArrays(`seq ${b}`, r.sampled[b]!.map((s) => s.lp), r.sampled[b]!.map((s) => scores[b]![s.at]!), { atol: 1e-4, rtol: 1e-4 });
      expect(cmp.ok, cmp.report).toBe(true);
    }
  });
});
