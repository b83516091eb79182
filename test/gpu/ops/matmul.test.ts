// matmul WGSL kernel against the CPU reference on seeded inputs: every layout, awkward shapes,
// bias, +=, batches, broadcast; and bitwise determinism across runs.
// Tolerance: MATMUL_TOLERANCE (atol 1e-5, rtol 1e-4): f32 sums of ≤ 70 products in [-1, 1) in a
// different order than the f64-accumulated reference.
import { describe, expect } from 'vitest';
import { MATMUL_CASES, checkMatmul, matmulCaseLabel } from '../../../src/ops/selfcheck.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

describe('matmul kernel vs reference', () => {
  for (const [i, c] of MATMUL_CASES.entries()) {
    gpuIt(matmulCaseLabel(c), async () => {
      const r = await checkMatmul(await sharedBackend(), c, 1000 + i);
      expect(r.ok, r.report).toBe(true);
    });
  }
  gpuIt('is bitwise deterministic', async () => {
    const be = await sharedBackend();
    const rng = new Rng(7);
    const a = be.fromArray(rng.uniform(50 * 37), [50, 37]);
    const b = be.fromArray(rng.uniform(37 * 70), [37, 70]);
    const x = await be.read(be.matmul(a, b));
    const y = await be.read(be.matmul(a, b));
    expect(Buffer.from(x.buffer).equals(Buffer.from(y.buffer))).toBe(true);
  });
});
