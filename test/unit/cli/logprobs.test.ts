// `webswe logprobs` as a user runs it: parity with the PyTorch reference, and broken model folders
// refused with one line and a non-zero exit (no stack trace, no hang).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { MODELS_DIR, type ModelReference } from '../../helpers/model.ts';

const BIN = fileURLToPath(new URL('../../../bin/webswe.js', import.meta.url));
const webswe = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('webswe logprobs', () => {
  it('matches the PyTorch reference (CPU backend)', () => {
    const ref = JSON.parse(readFileSync(`${MODELS_DIR}qwen2/reference.json`, 'utf8')) as ModelReference;
    const ids = ref.input_ids[0]!;
    const r = webswe('logprobs', '--model', `${MODELS_DIR}qwen2`, '--ids', ids.join(','), '--backend', 'fast-cpu', '--json');
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.ids).toEqual(ids);
    expect(doc.logprobs[0]).toBeNull();
    const want = ref.logprobs.data.slice(0, ids.length - 1); // row 0 of (B, T−1)
    const cmp = compareArrays('logprobs', doc.logprobs.slice(1), want, { atol: 2e-5, rtol: 1e-5 });
    expect(cmp.ok, cmp.report).toBe(true);
  });

  const broken = (mutate: (bytes: Buffer) => Buffer) => {
    const dir = mkdtempSync(join(tmpdir(), 'webswe-broken-'));
    copyFileSync(`${MODELS_DIR}qwen2/config.json`, join(dir, 'config.json'));
    writeFileSync(join(dir, 'model.safetensors'), mutate(readFileSync(`${MODELS_DIR}qwen2/model.safetensors`)));
    return dir;
  };
  const expectOneLineRefusal = (r: ReturnType<typeof webswe>, pattern: RegExp) => {
    expect(r.status).not.toBe(0);
    expect(r.stderr.trim().split('\n')[0]).toMatch(pattern);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  };

  it('refuses a truncated safetensors file in one line', () => {
    const r = webswe('logprobs', '--model', broken((b) => b.subarray(0, b.length - 1000)), '--ids', '1,2', '--backend', 'fast-cpu');
    expectOneLineRefusal(r, /model\.safetensors.*(truncated|ends at byte)/);
  });
  it('refuses a header lying about offsets', () => {
    const r = webswe('logprobs', '--model', broken((b) => {
      const n = Number(b.readBigUInt64LE(0));
      const header = JSON.parse(b.subarray(8, 8 + n).toString('utf8'));
      const first = Object.keys(header).find((k) => k !== '__metadata__')!;
      header[first].data_offsets[1] += 10 ** 7;
      const text = Buffer.from(JSON.stringify(header).padEnd(n, ' '));
      return Buffer.concat([b.subarray(0, 8), text.subarray(0, n), b.subarray(8 + n)]);
    }), '--ids', '1,2', '--backend', 'fast-cpu');
    expectOneLineRefusal(r, /model\.safetensors/);
  });
  it('refuses an unsupported config and bad ids', () => {
    const dir = broken((b) => b);
    const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...cfg, num_key_value_heads: 3 }));
    expectOneLineRefusal(webswe('logprobs', '--model', dir, '--ids', '1,2', '--backend', 'fast-cpu'), /num_key_value_heads/);
    expectOneLineRefusal(webswe('logprobs', '--model', `${MODELS_DIR}qwen2`, '--ids', '1,x', '--backend', 'fast-cpu'), /--ids: "x" is not a token id/);
  });
});
