// The shapes bench measures at: the pretrained ones are the Hub models' exact shapes (their parameter counts to the
// unit), and a shape that trains with LoRA benches a LoRA step: adapters only, the base weights untouched.
import { describe, expect, it } from 'vitest';
import { paramCount } from '../../../src/model/config.ts';
import { loraParamCount } from '../../../src/model/planner.ts';
import { scratch30k } from '../../../src/model/presets.ts';
import { modelShape, PRETRAINED_SHAPES, SHAPE_NAMES, shapeOfModel } from '../../../src/model/shapes.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { parseLoraTargets } from '../../../src/model/lora.ts';
import { benchTrain } from '../../../src/rl/throughput.ts';

describe('model shapes', () => {
  it('has the Qwen2.5-Coder Instruct models at their real sizes', () => {
    // Qwen2.5-0.5B: 494,032,768 parameters (0.36 B without the tied embedding); 1.5B: 1,543,714,304.
    expect(paramCount(PRETRAINED_SHAPES['qwen2.5-coder-0.5b']!.config)).toBe(494_032_768);
    expect(paramCount(PRETRAINED_SHAPES['qwen2.5-coder-1.5b']!.config)).toBe(1_543_714_304);
    expect(PRETRAINED_SHAPES['qwen2.5-coder-0.5b']!.config).toMatchObject({ modelType: 'qwen2', qkvBias: true, tieWordEmbeddings: true, headDim: 64, numKvHeads: 2 });
    // LoRA rank 16 on all seven projections of 24 layers: r · (in + out) per module.
    expect(loraParamCount(PRETRAINED_SHAPES['qwen2.5-coder-0.5b']!.config, 16)).toBe(24 * 16 * (896 + 896 + 2 * (896 + 128) + 896 + 896 + 3 * (896 + 4864)));
    expect(SHAPE_NAMES).toEqual(['scratch-30k', 'scratch-160k', 'scratch-400k', 'scratch-5m', 'qwen2.5-coder-0.5b', 'qwen2.5-coder-1.5b']);
    expect(modelShape('scratch-30k')).toBe(scratch30k);
    for (const n of ['constructor', 'micro', 'Qwen/Qwen2.5-Coder-0.5B-Instruct']) expect(modelShape(n)).toBeUndefined();
  });

  it("names the shape each run preset trains at: its from-scratch shape, or the pretrained shape of its Hub id", () => {
    const of = (preset: string) => shapeOfModel(resolveConfig(RUN_PRESETS[preset]!.overrides).model.preset)?.name;
    expect(of('micro')).toBe('scratch-160k');
    expect(of('micro-find')).toBe('scratch-160k');
    expect(of('tiny')).toBe('scratch-5m');
    expect(of('qwen-coder-lora')).toBe('qwen2.5-coder-0.5b');
    expect(shapeOfModel('Qwen/Qwen2.5-Coder-1.5B-Instruct')).toBe(PRETRAINED_SHAPES['qwen2.5-coder-1.5b']);
    // A folder or another Hub model: its shape is in its own files.
    for (const n of ['runs/x/weights/base', 'Qwen/Qwen2.5-0.5B', 'micro']) expect(shapeOfModel(n)).toBeUndefined();
  });

  it('benches a LoRA step where the shape trains with LoRA: gradients and AdamW state for the adapters alone', async () => {
    const be = new FastCpuBackend();
    const lora = { rank: 4, alpha: 8, targets: parseLoraTargets('q,v') };
    const row = await benchTrain({ name: 'fast-cpu', be }, { ...scratch30k, lora }, { B: 2, T: 16, steps: 1 });
    expect(row.name).toBe('train step (LoRA r 4)');
    expect(row.tokens_per_s).toBeGreaterThan(0);
    const full = await benchTrain({ name: 'fast-cpu', be }, scratch30k, { B: 2, T: 16, steps: 1 });
    expect(full.name).toBe('train step');
    expect(row.planned_bytes).toBeLessThan(full.planned_bytes); // no gradients or moments for the frozen weights
  });
});
