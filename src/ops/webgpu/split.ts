// Tensors larger than the binding limit, stored as row chunks (ctx.bindingLimit: the device's
// maxStorageBufferBindingSize, e.g. 128 MiB, or a lower test value).
//
// Design. A tensor of shape (…, D) whose bytes exceed the limit is kept as several buffers, each
// holding whole rows of D (the last dimension; 1-D tensors: rows of 1 element):
//   chunk i holds rows [i·RC, min((i+1)·RC, R)), R = numel / D, RC = floor(limit / (4·D)),
// so every chunk is ≤ the binding limit (hence ≤ maxBufferSize) and the whole tensor is bounded only
// by memory, not by maxBufferSize (binding sub-ranges of one buffer would keep that bound and need
// offsets aligned to minStorageBufferOffsetAlignment). The plan depends only on the shape and the
// limit: a parameter, its gradient and its AdamW moments are split alike, and elementwise ops pair
// their chunks.
// Example: Qwen2.5-0.5B's embedding (V 151936, C 896) f32 is 544 MB; under 128 MiB it is 5 chunks of
// 37449 rows; logits (N 1024, V) are 5 chunks of 220 rows.
//
// Who sees split tensors: they come from fromArray / zeros (weights, gradients, AdamW state) and
// from the ops whose outputs are vocabulary-wide (matmul → logits, logprobsBackward → dlogits).
// The ops that touch them loop over the chunks, one dispatch per chunk or block:
//   matmul           blocks of M, N, K cut at every operand's chunk boundaries; kernels take element
//                    offsets and leading dimensions (logits column blocks = x · W_jᵀ; dx = Σ_j dy_j · W_j)
//   embedding / gatherRows, embeddingBackward   per table chunk (rows outside it are skipped)
//   logprobs, logprobsBackward, sample, argmax  per row chunk of the (N, V) logits (`row0` offset)
//   adamw, globalNorm, add, scale               per chunk (elementwise; a norm partial per chunk)
// Every other op takes whole buffers: its tensors scale with batch × context (activations, KV cache)
// and the memory planner refuses a run whose largest such buffer exceeds the limit. A split tensor
// passed to such an op throws (its `buffer` getter) instead of binding part of the data.
import type { GpuContext } from '../../gpu/context.ts';
import { allocate, numel, shapeStr, type DType, type GpuTensor, type TypedArray } from '../tensor.ts';

/** One buffer of a split tensor: elements [start, start + length) of the flat tensor. */
export interface GpuChunk {
  readonly buffer: GPUBuffer;
  readonly start: number;
  readonly length: number;
}

/** Rows [row0, row0 + rows) of a (R, D) tensor, held whole by `buffer` from its element 0. */
export interface RowChunk {
  readonly buffer: GPUBuffer;
  readonly row0: number;
  readonly rows: number;
}

export class SplitGpuTensor implements GpuTensor {
  constructor(
    readonly shape: readonly number[],
    readonly dtype: DType,
    readonly label: string,
    readonly chunks: readonly GpuChunk[],
  ) {}
  /** Ops that bind whole buffers land here: refuse rather than bind a part of the tensor. */
  get buffer(): GPUBuffer {
    throw new Error(
      `${this.label} ${shapeStr(this.shape)} is split into ${this.chunks.length} buffers (it is larger than one storage binding); ` +
        'only matmul, embedding, gatherRows, embeddingBackward, logprobs, logprobsBackward, sample, argmax, adamw, globalNorm, add and scale take split tensors',
    );
  }
}

/** Row width of the chunk plan: the last dimension (1-D tensors: single elements). */
const rowWidth = (shape: readonly number[]) => (shape.length >= 2 ? shape[shape.length - 1]! : 1);

/** The buffers of a tensor as element ranges (one for an unsplit tensor). Views keep `chunks`. */
export function chunksOf(t: GpuTensor): readonly GpuChunk[] {
  const chunks = (t as Partial<SplitGpuTensor>).chunks;
  return chunks ?? [{ buffer: t.buffer, start: 0, length: numel(t.shape) }];
}

export function isSplit(t: GpuTensor): boolean {
  return (t as Partial<SplitGpuTensor>).chunks !== undefined;
}

/** The chunks as row ranges of width D; refuses a plan whose boundaries fall inside a row. */
export function rowChunks(t: GpuTensor, D: number, op: string, arg: string): RowChunk[] {
  return chunksOf(t).map((c) => {
    if (c.start % D !== 0 || c.length % D !== 0) {
      throw new Error(`${op}: ${arg} ${shapeStr(t.shape)} is split at element ${c.start}, inside a row of ${D}`);
    }
    return { buffer: c.buffer, row0: c.start / D, rows: c.length / D };
  });
}

/** The one buffer of a tensor that an op binds whole; a split tensor is refused, naming op and arg. */
export function wholeBuffer(t: GpuTensor, op: string, arg: string): GPUBuffer {
  if (isSplit(t)) throw new Error(`${op}: ${arg} ${shapeStr(t.shape)} is split across buffers (larger than one storage binding); ${op} takes it only whole`);
  return t.buffer;
}

/** Element ranges of the chunk plan of `shape` under the context's binding limit (one range when it fits). */
export function chunkPlan(ctx: GpuContext, shape: readonly number[], label: string): { start: number; length: number }[] {
  const n = numel(shape);
  if (n * 4 <= ctx.bindingLimit) return [{ start: 0, length: n }];
  const D = rowWidth(shape);
  const rowsPer = Math.floor(ctx.bindingLimit / (4 * D));
  if (rowsPer < 1) {
    // A row is never split: the kernels that read it see it whole.
    throw new Error(
      `${label} ${shapeStr(shape)}: one row of ${D} values needs ${4 * D} bytes, more than one storage binding holds (${ctx.bindingLimit} bytes); ` +
        'tensors are split between rows only: use a model with a smaller vocabulary or width, or an adapter with a larger maxStorageBufferBindingSize',
    );
  }
  const out: { start: number; length: number }[] = [];
  for (let start = 0; start < n; start += rowsPer * D) out.push({ start, length: Math.min(rowsPer * D, n - start) });
  return out;
}

/** A tensor of `shape`, split when it exceeds the binding limit; filled from `data`, else zeros. */
export function allocTensor(ctx: GpuContext, label: string, shape: readonly number[], dtype: DType, data?: TypedArray): GpuTensor {
  const plan = chunkPlan(ctx, shape, label);
  const make = (c: { start: number; length: number }, name: string) =>
    data ? ctx.upload(name, data.subarray(c.start, c.start + c.length)) : ctx.buffer(name, c.length * 4);
  if (plan.length === 1) return { shape: [...shape], dtype, label, buffer: make(plan[0]!, label) };
  const chunks = plan.map((c, i) => ({ ...c, buffer: make(c, `${label}[${i}]`) }));
  return new SplitGpuTensor([...shape], dtype, label, chunks);
}

/** A new tensor with the chunk plan of `like` (same shape, so the chunks pair one to one). */
export function allocLike(ctx: GpuContext, label: string, like: GpuTensor): GpuTensor {
  return allocTensor(ctx, label, like.shape, like.dtype);
}

/** The chunks of several same-size tensors, paired; refuses plans that differ (elementwise ops). */
export function pairedChunks<K extends string>(op: string, tensors: Record<K, GpuTensor>): { length: number; buffers: Record<K, GPUBuffer> }[] {
  const entries = Object.entries(tensors) as [K, GpuTensor][];
  const [firstName, first] = entries[0]!;
  const plan = chunksOf(first);
  const lists = entries.map(([name, t]) => {
    const c = chunksOf(t);
    if (c.length !== plan.length || c.some((x, i) => x.start !== plan[i]!.start || x.length !== plan[i]!.length)) {
      throw new Error(`${op}: ${name} ${shapeStr(t.shape)} is split as ${c.length} buffer(s), ${firstName} as ${plan.length}: their chunks must pair`);
    }
    return [name, c] as const;
  });
  return plan.map((p, i) => ({ length: p.length, buffers: Object.fromEntries(lists.map(([name, c]) => [name, c[i]!.buffer])) as Record<K, GPUBuffer> }));
}

export async function readTensor(ctx: GpuContext, t: GpuTensor): Promise<TypedArray> {
  const out = allocate(t.dtype, numel(t.shape));
  const bytes = new Uint8Array(out.buffer);
  for (const c of chunksOf(t)) bytes.set(new Uint8Array(await ctx.read(c.buffer, c.length * 4)), c.start * 4);
  return out;
}

export function freeTensor(ctx: GpuContext, t: GpuTensor): void {
  for (const c of chunksOf(t)) ctx.release(c.buffer);
}
