// CPU reference of the embedding: a row gather, and its backward, a scatter-add summed in
// increasing token order (f64 per row of dtable, added to dtable once). Refuses ids outside [0, V).
import { badIdMessage, embeddingBackwardDims, embeddingDims } from '../layers.shape.ts';
import type { CpuTensor } from '../tensor.ts';
import { f32 } from '../recycle.ts';

/** out[n, :] = table[ids[n], :]. ids (N) i32, table (V, C) → (N, C). */
export function embedding(ids: CpuTensor, table: CpuTensor): CpuTensor {
  const { N, V, C, outShape } = embeddingDims(ids, table);
  const out = f32(N * C);
  for (let n = 0; n < N; n++) {
    const id = ids.data[n]!;
    if (id < 0 || id >= V) throw new Error(badIdMessage('embedding', 'ids', n, id, V));
    out.set(table.data.subarray(id * C, id * C + C), n * C);
  }
  return { shape: outShape, dtype: 'f32', label: 'embedding.out', data: out };
}

/** dtable[v, :] += Σ_{n: ids[n] = v} dout[n, :], summed in increasing n. */
export function embeddingBackward(ids: CpuTensor, dout: CpuTensor, dtable: CpuTensor): void {
  const { N, V, C } = embeddingBackwardDims(ids, dout, dtable);
  for (let n = 0; n < N; n++) {
    const id = ids.data[n]!;
    if (id < 0 || id >= V) throw new Error(badIdMessage('embeddingBackward', 'ids', n, id, V));
  }
  // One f64 row per distinct id, in order of first appearance (one allocation: many small typed
  // arrays cost microseconds each, most in a browser).
  const slot = new Map<number, number>();
  for (let n = 0; n < N; n++) if (!slot.has(ids.data[n]!)) slot.set(ids.data[n]!, slot.size);
  const sums = new Float64Array(slot.size * C);
  for (let n = 0; n < N; n++) {
    const at = slot.get(ids.data[n]!)! * C;
    for (let c = 0; c < C; c++) sums[at + c]! += dout.data[n * C + c]!;
  }
  for (const [id, k] of slot) for (let c = 0; c < C; c++) dtable.data[id * C + c]! += sums[k * C + c]!;
}
