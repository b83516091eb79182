// WebGPU dispatcher of gatherRows and the embedding forward (kernels/gather_rows.wgsl): both are
// a row gather. Out-of-range indices give NaN rows on the GPU (the CPU reference throws). A table
// split across buffers (webgpu/split.ts) is gathered with one dispatch per buffer.
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { grid, newTensor } from './layers.ts';
import { gatherRowsDims } from '../layers.shape.ts';
import { rowChunks, wholeBuffer } from './split.ts';
import type { GpuTensor } from '../tensor.ts';

export const GATHER_ROWS = defineKernel({
  file: 'gather_rows.wgsl',
  entry: 'main',
  bindings: [
    { name: 'x', access: 'read' },
    { name: 'idx', access: 'read' },
    { name: 'out', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { R: 'u32', D: 'u32', M: 'u32', R0: 'u32', RT: 'u32' },
  overrides: {},
  workgroupSize: [64, 1, 1],
});

/** out (M, D) = x (R, D) rows at idx (M); x may be split into row chunks. */
export function dispatchGatherRows(ctx: GpuContext, x: GpuTensor, idx: GPUBuffer, out: GPUBuffer, R: number, D: number, M: number, label: string): void {
  for (const c of rowChunks(x, D, label, 'table')) {
    ctx.dispatch(GATHER_ROWS, { buffers: { x: c.buffer, idx, out }, params: { R: c.rows, D, M, R0: c.row0, RT: R }, workgroups: grid(M), label });
  }
}

/** x (R, D), idx (M) i32 → (M, D). */
export function gatherRows(ctx: GpuContext, x: GpuTensor, idx: GpuTensor): GpuTensor {
  const { R, D, M } = gatherRowsDims(x, idx);
  const out = newTensor(ctx, 'gatherRows.out', [M, D]);
  dispatchGatherRows(ctx, x, wholeBuffer(idx, 'gatherRows', 'idx'), out.buffer, R, D, M, 'gatherRows');
  return out;
}
