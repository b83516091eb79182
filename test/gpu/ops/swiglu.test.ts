// swiglu kernels (swiglu_forward.wgsl, swiglu_backward.wgsl) against the CPU reference on seeded
// inputs: sizes not a multiple of the 256-wide workgroup, one row, gate values up to ±30
// (saturated σ on both sides), and bitwise determinism.
// Tolerance: atol 2e-6 · max|want|, rtol 1e-5: a few f32 operations and exp (WGSL: 3 + 2|x| ulp,
// here |x| ≤ 30 → ≤ 63 ulp ≈ 4e-6 relative on σ's e^(−|g|) term) against f64; measured on
// SwiftShader: max abs 1e-6 on |h| ≤ 30, max rel 1e-5 on dgate.
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { swiglu, swigluBackward } from '../../../src/ops/reference/swiglu.ts';
import type { TypedArray } from '../../../src/ops/tensor.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

const cpu = new CpuBackend();

function close(label: string, got: TypedArray, want: TypedArray): void {
  let max = 0;
  for (const v of want) max = Math.max(max, Math.abs(v));
  const r = compareArrays(label, got, want, { atol: 2e-6 * max, rtol: 1e-5 });
  expect(r.ok, r.report).toBe(true);
}

async function check(seed: number, N: number, F: number) {
  const be = await sharedBackend();
  const rng = new Rng(seed);
  const n = N * F;
  const gate = rng.uniform(n, -8, 8), up = rng.uniform(n), dh = rng.uniform(n);
  gate.set([-30, -12, 0, 12, 30].slice(0, n));
  const s = [N, F];
  const label = `(${N}, ${F})`;
  close(`${label} h`, await be.read(be.swiglu(be.fromArray(gate, s), be.fromArray(up, s))), swiglu(cpu.fromArray(gate, s), cpu.fromArray(up, s)).data);
  const g = be.swigluBackward(be.fromArray(dh, s), be.fromArray(gate, s), be.fromArray(up, s));
  const c = swigluBackward(cpu.fromArray(dh, s), cpu.fromArray(gate, s), cpu.fromArray(up, s));
  close(`${label} dgate`, await be.read(g.dgate), c.dgate.data);
  close(`${label} dup`, await be.read(g.dup), c.dup.data);
}

describe('swiglu kernels vs reference', () => {
  gpuIt('(7, 131): 917 elements, not a multiple of 256', () => check(1, 7, 131));
  gpuIt('one row (1, 5)', () => check(2, 1, 5));
  gpuIt('(33, 64): several workgroups', () => check(3, 33, 64));

  gpuIt('is bitwise deterministic (forward and backward)', async () => {
    const be = await sharedBackend();
    const rng = new Rng(4);
    const s = [9, 70];
    const gate = be.fromArray(rng.uniform(630, -6, 6), s), up = be.fromArray(rng.uniform(630), s), dh = be.fromArray(rng.uniform(630), s);
    const run = async () => {
      const h = be.swiglu(gate, up);
      const { dgate, dup } = be.swigluBackward(dh, gate, up);
      const parts: Buffer[] = [];
      for (const t of [h, dgate, dup]) parts.push(Buffer.from((await be.read(t)).buffer));
      return Buffer.concat(parts);
    };
    expect((await run()).equals(await run())).toBe(true);
  });
});
