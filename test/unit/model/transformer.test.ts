// The transformer on the CPU backend against PyTorch (test/fixtures/torch/hf_models.py): logits,
// per-token log-probs, the loss and every parameter's gradient, for tiny Llama, Qwen2 (q/k/v
// biases, tied embeddings) and Qwen3 (q/k norms, head_dim ≠ C/NH) models.
// Tolerances: the reference is float64 from the f32 weights; ours accumulates in f64 per op but
// rounds every activation to f32, so errors of a few f32 ulps compound over 2 layers:
// logits/logp atol 2e-5; gradients atol 1e-5 + rtol 1e-3 (small gradients are relatively noisier).
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { compareArrays } from '../../../src/ops/compare.ts';
import { loadFixtureModel, referenceBatch } from '../../helpers/model.ts';

const be = new CpuBackend();

describe.each(['llama', 'qwen2', 'qwen3'])('%s transformer vs PyTorch', (name) => {
  it('forward: logits, log-probs and loss', async () => {
    const { model, ref } = await loadFixtureModel(be, name);
    const { batch, mask } = referenceBatch(be, ref.input_ids);
    const st = model.forward(batch);
    const logits = await be.read(st.logits);
    expect(compareArrays('logits', logits, ref.logits.data, { atol: 2e-5, rtol: 1e-4 }).report).toMatch(/ok/);
    const logp = await be.read(st.logp);
    const T = batch.T;
    const ours = [...logp].filter((_, i) => mask[i]);
    const r = compareArrays('logp', ours, ref.logprobs.data, { atol: 2e-5, rtol: 1e-4 });
    expect(r.ok, r.report).toBe(true);
    const loss = -ours.reduce((a, b) => a + b, 0) / ours.length;
    expect(Math.abs(loss - ref.loss)).toBeLessThan(1e-5);
    expect(ours.length).toBe(batch.B * (T - 1));
  });

  it('backward: every parameter gradient', async () => {
    const { model, ref, grads: makeGrads } = await loadFixtureModel(be, name);
    const { batch, dlogp } = referenceBatch(be, ref.input_ids);
    const grads = makeGrads();
    model.backward(model.forward(batch), dlogp, grads);
    const names = Object.keys(ref.grads);
    expect(names.length).toBe(grads.size);
    for (const n of names) {
      const r = compareArrays(`d ${n}`, await be.read(grads.get(n)!), ref.grads[n]!.data, { atol: 1e-5, rtol: 1e-3 });
      expect(r.ok, r.report).toBe(true);
    }
  });
});
