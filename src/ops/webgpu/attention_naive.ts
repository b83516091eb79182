// The T×T attention, forward and backward (kernels/attention_naive_forward.wgsl, _backward.wgsl):
// same inputs and outputs as attention / attentionBackward (attention.ts), but the (B, NH, T, T) score
// matrix is materialised. Not part of the Backend: the baseline the benchmark compares the tiled
// kernels with (time and peak memory). The score matrix is returned so the caller frees it (after a
// read or sync) and can count it.
import { defineKernel } from '../../gpu/kernel.ts';
import type { GpuContext } from '../../gpu/context.ts';
import { attentionBackwardDims, attentionDims, type AttentionDims } from '../attention.shape.ts';
import { rowGrid } from './rowgrid.ts';
import type { GpuTensor } from '../tensor.ts';

const params = { phase: 'u32', count: 'u32', T: 'u32', NH: 'u32', NKV: 'u32', HS: 'u32', scale: 'f32' } as const;

export const ATTENTION_NAIVE_FORWARD = defineKernel({
  file: 'attention_naive_forward.wgsl',
  entry: 'main',
  bindings: [
    { name: 'q', access: 'read' },
    { name: 'k', access: 'read' },
    { name: 'v', access: 'read' },
    { name: 'seg', access: 'read' },
    { name: 'scores', access: 'read_write' },
    { name: 'out', access: 'read_write' },
    { name: 'lse', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params,
  overrides: {},
  workgroupSize: [256, 1, 1],
});

export const ATTENTION_NAIVE_BACKWARD = defineKernel({
  file: 'attention_naive_backward.wgsl',
  entry: 'main',
  bindings: [
    { name: 'q', access: 'read' },
    { name: 'k', access: 'read' },
    { name: 'v', access: 'read' },
    { name: 'seg', access: 'read' },
    { name: 'lse', access: 'read' },
    { name: 'dout', access: 'read' },
    { name: 'scores', access: 'read_write' },
    { name: 'grad', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params,
  overrides: {},
  workgroupSize: [256, 1, 1],
});

const f32 = (ctx: GpuContext, shape: number[], label: string): GpuTensor => ({ shape, dtype: 'f32', label, buffer: ctx.buffer(label, shape.reduce((a, b) => a * b, 1) * 4) });

function phases(ctx: GpuContext, decl: typeof ATTENTION_NAIVE_FORWARD, d: AttentionDims, buffers: Record<string, GPUBuffer>, counts: [number, number][]): void {
  for (const [phase, count] of counts) {
    ctx.dispatch(decl, {
      buffers,
      params: { phase, count, T: d.T, NH: d.NH, NKV: d.NKV, HS: d.HS, scale: d.scale },
      workgroups: rowGrid(ctx, Math.ceil(count / 256)),
      label: `${decl.file} phase ${phase}`,
    });
  }
}

/** → out (B, T, NH, HS), lse (B, NH, T), and scores (B, NH, T, T) holding P (free it when done). */
export function naiveAttention(ctx: GpuContext, q: GpuTensor, k: GpuTensor, v: GpuTensor, seg: GpuTensor, opts: { scale?: number } = {}): { out: GpuTensor; lse: GpuTensor; scores: GpuTensor } {
  const d = attentionDims(q, k, v, seg, opts.scale, 'naiveAttention');
  const scores = f32(ctx, [d.B, d.NH, d.T, d.T], 'naiveAttention.scores');
  const out = f32(ctx, [d.B, d.T, d.NH, d.HS], 'naiveAttention.out');
  const lse = f32(ctx, [d.B, d.NH, d.T], 'naiveAttention.lse');
  const rows = d.B * d.NH * d.T;
  phases(ctx, ATTENTION_NAIVE_FORWARD, d, { q: q.buffer, k: k.buffer, v: v.buffer, seg: seg.buffer, scores: scores.buffer, out: out.buffer, lse: lse.buffer }, [
    [0, rows * d.T],
    [1, rows],
    [2, rows * d.HS],
  ]);
  return { out, lse, scores };
}

/** → dq, dk, dv as attentionBackward, and scores (B, NH, T, T) holding dS (free it when done).
 *  `out` is checked but unused: D = Σ_s P dP is summed from the materialised rows. */
export function naiveAttentionBackward(
  ctx: GpuContext,
  q: GpuTensor,
  k: GpuTensor,
  v: GpuTensor,
  out: GpuTensor,
  dout: GpuTensor,
  lse: GpuTensor,
  seg: GpuTensor,
  opts: { scale?: number } = {},
): { dq: GpuTensor; dk: GpuTensor; dv: GpuTensor; scores: GpuTensor } {
  const d = attentionBackwardDims(q, k, v, out, dout, lse, seg, opts.scale);
  const scores = f32(ctx, [d.B, d.NH, d.T, d.T], 'naiveAttentionBackward.scores');
  const dq = f32(ctx, [d.B, d.T, d.NH, d.HS], 'naiveAttention.dq');
  const dk = f32(ctx, [d.B, d.T, d.NKV, d.HS], 'naiveAttention.dk');
  const dv = f32(ctx, [d.B, d.T, d.NKV, d.HS], 'naiveAttention.dv');
  const rows = d.B * d.NH * d.T;
  const kvCount = d.B * d.T * d.NKV * d.HS;
  const base = { q: q.buffer, k: k.buffer, v: v.buffer, seg: seg.buffer, lse: lse.buffer, dout: dout.buffer, scores: scores.buffer };
  phases(ctx, ATTENTION_NAIVE_BACKWARD, d, { ...base, grad: dq.buffer }, [[0, rows * d.T]]);
  phases(ctx, ATTENTION_NAIVE_BACKWARD, d, { ...base, grad: dv.buffer }, [[1, kvCount]]);
  phases(ctx, ATTENTION_NAIVE_BACKWARD, d, { ...base, grad: dq.buffer }, [[2, rows], [3, rows * d.HS]]);
  phases(ctx, ATTENTION_NAIVE_BACKWARD, d, { ...base, grad: dk.buffer }, [[4, kvCount]]);
  return { dq, dk, dv, scores };
}
