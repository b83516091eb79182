// WebGPU dispatchers of RMSNorm: forward (rmsnorm_forward.wgsl: lanesPerRow lanes per row), backward
// dx (rmsnorm_backward.wgsl: likewise) and dw in two deterministic passes
// (rmsnorm_dw.wgsl: block partials, then col_sum.wgsl += over the blocks).
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { columnBlocks, dispatchColSum, rowsPerBlock } from './col_sum.ts';
import { grid, newTensor, scratchBuffer } from './layers.ts';
import { lanesPerRow } from './rowgrid.ts';
import { rmsnormBackwardDims, rmsnormDims } from '../layers.shape.ts';
import type { GpuTensor } from '../tensor.ts';

export const RMSNORM_FORWARD = defineKernel({
  file: 'rmsnorm_forward.wgsl',
  entry: 'main',
  bindings: [
    { name: 'x', access: 'read' },
    { name: 'x4', access: 'read' },
    { name: 'w', access: 'read' },
    { name: 'w4', access: 'read' },
    { name: 'y', access: 'read_write' },
    { name: 'rstd', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { R: 'u32', D: 'u32', eps: 'f32' },
  overrides: { TPR: 'u32', VEC4: 'bool' },
  workgroupSize: [64, 1, 1],
});

export const RMSNORM_BACKWARD = defineKernel({
  file: 'rmsnorm_backward.wgsl',
  entry: 'main',
  bindings: [
    { name: 'dy', access: 'read' },
    { name: 'x', access: 'read' },
    { name: 'w', access: 'read' },
    { name: 'rstd', access: 'read' },
    { name: 'dx', access: 'read_write' },
    { name: 'dy4', access: 'read' },
    { name: 'x4', access: 'read' },
    { name: 'w4', access: 'read' },
    { name: 'params', access: 'uniform' },
  ],
  params: { R: 'u32', D: 'u32' },
  overrides: { TPR: 'u32', VEC4: 'bool', ACCUMULATE: 'bool' },
  workgroupSize: [64, 1, 1],
});

export const RMSNORM_DW = defineKernel({
  file: 'rmsnorm_dw.wgsl',
  entry: 'main',
  bindings: [
    { name: 'dy', access: 'read' },
    { name: 'x', access: 'read' },
    { name: 'rstd', access: 'read' },
    { name: 'partial', access: 'read_write' },
    { name: 'dy4', access: 'read' },
    { name: 'x4', access: 'read' },
    { name: 'params', access: 'uniform' },
  ],
  params: { R: 'u32', D: 'u32', rowsPerBlock: 'u32' },
  overrides: { VEC4: 'bool' },
  workgroupSize: [64, 1, 1],
});

/** y = x · rsqrt(mean(x²) + eps) · w over the last dim. x (R, D), w (D) → y (R, D), rstd (R). */
export function rmsnorm(ctx: GpuContext, x: GpuTensor, w: GpuTensor, eps: number): { y: GpuTensor; rstd: GpuTensor } {
  const { R, D, rowShape } = rmsnormDims(x, w, eps);
  const y = newTensor(ctx, 'rmsnorm.y', x.shape);
  const rstd = newTensor(ctx, 'rmsnorm.rstd', rowShape);
  const TPR = lanesPerRow(D);
  ctx.dispatch(RMSNORM_FORWARD, {
    buffers: { x: x.buffer, x4: x.buffer, w: w.buffer, w4: w.buffer, y: y.buffer, rstd: rstd.buffer },
    params: { R, D, eps },
    constants: { TPR, VEC4: D % 4 === 0 },
    workgroups: grid(Math.ceil((R * TPR) / 64)),
    label: 'rmsnorm',
  });
  return { y, rstd };
}

/** dx (R, D) (= or += into accumulateDx), dw (D) += Σ_rows dy · x · rstd (two passes). */
export function rmsnormBackward(ctx: GpuContext, dy: GpuTensor, x: GpuTensor, w: GpuTensor, rstd: GpuTensor, dw: GpuTensor, opts: { accumulateDx?: GpuTensor } = {}): GpuTensor {
  const { R, D } = rmsnormBackwardDims(dy, x, w, rstd, dw, opts.accumulateDx);
  const acc = opts.accumulateDx;
  if (acc && [dy, x, w, rstd].some((t) => t.buffer === acc.buffer)) {
    throw new Error('rmsnormBackward: accumulateDx must not share a buffer with dy, x, w or rstd');
  }
  const dx = acc ?? newTensor(ctx, 'rmsnorm.dx', x.shape);
  const TPR = lanesPerRow(D);
  ctx.dispatch(RMSNORM_BACKWARD, {
    buffers: { dy: dy.buffer, x: x.buffer, w: w.buffer, rstd: rstd.buffer, dx: dx.buffer, dy4: dy.buffer, x4: x.buffer, w4: w.buffer },
    params: { R, D },
    constants: { TPR, VEC4: D % 4 === 0, ACCUMULATE: !!acc },
    workgroups: grid(Math.ceil((R * TPR) / 64)),
    label: 'rmsnorm.backward',
  });
  if (R === 0) return dx;
  const rpb = rowsPerBlock(R);
  const blocks = Math.ceil(R / rpb);
  const partial = scratchBuffer(ctx, 'rmsnorm.dw.partial', blocks * D * 4);
  ctx.dispatch(RMSNORM_DW, {
    buffers: { dy: dy.buffer, x: x.buffer, rstd: rstd.buffer, partial, dy4: dy.buffer, x4: x.buffer },
    params: { R, D, rowsPerBlock: rpb },
    constants: { VEC4: D % 4 === 0 },
    workgroups: [columnBlocks(D), blocks],
    label: 'rmsnorm.dw.blocks',
  });
  dispatchColSum(ctx, partial, dw.buffer, blocks, D, blocks, true, 'rmsnorm.dw.final');
  return dx;
}
