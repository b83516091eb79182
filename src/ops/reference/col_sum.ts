// CPU reference of colSum: column sums of x (R, D) → (D), accumulated in f64 in increasing row
// order; = into a new tensor or `out`, or += into `out` (bias gradients).
import { colSumDims } from '../layers.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { f32 } from '../recycle.ts';

export function colSum(x: CpuTensor, out?: CpuTensor, accumulate = false): CpuTensor {
  const { R, D } = colSumDims(x, out, accumulate);
  const o = out ?? { shape: [D], dtype: 'f32' as const, label: 'colSum.out', data: f32(D) };
  const sum = new Float64Array(D);
  for (let r = 0; r < R; r++) for (let d = 0; d < D; d++) sum[d]! += x.data[r * D + d]!;
  for (let d = 0; d < D; d++) o.data[d] = accumulate ? o.data[d]! + sum[d]! : sum[d]!;
  return o;
}
