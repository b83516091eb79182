// WebGPU dispatchers of the embedding: forward = row gather (gather_rows.wgsl); backward = a
// deterministic scatter-add without atomics: bitonic sort of (id, n) on the GPU
// (embedding_sort.wgsl), then one workgroup per run of equal ids sums its rows in increasing n
// (embedding_backward.wgsl). O(N·C + N log² N) work, independent of V. A table split across
// buffers (webgpu/split.ts: rows [V0, V0 + Vi) per buffer) takes one gather / one backward dispatch
// per buffer, each handling the ids in its rows: the same sums, so the same bits as whole.
import type { GpuContext } from '../../gpu/context.ts';
import { defineKernel } from '../../gpu/kernel.ts';
import { dispatchGatherRows } from './gather_rows.ts';
import { grid, newTensor, scratchBuffer } from './layers.ts';
import { embeddingBackwardDims, embeddingDims } from '../layers.shape.ts';
import { rowChunks, wholeBuffer } from './split.ts';
import type { GpuTensor } from '../tensor.ts';

export const EMBEDDING_SORT = defineKernel({
  file: 'embedding_sort.wgsl',
  entry: 'main',
  bindings: [
    { name: 'ids', access: 'read' },
    { name: 'keys', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { N: 'u32', P: 'u32', k: 'u32', j: 'u32' },
  overrides: {},
  workgroupSize: [256, 1, 1],
});

export const EMBEDDING_BACKWARD = defineKernel({
  file: 'embedding_backward.wgsl',
  entry: 'main',
  bindings: [
    { name: 'keys', access: 'read' },
    { name: 'dout', access: 'read' },
    { name: 'dtable', access: 'read_write' },
    { name: 'params', access: 'uniform' },
  ],
  params: { N: 'u32', V: 'u32', C: 'u32', V0: 'u32' },
  overrides: {},
  workgroupSize: [64, 1, 1],
});

/** Positions the sort handles (P/2 invocations per step, N exact in the kernel's u32 keys). */
const MAX_N = 2 ** 24;

/** out[n, :] = table[ids[n], :]; rows of ids outside [0, V) come out NaN. ids (N) i32, table (V, C) → (N, C). */
export function embedding(ctx: GpuContext, ids: GpuTensor, table: GpuTensor): GpuTensor {
  const { N, V, C, outShape } = embeddingDims(ids, table);
  const out = newTensor(ctx, 'embedding.out', outShape);
  dispatchGatherRows(ctx, table, wholeBuffer(ids, 'embedding', 'ids'), out.buffer, V, C, N, 'embedding');
  return out;
}

/**
 * Sort the keys (ids[n], n) ascending by id (as u32: negative ids last) then n, on the GPU.
 * → a scratch buffer of P = max(2, next power of two ≥ N) vec2<u32> keys, the first N real.
 */
export function sortIdPositions(ctx: GpuContext, ids: GPUBuffer, N: number): { keys: GPUBuffer; P: number } {
  if (N > MAX_N) throw new Error(`embeddingBackward: ${N} ids exceed the sort's limit of ${MAX_N}; split the batch`);
  // A power of two ≥ max(N, 2), so even N = 1 runs the step (k = 2) that loads the keys.
  const P = Math.max(2, 2 ** Math.ceil(Math.log2(N)));
  const keys = scratchBuffer(ctx, 'embedding.keys', P * 8);
  const workgroups = grid(Math.ceil(P / 2 / 256));
  for (let k = 2; k <= P; k *= 2) {
    for (let j = k / 2; j >= 1; j /= 2) {
      ctx.dispatch(EMBEDDING_SORT, { buffers: { ids, keys }, params: { N, P, k, j }, workgroups, label: `embedding.sort k=${k} j=${j}` });
    }
  }
  return { keys, P };
}

/** dtable[v, :] += Σ_{n: ids[n] = v} dout[n, :], summed in increasing n; ids outside [0, V) are skipped. */
export function embeddingBackward(ctx: GpuContext, ids: GpuTensor, dout: GpuTensor, dtable: GpuTensor): void {
  const { N, C } = embeddingBackwardDims(ids, dout, dtable);
  if (N === 0) return;
  const chunks = rowChunks(dtable, C, 'embeddingBackward', 'dtable');
  const { keys } = sortIdPositions(ctx, wholeBuffer(ids, 'embeddingBackward', 'ids'), N);
  for (const c of chunks) {
    ctx.dispatch(EMBEDDING_BACKWARD, {
      buffers: { keys, dout: wholeBuffer(dout, 'embeddingBackward', 'dout'), dtable: c.buffer },
      params: { N, V: c.rows, C, V0: c.row0 },
      workgroups: grid(N),
      label: 'embedding.backward',
    });
  }
}
