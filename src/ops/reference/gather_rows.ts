// CPU reference of gatherRows: rows of x picked by idx. Refuses indices outside [0, R).
import { badIdMessage, gatherRowsDims } from '../layers.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { f32 } from '../recycle.ts';

/** x (R, D), idx (M) i32 → (M, D). */
export function gatherRows(x: CpuTensor, idx: CpuTensor): CpuTensor {
  const { R, D, M } = gatherRowsDims(x, idx);
  const out = f32(M * D);
  for (let m = 0; m < M; m++) {
    const r = idx.data[m]!;
    if (r < 0 || r >= R) throw new Error(badIdMessage('gatherRows', 'idx', m, r, R));
    out.set(x.data.subarray(r * D, r * D + D), m * D);
  }
  return { shape: [M, D], dtype: 'f32', label: 'gatherRows.out', data: out };
}
