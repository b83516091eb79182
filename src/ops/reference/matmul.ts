// CPU reference of matmul: the plain triple loop, accumulated in f64 then rounded to f32.
// The oracle the WGSL kernel is tested against (and the CPU backend's implementation).
import { matmulDims, type MatmulOptions } from '../matmul.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { f32 } from '../recycle.ts';

export function matmul(a: CpuTensor, b: CpuTensor, opts: MatmulOptions<CpuTensor> = {}): CpuTensor {
  const d = matmulDims(a, b, opts);
  const out = opts.out ?? { shape: d.outShape, dtype: 'f32' as const, label: 'matmul.out', data: f32(d.batch * d.M * d.N) };
  const A = a.data, B = b.data, C = out.data, bias = opts.bias?.data;
  const { M, N, K } = d;
  for (let z = 0; z < d.batch; z++) {
    const ao = z * d.strideA, bo = z * d.strideB, co = z * d.strideC;
    for (let i = 0; i < M; i++) {
      for (let j = 0; j < N; j++) {
        let s = 0;
        for (let k = 0; k < K; k++) {
          const av = opts.transA ? A[ao + k * M + i]! : A[ao + i * K + k]!;
          const bv = opts.transB ? B[bo + j * K + k]! : B[bo + k * N + j]!;
          s += av * bv;
        }
        if (bias) s += bias[j]!;
        C[co + i * N + j] = opts.accumulate ? C[co + i * N + j]! + s : s;
      }
    }
  }
  return out;
}
