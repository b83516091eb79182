// argmax WGSL kernel against the CPU reference: the first maximum when it repeats (in one
// invocation's columns and across invocations), V smaller than a workgroup, V = 1, bitwise determinism.
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

// logp = −log Σ exp(x − max): an f32 tree of 256 partial sums against f64.
const LOGP = { atol: 1e-6, rtol: 1e-5 };

describe('argmax kernel vs reference', () => {
  const cpu = new CpuBackend();
  for (const [B, V] of [[6, 3000], [5, 3], [2, 1]] as const) {
    gpuIt(`B ${B}, V ${V}, repeated maxima`, async () => {
      const be = await sharedBackend();
      const rng = new Rng(70 + V);
      const x = rng.uniform(B * V, -5, 5);
      if (V >= 3000) {
        x[0 * V + 2000] = x[0 * V + 100] = 9; // different invocations: first is 100
        x[1 * V + 261] = x[1 * V + 5] = 9; // the same invocation (stride 256): first is 5
        x[2 * V + 7] = x[2 * V + 6] = 9; // neighbours
      }
      if (V === 3) x[0] = x[2] = 6;
      const want = cpu.argmax(cpu.fromArray(x, [B, V]));
      const got = be.argmax(be.fromArray(x, [B, V]));
      expect([...(await be.read(got.ids))]).toEqual([...want.ids.data]);
      const r = compareArrays('argmax logp', await be.read(got.logp), want.logp.data, LOGP);
      expect(r.ok, r.report).toBe(true);
      const again = await be.read(be.argmax(be.fromArray(x, [B, V])).logp);
      expect(Buffer.from(again.buffer).equals(Buffer.from((await be.read(got.logp)).buffer))).toBe(true);
    });
  }
});
