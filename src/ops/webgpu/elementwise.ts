// WebGPU dispatchers of add and scale (kernels/elementwise.wgsl, the op chosen by override OP).
// `out` may alias an input: then the kernel reads that input through `out` (IN_PLACE), since
// WebGPU forbids binding one buffer read-only and writable in the same dispatch. Tensors split
// across buffers (webgpu/split.ts; same shape, so the same chunk plan) are processed chunk by chunk.
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { grid } from './layers.ts';
import { sameShape } from '../layers.shape.ts';
import { allocTensor, pairedChunks } from './split.ts';
import { expectDtype, expectShape, type GpuTensor } from '../tensor.ts';

export const ELEMENTWISE = defineKernel({
  file: 'elementwise.wgsl',
  entry: 'main',
  bindings: [
    { name: 'a', access: 'read' },
    { name: 'b', access: 'read' },
    { name: 'out', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { n: 'u32', s: 'f32' },
  overrides: { OP: 'u32', IN_PLACE: 'bool' },
  workgroupSize: [256, 1, 1],
});

const OP_ADD = 0;
const OP_SCALE = 1;

function target(ctx: GpuContext, op: string, like: GpuTensor, out?: GpuTensor): GpuTensor {
  if (!out) return allocTensor(ctx, `${op}.out`, like.shape, 'f32');
  expectDtype(op, 'out', out, 'f32');
  expectShape(op, 'out', out.shape, like.shape);
  return out;
}

function run(ctx: GpuContext, op: number, a: GPUBuffer | null, b: GPUBuffer, out: GPUBuffer, n: number, s: number, placeholder: GPUBuffer): void {
  ctx.dispatch(ELEMENTWISE, {
    buffers: { a: a ?? placeholder, b, out },
    params: { n, s },
    constants: { OP: op, IN_PLACE: a === null },
    workgroups: grid(Math.ceil(n / 256)),
    label: op === OP_ADD ? 'add' : 'scale',
  });
}

/** a · s elementwise; into `out` when given (may alias a). */
export function scale(ctx: GpuContext, a: GpuTensor, s: number, out: GpuTensor | undefined, placeholder: GPUBuffer): GpuTensor {
  sameShape('scale', { a });
  if (!Number.isFinite(s)) throw new Error(`scale: s must be finite, got ${s}`);
  const o = target(ctx, 'scale', a, out);
  for (const { length, buffers: c } of pairedChunks('scale', { a, out: o })) run(ctx, OP_SCALE, c.out === c.a ? null : c.a, placeholder, c.out, length, s, placeholder);
  return o;
}

/** a + b, same shape; into `out` when given (may alias a, or b, or both). */
export function add(ctx: GpuContext, a: GpuTensor, b: GpuTensor, out: GpuTensor | undefined, placeholder: GPUBuffer): GpuTensor {
  sameShape('add', { a, b });
  const o = target(ctx, 'add', a, out);
  for (const { length: n, buffers: c } of pairedChunks('add', { a, b, out: o })) {
    const aliasA = c.out === c.a, aliasB = c.out === c.b;
    if (aliasA && aliasB) run(ctx, OP_SCALE, null, placeholder, c.out, n, 2, placeholder); // x + x = 2x exactly
    else if (aliasA) run(ctx, OP_ADD, null, c.b, c.out, n, 0, placeholder);
    else if (aliasB) run(ctx, OP_ADD, null, c.a, c.out, n, 0, placeholder); // b + a = a + b exactly
    else run(ctx, OP_ADD, c.a, c.b, c.out, n, 0, placeholder);
  }
  return o;
}
