// rope.wgsl against the CPU reference on seeded inputs: head sizes 32/64/128, positions from 0, with
// a KV-cache offset (1000…) and far out (up to 100000; Qwen3's context is 40960), θ 1e4 and 1e6,
// N·H·HS/2 not a multiple of 256, one token, the (B, T, H, HS) layout, inverse (= backward),
// bitwise determinism.
// Tolerance: atol 1e-6, rtol 1e-5 on values in [−1, 1) (measured on SwiftShader: max abs 1.2e-7).
// Both backends form the same f32 angle; the kernel reduces it by π/2 exactly for |k| < 2^16 and
// evaluates cos/sin by polynomial (~1e-7), not by WGSL's builtins (only 2^-11 absolute by the spec;
// SwiftShader's are that coarse, 2e-4 here, which this test caught).
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { rope } from '../../../src/ops/reference/rope.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

const cpu = new CpuBackend();
const TOL = { atol: 1e-6, rtol: 1e-5 };

async function check(seed: number, shape: number[], positions: number[], theta: number) {
  const be = await sharedBackend();
  const x = new Rng(seed).uniform(shape.reduce((a, b) => a * b, 1));
  const posShape = shape.slice(0, -2);
  const pos = Int32Array.from(positions);
  const label = `(${shape.join(', ')}) θ=${theta} pos ${positions.slice(0, 3).join(',')}…`;
  for (const inverse of [false, true]) {
    const got = await be.read(be.rope(be.fromArray(x, shape), be.fromArray(pos, posShape), theta, { inverse }));
    const want = rope(cpu.fromArray(x, shape), cpu.fromArray(pos, posShape), theta, { inverse });
    const r = compareArrays(`${label}${inverse ? ' inverse' : ''}`, got, want.data, TOL);
    expect(r.ok, r.report).toBe(true);
  }
}

const range = (start: number, n: number) => Array.from({ length: n }, (_, i) => start + i);

describe('rope kernel vs reference (forward and inverse = backward)', () => {
  gpuIt('HS=32, 3 heads, positions 0…4, θ 1e4 (144 pairs: not a multiple of 256)', () => check(1, [5, 3, 32], range(0, 5), 1e4));
  gpuIt('HS=64, 2 heads, KV-cache offset: positions 1000…1006, θ 1e6', () => check(2, [7, 2, 64], range(1000, 7), 1e6));
  gpuIt('HS=128, 2 heads, far positions up to 100000, θ 1e6', () => check(3, [5, 2, 128], [0, 4095, 32767, 40960, 100000], 1e6));
  gpuIt('one token (T = 1) at position 517', () => check(4, [1, 1, 64], [517], 1e6));
  gpuIt('(B, T, H, HS) with positions (B, T): per-sequence offsets', () => check(5, [2, 3, 2, 32], [10, 11, 12, 300, 301, 302], 1e4));

  gpuIt('is bitwise deterministic', async () => {
    const be = await sharedBackend();
    const x = be.fromArray(new Rng(8).uniform(6 * 2 * 64), [6, 2, 64]), pos = be.fromArray(Int32Array.from(range(2000, 6)), [6]);
    const a = await be.read(be.rope(x, pos, 1e6)), b = await be.read(be.rope(x, pos, 1e6));
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
  });
});
