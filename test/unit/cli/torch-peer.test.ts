// scripts/torch-peer.py, the PyTorch eager peer the GPU report runs beside `bench generate|train` at the 0.5 B
// shape: `webswe bench config SHAPE` prints each shape's config.json as it is read back; where a python3 with
// torch is on the machine (Debian's python3-torch; not in CI), the peer's model is the same model as ours —
// its log-probs on the transformers fixtures (llama, qwen2, qwen3) match transformers' reference — and its bench
// rows carry our figures and the ratio.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseHfConfig } from '../../../src/model/config.ts';
import { SHAPE_NAMES, modelShape } from '../../../src/model/shapes.ts';
import { compareArrays } from '../../../src/ops/compare.ts';
import { MODELS_DIR, type ModelReference } from '../../helpers/model.ts';

const BIN = fileURLToPath(new URL('../../../bin/webswe.js', import.meta.url));
const PEER = fileURLToPath(new URL('../../../scripts/torch-peer.py', import.meta.url));
const webswe = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 });
/** A python3 that imports torch (the one on PATH, or Debian's), or undefined. */
const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import torch'], { encoding: 'utf8' }).status === 0);

describe('webswe bench config', () => {
  it("prints every shape's config.json, read back as the same model config, with its LoRA", () => {
    for (const name of SHAPE_NAMES) {
      const r = webswe('bench', 'config', name);
      expect(r.status, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout) as Record<string, unknown> & { webswe_lora?: { rank: number; alpha: number; targets: string[] } };
      const shape = modelShape(name)!;
      expect(parseHfConfig(j)).toEqual(shape.config);
      expect(j.webswe_lora).toEqual(shape.lora ? { rank: shape.lora.rank, alpha: shape.lora.alpha, targets: [...shape.lora.targets] } : undefined);
    }
    const bad = webswe('bench', 'config', 'qwen-9000');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/the shape must be one of .*qwen2\.5-coder-0\.5b.*got "qwen-9000"/);
  }, 300_000);
});

describe.skipIf(!python)('scripts/torch-peer.py (python3 with torch)', () => {
  it.each(['llama', 'qwen2', 'qwen3'])("scores the %s fixture as transformers' reference does", (arch) => {
    const ref = JSON.parse(readFileSync(`${MODELS_DIR}${arch}/reference.json`, 'utf8')) as ModelReference;
    const ids = ref.input_ids[0]!;
    const r = spawnSync(python!, [PEER, '--check', `${MODELS_DIR}${arch}`, '--ids', ids.join(',')], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const got = (JSON.parse(r.stdout) as { logprobs: (number | null)[] }).logprobs;
    expect(got[0]).toBeNull();
    const cmp = compareArrays('logprobs', got.slice(1) as number[], ref.logprobs.data.slice(0, ids.length - 1), { atol: 2e-5, rtol: 1e-5 });
    expect(cmp.ok, cmp.report).toBe(true);
  }, 120_000);

  it('benches generation and a LoRA step at a shape, with our figures and the ratio beside', () => {
    const dir = mkdtempSync(join(tmpdir(), 'webswe-peer-'));
    // A small shape with LoRA (the 0.5 B shape's layout at micro's size): what the report runs at qwen2.5-coder-0.5b.
    const cfg = { ...(JSON.parse(webswe('bench', 'config', 'scratch-160k').stdout) as object), webswe_lora: { rank: 4, alpha: 8, targets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] } };
    writeFileSync(join(dir, 'config.json'), JSON.stringify(cfg));
    const ours = { results: [{ name: 'decode', shape: 'G 2 × 4 steps', tokens_per_s: 100, peak_bytes: 2 ** 20 }, { name: 'prefill', shape: 'G 9 × 9 tokens', tokens_per_s: 5 }] };
    writeFileSync(join(dir, 'ours.json'), JSON.stringify(ours));
    const r = spawnSync(python!, [PEER, '--config', join(dir, 'config.json'), '--device', 'cpu', '-G', '2', '--prompt', '8', '--decode', '4', '--rows', '2', '--tokens', '16', '--steps', '1', '--ours', join(dir, 'ours.json'), '--json'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { results: { name: string; shape: string; tokens_per_s: number; peak_bytes: number; ours_over_pytorch?: number; ours_peak_bytes?: number }[] }).results;
    expect(rows.map((x) => [x.name, x.shape])).toEqual([['prefill', 'G 2 × 8 tokens'], ['decode', 'G 2 × 4 steps'], ['train step (LoRA r 4)', 'B 2 × T 16']]);
    for (const x of rows) expect(x.tokens_per_s).toBeGreaterThan(0), expect(x.peak_bytes).toBeGreaterThan(0);
    // A ratio only where our row has the same name and shape.
    const decode = rows.find((x) => x.name === 'decode')!;
    expect(decode.ours_over_pytorch).toBeCloseTo(100 / decode.tokens_per_s, 9);
    expect(decode.ours_peak_bytes).toBe(2 ** 20);
    expect(rows.find((x) => x.name === 'prefill')!.ours_over_pytorch).toBeUndefined();
  }, 120_000);
});
