// WebGPU dispatchers of logprobs (kernels/logprobs_forward.wgsl) and logprobsBackward
// (kernels/logprobs_backward.wgsl): bindings, uniforms and overrides declared once.
import type { GpuContext } from '../gpu/context.ts';
import { defineKernel } from '../gpu/kernel.ts';
import { logprobsBackwardDims, logprobsDims } from './logprobs.shape.ts';
import { lanesPerRow, rowGrid } from './rowgrid.ts';
import type { GpuTensor } from './tensor.ts';

export const LOGPROBS_FORWARD = defineKernel({
  file: 'logprobs_forward.wgsl',
  entry: 'main',
  bindings: [
    { name: 'logits', access: 'read' },
    { name: 'logits4', access: 'read' },
    { name: 'targets', access: 'read' },
    { name: 'logp', access: 'read_write' },
    { name: 'entropy', access: 'read_write' },
    { name: 'lse', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { N: 'u32', V: 'u32' },
  overrides: { TPR: 'u32', VEC4: 'bool' },
  workgroupSize: [64, 1, 1],
});

export const LOGPROBS_BACKWARD = defineKernel({
  file: 'logprobs_backward.wgsl',
  entry: 'main',
  bindings: [
    { name: 'logits', access: 'read' },
    { name: 'logits4', access: 'read' },
    { name: 'targets', access: 'read' },
    { name: 'lse', access: 'read' },
    { name: 'entropy', access: 'read' },
    { name: 'dlogp', access: 'read' },
    { name: 'dentropy', access: 'read' },
    { name: 'out', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { N: 'u32', V: 'u32' },
  overrides: { TPR: 'u32', VEC4: 'bool', HAS_DENTROPY: 'bool', IN_PLACE: 'bool' },
  workgroupSize: [64, 1, 1],
});

const vec = (ctx: GpuContext, label: string, n: number): GpuTensor => ({ shape: [n], dtype: 'f32', label, buffer: ctx.buffer(label, n * 4) });

/** `gridMax` lowers the workgroups per dimension (tests use it to exercise the 2-D grid). */
export function logprobs(ctx: GpuContext, logits: GpuTensor, targets: GpuTensor, gridMax?: number): { logp: GpuTensor; entropy: GpuTensor; lse: GpuTensor } {
  const { N, V } = logprobsDims('logprobs', logits, targets);
  const logp = vec(ctx, 'logprobs.logp', N), entropy = vec(ctx, 'logprobs.entropy', N), lse = vec(ctx, 'logprobs.lse', N);
  const TPR = lanesPerRow(V);
  ctx.dispatch(LOGPROBS_FORWARD, {
    buffers: { logits: logits.buffer, logits4: logits.buffer, targets: targets.buffer, logp: logp.buffer, entropy: entropy.buffer, lse: lse.buffer },
    params: { N, V },
    constants: { TPR, VEC4: V % 4 === 0 },
    workgroups: rowGrid(ctx, Math.ceil((N * TPR) / 64), gridMax),
  });
  return { logp, entropy, lse };
}

/** `out` may be the logits tensor itself: the kernel then reads and overwrites it in place. */
export function logprobsBackward(
  ctx: GpuContext,
  placeholder: GPUBuffer,
  logits: GpuTensor,
  targets: GpuTensor,
  lse: GpuTensor,
  entropy: GpuTensor,
  dlogp: GpuTensor,
  dentropy?: GpuTensor,
  out?: GpuTensor,
  gridMax?: number,
): GpuTensor {
  const { N, V } = logprobsBackwardDims(logits, targets, lse, entropy, dlogp, dentropy, out);
  const dst = out ?? { shape: [N, V], dtype: 'f32' as const, label: 'logprobsBackward.dlogits', buffer: ctx.buffer('logprobsBackward.dlogits', N * V * 4) };
  const inPlace = dst.buffer === logits.buffer;
  const TPR = lanesPerRow(V);
  ctx.dispatch(LOGPROBS_BACKWARD, {
    buffers: {
      logits: inPlace ? placeholder : logits.buffer,
      logits4: inPlace ? placeholder : logits.buffer,
      targets: targets.buffer,
      lse: lse.buffer,
      entropy: entropy.buffer,
      dlogp: dlogp.buffer,
      dentropy: dentropy?.buffer ?? placeholder,
      out: dst.buffer,
    },
    params: { N, V },
    constants: { TPR, VEC4: V % 4 === 0, HAS_DENTROPY: !!dentropy, IN_PLACE: inPlace },
    workgroups: rowGrid(ctx, Math.ceil((N * TPR) / 64), gridMax),
  });
  return dst;
}
