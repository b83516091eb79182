// matmul WGSL kernel against the CPU reference on seeded inputs: every layout, awkward shapes,
// bias, +=, batches, broadcast; bitwise determinism across runs; and a row's bits independent of the rows
// computed beside it (the few-row kernel, M ≤ ROWS_MAX, against the 64-tile one, every layout).
// Tolerance: MATMUL_TOLERANCE (atol 1e-5, rtol 1e-4): f32 sums of ≤ 70 products in [-1, 1) in a
// different order than the f64-accumulated reference.
import { describe, expect } from 'vitest';
import { MATMUL_CASES, checkMatmul, matmulCaseLabel } from '../../../src/ops/selfcheck.ts';
import { Rng } from '../../../src/random.ts';
import { ROWS_MAX } from '../../../src/ops/webgpu/matmul.ts';
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
  // A row of the product computed with 66 others (the 64-tile kernel) and alone or with a few (the few-row
  // kernel): the same bits, which KvGenerator's packed, padded and one-step paths rely on.
  for (const [transA, transB, extra] of [[false, true, 'bias'], [false, false, 'accumulate'], [true, false, ''], [true, true, 'bias']] as const) {
    gpuIt(`a row's bits do not depend on the rows beside it (${transA ? 'Aᵀ' : 'A'}·${transB ? 'Bᵀ' : 'B'}${extra ? `, ${extra}` : ''})`, async () => {
      const be = await sharedBackend();
      const rng = new Rng(11);
      const M = 67, N = 300, K = 301;
      const opA = rng.uniform(M * K), bData = rng.uniform(K * N), bias = rng.uniform(N), c0 = rng.uniform(M * N);
      // op(A)'s first m rows, stored as the layout wants: (m, K) or (K, m).
      const stored = (m: number) => (transA ? Float32Array.from({ length: K * m }, (_, i) => opA[(i % m) * K + Math.floor(i / m)]!) : opA.slice(0, m * K));
      const product = async (m: number) => {
        const out = be.fromArray(c0.slice(0, m * N), [m, N]);
        const y = be.matmul(be.fromArray(stored(m), transA ? [K, m] : [m, K]), be.fromArray(bData, transB ? [N, K] : [K, N]), {
          transA, transB, ...(extra === 'bias' ? { bias: be.fromArray(bias, [N]) } : {}), ...(extra === 'accumulate' ? { out, accumulate: true } : {}),
        });
        return be.read(y);
      };
      const all = await product(M);
      for (const m of [1, 3, ROWS_MAX]) {
        const few = await product(m);
        expect(Buffer.from(few.buffer).equals(Buffer.from(all.buffer, 0, m * N * 4)), `${m} rows`).toBe(true);
      }
    });
  }
});
