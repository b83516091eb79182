// Recycled op results (src/ops/recycle.ts): f32 hands out zeroed views on buffers of a size class, reusing
// only buffers of views it made that were given back, each once; and the WASM backend's free gives results back without any caller
// still reading them — with `poison` (every array given back filled with NaN) a whole round of the
// trainer's work (generation against the KV cache, SFT and DAPO steps in passes, scoring) gives, bit for
// bit, what it gives with recycling off.
import { afterEach, describe, expect, it } from 'vitest';
import { freezeConfig, type ModelConfig } from '../../../src/model/config.ts';
import { KvGenerator } from '../../../src/model/generate.ts';
import { initParams } from '../../../src/model/init.ts';
import { uploadParams, zeroGrads } from '../../../src/model/params.ts';
import { Transformer } from '../../../src/model/transformer.ts';
import { f32, recycle, recycledBytes, setRecycleMode, type RecycleMode } from '../../../src/ops/recycle.ts';
import { WasmBackend } from '../../../src/ops/wasm/backend.ts';
import { groupAdvantages } from '../../../src/rl/advantages.ts';
import { AdamW } from '../../../src/rl/optimizer.ts';
import { packEpisodes } from '../../../src/rl/pack.ts';
import { dapoStep, scoreActions, sftStep } from '../../../src/rl/steps.ts';
import { Rng } from '../../../src/random.ts';

afterEach(() => void setRecycleMode('on'));

describe('f32 and recycle', () => {
  it('hands out zeroed views, reusing a buffer given back for any length of its size class, never one it did not make, each once', () => {
    setRecycleMode('on');
    const a = f32(1000);
    expect([a.length, a.byteOffset, a.buffer.byteLength]).toEqual([1000, 0, 4096]); // 4,000 bytes → the 4,096 class
    a.fill(7);
    recycle(a);
    expect(recycledBytes()).toBe(4096);
    recycle(a); // given back twice: kept once
    expect(recycledBytes()).toBe(4096);
    expect(f32(2000).buffer).not.toBe(a.buffer); // another class
    const b = f32(990); // the same class: the same buffer, a new view
    expect(b).not.toBe(a);
    expect(b.buffer).toBe(a.buffer);
    expect(b.length).toBe(990);
    expect(b.every((x) => x === 0)).toBe(true);
    recycle(a); // a stale view of a buffer now b's: ignored
    expect(recycledBytes()).toBe(0);
    expect(f32(1000).buffer).not.toBe(a.buffer); // handed out once
    const foreign = new Float32Array(1000);
    recycle(foreign);
    recycle(new Int32Array(8) as unknown as Float32Array);
    expect(recycledBytes()).toBe(0);
  });

  it('off never reuses; poison fills a buffer given back with NaN; a bad mode is refused', () => {
    setRecycleMode('off');
    const a = f32(16);
    recycle(a);
    expect(f32(16).buffer).not.toBe(a.buffer);
    setRecycleMode('poison');
    const p = f32(16);
    recycle(p);
    expect(Number.isNaN(p[3]!)).toBe(true);
    const q = f32(16);
    expect(q.buffer).toBe(p.buffer);
    expect(q.every((x) => x === 0)).toBe(true);
    expect(() => setRecycleMode('maybe' as RecycleMode)).toThrow(/on, off or poison/);
  });

  it('keeps at most 256 MiB, giving up the longest-kept first', () => {
    setRecycleMode('on');
    const big = Array.from({ length: 5 }, () => f32(16 * 2 ** 20)); // 64 MiB each
    for (const a of big) recycle(a);
    expect(recycledBytes()).toBe(256 * 2 ** 20);
    expect(f32(16 * 2 ** 20).buffer).toBe(big[4]!.buffer); // the latest kept; big[0]'s was given up
  });
});

const config: ModelConfig = freezeConfig({
  modelType: 'qwen3', vocabSize: 40, hiddenSize: 32, intermediateSize: 64, numLayers: 2, numHeads: 4, numKvHeads: 2,
  headDim: 8, ropeTheta: 10000, rmsNormEps: 1e-6, tieWordEmbeddings: true, qkvBias: false, qkNorm: true, maxPositionEmbeddings: 256,
});

/** Two rounds of what the trainer does, on the WASM backend: sample groups against the KV cache, an SFT
 *  step and a DAPO step (both in passes), score the actions. Everything read back, and the weights. */
async function round(mode: RecycleMode): Promise<unknown[]> {
  setRecycleMode(mode);
  const be = await WasmBackend.create(1);
  const params = uploadParams(be, config, initParams(config, 4));
  const model = new Transformer(be, config, params);
  const opt = new AdamW(be, params, zeroGrads(be, params), { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1 });
  const rng = new Rng(9), seen: unknown[] = [];
  for (let it = 0; it < 2; it++) {
    const prompts = Array.from({ length: 6 }, (_, g) => Array.from({ length: 5 + 3 * g }, () => rng.int(40)));
    const gen = new KvGenerator(model, prompts.length, 48);
    const out = await gen.generate(prompts, { seed: 50 + it, maxTokens: 12, stopIds: [] });
    gen.dispose();
    const rewards = out.map((o) => (o.ids.filter((id) => id % 2 === 0).length > o.ids.length / 2 ? 1 : 0));
    const adv = groupAdvantages(rewards, 1e-6);
    const eps = out.map((o, i) => {
      const p = prompts[i]!;
      return { ids: [...p, ...o.ids], mask: [...p.map(() => 0), ...o.ids.map(() => 1)], logprobs: [...p.map(() => 0), ...o.logprobs], advantage: adv[i]! || 0.5 };
    });
    const rows = packEpisodes(eps, 32);
    seen.push(out.map((o) => [o.ids, o.logprobs]));
    seen.push(await sftStep(model, opt, rows, 1e-2, 40));
    seen.push(await dapoStep(model, opt, rows, 1e-2, { epsLow: 0.2, epsHigh: 0.28 }, 1, 40));
    const s = await scoreActions(model, rows);
    seen.push([s.logp, s.logits]);
  }
  for (const [name, t] of params) seen.push([name, await be.read(t)]);
  be.close();
  return seen.map((x) => JSON.parse(JSON.stringify(x, (k, v) => (k === 'seconds' ? 0 : v instanceof Float32Array ? Array.from(v) : v))));
}

describe('the WASM backend gives results back only once nothing reads them', () => {
  it('poison and on give the bits of off: generation, SFT and DAPO steps in passes, scoring, weights', async () => {
    const off = await round('off');
    expect(JSON.stringify(off)).not.toMatch(/null|NaN/); // a NaN would be written as null
    expect(await round('poison')).toEqual(off);
    expect(recycledBytes()).toBeGreaterThan(0); // arrays were given back: the round ran the pool
    expect(await round('on')).toEqual(off);
  }, 60_000);
});
