// LoRA on the CPU backend: the adapted forward equals the forward with merged weights
// W' = W + s·B·A; the adapter gradients equal dB = s·dW'·Aᵀ and dA = s·Bᵀ·dW' (dW' from the
// merged model); only adapters get gradients, so base weights stay frozen through AdamW.
// Tolerance: atol 2e-5 / rtol 1e-4 (the two paths sum the same products in different orders).
import { describe, expect, it } from 'vitest';
import { adapterNames, initAdapters, loraModules, loraScale, mergeAdapters, type LoraConfig } from '../../../src/model/lora.ts';
import { uploadParams } from '../../../src/model/params.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { compareArrays } from '../../../src/ops/compare.ts';
import { AdamW } from '../../../src/rl/optimizer.ts';
import { loadModelDir } from '../../../src/model/load.node.ts';
import { Rng } from '../../../src/random.ts';
import { MODELS_DIR, referenceBatch, type ModelReference } from '../../helpers/model.ts';
import { readFileSync } from 'node:fs';

const be = new CpuBackend();
const lora: LoraConfig = { rank: 4, alpha: 8, targets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] };
const tol = { atol: 2e-5, rtol: 1e-4 };

async function setup(name: string) {
  const loaded = await loadModelDir(MODELS_DIR + name);
  const base = await loaded.weights.readModel(loaded.config);
  await loaded.close();
  const c = loaded.config;
  const adapters = initAdapters(loraModules(c, lora), lora.rank, 7);
  // B starts at zero (the adapted model equals the base); give it values so the test means something.
  const rng = new Rng(9);
  for (const [k, v] of adapters) if (k.includes('lora_B')) v.set(rng.uniform(v.length, -0.2, 0.2));
  const all = new Map([...base, ...adapters]);
  const ref = JSON.parse(readFileSync(`${MODELS_DIR}${name}/reference.json`, 'utf8')) as ModelReference;
  return { c, base, all, adapters, ids: ref.input_ids };
}

describe.each(['qwen2', 'qwen3'])('%s LoRA', (name) => {
  it('forward equals the merged weights; adapter gradients equal the chain rule through W\'', async () => {
    const { c, all, adapters, ids } = await setup(name);
    const paramsL = uploadParams(be, c, all); // the base weights
    for (const m of loraModules(c, lora)) {
      const n = adapterNames(m.module);
      paramsL.set(n.A, be.fromArray(all.get(n.A)!, [lora.rank, m.in]));
      paramsL.set(n.B, be.fromArray(all.get(n.B)!, [m.out, lora.rank]));
    }
    const modelL = new Transformer(be, c, paramsL, lora);
    const merged = new Transformer(be, c, uploadParams(be, c, mergeAdapters(c, lora, all)));
    const { batch, dlogp } = referenceBatch(be, ids);
    const stL = modelL.forward(batch), stM = merged.forward(batch);
    const f = compareArrays('logits', await be.read(stL.logits), await be.read(stM.logits), tol);
    expect(f.ok, f.report).toBe(true);
    // Gradients: adapters only for the LoRA model; all weights for the merged one.
    const gL = new Map([...adapters.keys()].map((k) => [k, be.zeros(paramsL.get(k)!.shape)]));
    modelL.backward(stL, dlogp, gL);
    const gM = new Map([...merged.params].map(([k, p]) => [k, be.zeros(p.shape)]));
    merged.backward(stM, dlogp, gM);
    const s = loraScale(lora);
    for (const m of loraModules(c, lora)) {
      const n = adapterNames(m.module);
      const dW = be.fromArray((await be.read(gM.get(`${m.module}.weight`)!)) as Float32Array, [m.out, m.in]);
      const A = paramsL.get(n.A)!, B = paramsL.get(n.B)!;
      const wantB = be.scale(be.matmul(dW, A, { transB: true }), s); // (out, r)
      const wantA = be.scale(be.matmul(B, dW, { transA: true }), s); // (r, in)
      for (const [label, got, want] of [[`d ${n.B}`, gL.get(n.B)!, wantB], [`d ${n.A}`, gL.get(n.A)!, wantA]] as const) {
        const r = compareArrays(label, await be.read(got), await be.read(want), { atol: 1e-6, rtol: 1e-3 });
        expect(r.ok, r.report).toBe(true);
      }
    }
    // An AdamW step moves only the adapters.
    const before = await be.read(paramsL.get('model.layers.0.mlp.up_proj.weight')!);
    const opt = new AdamW(be, new Map([...adapters.keys()].map((k) => [k, paramsL.get(k)!])), gL, { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1 });
    const aBefore = await be.read(paramsL.get(adapterNames('model.layers.0.mlp.up_proj').A)!);
    await opt.update(1e-2);
    expect([...(await be.read(paramsL.get('model.layers.0.mlp.up_proj.weight')!))]).toEqual([...before]);
    expect([...(await be.read(paramsL.get(adapterNames('model.layers.0.mlp.up_proj').A)!))]).not.toEqual([...aBefore]);
  });
});
