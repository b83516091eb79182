// Activation recomputation on WebGPU: the forward keeps only layer inputs (their buffers survive the
// pool's reuse of every freed activation), and the backward's rebuilt layers give bitwise the plain
// path's gradients (same kernels, same inputs, deterministic reductions).
import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { Transformer } from '../../../src/model/transformer.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';
import { loadFixtureModel, MODELS_DIR, referenceBatch, type ModelReference } from '../../helpers/model.ts';

describe('activation recomputation on WebGPU', () => {
  gpuIt('gives bitwise the plain path\'s log-probs and gradients (qwen3)', async () => {
    const be = await sharedBackend();
    const { model } = await loadFixtureModel(be, 'qwen3');
    const ref = JSON.parse(readFileSync(`${MODELS_DIR}qwen3/reference.json`, 'utf8')) as ModelReference;
    const run = async (m: Transformer<any>, recompute: boolean) => {
      const { batch, dlogp } = referenceBatch(be, ref.input_ids);
      const st = m.forward(batch, { recompute });
      const logp = [...(await be.read(st.logp))];
      const grads = new Map([...m.params].map(([n, p]) => [n, be.zeros(p.shape)]));
      m.backward(st, dlogp, grads);
      const out: Record<string, number[]> = {};
      for (const [n, g] of grads) out[n] = [...(await be.read(g))], be.free(g);
      return { logp, grads: out };
    };
    const plain = await run(model, false);
    const again = await run(model, true);
    expect(again.logp).toEqual(plain.logp);
    for (const n of Object.keys(plain.grads)) expect(again.grads[n], n).toEqual(plain.grads[n]);
    expect(Object.values(plain.grads).some((g) => g.some((v) => v !== 0))).toBe(true);
  });
});
