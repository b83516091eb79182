// globalNorm WGSL kernel (per-tensor partial sums, then one final pass) against the CPU reference:
// tensors from 1 element to several workgroups' worth, lengths not a multiple of 4 (the scalar
// tail), an empty list, and bitwise determinism.
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { gradNormWorkgroups } from '../../../src/ops/webgpu/grad_norm.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

// f32 sums of ~280k squares (runs of ≤ 512, then ≤ 64 partials, in order) against an f64 loop:
// relative error a few e-7 measured, ≲ 1e-6 expected.
const NORM = { atol: 0, rtol: 1e-5 };

describe('globalNorm kernel vs reference', () => {
  const cpu = new CpuBackend();
  const sizes = [1, 3, 301, 5000, 70000, 200003]; // 1, 1, 1, 1, 3 and 7 workgroups in the first pass
  gpuIt(`tensors of ${sizes.join(', ')} elements`, async () => {
    expect(sizes.map(gradNormWorkgroups)).toEqual([1, 1, 1, 1, 3, 7]);
    const be = await sharedBackend();
    const rng = new Rng(21);
    const data = sizes.map((n) => rng.uniform(n, -2, 2));
    const want = cpu.globalNorm(data.map((d) => cpu.fromArray(d, [d.length])));
    const got = await be.read(be.globalNorm(data.map((d) => be.fromArray(d, [d.length]))));
    const r = compareArrays('norm', got, want.data, NORM);
    expect(r.ok, r.report).toBe(true);
  });
  gpuIt('an empty list gives 0; bitwise deterministic', async () => {
    const be = await sharedBackend();
    expect([...(await be.read(be.globalNorm([])))]).toEqual([0]);
    const rng = new Rng(22);
    const grads = [rng.uniform(9000), rng.uniform(33)].map((d) => be.fromArray(d, [d.length]));
    const [a, b] = [await be.read(be.globalNorm(grads)), await be.read(be.globalNorm(grads))];
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
  });
});
