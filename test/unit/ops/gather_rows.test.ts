// gatherRows CPU reference: the PyTorch fixture (x[idx]), a hand case and refusals; and the
// 2-D workgroup grid the layer kernels share.
// Tolerance: exact (a copy).
import { describe, expect, it } from 'vitest';
import { compareArrays } from '../../../src/ops/compare.ts';
import { CpuBackend } from '../../../src/ops/reference/backend.ts';
import { grid } from '../../../src/ops/webgpu/layers.ts';
import { gatherRows } from '../../../src/ops/reference/gather_rows.ts';
import { loadOpFixture } from '../../helpers/fixtures.ts';

const be = new CpuBackend();

describe('gatherRows reference', () => {
  for (const c of loadOpFixture('gather_rows')) {
    it(`vs PyTorch: ${c.name}`, () => {
      const t = c.tensors;
      const out = gatherRows(be.fromArray(t.x!.data, t.x!.shape), be.fromArray(t.idx!.data, t.idx!.shape));
      expect(out.shape).toEqual(t.out!.shape);
      const r = compareArrays(c.name, out.data, t.out!.data, { atol: 0, rtol: 0 });
      expect(r.ok, r.report).toBe(true);
    });
  }
  it('by hand, and refuses bad indices and shapes', () => {
    const x = be.fromArray(new Float32Array([1, 2, 3, 4, 5, 6]), [3, 2]);
    expect([...gatherRows(x, be.fromArray(new Int32Array([2, 2, 0]), [3])).data]).toEqual([5, 6, 5, 6, 1, 2]);
    expect(gatherRows(x, be.fromArray(new Int32Array([]), [0])).shape).toEqual([0, 2]);
    expect(() => gatherRows(x, be.fromArray(new Int32Array([3]), [1]))).toThrow(/gatherRows: idx\[0\] = 3 is outside \[0, 3\)/);
    expect(() => gatherRows(x, be.fromArray(new Int32Array([0, 1]), [1, 2]))).toThrow(/idx must be \(M\), got \(1, 2\)/);
    expect(() => gatherRows(be.fromArray(new Float32Array(6), [6]), be.fromArray(new Int32Array([0]), [1]))).toThrow(/x must be \(R, D\), got \(6\)/);
  });
  it('grid: workgroup counts go 2-D past 65535 (kernels index wid.y · num_workgroups.x + wid.x)', () => {
    expect(grid(0)).toEqual([0, 1]);
    expect(grid(65535)).toEqual([65535, 1]);
    expect(grid(70_000)).toEqual([65535, 2]);
    expect(() => grid(65535 * 65535 + 1)).toThrow(/exceeds 65535²/);
  });
});
