// WebGPU dispatcher of matmul (kernels/matmul.wgsl): bindings, uniforms and overrides declared once.
import { defineKernel } from '../gpu/kernel.ts';
import type { GpuContext } from '../gpu/context.ts';
import { matmulDims, type MatmulOptions } from './matmul.shape.ts';
import type { GpuTensor } from './tensor.ts';

export const MATMUL = defineKernel({
  file: 'matmul.wgsl',
  entry: 'main',
  bindings: [
    { name: 'a', access: 'read' },
    { name: 'b', access: 'read' },
    { name: 'bias', access: 'read' },
    { name: 'c', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { M: 'u32', N: 'u32', K: 'u32', strideA: 'u32', strideB: 'u32', strideC: 'u32' },
  overrides: { TRANS_A: 'bool', TRANS_B: 'bool', HAS_BIAS: 'bool', ACCUMULATE: 'bool' },
  workgroupSize: [16, 16, 1],
});

const TILE = 64;

export function matmul(ctx: GpuContext, a: GpuTensor, b: GpuTensor, opts: MatmulOptions<GpuTensor> = {}, placeholder: GPUBuffer): GpuTensor {
  const d = matmulDims(a, b, opts);
  const out = opts.out ?? { shape: d.outShape, dtype: 'f32' as const, label: 'matmul.out', buffer: ctx.buffer('matmul.out', d.batch * d.M * d.N * 4) };
  ctx.dispatch(MATMUL, {
    buffers: { a: a.buffer, b: b.buffer, bias: opts.bias?.buffer ?? placeholder, c: out.buffer },
    params: { M: d.M, N: d.N, K: d.K, strideA: d.strideA, strideB: d.strideB, strideC: d.strideC },
    constants: { TRANS_A: !!opts.transA, TRANS_B: !!opts.transB, HAS_BIAS: !!opts.bias, ACCUMULATE: !!opts.accumulate },
    workgroups: [Math.ceil(d.N / TILE), Math.ceil(d.M / TILE), d.batch],
  });
  return out;
}
