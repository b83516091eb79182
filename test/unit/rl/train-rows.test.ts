// model.trainRows: a step's episodes balanced over R rows (pack.ts trainRowLength) instead of one row
// length per longest episode. Fewer padding tokens; each episode stays one whole segment, so every
// log-prob and the gradient are the ones the longest-episode packing gives (f32 rounding apart).
import { describe, expect, it } from 'vitest';
import { freezeConfig, type ModelConfig } from '../../../src/model/config.ts';
import { initParams } from '../../../src/model/init.ts';
import { uploadParams, zeroGrads } from '../../../src/model/params.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { WasmBackend } from '../../../src/ops/wasm/backend.ts';
import { packEpisodes, trainRowLength, type EpisodeTokens, type PackedRows } from '../../../src/rl/pack.ts';
import { Rng } from '../../../src/random.ts';

const config: ModelConfig = freezeConfig({
  modelType: 'qwen2', vocabSize: 48, hiddenSize: 32, intermediateSize: 64, numLayers: 2, numHeads: 4, numKvHeads: 2,
  headDim: 8, ropeTheta: 10000, rmsNormEps: 1e-6, tieWordEmbeddings: true, qkvBias: true, qkNorm: false, maxPositionEmbeddings: 256,
});

describe('trainRowLength', () => {
  it('rows 0 is the longest episode; rows R balances longest-first over R rows, between the longest and the cap', () => {
    expect(trainRowLength([600, 300, 300, 250])).toBe(600);
    expect(trainRowLength([600, 300, 300, 250], 2)).toBe(850); // 600 + 250 | 300 + 300
    expect(trainRowLength([600, 300, 300, 250], 2, 700)).toBe(700);
    expect(trainRowLength([600, 300, 300, 250], 2, 100)).toBe(600); // never below the longest episode
    expect(trainRowLength([600, 300, 300, 250], 1)).toBe(1450);
    expect(trainRowLength([5], 2)).toBe(8);
    const lens = [600, 300, 300, 250];
    const padded = (T: number) => packEpisodes(lens.map((n) => ({ ids: new Array<number>(n).fill(1), mask: new Array<number>(n).fill(1) })), T);
    const a = padded(trainRowLength(lens)), b = padded(trainRowLength(lens, 2));
    expect([a.B * a.T, b.B * b.T]).toEqual([1800, 1700]) // 600 | 300 + 300 | 250 against 600 + 250 | 300 + 300;
  });
});

/** Per episode and position: the index of that token in the packed rows. */
const where = (rows: PackedRows) => {
  const m = new Map<string, number>();
  for (let i = 0; i < rows.B * rows.T; i++) if (rows.episode[i]! >= 0) m.set(`${rows.episode[i]}:${rows.positions[i]}`, i);
  return m;
};

describe('training on balanced rows', () => {
  for (const [name, make] of [['fast-cpu', async () => new FastCpuBackend()], ['wasm', async () => WasmBackend.create(1)]] as const) {
    it(`${name}: the same log-probs per episode token and the same gradients as rows of the longest episode`, async () => {
      const be = await make();
      const rng = new Rng(11);
      const eps: EpisodeTokens[] = [37, 21, 18, 14, 9].map((n) => ({ ids: Array.from({ length: n }, () => rng.int(48)), mask: Array.from({ length: n }, (_, i) => (i > 3 && rng.next() < 0.5 ? 1 : 0)) }));
      const model = new Transformer(be, config, uploadParams(be, config, initParams(config, 5)));
      const run = async (rows: PackedRows) => {
        const N = rows.B * rows.T;
        const batch = { B: rows.B, T: rows.T, ids: be.fromArray(rows.ids, [N]), targets: be.fromArray(rows.targets, [N]), positions: be.fromArray(rows.positions, [N]), seg: be.fromArray(rows.seg, [rows.B, rows.T]) };
        const g = zeroGrads(be, model.params);
        const st = model.forward(batch);
        const logp = Float32Array.from((await be.read(st.logp)) as Float32Array);
        model.backward(st, be.fromArray(rows.mask.map((m) => -m), [N]), g);
        const grads = new Map<string, Float32Array>();
        for (const [n, t] of g) grads.set(n, Float32Array.from((await be.read(t)) as Float32Array));
        return { logp, grads };
      };
      const lens = eps.map((e) => e.ids.length);
      const tall = packEpisodes(eps, trainRowLength(lens)), flat = packEpisodes(eps, trainRowLength(lens, 2));
      expect(tall.B).toBe(3); // 37 | 21 + 14 | 18 + 9
      expect(flat.B).toBe(2); // 37 + 14 | 21 + 18 + 9
      expect(flat.B * flat.T).toBeLessThan(tall.B * tall.T);
      const [a, b] = [await run(tall), await run(flat)];
      const wa = where(tall), wb = where(flat);
      expect(wb.size).toBe(lens.reduce((x, y) => x + y, 0));
      for (const [key, i] of wa) expect(b.logp[wb.get(key)!], key).toBeCloseTo(a.logp[i]!, 5);
      for (const [n, ga] of a.grads) {
        const gb = b.grads.get(n)!, scale = Math.max(1e-6, ...ga.map(Math.abs));
        let worst = 0;
        for (let i = 0; i < ga.length; i++) worst = Math.max(worst, Math.abs(ga[i]! - gb[i]!) / scale);
        expect(worst, n).toBeLessThan(1e-5);
      }
    });
  }
});
