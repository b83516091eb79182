// Helpers shared by the layer-op dispatchers: workgroup grids that go 2-D past 65535 workgroups per
// dimension (the spec default), new output tensors, and per-context scratch buffers. Temporaries
// cannot be freed when an op returns (its work is only recorded, not submitted), so they are kept
// per context and reused; passes run in order, so reuse across queued ops is safe.
import type { GpuContext } from '../../gpu/context.ts';
import { numel, type GpuTensor } from '../tensor.ts';

export const MAX_WORKGROUPS_PER_DIM = 65535;

/** `count` workgroups as (x, y): kernels index them as wid.y · num_workgroups.x + wid.x. */
export function grid(count: number): [number, number] {
  if (count === 0) return [0, 1];
  const x = Math.min(count, MAX_WORKGROUPS_PER_DIM);
  const y = Math.ceil(count / x);
  if (y > MAX_WORKGROUPS_PER_DIM) throw new Error(`dispatch of ${count} workgroups exceeds ${MAX_WORKGROUPS_PER_DIM}² (split the tensor)`);
  return [x, y];
}

export function newTensor(ctx: GpuContext, label: string, shape: readonly number[]): GpuTensor {
  return { shape: [...shape], dtype: 'f32', label, buffer: ctx.buffer(label, numel(shape) * 4) };
}

const scratch = new WeakMap<GpuContext, Map<string, GPUBuffer>>();

/** A buffer of at least `bytes` kept for `name` on this context (grown to powers of two). */
export function scratchBuffer(ctx: GpuContext, name: string, bytes: number): GPUBuffer {
  let byName = scratch.get(ctx);
  if (!byName) scratch.set(ctx, (byName = new Map()));
  const have = byName.get(name);
  if (have && have.size >= bytes) return have;
  // A smaller predecessor may still be bound by recorded work: it is dropped, not destroyed.
  const rounded = 2 ** Math.ceil(Math.log2(Math.max(bytes, 256)));
  const buf = ctx.buffer(`scratch/${name}`, Math.max(bytes, Math.min(rounded, ctx.bindingLimit)));
  byName.set(name, buf);
  return buf;
}

const constants = new WeakMap<GpuContext, Map<string, GPUBuffer>>();

/** An uploaded, never-changing f32 table (e.g. RoPE's inverse frequencies), cached by key. */
export function constantBuffer(ctx: GpuContext, key: string, make: () => Float32Array): GPUBuffer {
  let byKey = constants.get(ctx);
  if (!byKey) constants.set(ctx, (byKey = new Map()));
  let buf = byKey.get(key);
  if (!buf) byKey.set(key, (buf = ctx.upload(`const/${key}`, make())));
  return buf;
}
