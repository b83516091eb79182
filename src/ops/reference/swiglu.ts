// CPU reference of the SwiGLU MLP activation h = silu(gate) · up and its backward, in f64.
import { sameShape } from '../layers.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { f32 } from '../recycle.ts';

const sigmoid = (g: number) => 1 / (1 + Math.exp(-g));

/** h = silu(gate) · up, silu(g) = g · σ(g); gate, up (N, F) → (N, F). */
export function swiglu(gate: CpuTensor, up: CpuTensor): CpuTensor {
  const n = sameShape('swiglu', { gate, up });
  const h = f32(n);
  for (let i = 0; i < n; i++) {
    const g = gate.data[i]!;
    h[i] = g * sigmoid(g) * up.data[i]!;
  }
  return { shape: [...gate.shape], dtype: 'f32', label: 'swiglu.h', data: h };
}

/** dgate = dh · up · σ(g) · (1 + g · (1 − σ(g))), dup = dh · silu(g). */
export function swigluBackward(dh: CpuTensor, gate: CpuTensor, up: CpuTensor): { dgate: CpuTensor; dup: CpuTensor } {
  const n = sameShape('swigluBackward', { dh, gate, up });
  const dgate = f32(n), dup = f32(n);
  for (let i = 0; i < n; i++) {
    const g = gate.data[i]!, s = sigmoid(g), d = dh.data[i]!;
    dgate[i] = d * up.data[i]! * s * (1 + g * (1 - s));
    dup[i] = d * g * s;
  }
  return {
    dgate: { shape: [...gate.shape], dtype: 'f32', label: 'swiglu.dgate', data: dgate },
    dup: { shape: [...gate.shape], dtype: 'f32', label: 'swiglu.dup', data: dup },
  };
}
