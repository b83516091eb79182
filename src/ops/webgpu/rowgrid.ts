// Dispatch grid for kernels that give one workgroup (or a fixed group of rows) to each row (logprobs,
// rmsnorm, sample, argmax): workgroups beyond the per-dimension limit (65535 by default) spill into
// y, and the kernel recovers its index as wid.y · num_workgroups.x + wid.x (surplus workgroups of
// the last y-slice return at once). And how many lanes such row kernels give one row.
import type { GpuContext } from '../../gpu/context.ts';

/** (min(rows, max), ceil(rows / max)); `max` defaults to the device's limit (tests pass a small one). */
export function rowGrid(ctx: GpuContext, rows: number, max?: number): [number, number] {
  const m = max ?? ctx.limits.maxComputeWorkgroupsPerDimension;
  return [Math.min(rows, m), Math.ceil(rows / m)];
}

/** Invocations per row of a (…, D) row kernel whose lanes each own a contiguous chunk of ≥ `min`
 *  columns (long serial sweeps, few lanes meeting at the barrier): a power of two, at most 64. */
export function lanesPerRow(D: number, min = 512): number {
  return Math.min(64, 2 ** Math.ceil(Math.log2(Math.max(1, Math.ceil(D / min)))));
}
