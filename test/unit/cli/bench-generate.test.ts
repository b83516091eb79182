// `webswe bench generate` as a user runs it (a real node process): prefill and decode rows, and an
// agent turn of uneven lengths with packed rows beside the padded layout (the peer, same run): both
// count the same real tokens, and the packed row carries its ratio to the peer. --preset takes a run preset (the
// shape its run trains at) or a shape name; an unknown shape or preset, or both flags, are refused naming the choices.
import { describe, expect, it } from 'vitest';
import { webswe } from '../../helpers/cli.ts';

describe('webswe bench generate', () => {
  it('--json: prefill, decode, and an uneven turn packed beside padded, with the ratio', async () => {
    const r = await webswe('bench', 'generate', '--model', 'scratch-30k', '--backend', 'wasm', '--json', '-G', '4', '--prompt', '16', '--decode', '4');
    expect(r.status, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { results: { name: string; shape: string; ms: number; tokens_per_s: number; vs_padded?: number }[] }).results;
    expect(rows.map((x) => x.name)).toEqual(['prefill', 'decode', 'turn packed', 'turn padded']);
    const [packed, padded] = [rows[2]!, rows[3]!];
    expect(packed.shape).toBe('G 4: 4..16 + 1..4');
    expect(padded.shape).toBe(packed.shape);
    // Real tokens: 4 + 8 + 12 + 16 appended, 1 + 2 + 3 + 4 decoded, in either layout.
    for (const x of [packed, padded]) expect((x.tokens_per_s * x.ms) / 1000).toBeCloseTo(50, 6);
    expect(packed.vs_padded).toBeCloseTo(packed.tokens_per_s / padded.tokens_per_s, 9);
    expect(padded.vs_padded).toBeUndefined();
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
});
