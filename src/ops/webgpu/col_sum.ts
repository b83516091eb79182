// WebGPU dispatcher of colSum (kernels/col_sum.wgsl): deterministic two-pass column sums, also the
// second pass of RMSNorm's weight gradient. Blocks of ~√R rows give balanced passes.
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { MAX_WORKGROUPS_PER_DIM, newTensor, scratchBuffer } from './layers.ts';
import { colSumDims } from '../layers.shape.ts';
import type { GpuTensor } from '../tensor.ts';

export const COL_SUM = defineKernel({
  file: 'col_sum.wgsl',
  entry: 'main',
  bindings: [
    { name: 'x', access: 'read' },
    { name: 'x4', access: 'read' },
    { name: 'out', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { R: 'u32', D: 'u32', rowsPerBlock: 'u32' },
  overrides: { VEC4: 'bool', ACCUMULATE: 'bool' },
  workgroupSize: [64, 1, 1],
});

/** Rows per block of a two-pass column reduction of R rows: fixed by R alone (deterministic). */
export function rowsPerBlock(R: number): number {
  return Math.max(32, Math.ceil(Math.sqrt(R)), Math.ceil(R / MAX_WORKGROUPS_PER_DIM));
}

/** Workgroups across D columns: 64 invocations of 4 columns each. */
export function columnBlocks(D: number): number {
  const n = Math.ceil(D / 256);
  if (n > MAX_WORKGROUPS_PER_DIM) throw new Error(`column reduction: D = ${D} exceeds ${256 * MAX_WORKGROUPS_PER_DIM} columns`);
  return n;
}

/** One col_sum pass: out (ceil(R / rpb), D) (=|+=) block sums of x (R, D). */
export function dispatchColSum(ctx: GpuContext, x: GPUBuffer, out: GPUBuffer, R: number, D: number, rpb: number, accumulate: boolean, label: string): void {
  ctx.dispatch(COL_SUM, {
    buffers: { x, x4: x, out },
    params: { R, D, rowsPerBlock: rpb },
    constants: { VEC4: D % 4 === 0, ACCUMULATE: accumulate },
    workgroups: [columnBlocks(D), Math.max(1, Math.ceil(R / rpb))], // R = 0 still writes (= 0 or += 0)
    label,
  });
}

/** x (R, D) → (D), or += into `out`. One pass when R fits one block, else blocks then their sum. */
export function colSum(ctx: GpuContext, x: GpuTensor, out?: GpuTensor, accumulate = false): GpuTensor {
  const { R, D } = colSumDims(x, out, accumulate);
  const o = out ?? newTensor(ctx, 'colSum.out', [D]);
  const rpb = rowsPerBlock(R);
  const blocks = Math.ceil(R / rpb);
  if (blocks <= 1) {
    dispatchColSum(ctx, x.buffer, o.buffer, R, D, Math.max(R, 1), accumulate, 'colSum');
    return o;
  }
  const partial = scratchBuffer(ctx, 'colSum.partial', blocks * D * 4);
  dispatchColSum(ctx, x.buffer, partial, R, D, rpb, false, 'colSum.blocks');
  dispatchColSum(ctx, partial, o.buffer, blocks, D, blocks, accumulate, 'colSum.final');
  return o;
}
