// Activation recomputation: the forward keeps only each layer's input, the backward rebuilds one
// layer's activations at a time. The same ops on the same values, so log-probs and every gradient are
// bitwise those of the plain path — for full fine-tuning and under LoRA (the down projection's x·A is
// rebuilt too), on Qwen2 (biases) and Qwen3 (q/k norms) — and nothing is left allocated but the inputs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadModelDir } from '../../../src/model/load.node.ts';
import { adapterNames, initAdapters, loraModules, type LoraConfig } from '../../../src/model/lora.ts';
import { uploadParams } from '../../../src/model/params.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { Rng } from '../../../src/random.ts';
import { MODELS_DIR, referenceBatch, type ModelReference } from '../../helpers/model.ts';

const lora: LoraConfig = { rank: 4, alpha: 8, targets: ['q', 'v', 'down'] };

async function gradients(be: CpuBackend, name: string, withLora: boolean, recompute: boolean) {
  const loaded = await loadModelDir(MODELS_DIR + name);
  const c = loaded.config;
  const base = await loaded.weights.readModel(c);
  await loaded.close();
  const params = uploadParams(be, c, base);
  if (withLora) {
    const adapters = initAdapters(loraModules(c, lora), lora.rank, 7);
    const rng = new Rng(9);
    for (const [k, v] of adapters) if (k.includes('lora_B')) v.set(rng.uniform(v.length, -0.2, 0.2));
    for (const m of loraModules(c, lora)) {
      const n = adapterNames(m.module);
      params.set(n.A, be.fromArray(adapters.get(n.A)!, [lora.rank, m.in]));
      params.set(n.B, be.fromArray(adapters.get(n.B)!, [m.out, lora.rank]));
    }
  }
  const model = new Transformer(be, c, params, withLora ? lora : undefined);
  const ref = JSON.parse(readFileSync(`${MODELS_DIR}${name}/reference.json`, 'utf8')) as ModelReference;
  const { batch, dlogp } = referenceBatch(be, ref.input_ids);
  const st = model.forward(batch, { recompute });
  expect(st.layers.length).toBe(recompute ? 0 : c.numLayers);
  expect(st.inputs?.length).toBe(recompute ? c.numLayers : undefined);
  const logp = [...(await be.read(st.logp))];
  const trained = [...params].filter(([n]) => !withLora || n.includes('.lora_'));
  const grads = new Map(trained.map(([n, p]) => [n, be.zeros(p.shape)]));
  model.backward(st, dlogp, grads);
  const out: Record<string, number[]> = {};
  for (const [n, g] of grads) out[n] = [...(await be.read(g))];
  return { logp, grads: out };
}

describe.each(['qwen2', 'qwen3'])('%s: recompute', (name) => {
  for (const [label, be] of [['reference', new CpuBackend()], ['fast-cpu', new FastCpuBackend()]] as const) {
    it(`gives bitwise the plain path's log-probs and gradients (${label}; full and LoRA)`, async () => {
      for (const withLora of [false, true]) {
        const plain = await gradients(be, name, withLora, false);
        const again = await gradients(be, name, withLora, true);
        expect(again.logp).toEqual(plain.logp);
        expect(Object.keys(again.grads).sort()).toEqual(Object.keys(plain.grads).sort());
        for (const n of Object.keys(plain.grads)) expect(again.grads[n], n).toEqual(plain.grads[n]);
        // The gradients are not trivially zero.
        expect(Object.values(plain.grads).some((g) => g.some((v) => v !== 0))).toBe(true);
      }
    });
  }
});
