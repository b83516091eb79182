// The Model view's worker logic that needs no browser: whether a pretrained model fits an adapter at the
// New run form's defaults (workers/model-fit.ts) on Qwen2.5-0.5B's real shape, with the refusals' numbers
// and fixes (limits too small, no WebGPU, a context longer than the model's); Hub ids; overall progress.
import { describe, expect, it } from 'vitest';
import { parseHfConfig, type ModelConfig } from '../../../src/model/config.ts';
import { summarizeModel } from '../../../src/model/summary.ts';
import type { TensorInfo } from '../../../src/model/safetensors.ts';
import { expectedTensors } from '../../../src/model/weights.ts';
import { flattenConfig, resolveConfig } from '../../../src/rl/config.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';
import { normalizeHubId, ProgressBoard } from '../../../workers/model-fetch.ts';
import { modelFit } from '../../../workers/model-fit.ts';
import type { GpuFacts } from '../../../workers/models.api.ts';
import type { ModelLoadProgress } from '../../../workers/models.api.ts';
import { BROWSER_DEFAULTS } from '../../../workers/trainer.api.ts';

// Qwen/Qwen2.5-0.5B-Instruct's config.json (the fields that matter); its weights are BF16.
const qwen05 = (extra: Record<string, unknown> = {}) => parseHfConfig({
  model_type: 'qwen2', vocab_size: 151936, hidden_size: 896, intermediate_size: 4864, num_hidden_layers: 24,
  num_attention_heads: 14, num_key_value_heads: 2, tie_word_embeddings: true, rope_theta: 1000000, max_position_embeddings: 32768, ...extra,
});
/** Headers as a BF16 checkpoint of `c` would have them (the summary reads dtypes and sizes from them). */
function bf16Headers(c: ModelConfig): Map<string, TensorInfo> {
  let at = 0;
  return new Map(expectedTensors(c).map((s) => {
    const n = s.shape.reduce((a, b) => a * b, 1) * 2;
    const t = { name: s.name, dtype: 'BF16', shape: s.shape, begin: at, end: (at += n) };
    return [s.name, t];
  }));
}
// The micro preset with its context and batches pinned (the figures below are for 2048 + 160 tokens and
// 8-episode steps, whatever the preset's tuning).
const PINNED = { 'agent.contextTokens': 2048, 'agent.actionTokens': 160, 'bc.batchEpisodes': 2, 'rft.batchEpisodes': 8, 'dapo.tasksPerIteration': 4, 'dapo.groupSize': 4, 'dapo.optimizerSteps': 2 };
const run = { preset: 'micro', flat: flattenConfig(resolveConfig(RUN_PRESETS.micro!.overrides, BROWSER_DEFAULTS, PINNED)) };
const MiB = 2 ** 20;
const gpu = (binding: number, features: string[] = []): GpuFacts =>
  ({ ok: true, adapter: 'test adapter', fallback: false, limits: { maxBufferSize: 2 * binding, maxStorageBufferBindingSize: binding }, features });
const fitOf = (c: ModelConfig, g: GpuFacts) => modelFit(c, summarizeModel(c, bf16Headers(c), { vocabSize: 151665, hasOwnChatTemplate: true }), run, g);

describe('modelFit', () => {
  it('fits Qwen2.5-0.5B on an adapter with 2 GiB bindings, and says what BF16 weights become', () => {
    const c = qwen05();
    const fit = fitOf(c, gpu(2048 * MiB, ['shader-f16']));
    expect(fit.verdict).toBe('ok');
    expect(fit.problems).toEqual([]);
    // micro: rft.batchEpisodes 8 = ceil(4 tasks · 4 samples / 2 steps) rows of 2048 + 160 tokens.
    expect([fit.context, fit.trainShape]).toEqual([2208, '8 rows × 2208 tokens']);
    expect(fit.rows.map((r) => [r.training, r.ok])).toEqual([['full', true], ['lora', true]]);
    expect(fit.rows[0]!.plan.params).toBe(494_032_768);
    expect(fit.notes[0]).toBe("The weights are stored as BF16 (942.3 MiB) and held as f32 on the GPU (1.84 GiB): the kernels compute in f32, so 'shader-f16' is not needed (this adapter has it).");
  });

  it('refuses limits too small with the numbers and what to lower', () => {
    const fit = fitOf(qwen05(), gpu(128 * MiB));
    expect(fit.verdict).toBe('refused');
    // 8 · 2208 tokens × 4864 floats: the MLP activations are bound whole; LoRA does not shrink them, so one line says it.
    expect(fit.problems).toEqual([
      'the largest buffer bound whole, MLP activations (B·T × F), needs 327.8 MiB but the adapter allows 128.0 MiB per buffer (maxStorageBufferBindingSize): lower batch or context (weights, gradients, AdamW state and logits are split automatically)',
    ]);
    // A logits row larger than a binding cannot be split further.
    const row = fitOf(qwen05(), gpu(512 * 1024));
    expect(row.problems[0]).toMatch(/^one row of the logits \(V = 151936\) needs 593\.5 KiB but the adapter allows 512\.0 KiB per buffer \(maxStorageBufferBindingSize\)/);
  });

  it('says how to enable WebGPU when the worker has none', () => {
    const help = 'Start chromium with --enable-unsafe-webgpu.';
    const fit = fitOf(qwen05(), { ok: false, reason: 'navigator.gpu.requestAdapter() returned no adapter', help });
    expect(fit.verdict).toBe('no-webgpu');
    expect(fit.problems).toEqual([`No WebGPU in the trainer worker (navigator.gpu.requestAdapter() returned no adapter). Pretrained models train only on WebGPU (the CPU backend is for the small from-scratch presets). ${help}`]);
    // A reason that already says how (no navigator.gpu at all) is not followed by the same help again.
    expect(fitOf(qwen05(), { ok: false, reason: help, help }).problems[0]).toBe(`No WebGPU in the trainer worker (${help}). Pretrained models train only on WebGPU (the CPU backend is for the small from-scratch presets).`);
  });

  it("refuses episodes longer than the model's positions, with the context that fits", () => {
    const fit = fitOf(qwen05({ max_position_embeddings: 2048 }), gpu(2048 * MiB));
    expect(fit.verdict).toBe('refused');
    expect(fit.problems).toEqual(['context: the New run defaults (preset micro) give episodes 2208 tokens (agent.contextTokens + agent.actionTokens 160) but this model has 2048 positions (max_position_embeddings): set agent.contextTokens to 1888 or less']);
  });
});

describe('Hub ids and progress', () => {
  it('takes owner/name or a huggingface.co address, and refuses anything else by name', () => {
    expect(normalizeHubId(' Qwen/Qwen2.5-0.5B-Instruct ')).toBe('Qwen/Qwen2.5-0.5B-Instruct');
    expect(normalizeHubId('https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct/tree/main')).toBe('Qwen/Qwen2.5-0.5B-Instruct');
    for (const bad of ['Qwen', 'a/b/c', '../x', 'https://example.org/a/b']) expect(() => normalizeHubId(bad)).toThrow(/is not a Hugging Face model id: write owner\/name/);
  });

  it("counts shards not yet started at the index's total_size, then at their real sizes", () => {
    const seen: ModelLoadProgress[] = [];
    const board = new ProgressBoard((p) => void seen.push(p));
    board.start('config.json', 100), board.bytes('config.json', 100), board.done('config.json');
    board.expect(['a.safetensors', 'b.safetensors'], 1000);
    expect(seen.at(-1)).toMatchObject({ loaded: 100, total: 1100 });
    board.start('a.safetensors', 520), board.bytes('a.safetensors', 520), board.done('a.safetensors');
    expect(seen.at(-1)).toMatchObject({ loaded: 620, total: 1100 }); // 100 + 520 + the 480 of the index total left
    board.start('b.safetensors', 490), board.bytes('b.safetensors', 490), board.done('b.safetensors');
    expect(seen.at(-1)).toMatchObject({ loaded: 1110, total: 1110 });
    expect(seen.at(-1)!.files.map((f) => [f.name, f.state])).toEqual([['config.json', 'done'], ['a.safetensors', 'done'], ['b.safetensors', 'done']]);
  });
});
