// rmsnorm kernels (rmsnorm_forward.wgsl; rmsnorm_backward.wgsl for dx; rmsnorm_dw.wgsl + col_sum.wgsl
// for dw in two passes) against the CPU reference on seeded inputs: D not a multiple of the 64-wide
// workgroup, one row, values ~1e4, Qwen3's per-head q/k norm (N, NH, HS = 128), enough rows for
// several dw blocks, += modes, and bitwise determinism.
// Tolerance: atol 1e-5 · max|want|, rtol 1e-5 per array: the kernel sums D ≤ 130 terms (or R ≤ 70
// rows for dw) in f32 in a different order than the f64 reference (~1e-6 relative) and
// inverseSqrt is good to 2 ulp; atol scales with the array so rstd ~1e-4 (values ~1e4) is
// checked as tightly as rstd ~1. Measured on SwiftShader: max abs ≤ 2e-6, ~1e-7 relative to max.
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { rmsnorm, rmsnormBackward } from '../../../src/ops/reference/rmsnorm.ts';
import type { TypedArray } from '../../../src/ops/tensor.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

const cpu = new CpuBackend();
const REL = 1e-5;

function close(label: string, got: TypedArray, want: TypedArray): void {
  let max = 0;
  for (const v of want) max = Math.max(max, Math.abs(v));
  const r = compareArrays(label, got, want, { atol: REL * max, rtol: REL });
  expect(r.ok, r.report).toBe(true);
}

interface Case {
  shape: number[];
  scale?: number;
  accumulateDx?: boolean;
  eps?: number;
}

async function check({ shape, scale = 1, accumulateDx = false, eps = 1e-6 }: Case, seed: number) {
  const be = await sharedBackend();
  const rng = new Rng(seed);
  const D = shape[shape.length - 1]!, n = shape.reduce((a, b) => a * b, 1);
  const x = rng.uniform(n, -scale, scale), w = rng.uniform(D, 0.5, 1.5), dy = rng.uniform(n), dw0 = rng.uniform(D), dx0 = rng.uniform(n);
  const label = `(${shape.join(', ')})${scale !== 1 ? ` ×${scale}` : ''}`;

  const g = be.rmsnorm(be.fromArray(x, shape), be.fromArray(w, [D]), eps);
  const c = rmsnorm(cpu.fromArray(x, shape), cpu.fromArray(w, [D]), eps);
  expect(g.rstd.shape).toEqual(c.rstd.shape);
  close(`${label} y`, await be.read(g.y), c.y.data);
  close(`${label} rstd`, await be.read(g.rstd), c.rstd.data);

  // Backward from the same rstd (the reference's) so the two backward passes see equal inputs.
  const gdw = be.fromArray(dw0, [D]), cdw = cpu.fromArray(dw0, [D]);
  const gacc = accumulateDx ? { accumulateDx: be.fromArray(dx0, shape) } : {};
  const cacc = accumulateDx ? { accumulateDx: cpu.fromArray(dx0, shape) } : {};
  const gdx = be.rmsnormBackward(be.fromArray(dy, shape), be.fromArray(x, shape), be.fromArray(w, [D]), be.fromArray(c.rstd.data, c.rstd.shape), gdw, gacc);
  const cdx = rmsnormBackward(cpu.fromArray(dy, shape), cpu.fromArray(x, shape), cpu.fromArray(w, [D]), c.rstd, cdw, cacc);
  close(`${label} dx${accumulateDx ? ' (+=)' : ''}`, await be.read(gdx), cdx.data);
  close(`${label} dw (+=)`, await be.read(gdw), cdw.data);
}

describe('rmsnorm kernels vs reference', () => {
  const cases: [string, Case][] = [
    ['R=5 D=100: D not a multiple of 64', { shape: [5, 100] }],
    ['one row (T = 1), D=7', { shape: [1, 7] }],
    ['values ~1e4, D=130', { shape: [3, 130], scale: 1e4 }],
    ["Qwen3 q/k norm: (N=3, NH=4, HS=128), rows of HS", { shape: [3, 4, 128] }],
    ['R=70 D=33: dw over 3 blocks of rows (two passes), dx +=', { shape: [70, 33], accumulateDx: true }],
    ['eps 1e-2 dominates tiny rows', { shape: [4, 9], scale: 1e-3, eps: 1e-2 }],
  ];
  for (const [i, [name, c]] of cases.entries()) gpuIt(name, () => check(c, 100 + i));

  gpuIt('(N·NH, HS) rows equal the (N, NH, HS) form', async () => {
    const be = await sharedBackend();
    const x = new Rng(5).uniform(3 * 4 * 64), w = new Rng(6).uniform(64);
    const a = be.rmsnorm(be.fromArray(x, [3, 4, 64]), be.fromArray(w, [64]), 1e-6);
    const b = be.rmsnorm(be.fromArray(x, [12, 64]), be.fromArray(w, [64]), 1e-6);
    expect([...(await be.read(a.y))]).toEqual([...(await be.read(b.y))]);
  });

  gpuIt('is bitwise deterministic (y, rstd, dx, dw)', async () => {
    const be = await sharedBackend();
    const rng = new Rng(11);
    const [R, D] = [90, 70];
    const x = be.fromArray(rng.uniform(R * D, -3, 3), [R, D]), w = be.fromArray(rng.uniform(D), [D]), dy = be.fromArray(rng.uniform(R * D), [R, D]);
    const run = async () => {
      const { y, rstd } = be.rmsnorm(x, w, 1e-6);
      const dw = be.zeros([D]);
      const dx = be.rmsnormBackward(dy, x, w, rstd, dw);
      const parts: Buffer[] = [];
      for (const t of [y, rstd, dx, dw]) parts.push(Buffer.from((await be.read(t)).buffer));
      return Buffer.concat(parts);
    };
    expect((await run()).equals(await run())).toBe(true);
  });
});
