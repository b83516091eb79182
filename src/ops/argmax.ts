// WebGPU dispatcher of argmax (kernels/argmax.wgsl): greedy ids and their log-probability.
import type { GpuContext } from '../gpu/context.ts';
import { defineKernel } from '../gpu/kernel.ts';
import { rowGrid } from './rowgrid.ts';
import { rowsDims } from './sample.shape.ts';
import type { GpuTensor } from './tensor.ts';

export const ARGMAX = defineKernel({
  file: 'argmax.wgsl',
  entry: 'main',
  bindings: [
    { name: 'logits', access: 'read' },
    { name: 'ids', access: 'read_write' },
    { name: 'logp', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { B: 'u32', V: 'u32' },
  overrides: {},
  workgroupSize: [256, 1, 1],
});

export function argmax(ctx: GpuContext, logits: GpuTensor, gridMax?: number): { ids: GpuTensor; logp: GpuTensor } {
  const { B, V } = rowsDims('argmax', logits);
  const ids: GpuTensor = { shape: [B], dtype: 'i32', label: 'argmax.ids', buffer: ctx.buffer('argmax.ids', B * 4) };
  const logp: GpuTensor = { shape: [B], dtype: 'f32', label: 'argmax.logp', buffer: ctx.buffer('argmax.logp', B * 4) };
  ctx.dispatch(ARGMAX, { buffers: { logits: logits.buffer, ids: ids.buffer, logp: logp.buffer }, params: { B, V }, workgroups: rowGrid(ctx, B, gridMax) });
  return { ids, logp };
}
