// WebGPU dispatcher of rotary position embedding (kernels/rope.wgsl). The inverse frequencies are
// computed on the host once per (HS, theta) (ropeInvFreq, shared with the CPU reference) so both
// backends form bitwise-identical angles.
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { constantBuffer, grid, newTensor } from './layers.ts';
import { ropeDims, ropeInvFreq } from '../layers.shape.ts';
import type { GpuTensor } from '../tensor.ts';

export const ROPE = defineKernel({
  file: 'rope.wgsl',
  entry: 'main',
  bindings: [
    { name: 'x', access: 'read' },
    { name: 'positions', access: 'read' },
    { name: 'invFreq', access: 'read' },
    { name: 'out', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { N: 'u32', H: 'u32', HS: 'u32', sinSign: 'f32' },
  overrides: {},
  workgroupSize: [256, 1, 1],
});

/** x (N, H, HS), positions (N) i32 → (N, H, HS); `inverse` rotates by −θ (the backward). */
export function rope(ctx: GpuContext, x: GpuTensor, positions: GpuTensor, theta: number, opts: { inverse?: boolean } = {}): GpuTensor {
  const { N, H, HS } = ropeDims(x, positions, theta);
  const out = newTensor(ctx, 'rope.out', x.shape);
  const invFreq = constantBuffer(ctx, `rope.invFreq/${HS}/${theta}`, () => ropeInvFreq(HS, theta));
  ctx.dispatch(ROPE, {
    buffers: { x: x.buffer, positions: positions.buffer, invFreq, out: out.buffer },
    params: { N, H, HS, sinSign: opts.inverse ? -1 : 1 },
    workgroups: grid(Math.ceil((N * H * HS) / 2 / 256)),
    label: opts.inverse ? 'rope.inverse' : 'rope',
  });
  return out;
}
