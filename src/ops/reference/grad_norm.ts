// CPU reference of globalNorm: sqrt(Σ over tensors Σ g²), one plain loop in f64.
// The oracle for kernels/grad_norm.wgsl.
import { gradNormCheck } from '../grad_norm.shape.ts';
import type { CpuTensor } from '../tensor.ts';

export function globalNorm(grads: CpuTensor[]): CpuTensor {
  gradNormCheck(grads);
  let s = 0;
  for (const g of grads) for (let i = 0; i < g.data.length; i++) s += g.data[i]! * g.data[i]!;
  return { shape: [1], dtype: 'f32', label: 'globalNorm', data: Float32Array.of(Math.sqrt(s)) };
}
