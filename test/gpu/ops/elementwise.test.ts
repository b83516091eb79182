// elementwise.wgsl (add, scale) against the CPU reference: sizes not a multiple of 256, one
// element, every aliasing of `out` (out = a, out = b, a = b = out), and determinism.
// Tolerance: exact. One f32 add or multiply is correctly rounded in WGSL and in the reference.
import { describe, expect } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { add, scale } from '../../../src/ops/reference/elementwise.ts';
import { Rng } from '../../../src/random.ts';
import { gpuIt, sharedBackend } from '../../helpers/gpu.ts';

const cpu = new CpuBackend();
const EXACT = { atol: 0, rtol: 0 };

function same(label: string, got: ArrayLike<number>, want: ArrayLike<number>): void {
  const r = compareArrays(label, got, want, EXACT);
  expect(r.ok, r.report).toBe(true);
}

describe('elementwise kernel vs reference', () => {
  for (const [n, shape] of [[1000, [8, 125]], [1, [1]]] as const) {
    gpuIt(`add and scale, ${n} element(s)`, async () => {
      const be = await sharedBackend();
      const rng = new Rng(n);
      const a = rng.uniform(n, -100, 100), b = rng.uniform(n);
      const want = add(cpu.fromArray(a, [...shape]), cpu.fromArray(b, [...shape])).data;
      same('add', await be.read(be.add(be.fromArray(a, [...shape]), be.fromArray(b, [...shape]))), want);
      same('scale', await be.read(be.scale(be.fromArray(a, [...shape]), 0.37)), scale(cpu.fromArray(a, [...shape]), 0.37).data);
    });
  }

  gpuIt('out may alias a, b, or both', async () => {
    const be = await sharedBackend();
    const rng = new Rng(7);
    const a = rng.uniform(300), b = rng.uniform(300);
    const sum = add(cpu.fromArray(a, [300]), cpu.fromArray(b, [300])).data;

    const ga = be.fromArray(a, [300]);
    expect(be.add(ga, be.fromArray(b, [300]), ga)).toBe(ga);
    same('out = a', await be.read(ga), sum);

    const gb = be.fromArray(b, [300]);
    be.add(be.fromArray(a, [300]), gb, gb);
    same('out = b', await be.read(gb), sum);

    const gx = be.fromArray(a, [300]);
    be.add(gx, gx, gx);
    same('a = b = out', await be.read(gx), add(cpu.fromArray(a, [300]), cpu.fromArray(a, [300])).data);

    const gs = be.fromArray(a, [300]);
    be.scale(gs, -1.5, gs);
    same('scale in place', await be.read(gs), scale(cpu.fromArray(a, [300]), -1.5).data);

    const other = be.zeros([300]);
    be.scale(be.fromArray(a, [300]), 2, other);
    same('scale into out', await be.read(other), scale(cpu.fromArray(a, [300]), 2).data);
  });

  gpuIt('is bitwise deterministic', async () => {
    const be = await sharedBackend();
    const rng = new Rng(3);
    const a = be.fromArray(rng.uniform(777), [777]), b = be.fromArray(rng.uniform(777), [777]);
    const x = await be.read(be.add(a, b)), y = await be.read(be.add(a, b));
    expect(Buffer.from(x.buffer).equals(Buffer.from(y.buffer))).toBe(true);
  });
});
