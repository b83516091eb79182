// WebGPU dispatcher of sample: kernels/sample_filter.wgsl (top-k / top-p thresholds, evaluation
// only) then kernels/sample.wgsl (Philox4x32-10 uniform, inverse CDF). Same tokens as the CPU
// reference for the same seed and counters. Logits split across buffers (webgpu/split.ts: row chunks
// of (B, V)) take one dispatch per chunk; `row0` keeps each row's Philox counter (counters[b], b).
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { seedKey } from '../reference/philox.ts';
import { rowGrid } from './rowgrid.ts';
import { scratch } from './scratch.ts';
import { sampleDims, type SampleOptions } from '../sample.shape.ts';
import { rowChunks, wholeBuffer } from './split.ts';
import type { GpuTensor } from '../tensor.ts';

export const SAMPLE = defineKernel({
  file: 'sample.wgsl',
  entry: 'main',
  bindings: [
    { name: 'logits', access: 'read' },
    { name: 'counters', access: 'read' },
    { name: 'threshold', access: 'read' },
    { name: 'ids', access: 'read_write' },
    { name: 'logp', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { B: 'u32', V: 'u32', keyLo: 'u32', keyHi: 'u32', temperature: 'f32', row0: 'u32' },
  overrides: { FILTERED: 'bool' },
  workgroupSize: [256, 1, 1],
  subgroups: true,
});

export const SAMPLE_FILTER = defineKernel({
  file: 'sample_filter.wgsl',
  entry: 'main',
  bindings: [
    { name: 'logits', access: 'read' },
    { name: 'threshold', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { B: 'u32', V: 'u32', topK: 'u32', topP: 'f32', temperature: 'f32' },
  overrides: {},
  workgroupSize: [256, 1, 1],
});

/** `gridMax` lowers the workgroups per dimension (tests use it to exercise the 2-D grid). */
export function sample(
  ctx: GpuContext,
  placeholder: GPUBuffer,
  logits: GpuTensor,
  counters: GpuTensor,
  opts: SampleOptions,
  gridMax?: number,
): { ids: GpuTensor; logp: GpuTensor } {
  const { B, V, o } = sampleDims(logits, counters, opts);
  const [keyLo, keyHi] = seedKey(o.seed);
  const ids: GpuTensor = { shape: [B], dtype: 'i32', label: 'sample.ids', buffer: ctx.buffer('sample.ids', B * 4) };
  const logp: GpuTensor = { shape: [B], dtype: 'f32', label: 'sample.logp', buffer: ctx.buffer('sample.logp', B * 4) };
  const filtered = o.topK > 0 || o.topP < 1;
  const countersBuf = wholeBuffer(counters, 'sample', 'counters');
  for (const c of rowChunks(logits, V, 'sample', 'logits')) {
    const grid = rowGrid(ctx, c.rows, gridMax);
    // Thresholds of this chunk's rows, written and read in order (passes run in recording order).
    let threshold = placeholder;
    if (filtered) {
      threshold = scratch(ctx, 'sample.threshold', c.rows * 4);
      ctx.dispatch(SAMPLE_FILTER, {
        buffers: { logits: c.buffer, threshold },
        params: { B: c.rows, V, topK: o.topK, topP: o.topP, temperature: o.temperature },
        workgroups: grid,
      });
    }
    ctx.dispatch(SAMPLE, {
      buffers: { logits: c.buffer, counters: countersBuf, threshold, ids: ids.buffer, logp: logp.buffer },
      params: { B: c.rows, V, keyLo, keyHi, temperature: o.temperature, row0: c.row0 },
      constants: { FILTERED: filtered },
      workgroups: grid,
    });
  }
  return { ids, logp };
}
