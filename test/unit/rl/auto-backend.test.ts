// `--backend auto` by measurement (src/rl/auto-backend.ts, src/cli/backend.ts): every branch of the
// decision with injected rates — no adapter, a software fallback, a hardware adapter where either backend
// prices the run lower, a tie, the cache (hit, corrupt entry, the file the CLI keeps), the slice a large
// shape is measured on — and a real measurement of a from-scratch shape on the WASM backend.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autoCachePath, fileAutoCache } from '../../../src/cli/backend.ts';
import { MODEL_PRESETS, modelPreset } from '../../../src/model/presets.ts';
import { PRETRAINED_SHAPES } from '../../../src/model/shapes.ts';
import { autoKey, chooseAuto, knownRunShape, measurementShape, priceRun, runShape, shapeKey, type AutoBackend, type AutoCache, type AutoRates, type ModelRates } from '../../../src/rl/auto-backend.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { CALIBRATION_RATES, contextFactor, estimateRun } from '../../../src/rl/estimate.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';
import { benchGenerate, measureRates } from '../../../src/rl/throughput.ts';
import { wasmBackendNode } from '../../../src/ops/wasm/threads.node.ts';
import type { Backend } from '../../../src/ops/backend.ts';
import type { Tensor } from '../../../src/ops/tensor.ts';

const cfg = resolveConfig(RUN_PRESETS.micro!.overrides);
const MICRO = modelPreset(cfg.model.preset)!.config;
const memCache = (): AutoCache & { map: Map<string, AutoRates> } => {
  const map = new Map<string, AutoRates>();
  return { map, get: async (k) => map.get(k), set: async (k, v) => void map.set(k, v) };
};
/** A measure function that answers `rates[kind]` and counts its calls. */
const measuring = (rates: Record<AutoBackend, ModelRates>) => {
  const calls: AutoBackend[] = [];
  return { calls, measure: async (k: AutoBackend) => (calls.push(k), rates[k]) };
};
const hw = { kind: 'hardware' as const, name: 'nvidia hopper H200' };
// Micro's mix on the H200 (docs/gpu-h200.md): WASM decodes ~3× faster, WebGPU trains faster.
const H200_MICRO = { webgpu: { trainTokensPerS: 90_000, genTokensPerS: 1_337 }, wasm: { trainTokensPerS: 30_000, genTokensPerS: 4_353 } };

describe('auto by measurement', () => {
  it('takes WASM without measuring where there is no adapter or only a software fallback', async () => {
    for (const adapter of [{ kind: 'none' as const, reason: 'no Vulkan driver' }, { kind: 'fallback' as const, name: 'swiftshader' }]) {
      const m = measuring(H200_MICRO), cache = memCache();
      const d = await chooseAuto({ adapter, cfg, model: MICRO, shape: 'scratch-160k', key: 'k', measure: m.measure, cache });
      expect(d.backend).toBe('wasm');
      expect(d.why).toMatch(adapter.kind === 'none' ? /^no WebGPU adapter \(no Vulkan driver\)$/ : /software fallback \(swiftshader\)/);
      expect(m.calls).toEqual([]);
      expect(d.measured).toBeUndefined();
    }
  });

  it('on a hardware adapter, opens the backend that prices the run lower, and says so with both figures', async () => {
    const m = measuring(H200_MICRO);
    const d = await chooseAuto({ adapter: hw, cfg, model: MICRO, shape: 'scratch-160k', key: 'k', measure: m.measure, cache: memCache() });
    expect(m.calls).toEqual(['webgpu', 'wasm']);
    // Rollouts dominate micro's run: the faster decoder wins although the GPU trains 3× faster.
    expect(d.backend).toBe('wasm');
    expect(d.measured!.wasm.runS).toBeLessThan(d.measured!.webgpu.runS);
    expect(d.measured!.webgpu.runS).toBeCloseTo(priceRun(cfg, H200_MICRO.webgpu, MICRO), 6);
    expect(d.why).toMatch(/^measured at scratch-160k: the run priced at \d+ (min|s) on wasm against \d+ (min|s) on webgpu \(generation 1,337 vs 4,353 tokens\/s, training 90,000 vs 30,000 tokens\/s, webgpu vs wasm\)$/);
    // A GPU that decodes faster too: WebGPU.
    const fast = measuring({ webgpu: { trainTokensPerS: 90_000, genTokensPerS: 9_000 }, wasm: H200_MICRO.wasm });
    const g = await chooseAuto({ adapter: hw, cfg, model: MICRO, shape: 'scratch-160k', key: 'k', measure: fast.measure, cache: memCache() });
    expect(g.backend).toBe('webgpu');
    expect(g.why).toMatch(/on webgpu against .* on wasm/);
  });

  it('a sliced measurement prices the whole model: its rates over the arithmetic ratio, the cache keeping what was measured', async () => {
    const full = PRETRAINED_SHAPES['qwen2.5-coder-0.5b']!.config, { scale } = measurementShape('q', full);
    // Tied head: every weight but the norms and biases multiplies a token; 24 blocks of 14.9 M against 2, beside the 136 M head.
    const block = 2 * 896 * 896 + 2 * 896 * 128 + 3 * 896 * 4864;
    expect(scale).toBeCloseTo((24 * block + 151936 * 896) / (2 * block + 151936 * 896), 1);
    expect(scale).toBeGreaterThan(2.9);
    expect(scale).toBeLessThan(3.1);
    expect(measurementShape('micro', MODEL_PRESETS['scratch-160k'].config).scale).toBe(1);
    const cache = memCache();
    // qwen-coder-lora's episodes are priced at their budgets, so its rates also pay attention over that length.
    const qcfg = resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides);
    const d = await chooseAuto({ adapter: hw, cfg: qcfg, model: full, shape: 'q (2 of 24 blocks)', key: 'k', measure: measuring(H200_MICRO).measure, cache, scale });
    expect(d.measured!.webgpu.genTokensPerS).toBeCloseTo(H200_MICRO.webgpu.genTokensPerS / scale, 9);
    // An episode of at most 9,232 tokens (8,192 of context and a last observation): generation and the LoRA step
    // at their factors.
    const f = contextFactor(full, 9232), ft = contextFactor(full, 9232, true);
    const atContext = { trainTokensPerS: H200_MICRO.wasm.trainTokensPerS / scale / ft, genTokensPerS: H200_MICRO.wasm.genTokensPerS / scale / f, testRunS: CALIBRATION_RATES.testRunS };
    expect(d.measured!.wasm.runS).toBeCloseTo(estimateRun(qcfg, atContext).totalS, 3);
    expect(priceRun(qcfg, H200_MICRO.wasm, full)).toBeCloseTo(estimateRun(qcfg, { ...atContext, trainTokensPerS: atContext.trainTokensPerS * scale, genTokensPerS: atContext.genTokensPerS * scale }).totalS, 3);
    // micro's measured episodes are not scaled by a context.
    expect(priceRun(cfg, H200_MICRO.wasm, MICRO)).toBeCloseTo(estimateRun(cfg, { ...H200_MICRO.wasm, testRunS: CALIBRATION_RATES.testRunS }).totalS, 6);
    expect(d.why).toMatch(/^measured at q \(2 of 24 blocks\), its rates over 3\.0 for the whole model's arithmetic: the run priced at/);
    expect(await cache.get('k')).toEqual(H200_MICRO);
  });

  it('gives a tie to WASM', async () => {
    const same = { trainTokensPerS: 1000, genTokensPerS: 100 };
    const d = await chooseAuto({ adapter: hw, cfg, model: MICRO, shape: 's', key: 'k', measure: measuring({ webgpu: same, wasm: same }).measure, cache: memCache() });
    expect(d.backend).toBe('wasm');
  });

  it('measures once per key: the next run reads the rates, prices its own config and picks the same', async () => {
    const cache = memCache();
    const first = measuring(H200_MICRO);
    const a = await chooseAuto({ adapter: hw, cfg, model: MICRO, shape: 's', key: 'k1', measure: first.measure, cache });
    const again = measuring({ webgpu: { trainTokensPerS: 1, genTokensPerS: 1 }, wasm: { trainTokensPerS: 1, genTokensPerS: 1 } });
    const b = await chooseAuto({ adapter: hw, cfg, model: MICRO, shape: 's', key: 'k1', measure: again.measure, cache });
    expect(again.calls).toEqual([]);
    expect(b.cached).toBe(true);
    expect(b.backend).toBe(a.backend);
    expect(b.why).toMatch(/^measured before at s:/);
    // A run that only trains (cloning alone, no rollouts but its evaluation) is priced from the same rates.
    const trainOnly = resolveConfig(RUN_PRESETS.micro!.overrides, { 'run.phases': 'base', 'eval.samples': 1, 'tasks.maxTest': 1 });
    expect(priceRun(trainOnly, H200_MICRO.webgpu, MICRO)).toBeLessThan(priceRun(trainOnly, H200_MICRO.wasm, MICRO));
    expect((await chooseAuto({ adapter: hw, cfg: trainOnly, model: MICRO, shape: 's', key: 'k1', measure: again.measure, cache })).backend).toBe('webgpu');
    // Another key (another shape, batch, adapter or thread count) is measured.
    await chooseAuto({ adapter: hw, cfg, model: MICRO, shape: 's', key: 'k2', measure: again.measure, cache });
    expect(again.calls).toEqual(['webgpu', 'wasm']);
  });

  it('keeps the rates in a JSON file under the cache folder; a corrupt file or entry is measured over', async () => {
    expect(autoCachePath({ XDG_CACHE_HOME: '/x' })).toBe(join('/x', 'webswe', 'auto-backend.json'));
    expect(autoCachePath({ HOME: '/h' })).toMatch(/webswe[/\\]auto-backend\.json$/);
    const path = join(mkdtempSync(join(tmpdir(), 'webswe-auto-')), 'sub', 'auto-backend.json');
    const cache = fileAutoCache(path);
    expect(await cache.get('k')).toBeUndefined(); // no file yet
    await cache.set('k', H200_MICRO);
    await cache.set('j', H200_MICRO);
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')))).toEqual(['k', 'j']);
    expect(await fileAutoCache(path).get('k')).toEqual(H200_MICRO);
    writeFileSync(path, JSON.stringify({ k: { webgpu: { trainTokensPerS: -1, genTokensPerS: 5 }, wasm: H200_MICRO.wasm } }));
    expect(await cache.get('k')).toBeUndefined();
    const m = measuring(H200_MICRO);
    await chooseAuto({ adapter: hw, cfg, model: MICRO, shape: 's', key: 'k', measure: m.measure, cache });
    expect(m.calls).toEqual(['webgpu', 'wasm']);
    writeFileSync(path, '{ not json');
    expect(await cache.get('k')).toBeUndefined();
    await cache.set('k', H200_MICRO); // written over, not an error
    expect(await cache.get('k')).toEqual(H200_MICRO);
  });

  it('keys on every dimension of the shape and the batch, and measures a large model on a two-block slice', () => {
    const micro = MODEL_PRESETS['scratch-160k'].config, q = PRETRAINED_SHAPES['qwen2.5-coder-0.5b']!;
    expect(measurementShape('scratch-160k', micro)).toMatchObject({ name: 'scratch-160k', config: micro });
    const s = measurementShape('qwen2.5-coder-0.5b', q.config, q.lora);
    expect(s.name).toBe('qwen2.5-coder-0.5b (2 of 24 blocks)');
    expect(s.config).toEqual({ ...q.config, numLayers: 2 });
    expect(s.lora).toEqual(q.lora);
    expect(shapeKey(s.config, s.lora)).toBe('qwen2 L2 C896 F4864 H14/2×64 V151936 LoRA r16');
    expect(autoKey('nvidia hopper', 'k', { trainRows: 16, rolloutRows: 32 }, 16)).toBe('nvidia hopper · k · train 16 rows, rollout 32 rows · 16 threads');
    expect(runShape(cfg)).toEqual({ config: micro });
    const lora = resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides);
    expect(runShape(lora, q.config).lora?.rank).toBeGreaterThan(0);
    expect(() => runShape(lora)).toThrow(/not a from-scratch shape/);
    // By its preset alone: the Hub model's known shape with the run's LoRA; a folder's shape is in its files.
    expect(knownRunShape(cfg)).toEqual({ config: micro });
    expect(knownRunShape(lora)).toEqual(runShape(lora, q.config));
    expect(() => knownRunShape(resolveConfig(RUN_PRESETS['qwen-coder-lora']!.overrides, { 'model.preset': 'models/my-qwen' }))).toThrow(/^models\/my-qwen has its shape only in its files/);
  });

  it('measures a from-scratch shape on the WASM backend: two positive rates, in a few seconds', async () => {
    const be = (await wasmBackendNode(2)) as unknown as Backend<Tensor>;
    const r = await measureRates({ name: 'wasm', be }, MODEL_PRESETS['scratch-30k'], { trainRows: 2, rolloutRows: 4 });
    expect(r.trainTokensPerS).toBeGreaterThan(0);
    expect(r.genTokensPerS).toBeGreaterThan(0);
    expect(Number.isFinite(priceRun(cfg, r, MICRO))).toBe(true);
    // A rate measurement times only the two rows it prices; bench generate gives the turns too.
    const shape = MODEL_PRESETS['scratch-30k'];
    expect((await benchGenerate({ name: 'wasm', be }, shape, { G: 2, P: 8, D: 2, turns: false })).map((x) => x.name)).toEqual(['prefill', 'decode']);
    expect((await benchGenerate({ name: 'wasm', be }, shape, { G: 2, P: 8, D: 2 })).map((x) => x.name)).toEqual(['prefill', 'decode', 'turn packed', 'turn padded']);
  });
});
