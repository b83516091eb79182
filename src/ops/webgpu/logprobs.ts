// WebGPU dispatchers of logprobs (kernels/logprobs_forward.wgsl) and logprobsBackward
// (kernels/logprobs_backward.wgsl): bindings, uniforms and overrides declared once. Logits split
// across buffers (webgpu/split.ts: row chunks of (N, V)) take one dispatch per chunk, `row0` placing
// it in the (N) vectors; rows are independent, so the results are the same bits as whole.
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { logprobsBackwardDims, logprobsDims } from '../logprobs.shape.ts';
import { lanesPerRow, rowGrid } from './rowgrid.ts';
import { allocLike, rowChunks, wholeBuffer } from './split.ts';
import type { GpuTensor } from '../tensor.ts';

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
  params: { N: 'u32', V: 'u32', row0: 'u32' },
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
  params: { N: 'u32', V: 'u32', row0: 'u32' },
  overrides: { TPR: 'u32', VEC4: 'bool', HAS_DENTROPY: 'bool', IN_PLACE: 'bool' },
  workgroupSize: [64, 1, 1],
});

const vec = (ctx: GpuContext, label: string, n: number): GpuTensor => ({ shape: [n], dtype: 'f32', label, buffer: ctx.buffer(label, n * 4) });

/** `gridMax` lowers the workgroups per dimension (tests use it to exercise the 2-D grid). */
export function logprobs(ctx: GpuContext, logits: GpuTensor, targets: GpuTensor, gridMax?: number): { logp: GpuTensor; entropy: GpuTensor; lse: GpuTensor } {
  const { N, V } = logprobsDims('logprobs', logits, targets);
  const logp = vec(ctx, 'logprobs.logp', N), entropy = vec(ctx, 'logprobs.entropy', N), lse = vec(ctx, 'logprobs.lse', N);
  const TPR = lanesPerRow(V);
  const targetsBuf = wholeBuffer(targets, 'logprobs', 'targets');
  for (const c of rowChunks(logits, V, 'logprobs', 'logits')) {
    ctx.dispatch(LOGPROBS_FORWARD, {
      buffers: { logits: c.buffer, logits4: c.buffer, targets: targetsBuf, logp: logp.buffer, entropy: entropy.buffer, lse: lse.buffer },
      params: { N: c.rows, V, row0: c.row0 },
      constants: { TPR, VEC4: V % 4 === 0 },
      workgroups: rowGrid(ctx, Math.ceil((c.rows * TPR) / 64), gridMax),
    });
  }
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
  const { V } = logprobsBackwardDims(logits, targets, lse, entropy, dlogp, dentropy, out);
  const dst = out ?? allocLike(ctx, 'logprobsBackward.dlogits', logits);
  const TPR = lanesPerRow(V);
  const src = rowChunks(logits, V, 'logprobsBackward', 'logits'), dstChunks = rowChunks(dst, V, 'logprobsBackward', 'out');
  if (src.length !== dstChunks.length || src.some((c, i) => c.row0 !== dstChunks[i]!.row0 || c.rows !== dstChunks[i]!.rows)) {
    throw new Error(`logprobsBackward: out is split as ${dstChunks.length} buffer(s), logits as ${src.length}: their row chunks must pair`);
  }
  const vectors = {
    targets: wholeBuffer(targets, 'logprobsBackward', 'targets'),
    lse: wholeBuffer(lse, 'logprobsBackward', 'lse'),
    entropy: wholeBuffer(entropy, 'logprobsBackward', 'entropy'),
    dlogp: wholeBuffer(dlogp, 'logprobsBackward', 'dlogp'),
    dentropy: dentropy ? wholeBuffer(dentropy, 'logprobsBackward', 'dentropy') : placeholder,
  };
  src.forEach((c, i) => {
    const o = dstChunks[i]!.buffer;
    const inPlace = o === c.buffer;
    ctx.dispatch(LOGPROBS_BACKWARD, {
      buffers: { logits: inPlace ? placeholder : c.buffer, logits4: inPlace ? placeholder : c.buffer, ...vectors, out: o },
      params: { N: c.rows, V, row0: c.row0 },
      constants: { TPR, VEC4: V % 4 === 0, HAS_DENTROPY: !!dentropy, IN_PLACE: inPlace },
      workgroups: rowGrid(ctx, Math.ceil((c.rows * TPR) / 64), gridMax),
    });
  });
  return dst;
}
