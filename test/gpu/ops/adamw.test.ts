// adamw WGSL kernel against the CPU reference over several steps, with the clip coefficient read
// from a norm computed on the GPU (no readback) and without clipping, and on the 2-D grid.
import { describe, expect } from 'vitest';
import { adamw as adamwGpu } from '../../../src/ops/webgpu/adamw.ts';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

// f32 elementwise update (sqrt, one division) against f64 with f32 stores: a few ulps per step of
// values ~1, compounding over 3 steps; the clip coefficient carries the norm's ~1e-6 relative error.
const STEP = { atol: 1e-6, rtol: 1e-5 };

describe('adamw kernel vs reference', () => {
  const cpu = new CpuBackend();
  for (const [label, maxNorm, gridMax] of [
    ['clip by the GPU global norm (active)', 1, undefined],
    ['no clip, 2-D grid (2 × 3 workgroups)', null, 2],
  ] as const) {
    gpuIt(`3 steps, n 1300 + 40: ${label}`, async () => {
      const be = await sharedBackend();
      const rng = new Rng(31);
      const sizes = [1300, 40];
      const init = sizes.map((n) => rng.uniform(n));
      const cpuP = init.map((d) => cpu.fromArray(d, [d.length]));
      const gpuP = init.map((d) => be.fromArray(d, [d.length]));
      const cpuM = sizes.map((n) => [cpu.zeros([n]), cpu.zeros([n])] as const);
      const gpuM = sizes.map((n) => [be.zeros([n]), be.zeros([n])] as const);
      for (let step = 1; step <= 3; step++) {
        const grads = sizes.map((n) => rng.uniform(n, -0.5, 0.5));
        const cg = grads.map((d) => cpu.fromArray(d, [d.length]));
        const gg = grads.map((d) => be.fromArray(d, [d.length]));
        const hp = { lr: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, step };
        const cpuClip = maxNorm === null ? undefined : { norm: cpu.globalNorm(cg), maxNorm };
        const gpuClip = maxNorm === null ? undefined : { norm: be.globalNorm(gg), maxNorm };
        if (cpuClip) expect(cpuClip.norm.data[0]!, 'the clip is active').toBeGreaterThan(maxNorm!);
        sizes.forEach((_, i) => {
          cpu.adamw(cpuP[i]!, cg[i]!, cpuM[i]![0], cpuM[i]![1], hp, cpuClip);
          if (gridMax) adamwGpu(be.ctx, be.zeros([4]).buffer, gpuP[i]!, gg[i]!, gpuM[i]![0], gpuM[i]![1], hp, gpuClip, gridMax);
          else be.adamw(gpuP[i]!, gg[i]!, gpuM[i]![0], gpuM[i]![1], hp, gpuClip);
        });
        for (const [i] of sizes.entries()) {
          for (const [name, got, want] of [
            ['param', gpuP[i]!, cpuP[i]!],
            ['m', gpuM[i]![0], cpuM[i]![0]],
            ['v', gpuM[i]![1], cpuM[i]![1]],
          ] as const) {
            const r = compareArrays(`${name}${i} step ${step}`, await be.read(got), want.data, STEP);
            expect(r.ok, r.report).toBe(true);
          }
        }
      }
    });
  }
});
