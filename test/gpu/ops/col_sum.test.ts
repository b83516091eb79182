// col_sum.wgsl (colSum) against the CPU reference: one row (single pass), enough rows for several
// blocks (two passes), D not a multiple of 64, = into out (overwriting), += into out, determinism.
// Tolerance: atol 2e-6 · √R, rtol 1e-5: f32 block sums of R values in [−1, 1) in a different
// grouping than the f64 reference (rounding error grows ~√R · ulp · |partial sums|; measured on
// SwiftShader: max abs 2.9e-6 at R = 1500 against atol 7.7e-5).
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { colSum } from '../../../src/ops/reference/col_sum.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

const cpu = new CpuBackend();

async function check(seed: number, R: number, D: number, mode: 'new' | '=' | '+=') {
  const be = await sharedBackend();
  const rng = new Rng(seed);
  const x = rng.uniform(R * D), out0 = rng.uniform(D, -10, 10);
  const gOut = mode === 'new' ? undefined : be.fromArray(out0, [D]);
  const cOut = mode === 'new' ? undefined : cpu.fromArray(out0, [D]);
  const got = await be.read(be.colSum(be.fromArray(x, [R, D]), gOut, mode === '+='));
  const want = colSum(cpu.fromArray(x, [R, D]), cOut, mode === '+=').data;
  const r = compareArrays(`R=${R} D=${D} ${mode}`, got, want, { atol: 2e-6 * Math.sqrt(Math.max(R, 1)), rtol: 1e-5 });
  expect(r.ok, r.report).toBe(true);
}

describe('col_sum kernel vs reference', () => {
  gpuIt('one row (single pass), D=5', () => check(1, 1, 5, 'new'));
  gpuIt('R=70 D=100: three blocks of 32 rows, then their sum', () => check(2, 70, 100, 'new'));
  gpuIt('R=1500 D=3: 39 blocks, += into out', () => check(3, 1500, 3, '+='));
  gpuIt('R=40 D=65: = overwrites a given out', () => check(4, 40, 65, '='));
  gpuIt('R=0: = writes zeros, += leaves out', async () => {
    const be = await sharedBackend();
    const out = be.fromArray(new Float32Array([1, 2]), [2]);
    be.colSum(be.zeros([0, 2]), out, true);
    expect([...(await be.read(out))]).toEqual([1, 2]);
    be.colSum(be.zeros([0, 2]), out);
    expect([...(await be.read(out))]).toEqual([0, 0]);
  });

  gpuIt('is bitwise deterministic', async () => {
    const be = await sharedBackend();
    const x = be.fromArray(new Rng(5).uniform(500 * 70), [500, 70]);
    const a = await be.read(be.colSum(x)), b = await be.read(be.colSum(x));
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
  });
});
