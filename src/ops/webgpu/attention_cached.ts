// WebGPU dispatchers of the KV-cache ops: kvWrite (kernels/kv_write.wgsl) appends new keys/values at
// per-sequence offsets; attentionCached (kernels/attention_cached.wgsl) runs decode (TQ = 1) and
// chunked prefill against the cache, flash-decoding style: spans of the cache on separate
// invocations, the query heads of a kv head sharing each k/v row read, then a fixed-order merge.
import { defineKernel } from '../../gpu/kernel.ts';
import type { GpuContext } from '../../gpu/context.ts';
import { checkHeadSize } from './attention.ts';
import { cachedDims, kvWriteDims } from '../attention.shape.ts';
import { rowGrid } from './rowgrid.ts';
import { scratch } from './scratch.ts';
import type { GpuTensor } from '../tensor.ts';

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
    { name: 'part', access: 'read_write' },
    { name: 'out', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { count: 'u32', TQ: 'u32', S: 'u32', NH: 'u32', NKV: 'u32', nblk: 'u32', nsplit: 'u32', span: 'u32', scale: 'f32' },
  overrides: { COMBINE: 'bool', HS4: 'u32' },
  workgroupSize: [64, 1, 1],
});

/** Pass-1 invocations the split aims for (enough to fill a GPU), keys per chunk of the kernel, and the
 *  bytes of partial states (B·TQ·NH·nsplit·(HS + 4) f32) it may keep in scratch. */
const CACHED_TARGET_INVOCATIONS = 8192;
const CACHED_CHUNK = 32;
const CACHED_MAX_PARTIAL_BYTES = 16 * 2 ** 20;

export interface CachedPlan {
  /** Blocks of 4 query rows (ρ = i·G + g, query i, head g of the kv head's G) per (b, kv head). */
  nblk: number;
  /** Cache positions per span (a multiple of the kernel's 32-key chunk) and spans covering S. */
  span: number;
  nsplit: number;
}

/** How attentionCached cuts its work: fixed by the shapes alone (deterministic for given shapes). */
export function cachedPlan(B: number, TQ: number, S: number, NH: number, NKV: number, HS: number): CachedPlan {
  const G = NH / NKV;
  const nblk = Math.ceil((TQ * G) / 4);
  const perSplit = B * TQ * NH * (HS + 4) * 4;
  const want = Math.ceil(CACHED_TARGET_INVOCATIONS / Math.max(1, B * NKV * nblk));
  const most = Math.max(1, Math.min(Math.ceil(S / CACHED_CHUNK), Math.floor(CACHED_MAX_PARTIAL_BYTES / perSplit)));
  const split = Math.max(1, Math.min(want, most));
  const span = Math.max(1, Math.ceil(Math.ceil(S / split) / CACHED_CHUNK)) * CACHED_CHUNK;
  return { nblk, span, nsplit: Math.max(1, Math.ceil(S / span)) };
}

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

/** → out (B, TQ, NH, HS); rows whose position len[b] − TQ + i is negative give 0; len is clamped to S.
 *  Two passes (flash-decoding): span partials into a per-context scratch buffer, then their merge. */
export function attentionCached(ctx: GpuContext, q: GpuTensor, kCache: GpuTensor, vCache: GpuTensor, len: GpuTensor, opts: { scale?: number } = {}): GpuTensor {
  const d = cachedDims(q, kCache, vCache, len, opts.scale);
  checkHeadSize('attentionCached', d.HS);
  const shape = [d.B, d.TQ, d.NH, d.HS];
  const out: GpuTensor = { shape, dtype: 'f32', label: 'attentionCached.out', buffer: ctx.buffer('attentionCached.out', d.B * d.TQ * d.NH * d.HS * 4) };
  const rows = d.B * d.TQ * d.NH;
  if (rows === 0) return out;
  const plan = cachedPlan(d.B, d.TQ, d.S, d.NH, d.NKV, d.HS);
  const part = scratch(ctx, 'attentionCached.partials', rows * plan.nsplit * (d.HS + 4) * 4);
  const buffers = { q: q.buffer, kCache: kCache.buffer, vCache: vCache.buffer, len: len.buffer, part, out: out.buffer };
  const params = { TQ: d.TQ, S: d.S, NH: d.NH, NKV: d.NKV, nblk: plan.nblk, nsplit: plan.nsplit, span: plan.span, scale: d.scale };
  const constants = { HS4: d.HS / 4 };
  const partials = d.B * d.NKV * plan.nblk * plan.nsplit;
  ctx.dispatch(ATTENTION_CACHED, { buffers, params: { ...params, count: partials }, constants: { ...constants, COMBINE: false }, workgroups: rowGrid(ctx, Math.ceil(partials / 64)), label: 'attentionCached.partials' });
  const outs = (rows * d.HS) / 4;
  ctx.dispatch(ATTENTION_CACHED, { buffers, params: { ...params, count: outs }, constants: { ...constants, COMBINE: true }, workgroups: rowGrid(ctx, Math.ceil(outs / 64)), label: 'attentionCached.combine' });
  return out;
}
