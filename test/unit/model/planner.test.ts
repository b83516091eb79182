// Memory planner: the formulas on known models (Qwen2.5-0.5B's published parameter count and KV
// size), how each category scales, and refusals that give the numbers and a value that fits.
import { describe, expect, it } from 'vitest';
import { paramCount, parseHfConfig } from '../../../src/model/config.ts';
import { checkFit, formatBytes, loraParamCount, planMemory } from '../../../src/model/planner.ts';
import { MODEL_PRESETS } from '../../../src/model/presets.ts';

// Qwen/Qwen2.5-0.5B-Instruct's config.json (the fields that matter).
const qwen05 = parseHfConfig({
  model_type: 'qwen2', vocab_size: 151936, hidden_size: 896, intermediate_size: 4864, num_hidden_layers: 24,
  num_attention_heads: 14, num_key_value_heads: 2, tie_word_embeddings: true, rope_theta: 1000000, max_position_embeddings: 32768,
});
const micro = MODEL_PRESETS['scratch-160k'].config;
const GiB = 2 ** 30;

describe('planMemory', () => {
  it('counts Qwen2.5-0.5B as transformers does (494,032,768 parameters)', () => {
    expect(paramCount(qwen05)).toBe(494_032_768);
    const p = planMemory(qwen05, { batch: 1, context: 32768, training: 'none' });
    expect(p.bytes.weights).toBe(4 * 494_032_768);
    // K and V: 2 · L 24 · NKV 2 · HS 64 = 6144 f32 per token.
    expect(p.bytes.kvCache).toBe(32768 * 6144 * 4);
    expect(p.bytes.grads + p.bytes.adam + p.bytes.activations).toBe(0);
  });

  it('full training: gradients = weights, AdamW = 2 × weights', () => {
    const p = planMemory(micro, { batch: 4, context: 256, training: 'full' });
    expect(p.trainableParams).toBe(p.params);
    expect(p.bytes.grads).toBe(p.bytes.weights);
    expect(p.bytes.adam).toBe(2 * p.bytes.weights);
    expect(p.total).toBe(Math.max(p.train, p.generate));
  });

  it('LoRA: r·(in + out) per projection; the base is frozen', () => {
    const r = 8;
    const C = 896, F = 4864, q = 14 * 64, kv = 2 * 64;
    expect(loraParamCount(qwen05, r)).toBe(24 * r * (C + q + 2 * (C + kv) + (q + C) + 2 * (C + F) + (F + C)));
    const p = planMemory(qwen05, { batch: 1, context: 1024, training: 'lora', loraRank: r });
    expect(p.trainableParams).toBe(loraParamCount(qwen05, r));
    expect(p.bytes.weights).toBe(4 * (p.params + p.trainableParams));
    expect(p.bytes.adam).toBe(8 * p.trainableParams);
  });

  it('activations: linear in batch × context, by hand for one config; recompute keeps layer inputs only', () => {
    const c = MODEL_PRESETS['scratch-160k'].config; // C 64, F 172, NH 4, NKV 2, HS 16, L 2
    const perToken = 4 * 64 + 2 * 4 * 16 + 2 * 2 * 16 + 3 * 172 + 4 + 2; // = 970 f32 per layer
    const a1 = planMemory(c, { batch: 1, context: 100, training: 'full' }).bytes.activations;
    expect(a1).toBe(4 * (2 * 100 * perToken + 100 * (2 * 64 + 1)));
    expect(planMemory(c, { batch: 3, context: 100, training: 'full' }).bytes.activations).toBe(3 * a1);
    const rc = planMemory(c, { batch: 1, context: 100, training: 'full', recompute: true }).bytes.activations;
    expect(rc).toBe(4 * (2 * 100 * 64 + 100 * perToken + 100 * (2 * 64 + 1)));
    expect(planMemory(qwen05, { batch: 8, context: 2048, training: 'full', recompute: true }).bytes.activations).toBeLessThan(
      planMemory(qwen05, { batch: 8, context: 2048, training: 'full' }).bytes.activations / 5,
    );
  });

  it('logits are chunked: chunk × V, not B·T × V', () => {
    const p = planMemory(qwen05, { batch: 8, context: 4096, training: 'full' });
    expect(p.bytes.logits).toBe(4 * (1024 * 151936 + 3 * 8 * 4096));
    expect(planMemory(qwen05, { batch: 8, context: 4096, training: 'full', logitsChunk: 256 }).bytes.logits).toBeLessThan(p.bytes.logits / 3);
  });

  it('refuses bad sizes', () => {
    expect(() => planMemory(micro, { batch: 0, context: 10, training: 'full' })).toThrow(/batch must be a positive integer/);
  });
});

describe('checkFit', () => {
  it('accepts a run inside the budget', () => {
    const fit = checkFit(micro, { batch: 8, context: 1024, training: 'full' }, { memoryBytes: 4 * GiB, maxBufferSize: 256 * 2 ** 20 });
    expect(fit.ok).toBe(true);
  });

  it('refuses with the numbers and values that fit', () => {
    const opts = { batch: 4, context: 2048, training: 'full' } as const;
    const fit = checkFit(qwen05, opts, { memoryBytes: 16 * GiB });
    expect(fit.ok).toBe(false);
    if (fit.ok) return;
    expect(fit.message).not.toMatch(/\n/);
    expect(fit.message).toMatch(/^this run needs [\d.]+ GiB but the budget is 16\.00 GiB \(weights 1\.84 GiB, gradients 1\.84 GiB, AdamW m\+v 3\.68 GiB, activations [\d.]+ GiB for batch 4 × context 2048, logits [\d.]+ MiB, KV cache [\d.]+ [MG]iB\): lower batch to (\d+), or lower context to (\d+)/);
    const [, b, t] = /lower batch to (\d+), or lower context to (\d+)/.exec(fit.message)!;
    expect(planMemory(qwen05, { ...opts, batch: Number(b) }).total).toBeLessThanOrEqual(16 * GiB);
    expect(planMemory(qwen05, { ...opts, batch: Number(b) + 1 }).total).toBeGreaterThan(16 * GiB);
    expect(planMemory(qwen05, { ...opts, context: Number(t) }).total).toBeLessThanOrEqual(16 * GiB);
    expect(planMemory(qwen05, { ...opts, context: Number(t) + 1 }).total).toBeGreaterThan(16 * GiB);
    expect(fit.message).toMatch(/turn on recompute|train with LoRA/);
  });

  it('says when nothing but a smaller model helps', () => {
    const fit = checkFit(qwen05, { batch: 1, context: 16, training: 'full' }, { memoryBytes: 2 * GiB });
    expect(!fit.ok && fit.message).toMatch(/even batch 1 does not fit: choose a smaller model \(494\.0 M parameters\) or LoRA$/);
  });

  it('plans split weights past the binding limit and refuses only a buffer bound whole or a row too wide, naming it', () => {
    const limits = { maxBufferSize: 256 * 2 ** 20, maxBindingSize: 128 * 2 ** 20 };
    // The 519.3 MiB embedding is split into row chunks: it does not need one buffer.
    expect(checkFit(qwen05, { batch: 1, context: 512, training: 'lora' }, limits).ok).toBe(true);
    const fit = checkFit(qwen05, { batch: 8, context: 4096, training: 'lora' }, limits);
    expect(!fit.ok && fit.message).toMatch(/^the largest buffer bound whole, MLP activations \(B·T × F\), needs 608\.0 MiB but the adapter allows 128\.0 MiB per buffer \(maxStorageBufferBindingSize\): lower batch or context/);
    const row = checkFit(qwen05, { batch: 1, context: 16, training: 'none' }, { maxBindingSize: 512 * 2 ** 10 });
    expect(!row.ok && row.message).toMatch(/^one row of the logits \(V = 151936\) needs 593\.5 KiB but the adapter allows 512\.0 KiB per buffer/);
    expect(formatBytes(1536)).toBe('1.5 KiB');
  });
});
