// `webswe bench dist`'s refusals as a user meets them (a real node process): an unknown model shape names every
// shape (the pretrained ones included: they play with random weights), a backend it cannot run names the two,
// --overlap at a pretrained shape says it runs a from-scratch one, and an unknown --preset names the run presets. Each refusal is one line, no stack.
import { describe, expect, it } from 'vitest';
import { webswe } from '../../helpers/cli.ts';

describe('webswe bench dist options', () => {
  it('refuse a shape, a backend or an --overlap shape it cannot run, naming the choices', async () => {
    const shape = await webswe('bench', 'dist', '--model', 'huge');
    expect(shape.status).not.toBe(0);
    expect(shape.stderr).toMatch(/--model must be one of scratch-30k, scratch-160k, scratch-400k, scratch-5m, qwen2.5-coder-0.5b, qwen2.5-coder-1.5b, got "huge"/);
    const backend = await webswe('bench', 'dist', '--model', 'scratch-30k', '--backend', 'webgpu');
    expect(backend.status).not.toBe(0);
    expect(backend.stderr).toMatch(/--backend must be fast-cpu or wasm, got "webgpu"/);
    const overlap = await webswe('bench', 'dist', '--overlap', '--model', 'qwen2.5-coder-0.5b');
    expect(overlap.status).not.toBe(0);
    expect(overlap.stderr).toMatch(/--overlap runs a from-scratch shape \(scratch-30k, .*\), got "qwen2.5-coder-0.5b"/);
    const preset = await webswe('bench', 'dist', '--preset', 'mini');
    expect(preset.status).not.toBe(0);
    expect(preset.stderr).toMatch(/--preset must be a run preset \(micro, micro-find, tiny, qwen-coder-lora\) or a model shape \(scratch-30k, .*\), got "mini"/);
    // A run preset is its run's shape: qwen-coder-lora's is a pretrained one, which --overlap refuses by name.
    const lora = await webswe('bench', 'dist', '--overlap', '--preset', 'qwen-coder-lora');
    expect(lora.status).not.toBe(0);
    expect(lora.stderr).toMatch(/--overlap runs a from-scratch shape \(scratch-30k, .*\), got "qwen2.5-coder-0.5b"/);
    for (const r of [shape, backend, overlap, preset, lora]) expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
  }, 60_000);
});
