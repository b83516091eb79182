// `webswe bench generate` as a user runs it (a real node process): prefill and decode rows, and an
// agent turn of uneven lengths with packed rows beside the padded layout (the peer, same run): both
// count the same real tokens, and the packed row carries its ratio to the peer; every row its ratio to the
// CPU backends' rows. --preset takes a run preset (the
// shape its run trains at) or a shape name; an unknown shape or preset, or both flags, are refused naming the choices.
// Beside a software adapter a pretrained shape's sizes left at their defaults shrink, and `both` backends there
// means webgpu and wasm (the rules, as functions).
import { describe, expect, it } from 'vitest';
import { backendNames, softwareSizes } from '../../../src/cli/bench.ts';
import { tokenWeights } from '../../../src/model/config.ts';
import { modelShape } from '../../../src/model/shapes.ts';
import { webswe } from '../../helpers/cli.ts';

describe('webswe bench generate', () => {
  it('--json: prefill, decode, and an uneven turn packed beside padded, with the ratio', async () => {
    const r = await webswe('bench', 'generate', '--model', 'scratch-30k', '--backend', 'wasm', '--json', '-G', '4', '--prompt', '16', '--decode', '4');
    expect(r.status, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { results: { name: string; shape: string; ms: number; tokens_per_s: number; vs_padded?: number; weights_gbps?: number }[] }).results;
    expect(rows.map((x) => x.name)).toEqual(['prefill', 'decode', 'turn packed', 'turn padded']);
    // Decode reads every f32 weight once a step: 4 steps of scratch-30k's weights over the decode's time.
    const decode = rows[1]!;
    expect(decode.weights_gbps).toBeCloseTo((4 * tokenWeights(modelShape('scratch-30k')!.config) * 4) / (decode.ms / 1000) / 1e9, 9);
    const [packed, padded] = [rows[2]!, rows[3]!];
    expect(packed.shape).toBe('G 4: 4..16 + 1..4');
    expect(padded.shape).toBe(packed.shape);
    // Real tokens: 4 + 8 + 12 + 16 appended, 1 + 2 + 3 + 4 decoded, in either layout.
    for (const x of [packed, padded]) expect((x.tokens_per_s * x.ms) / 1000).toBeCloseTo(50, 6);
    expect(packed.vs_padded).toBeCloseTo(packed.tokens_per_s / padded.tokens_per_s, 9);
    expect(padded.vs_padded).toBeUndefined();
  }, 150_000);

  it('each row carries its ratio to the wasm and fast-cpu rows of the same measurement', async () => {
    const r = await webswe('bench', 'generate', '--model', 'scratch-30k', '--backend', 'wasm,fast-cpu', '--json', '-G', '2', '--prompt', '8', '--decode', '2');
    expect(r.status, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { results: { name: string; backend: string; tokens_per_s: number; vs_wasm?: number; vs_fast_cpu?: number }[] }).results;
    const wasm = rows.find((x) => x.name === 'decode' && x.backend.startsWith('wasm '))!, fast = rows.find((x) => x.name === 'decode' && x.backend.startsWith('fast-cpu'))!;
    expect(fast.vs_wasm).toBeCloseTo(fast.tokens_per_s / wasm.tokens_per_s, 9);
    expect(wasm.vs_fast_cpu).toBeCloseTo(wasm.tokens_per_s / fast.tokens_per_s, 9);
    expect(wasm.vs_wasm).toBeUndefined();
    expect(fast.vs_fast_cpu).toBeUndefined();
  }, 150_000);

  it('--preset: a run preset measures the shape its run trains at', async () => {
    const r = await webswe('bench', 'generate', '--preset', 'micro', '--backend', 'wasm', '--json', '-G', '2', '--prompt', '8', '--decode', '2');
    expect(r.status, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { results: { model: string }[] }).results;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((x) => x.model))).toEqual(new Set(['scratch-160k']));
  }, 150_000);

  it('refuses an unknown shape or preset, or --model with --preset, with one line naming the choices', async () => {
    const r = await webswe('bench', 'generate', '--model', 'huge', '--backend', 'wasm');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--model must be one of scratch-30k, scratch-160k, scratch-400k, scratch-5m, qwen2.5-coder-0.5b, qwen2.5-coder-1.5b \(a comma list, or both\), got "huge"/);
    const preset = await webswe('bench', 'generate', '--preset', 'huge', '--backend', 'wasm');
    expect(preset.status).not.toBe(0);
    expect(preset.stderr).toMatch(/--preset must be a run preset \(micro, micro-find, tiny, qwen-coder-lora\) or a model shape \(scratch-30k, .*qwen2.5-coder-1.5b\), got "huge"/);
    const both = await webswe('bench', 'generate', '--model', 'scratch-30k', '--preset', 'micro', '--backend', 'wasm');
    expect(both.status).not.toBe(0);
    expect(both.stderr).toMatch(/give the shape with --model or with --preset, not both/);
    for (const x of [r, preset, both]) expect(x.stderr).not.toMatch(/at .*\.ts:\d+/);
  }, 60_000);

  it('beside a software adapter, a pretrained shape takes small sizes for those left at their defaults, on every backend', () => {
    const big = modelShape('qwen2.5-coder-0.5b')!, micro = modelShape('scratch-160k')!;
    const soft = [{ name: 'webgpu (swiftshader)', software: true }, { name: 'wasm (SIMD, 2 threads)' }];
    const small = { group: '1', prompt: '16', decode: '4' };
    const defaults = () => ({ group: '8', prompt: '128', decode: '32' });
    const o = defaults();
    const note = softwareSizes(() => false, o, [big], soft, small);
    expect(o).toEqual(small);
    expect(note).toBe('bench: webgpu (swiftshader) is a GPU emulated on the CPU (~1 GFLOP/s); qwen2.5-coder-0.5b measured at -G 1, --prompt 16, --decode 4 on every backend (give the sizes to measure others)');
    // A size given on the command line is kept; the others shrink.
    const given = { ...defaults(), group: '2' };
    expect(softwareSizes((k) => k === 'group', given, [big], soft, small)).toMatch(/measured at --prompt 16, --decode 4 /);
    expect(given).toEqual({ group: '2', prompt: '16', decode: '4' });
    // Not for a from-scratch shape, nor without a software adapter, nor when every size was given.
    for (const [shapes, backends, isGiven] of [[[micro], soft, () => false], [[big], [{ name: 'webgpu (nvidia)', software: false }, soft[1]!], () => false], [[big], soft, () => true]] as const) {
      const kept = defaults();
      expect(softwareSizes(isGiven, kept, shapes, backends, small)).toBeNull();
      expect(kept).toEqual(defaults());
    }
  });

  it('--backend both at a pretrained shape means webgpu and wasm, and says so; named backends run as named', () => {
    const big = modelShape('qwen2.5-coder-0.5b')!, micro = modelShape('scratch-160k')!;
    expect(backendNames('both', [micro])).toEqual({ names: ['webgpu', 'wasm', 'fast-cpu', 'reference'] });
    expect(backendNames('both', [micro, big])).toEqual({ names: ['webgpu', 'wasm'], note: 'bench: at qwen2.5-coder-0.5b, both means webgpu and wasm (fast-cpu and reference would take hours there; name them with --backend to measure them)' });
    expect(backendNames('wasm, fast-cpu', [big])).toEqual({ names: ['wasm', 'fast-cpu'] });
  });
});
