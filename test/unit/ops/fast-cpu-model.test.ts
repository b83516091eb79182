// The whole transformer on FastCpuBackend: against the PyTorch fixtures (tiny Llama, Qwen2, Qwen3)
// with test/unit/model/transformer.test.ts's tolerances, and against CpuBackend on a packed scratch-160k
// batch (several episodes per row, padding) — logits, log-probs and every gradient.
// Tolerances vs PyTorch (as transformer.test.ts): logits/logp atol 2e-5 + rtol 1e-4; gradients
// atol 1e-5 + rtol 1e-3 (observed: the same errors as CpuBackend's). Vs CpuBackend: every op on both
// sides is f64-accumulated and rounded once to f32, so an activation can differ by an ulp where the
// orders differ, compounding over 2 layers (observed: bit-equal): logits/logp atol 1e-6 + rtol 1e-5,
// gradients atol 1e-8 (micro's gradients are ~1e-3) + rtol 1e-4.
import { describe, expect, it } from 'vitest';
import { initParams } from '../../../src/model/init.ts';
import { uploadParams, zeroGrads } from '../../../src/model/params.ts';
import { scratch160k } from '../../../src/model/presets.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import type { CpuTensor } from '../../../src/ops/tensor.ts';
import { Rng } from '../../../src/random.ts';
import { packEpisodes } from '../../../src/rl/pack.ts';
import { loadFixtureModel, referenceBatch } from '../../helpers/model.ts';

const be = new FastCpuBackend();

describe.each(['llama', 'qwen2', 'qwen3'])('%s transformer on FastCpuBackend vs PyTorch', (name) => {
  it('forward: logits, log-probs and loss', async () => {
    const { model, ref } = await loadFixtureModel(be, name);
    const { batch, mask } = referenceBatch(be, ref.input_ids);
    const st = model.forward(batch);
    const logits = compareArrays('logits', await be.read(st.logits), ref.logits.data, { atol: 2e-5, rtol: 1e-4 });
    expect(logits.ok, logits.report).toBe(true);
    const ours = [...(await be.read(st.logp))].filter((_, i) => mask[i]);
    const r = compareArrays('logp', ours, ref.logprobs.data, { atol: 2e-5, rtol: 1e-4 });
    expect(r.ok, r.report).toBe(true);
    expect(Math.abs(-ours.reduce((a, b) => a + b, 0) / ours.length - ref.loss)).toBeLessThan(1e-5);
  });

  it('backward: every parameter gradient', async () => {
    const { model, ref, grads: makeGrads } = await loadFixtureModel(be, name);
    const { batch, dlogp } = referenceBatch(be, ref.input_ids);
    const grads = makeGrads();
    model.backward(model.forward(batch), dlogp, grads);
    expect(Object.keys(ref.grads).length).toBe(grads.size);
    for (const [n, want] of Object.entries(ref.grads)) {
      const r = compareArrays(`d ${n}`, await be.read(grads.get(n)!), want.data, { atol: 1e-5, rtol: 1e-3 });
      expect(r.ok, r.report).toBe(true);
    }
  });
});

describe('micro preset on a packed batch: FastCpuBackend vs CpuBackend', () => {
  it('logits, log-probs and every gradient', async () => {
    const rng = new Rng(9);
    // 7 episodes of 5..60 tokens into rows of 72: several segments per row, padded tails.
    const eps = Array.from({ length: 7 }, (_, i) => {
      const ids = Array.from({ length: 5 + ((i * 23) % 56) }, () => rng.int(scratch160k.config.vocabSize));
      return { ids, mask: ids.map((_, t) => (t > 0 ? 1 : 0)) };
    });
    const rows = packEpisodes(eps, 72);
    expect(rows.B).toBeGreaterThan(1);
    const values = initParams(scratch160k.config, 5, 0.2); // std 0.2: peaked softmaxes, not near-uniform ones
    const run = async (b: CpuBackend) => {
      const params = uploadParams(b, scratch160k.config, values);
      const model = new Transformer(b, scratch160k.config, params);
      const N = rows.B * rows.T;
      const batch = {
        B: rows.B, T: rows.T,
        ids: b.fromArray(rows.ids, [N]), targets: b.fromArray(rows.targets, [N]),
        positions: b.fromArray(rows.positions, [N]), seg: b.fromArray(rows.seg, [rows.B, rows.T]),
      };
      const st = model.forward(batch);
      const logits = (await b.read(st.logits)).slice(), logp = await b.read(st.logp);
      const grads = zeroGrads(b, params);
      model.backward(st, b.fromArray(rows.mask.map((m) => -m / rows.actionTokens), [N]), grads);
      return { logits, logp, grads: new Map([...grads].map(([k, g]: [string, CpuTensor]) => [k, g.data])) };
    };
    const want = await run(new CpuBackend()), got = await run(be);
    for (const k of ['logits', 'logp'] as const) {
      const r = compareArrays(k, got[k], want[k], { atol: 1e-6, rtol: 1e-5 });
      expect(r.ok, r.report).toBe(true);
    }
    for (const [n, w] of want.grads) {
      const r = compareArrays(`d ${n}`, got.grads.get(n)!, w, { atol: 1e-8, rtol: 1e-4 });
      expect(r.ok, r.report).toBe(true);
    }
  });
});
