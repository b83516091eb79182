// WebGPU dispatcher of argmax (kernels/argmax.wgsl): greedy ids and their log-probability. Logits
// split across buffers (webgpu/split.ts: row chunks) take one dispatch per chunk.
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { rowGrid } from './rowgrid.ts';
import { rowsDims } from '../sample.shape.ts';
import { rowChunks } from './split.ts';
import type { GpuTensor } from '../tensor.ts';

export const ARGMAX = defineKernel({
  file: 'argmax.wgsl',
  entry: 'main',
  bindings: [
    { name: 'logits', access: 'read' },
    { name: 'ids', access: 'read_write' },
    { name: 'logp', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { B: 'u32', V: 'u32', row0: 'u32' },
  overrides: {},
  workgroupSize: [256, 1, 1],
  subgroups: true,
});

export function argmax(ctx: GpuContext, logits: GpuTensor, gridMax?: number): { ids: GpuTensor; logp: GpuTensor } {
  const { B, V } = rowsDims('argmax', logits);
  const ids: GpuTensor = { shape: [B], dtype: 'i32', label: 'argmax.ids', buffer: ctx.buffer('argmax.ids', B * 4) };
  const logp: GpuTensor = { shape: [B], dtype: 'f32', label: 'argmax.logp', buffer: ctx.buffer('argmax.logp', B * 4) };
  for (const c of rowChunks(logits, V, 'argmax', 'logits')) {
    ctx.dispatch(ARGMAX, { buffers: { logits: c.buffer, ids: ids.buffer, logp: logp.buffer }, params: { B: c.rows, V, row0: c.row0 }, workgroups: rowGrid(ctx, c.rows, gridMax) });
  }
  return { ids, logp };
}
