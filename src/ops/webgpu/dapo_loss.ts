// WebGPU dispatcher of dapoLoss: kernels/dapo_loss.wgsl (per-token gradient and per-workgroup
// partial sums) then kernels/dapo_loss_reduce.wgsl (one workgroup: stats, default denom).
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { dapoLossDims, type DapoLossOptions } from '../dapo_loss.shape.ts';
import { scratch } from './scratch.ts';
import type { GpuTensor } from '../tensor.ts';

export const DAPO_LOSS = defineKernel({
  file: 'dapo_loss.wgsl',
  entry: 'main',
  bindings: [
    { name: 'logp', access: 'read' },
    { name: 'oldLogp', access: 'read' },
    { name: 'adv', access: 'read' },
    { name: 'mask', access: 'read' },
    { name: 'dlogp', access: 'read_write' },
    { name: 'partials', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { N: 'u32', epsLow: 'f32', epsHigh: 'f32', denom: 'f32' },
  overrides: {},
  workgroupSize: [256, 1, 1],
});

export const DAPO_LOSS_REDUCE = defineKernel({
  file: 'dapo_loss_reduce.wgsl',
  entry: 'main',
  bindings: [
    { name: 'partials', access: 'read' },
    { name: 'dlogp', access: 'read_write' },
    { name: 'stats', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { N: 'u32', P: 'u32', denom: 'f32' },
  overrides: {},
  workgroupSize: [256, 1, 1],
});

/** Tokens per workgroup of the first pass (TILE in dapo_loss.wgsl). */
const TILE = 1024;

export function dapoLoss(ctx: GpuContext, logp: GpuTensor, oldLogp: GpuTensor, adv: GpuTensor, mask: GpuTensor, opts: DapoLossOptions): { dlogp: GpuTensor; stats: GpuTensor } {
  const { N } = dapoLossDims(logp, oldLogp, adv, mask, opts);
  const P = Math.ceil(N / TILE);
  const dlogp: GpuTensor = { shape: [N], dtype: 'f32', label: 'dapoLoss.dlogp', buffer: ctx.buffer('dapoLoss.dlogp', N * 4) };
  const stats: GpuTensor = { shape: [4], dtype: 'f32', label: 'dapoLoss.stats', buffer: ctx.buffer('dapoLoss.stats', 16) };
  const partials = scratch(ctx, 'dapoLoss.partials', P * 5 * 4);
  const denom = opts.denom ?? 0; // 0: Σ mask, found by the second pass
  ctx.dispatch(DAPO_LOSS, {
    buffers: { logp: logp.buffer, oldLogp: oldLogp.buffer, adv: adv.buffer, mask: mask.buffer, dlogp: dlogp.buffer, partials },
    params: { N, epsLow: opts.epsLow, epsHigh: opts.epsHigh, denom },
    workgroups: [P],
  });
  ctx.dispatch(DAPO_LOSS_REDUCE, {
    buffers: { partials, dlogp: dlogp.buffer, stats: stats.buffer },
    params: { N, P, denom },
    workgroups: [1],
  });
  return { dlogp, stats };
}
