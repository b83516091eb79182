// Training steps score only the positions the loss uses (PackedBatch.score): the LM head and the
// log-softmax run on M rows instead of N. Same log-probs at those rows, same gradients, as scoring all
// N positions and masking, on the reference and the fast CPU backends.
import { describe, expect, it } from 'vitest';
import { freezeConfig, type ModelConfig } from '../../../src/model/config.ts';
import { initParams } from '../../../src/model/init.ts';
import { uploadParams, zeroGrads } from '../../../src/model/params.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { packEpisodes } from '../../../src/rl/pack.ts';
import { Rng } from '../../../src/random.ts';

const config: ModelConfig = freezeConfig({
  modelType: 'qwen2', vocabSize: 48, hiddenSize: 32, intermediateSize: 64, numLayers: 2, numHeads: 4, numKvHeads: 2,
  headDim: 8, ropeTheta: 10000, rmsNormEps: 1e-6, tieWordEmbeddings: true, qkvBias: true, qkNorm: false, maxPositionEmbeddings: 256,
});

describe('scoring only the loss positions', () => {
  for (const [name, be] of [['reference', new CpuBackend()], ['fast-cpu', new FastCpuBackend()]] as const) {
    it(`${name}: the same log-probs at the scored rows and the same gradients as scoring every position`, async () => {
      const rng = new Rng(7);
      const eps = Array.from({ length: 3 }, (_, e) => {
        const n = 20 + 7 * e;
        return { ids: Array.from({ length: n }, () => rng.int(48)), mask: Array.from({ length: n }, (_, i) => (i > 5 && rng.next() < 0.3 ? 1 : 0)) };
      });
      const rows = packEpisodes(eps, 40);
      const N = rows.B * rows.T;
      const at: number[] = [];
      for (let i = 0; i < N; i++) if (rows.mask[i]) at.push(i);
      const model = new Transformer(be, config, uploadParams(be, config, initParams(config, 3)));
      const base = { B: rows.B, T: rows.T, ids: be.fromArray(rows.ids, [N]), targets: be.fromArray(rows.targets, [N]), positions: be.fromArray(rows.positions, [N]), seg: be.fromArray(rows.seg, [rows.B, rows.T]) };
      // All N positions, the loss masked.
      const gAll = zeroGrads(be, model.params);
      const full = model.forward(base);
      const lpAll = (await be.read(full.logp)) as Float32Array;
      model.backward(full, be.fromArray(rows.mask.map((m) => -m), [N]), gAll);
      // Only the M masked positions.
      const gSel = zeroGrads(be, model.params);
      const sel = model.forward({ ...base, score: { rows: be.fromArray(Int32Array.from(at), [at.length]), targets: be.fromArray(Int32Array.from(at, (i) => rows.targets[i]!), [at.length]) } });
      const lpSel = (await be.read(sel.logp)) as Float32Array;
      model.backward(sel, be.fromArray(new Float32Array(at.length).fill(-1), [at.length]), gSel);
      expect([...lpSel]).toEqual(at.map((i) => lpAll[i]));
      for (const [n, g] of gAll) {
        const a = (await be.read(g)) as Float32Array, b = (await be.read(gSel.get(n)!)) as Float32Array;
        const scale = Math.max(1e-6, ...a.map(Math.abs));
        let worst = 0;
        for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!) / scale);
        expect(worst, n).toBeLessThan(1e-5);
      }
    });
  }
});
