// Per-context scratch buffers for the partial sums of two-pass reductions (dapoLoss, globalNorm).
// Reusing one buffer across calls is safe: dispatches run in recording order, each in its own pass.
// A buffer that must grow is replaced, never destroyed here: recorded, unsubmitted work may still
// use it (WebGPU refuses a submit that touches a destroyed buffer); the old one is collected.
import type { GpuContext } from '../../gpu/context.ts';

const buffers = new WeakMap<GpuContext, Map<string, GPUBuffer>>();

/** A storage buffer of at least `bytes` labelled `label`, shared by every call with that label. */
export function scratch(ctx: GpuContext, label: string, bytes: number): GPUBuffer {
  let byLabel = buffers.get(ctx);
  if (!byLabel) buffers.set(ctx, (byLabel = new Map()));
  const have = byLabel.get(label);
  if (have && have.size >= bytes) return have;
  const size = Math.max(bytes, 2 * (have?.size ?? 0), 256);
  const buf = ctx.buffer(label, size);
  byLabel.set(label, buf);
  return buf;
}
