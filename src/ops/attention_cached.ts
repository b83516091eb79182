// WebGPU dispatchers of the KV-cache ops: kvWrite (kernels/kv_write.wgsl) appends new keys/values at
// per-sequence offsets; attentionCached (kernels/attention_cached.wgsl) runs decode (TQ = 1) and
// chunked prefill against the cache, the G query heads of a kv head sharing each cache tile.
import { defineKernel } from '../gpu/kernel.ts';
import type { GpuContext } from '../gpu/context.ts';
import { ATTENTION_TILE, checkHeadSize } from './attention.ts';
import { cachedDims, kvWriteDims } from './attention.shape.ts';
import { rowGrid } from './rowgrid.ts';
import type { GpuTensor } from './tensor.ts';

export const KV_WRITE = defineKernel({
  file: 'kv_write.wgsl',
  entry: 'main',
  bindings: [
    { name: 'x', access: 'read' },
    { name: 'start', access: 'read' },
    { name: 'cache', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { count: 'u32', TQ: 'u32', S: 'u32', row: 'u32' },
  overrides: {},
  workgroupSize: [256, 1, 1],
});

export const ATTENTION_CACHED = defineKernel({
  file: 'attention_cached.wgsl',
  entry: 'main',
  bindings: [
    { name: 'q', access: 'read' },
    { name: 'kCache', access: 'read' },
    { name: 'vCache', access: 'read' },
    { name: 'len', access: 'read' },
    { name: 'out', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { TQ: 'u32', S: 'u32', NH: 'u32', NKV: 'u32', HS: 'u32', scale: 'f32' },
  overrides: {},
  workgroupSize: [16, 16, 1],
});

/** cache[b, start[b] + i] = x[b, i]. Rows falling outside [0, S) are skipped on the GPU (start is
 *  not read back); the CPU backend refuses them. */
export function kvWrite(ctx: GpuContext, cache: GpuTensor, x: GpuTensor, start: GpuTensor): void {
  const d = kvWriteDims(cache, x, start);
  const count = d.B * d.TQ * d.NKV * d.HS;
  ctx.dispatch(KV_WRITE, {
    buffers: { x: x.buffer, start: start.buffer, cache: cache.buffer },
    params: { count, TQ: d.TQ, S: d.S, row: d.NKV * d.HS },
    workgroups: rowGrid(ctx, Math.ceil(count / 256)),
  });
}

/** → out (B, TQ, NH, HS); rows whose position len[b] − TQ + i is negative give 0; len is clamped to S. */
export function attentionCached(ctx: GpuContext, q: GpuTensor, kCache: GpuTensor, vCache: GpuTensor, len: GpuTensor, opts: { scale?: number } = {}): GpuTensor {
  const d = cachedDims(q, kCache, vCache, len, opts.scale);
  checkHeadSize('attentionCached', d.HS);
  const shape = [d.B, d.TQ, d.NH, d.HS];
  const out: GpuTensor = { shape, dtype: 'f32', label: 'attentionCached.out', buffer: ctx.buffer('attentionCached.out', d.B * d.TQ * d.NH * d.HS * 4) };
  ctx.dispatch(ATTENTION_CACHED, {
    buffers: { q: q.buffer, kCache: kCache.buffer, vCache: vCache.buffer, len: len.buffer, out: out.buffer },
    params: { TQ: d.TQ, S: d.S, NH: d.NH, NKV: d.NKV, HS: d.HS, scale: d.scale },
    workgroups: [Math.ceil((d.TQ * d.G) / ATTENTION_TILE), d.NKV, d.B],
  });
  return out;
}
