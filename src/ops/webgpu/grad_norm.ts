// WebGPU dispatcher of globalNorm (kernels/grad_norm.wgsl): one partial-sum pass per tensor into
// a small scratch buffer, then one final pass; the norm stays on the GPU (adamw reads it there). A
// gradient split across buffers (webgpu/split.ts) gives one partial-sum pass per buffer: the same
// squares, summed in another grouping (equal to the whole-tensor norm within f32 rounding).
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { gradNormCheck } from '../grad_norm.shape.ts';
import { scratch } from './scratch.ts';
import { chunksOf } from './split.ts';
import type { GpuTensor } from '../tensor.ts';

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
  const chunks = grads.flatMap((g) => chunksOf(g));
  const total = chunks.reduce((a, c) => a + gradNormWorkgroups(c.length), 0);
  const partials = scratch(ctx, 'globalNorm.partials', total * 4);
  const norm: GpuTensor = { shape: [1], dtype: 'f32', label: 'globalNorm', buffer: ctx.buffer('globalNorm', 4) };
  let offset = 0;
  for (const c of chunks) {
    const W = gradNormWorkgroups(c.length);
    if (W === 0) continue;
    ctx.dispatch(GRAD_NORM, { buffers: { x: c.buffer, x4: c.buffer, out: partials }, params: { n: c.length, offset }, constants: { FINAL: false }, workgroups: [W] });
    offset += W;
  }
  ctx.dispatch(GRAD_NORM, { buffers: { x: partials, x4: partials, out: norm.buffer }, params: { n: offset, offset: 0 }, constants: { FINAL: true }, workgroups: [1] });
  return norm;
}
