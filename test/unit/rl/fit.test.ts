// Will a run fit (src/rl/fit.ts): the planner's options from a run config, the refusal's numbers and
// fields, and that the value a refusal names does fit while one more does not.
import { describe, expect, it } from 'vitest';
import { formatBytes, planMemory } from '../../../src/model/planner.ts';
import { MODEL_PRESETS } from '../../../src/model/presets.ts';
import { flattenConfig, resolveConfig, type ConfigValue } from '../../../src/rl/config.ts';
import { checkRunFit, cpuMemoryBudget, webgpuMemoryBudget } from '../../../src/rl/fit.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';

const GiB = 2 ** 30;
const flat = (preset: string, overrides: Record<string, ConfigValue> = {}) => flattenConfig(resolveConfig(RUN_PRESETS[preset]!.overrides, overrides));

describe('checkRunFit', () => {
  it('plans the run as its phases use the model: rows × context for a step, episodes × context for generation', () => {
    // micro: behaviour cloning in steps of 4 episodes, RFT of 8, DAPO mini-batches of 8·8/2 = 32; generation in
    // batches of agent.rolloutBatch (32) rounded down to whole groups.
    const f = flat('micro');
    const fit = checkRunFit(f, cpuMemoryBudget(16));
    expect(fit.ok).toBe(true);
    const T = (f['agent.contextTokens'] as number) + (f['agent.actionTokens'] as number);
    expect(fit.options).toEqual({ batch: 32, context: T, generateBatch: 32, training: 'full' });
    expect(checkRunFit(flat('micro', { 'agent.rolloutBatch': 10 }), cpuMemoryBudget(16)).options.generateBatch).toBe(8); // whole groups of 8 (DAPO's G, RFT's K), evaluation's 4 fits two
    expect(checkRunFit(flat('micro', { 'agent.rolloutBatch': 1 }), cpuMemoryBudget(16)).options.generateBatch).toBe(8);
    expect(fit.plan).toEqual(planMemory(MODEL_PRESETS['scratch-160k'].config, fit.options));
    // A run without gradient steps plans generation only.
    expect(checkRunFit(flat('micro', { 'run.phases': 'base', 'bc.epochs': 0 }), cpuMemoryBudget()).options.training).toBe('none');
    // Behaviour cloning plans its own batch (bc.batchEpisodes), RFT its own.
    expect(checkRunFit(flat('micro', { 'run.phases': 'base' }), cpuMemoryBudget()).options.batch).toBe(4);
    expect(checkRunFit(flat('micro', { 'run.phases': 'base', 'bc.batchEpisodes': 12 }), cpuMemoryBudget()).options.batch).toBe(12);
    expect(checkRunFit(flat('micro', { 'run.phases': 'base,rft' }), cpuMemoryBudget()).options.batch).toBe(8);
  });

  it('refuses a run over the CPU bound with the parts and, per field, the largest value that fits', () => {
    const f = flat('tiny', { 'agent.contextTokens': 131072, 'model.passTokens': 0 });
    const budget = cpuMemoryBudget(16);
    const fit = checkRunFit(f, budget);
    expect(fit.ok).toBe(false);
    if (fit.ok) return;
    expect(fit.field).toBe('agent.contextTokens');
    expect(fit.message).toMatch(new RegExp(`^agent\\.contextTokens: this run will not fit: it needs ${formatBytes(fit.plan.total).replace('.', '\\.')} at its peak \\(a training step\\) but the CPU backend's bound is 4\\.00 GiB`));
    expect(fit.message).toMatch(/Planned: weights [\d.]+ MiB, gradients [\d.]+ MiB, AdamW m \+ v [\d.]+ MiB, activations \(16 rows × 131328 tokens\) [\d.]+ GiB, logits [\d.]+ MiB, KV cache \(32 episodes × 131328 positions\) [\d.]+ GiB\./);
    const fixes = [...fit.message.matchAll(/lower ([\w.]+) to (\d+)/g)].map((m) => [m[1]!, Number(m[2])] as const);
    expect(fixes.map(([field]) => field)).toContain('agent.contextTokens');
    for (const [field, value] of fixes) {
      expect(checkRunFit({ ...f, [field]: value }, budget).ok, `${field} = ${value}`).toBe(true);
      expect(checkRunFit({ ...f, [field]: value + 1 }, budget).ok, `${field} = ${value + 1}`).toBe(false);
    }
    // Even scratch-30k does not hold 131 k positions per episode: no smaller model is offered.
    expect(fit.message).not.toMatch(/model\.preset/);
    const shorter = checkRunFit(flat('tiny', { 'agent.contextTokens': 8192, 'model.passTokens': 0 }), budget);
    expect(!shorter.ok && shorter.message).toMatch(/, or use model\.preset scratch-30k or scratch-160k or scratch-400k\.$/);
  });

  it('offers passes first when a training step is the peak, and a step in passes plans one pass', () => {
    // tiny's settings without its passes: RFT steps of 16 episodes and DAPO mini-batches of 8·8/4 = 16, each
    // row up to 4,352 tokens: 7 GiB of activations.
    const f = flat('tiny', { 'model.passTokens': 0 });
    const budget = cpuMemoryBudget(4); // 2 GiB
    const fit = checkRunFit(f, budget);
    expect(fit.ok).toBe(false);
    if (fit.ok) return;
    expect(fit.field).toBe('model.passTokens');
    const m = /To fit: set model\.passTokens to (\d+) \((\d+) rows a pass; the same gradients\), or lower /.exec(fit.message);
    expect(m).not.toBeNull();
    const [tokens, rows] = [Number(m![1]), Number(m![2])];
    expect(tokens).toBe(rows * fit.options.context);
    const cut = checkRunFit({ ...f, 'model.passTokens': tokens }, budget);
    expect(cut.ok).toBe(true);
    expect(cut.options.batch).toBe(rows);
    expect(cut.trainShape).toBe(`${rows} rows × ${fit.options.context} tokens a pass`);
    // One row more a pass does not fit: the offer is the largest.
    expect(checkRunFit({ ...f, 'model.passTokens': tokens + fit.options.context }, budget).ok).toBe(false);
    // Passes never cut below one row: a pass budget under one row still plans one.
    expect(checkRunFit({ ...f, 'model.passTokens': 1 }, budget).options.batch).toBe(1);
  });

  it("tiny's preset trains in passes of 3 rows: its plan fits a 2 GiB bound", () => {
    const fit = checkRunFit(flat('tiny'), cpuMemoryBudget(4));
    expect(fit.ok).toBe(true);
    expect(fit.options.batch).toBe(3);
    expect(fit.plan.total).toBeLessThan(2 * GiB);
  });

  it('checks a WebGPU adapter per buffer only, naming the limit', () => {
    const limits = { maxBufferSize: 4 * GiB, maxStorageBufferBindingSize: 1 * GiB };
    expect(webgpuMemoryBudget(limits)).toMatchObject({ backend: 'webgpu', bufferBytes: GiB, bufferLimit: 'maxStorageBufferBindingSize' });
    const f = flat('tiny', { 'agent.contextTokens': 131072, 'model.passTokens': 0 });
    const fit = checkRunFit(f, webgpuMemoryBudget(limits));
    expect(fit.ok).toBe(false);
    expect(!fit.ok && fit.message).toMatch(/its largest buffer bound whole, MLP activations \(B·T × F\), needs [\d.]+ GiB but the adapter allows 1\.00 GiB per buffer \(maxStorageBufferBindingSize\)/);
    // Far more memory in all than the CPU bound, yet every buffer fits one binding: WebGPU does not refuse it.
    const big = checkRunFit(flat('tiny', { 'agent.contextTokens': 16384, 'model.passTokens': 0 }), webgpuMemoryBudget(limits));
    expect(big.ok).toBe(true);
    expect(big.plan.total).toBeGreaterThan(4 * GiB);
  });

  it('bounds the CPU backend by 4 GiB, or half of a smaller device memory', () => {
    expect(cpuMemoryBudget().memoryBytes).toBe(4 * GiB);
    expect(cpuMemoryBudget(16).memoryBytes).toBe(4 * GiB);
    expect(cpuMemoryBudget(4)).toMatchObject({ memoryBytes: 2 * GiB, memoryLimit: 'half of navigator.deviceMemory, 4 GiB' });
  });

  it('names model.preset when it cannot size the model, and plans a pretrained one from its config (LoRA by model.loraRank)', () => {
    expect(() => checkRunFit(flat('micro', { 'model.preset': 'Qwen/Qwen2.5-0.5B' }), cpuMemoryBudget())).toThrow(/^model\.preset: "Qwen\/Qwen2\.5-0\.5B" is not a from-scratch preset \(scratch-30k, scratch-160k, scratch-400k, scratch-5m\), so its size is not known here/);
    const qwen = { ...MODEL_PRESETS['scratch-5m'].config, vocabSize: 151936, hiddenSize: 896, intermediateSize: 4864, numLayers: 24, numHeads: 14, numKvHeads: 2, headDim: 64 };
    const f = flat('micro', { 'model.preset': 'idb:models/Qwen/Qwen2.5-0.5B', 'model.loraRank': 8 });
    const fit = checkRunFit(f, webgpuMemoryBudget({ maxBufferSize: 4 * GiB, maxStorageBufferBindingSize: 4 * GiB }), qwen);
    expect(fit.options).toMatchObject({ training: 'lora', loraRank: 8 });
    expect(fit.plan).toEqual(planMemory(qwen, fit.options));
    expect(checkRunFit({ ...f, 'model.loraRank': 0 }, cpuMemoryBudget(), qwen).options.training).toBe('full');
  });
});
