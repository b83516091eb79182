// WebGPU dispatchers of the SwiGLU activation: h = silu(gate) · up (swiglu_forward.wgsl) and its
// backward (swiglu_backward.wgsl); one invocation per element.
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { grid, newTensor } from './layers.ts';
import { sameShape } from '../layers.shape.ts';
import type { GpuTensor } from '../tensor.ts';

export const SWIGLU_FORWARD = defineKernel({
  file: 'swiglu_forward.wgsl',
  entry: 'main',
  bindings: [
    { name: 'gate', access: 'read' },
    { name: 'up', access: 'read' },
    { name: 'h', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { n: 'u32' },
  overrides: {},
  workgroupSize: [256, 1, 1],
});

export const SWIGLU_BACKWARD = defineKernel({
  file: 'swiglu_backward.wgsl',
  entry: 'main',
  bindings: [
    { name: 'dh', access: 'read' },
    { name: 'gate', access: 'read' },
    { name: 'up', access: 'read' },
    { name: 'dgate', access: 'read_write' },
    { name: 'dup', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { n: 'u32' },
  overrides: {},
  workgroupSize: [256, 1, 1],
});

/** h = silu(gate) · up; gate, up (N, F) → (N, F). */
export function swiglu(ctx: GpuContext, gate: GpuTensor, up: GpuTensor): GpuTensor {
  const n = sameShape('swiglu', { gate, up });
  const h = newTensor(ctx, 'swiglu.h', gate.shape);
  ctx.dispatch(SWIGLU_FORWARD, { buffers: { gate: gate.buffer, up: up.buffer, h: h.buffer }, params: { n }, workgroups: grid(Math.ceil(n / 256)), label: 'swiglu' });
  return h;
}

/** Given dh → { dgate, dup }, both (N, F). */
export function swigluBackward(ctx: GpuContext, dh: GpuTensor, gate: GpuTensor, up: GpuTensor): { dgate: GpuTensor; dup: GpuTensor } {
  const n = sameShape('swigluBackward', { dh, gate, up });
  const dgate = newTensor(ctx, 'swiglu.dgate', gate.shape);
  const dup = newTensor(ctx, 'swiglu.dup', gate.shape);
  ctx.dispatch(SWIGLU_BACKWARD, {
    buffers: { dh: dh.buffer, gate: gate.buffer, up: up.buffer, dgate: dgate.buffer, dup: dup.buffer },
    params: { n },
    workgroups: grid(Math.ceil(n / 256)),
    label: 'swiglu.backward',
  });
  return { dgate, dup };
}
