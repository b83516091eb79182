// WebGPU dispatcher of adamw (kernels/adamw.wgsl): one elementwise pass, in place; the clip
// coefficient comes from the norm tensor on the GPU (no readback between globalNorm and the step).
// A parameter split across buffers (webgpu/split.ts) is stepped chunk by chunk with its gradient and
// moments, which share its chunk plan (same shape): elementwise, so the same bits as whole.
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { adamwCheck, adamwScalars, type AdamwClip, type AdamwHyper } from '../adamw.shape.ts';
import { pairedChunks, wholeBuffer } from './split.ts';
import type { GpuTensor } from '../tensor.ts';

export const ADAMW = defineKernel({
  file: 'adamw.wgsl',
  entry: 'main',
  bindings: [
    { name: 'param', access: 'read_write' },
    { name: 'grad', access: 'read' },
    { name: 'm', access: 'read_write' },
    { name: 'v', access: 'read_write' },
    { name: 'norm', access: 'read' },
    { name: 'params', access: 'uniform' },
  ],
  params: { n: 'u32', beta1: 'f32', beta2: 'f32', eps: 'f32', decay: 'f32', stepSize: 'f32', bc2Sqrt: 'f32', maxNorm: 'f32' },
  overrides: { HAS_CLIP: 'bool' },
  workgroupSize: [256, 1, 1],
});

/** `gridMax` lowers the workgroups per dimension (tests use it to exercise the 2-D grid). */
export function adamw(
  ctx: GpuContext,
  placeholder: GPUBuffer,
  param: GpuTensor,
  grad: GpuTensor,
  m: GpuTensor,
  v: GpuTensor,
  hp: AdamwHyper,
  clip?: AdamwClip<GpuTensor>,
  gridMax?: number,
): void {
  adamwCheck(param, grad, m, v, hp, clip);
  const { decay, stepSize, bc2Sqrt } = adamwScalars(hp);
  const max = gridMax ?? ctx.limits.maxComputeWorkgroupsPerDimension;
  const norm = clip ? wholeBuffer(clip.norm, 'adamw', 'clip.norm') : placeholder;
  for (const c of pairedChunks('adamw', { param, grad, m, v })) {
    const groups = Math.ceil(c.length / 256);
    ctx.dispatch(ADAMW, {
      buffers: { ...c.buffers, norm },
      params: { n: c.length, beta1: hp.beta1, beta2: hp.beta2, eps: hp.eps, decay, stepSize, bc2Sqrt, maxNorm: clip?.maxNorm ?? 0 },
      constants: { HAS_CLIP: !!clip },
      workgroups: [Math.min(groups, max), Math.ceil(groups / max)],
    });
  }
}
