// WebGPU dispatcher of globalNorm (kernels/grad_norm.wgsl): one partial-sum pass per tensor into
// a small scratch buffer, then one final pass; the norm stays on the GPU (adamw reads it there).
import type { GpuContext } from '../gpu/context.ts';
import { defineKernel } from '../gpu/kernel.ts';
import { gradNormCheck } from './grad_norm.shape.ts';
import { scratch } from './scratch.ts';
import { numel, type GpuTensor } from './tensor.ts';

export const GRAD_NORM = defineKernel({
  file: 'grad_norm.wgsl',
  entry: 'main',
  bindings: [
    { name: 'x', access: 'read' },
    { name: 'x4', access: 'read' },
    { name: 'out', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { n: 'u32', offset: 'u32' },
  overrides: { FINAL: 'bool' },
  workgroupSize: [64, 1, 1],
});

/** Workgroups of the first pass for a tensor of n elements (≥ 512 per invocation, 64 invocations
 *  per workgroup, at most 256 workgroups). */
export function gradNormWorkgroups(n: number): number {
  return Math.min(256, Math.ceil(n / 32768));
}

export function globalNorm(ctx: GpuContext, grads: GpuTensor[]): GpuTensor {
  gradNormCheck(grads);
  const sizes = grads.map((g) => numel(g.shape));
  const total = sizes.reduce((a, n) => a + gradNormWorkgroups(n), 0);
  const partials = scratch(ctx, 'globalNorm.partials', total * 4);
  const norm: GpuTensor = { shape: [1], dtype: 'f32', label: 'globalNorm', buffer: ctx.buffer('globalNorm', 4) };
  let offset = 0;
  grads.forEach((g, i) => {
    const W = gradNormWorkgroups(sizes[i]!);
    if (W === 0) return;
    ctx.dispatch(GRAD_NORM, { buffers: { x: g.buffer, x4: g.buffer, out: partials }, params: { n: sizes[i]!, offset }, constants: { FINAL: false }, workgroups: [W] });
    offset += W;
  });
  ctx.dispatch(GRAD_NORM, { buffers: { x: partials, x4: partials, out: norm.buffer }, params: { n: offset, offset: 0 }, constants: { FINAL: true }, workgroups: [1] });
  return norm;
}
