// WebGPU dispatchers of tiled causal grouped-query attention with segments (FlashAttention-2 style):
// the forward (kernels/attention_forward.wgsl) and the three-pass backward (attention_backward_prep,
// _dkdv, _dq). Memory O(T·HS): no T×T matrix (attention_naive.ts has that, for benchmarks). Each
// invocation owns 4 whole rows (query rows, or keys for dkdv) across HS; k/v (q/dout) tiles are
// shared through 8 KiB of workgroup memory.
import { defineKernel } from '../../gpu/kernel.ts';
import type { GpuContext } from '../../gpu/context.ts';
import { ATTENTION_MAX_HS, attentionBackwardDims, attentionDims, type AttentionDims } from '../attention.shape.ts';
import { rowGrid } from './rowgrid.ts';
import { scratch } from './scratch.ts';
import type { GpuTensor } from '../tensor.ts';

const dimsParams = { T: 'u32', NH: 'u32', NKV: 'u32', scale: 'f32' } as const;

export const ATTENTION_FORWARD = defineKernel({
  file: 'attention_forward.wgsl',
  entry: 'main',
  bindings: [
    { name: 'q', access: 'read' },
    { name: 'k', access: 'read' },
    { name: 'v', access: 'read' },
    { name: 'seg', access: 'read' },
    { name: 'out', access: 'read_write' },
    { name: 'lse', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: dimsParams,
  overrides: { HS4: 'u32' },
  workgroupSize: [64, 1, 1],
});

/** Query rows (ρ = t·G + g) per workgroup of the forward and dq kernels, and keys per workgroup of
 *  dkdv: 64 invocations × 4, each keeping its 4 rows' (keys') HS-wide vectors in registers. */
export const ATTENTION_ROWS = 256;

export const ATTENTION_BACKWARD_PREP = defineKernel({
  file: 'attention_backward_prep.wgsl',
  entry: 'main',
  bindings: [
    { name: 'out', access: 'read' },
    { name: 'dout', access: 'read' },
    { name: 'lse', access: 'read' },
    { name: 'stats', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { rows: 'u32', T: 'u32', NH: 'u32' },
  overrides: { HS4: 'u32' },
  workgroupSize: [64, 1, 1],
});

const backwardInputs = [
  { name: 'q', access: 'read' },
  { name: 'k', access: 'read' },
  { name: 'v', access: 'read' },
  { name: 'dout', access: 'read' },
  { name: 'stats', access: 'read' },
  { name: 'seg', access: 'read' },
] as const;

export const ATTENTION_BACKWARD_DKDV = defineKernel({
  file: 'attention_backward_dkdv.wgsl',
  entry: 'main',
  bindings: [...backwardInputs, { name: 'dk', access: 'read_write' }, { name: 'dv', access: 'read_write' }, { name: 'params', access: 'uniform' }],
  params: dimsParams,
  overrides: { HS4: 'u32' },
  workgroupSize: [64, 1, 1],
});

export const ATTENTION_BACKWARD_DQ = defineKernel({
  file: 'attention_backward_dq.wgsl',
  entry: 'main',
  bindings: [...backwardInputs, { name: 'dq', access: 'read_write' }, { name: 'params', access: 'uniform' }],
  params: dimsParams,
  overrides: { HS4: 'u32' },
  workgroupSize: [64, 1, 1],
});

/** The kernels keep 4 rows × HS f32 per invocation and read heads as vec4s: refuse what they cannot hold. */
export function checkHeadSize(op: string, HS: number): void {
  if (HS > ATTENTION_MAX_HS) throw new Error(`${op}: head size ${HS} exceeds the WebGPU kernels' ${ATTENTION_MAX_HS} (each invocation keeps 4 rows × HS f32 accumulators); use the CPU backend or split heads`);
  if (HS % 4 !== 0) throw new Error(`${op}: head size ${HS} is not a multiple of 4 (the WebGPU kernels read heads as vec4s); use the CPU backend or pad the heads`);
}

const f32 = (ctx: GpuContext, shape: number[], label: string): GpuTensor => ({ shape, dtype: 'f32', label, buffer: ctx.buffer(label, shape.reduce((a, b) => a * b, 1) * 4) });
const uniforms = (d: AttentionDims) => ({ T: d.T, NH: d.NH, NKV: d.NKV, scale: d.scale });

/** → out (B, T, NH, HS), lse (B, NH, T). */
export function attention(ctx: GpuContext, q: GpuTensor, k: GpuTensor, v: GpuTensor, seg: GpuTensor, opts: { scale?: number } = {}): { out: GpuTensor; lse: GpuTensor } {
  const d = attentionDims(q, k, v, seg, opts.scale);
  checkHeadSize('attention', d.HS);
  const out = f32(ctx, [d.B, d.T, d.NH, d.HS], 'attention.out');
  const lse = f32(ctx, [d.B, d.NH, d.T], 'attention.lse');
  ctx.dispatch(ATTENTION_FORWARD, {
    buffers: { q: q.buffer, k: k.buffer, v: v.buffer, seg: seg.buffer, out: out.buffer, lse: lse.buffer },
    params: uniforms(d),
    constants: { HS4: d.HS / 4 },
    workgroups: [Math.ceil((d.T * d.G) / ATTENTION_ROWS), d.NKV, d.B],
  });
  return { out, lse };
}

/** → dq (B, T, NH, HS), dk, dv (B, T, NKV, HS). Row statistics (lse, D) live in a per-context scratch buffer. */
export function attentionBackward(
  ctx: GpuContext,
  q: GpuTensor,
  k: GpuTensor,
  v: GpuTensor,
  out: GpuTensor,
  dout: GpuTensor,
  lse: GpuTensor,
  seg: GpuTensor,
  opts: { scale?: number } = {},
): { dq: GpuTensor; dk: GpuTensor; dv: GpuTensor } {
  const d = attentionBackwardDims(q, k, v, out, dout, lse, seg, opts.scale);
  checkHeadSize('attentionBackward', d.HS);
  const rows = d.B * d.NH * d.T;
  const stats = scratch(ctx, 'attention.stats', rows * 2 * 4);
  ctx.dispatch(ATTENTION_BACKWARD_PREP, {
    buffers: { out: out.buffer, dout: dout.buffer, lse: lse.buffer, stats },
    params: { rows, T: d.T, NH: d.NH },
    constants: { HS4: d.HS / 4 },
    workgroups: rowGrid(ctx, Math.ceil(rows / 64)),
  });
  const inputs = { q: q.buffer, k: k.buffer, v: v.buffer, dout: dout.buffer, stats, seg: seg.buffer };
  const dq = f32(ctx, [d.B, d.T, d.NH, d.HS], 'attention.dq');
  const dk = f32(ctx, [d.B, d.T, d.NKV, d.HS], 'attention.dk');
  const dv = f32(ctx, [d.B, d.T, d.NKV, d.HS], 'attention.dv');
  const constants = { HS4: d.HS / 4 };
  ctx.dispatch(ATTENTION_BACKWARD_DKDV, { buffers: { ...inputs, dk: dk.buffer, dv: dv.buffer }, params: uniforms(d), constants, workgroups: [Math.ceil(d.T / ATTENTION_ROWS), d.NKV, d.B] });
  ctx.dispatch(ATTENTION_BACKWARD_DQ, { buffers: { ...inputs, dq: dq.buffer }, params: uniforms(d), constants, workgroups: [Math.ceil((d.T * d.G) / ATTENTION_ROWS), d.NKV, d.B] });
  return { dq, dk, dv };
}
