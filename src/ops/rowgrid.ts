// Dispatch grid for kernels that give one workgroup to each row (logprobs, sample, argmax): rows
// beyond the per-dimension limit (65535 by default) spill into y, and the kernel recovers its row
// as wid.y · num_workgroups.x + wid.x (surplus workgroups of the last y-slice return at once).
import type { GpuContext } from '../gpu/context.ts';

/** (min(rows, max), ceil(rows / max)); `max` defaults to the device's limit (tests pass a small one). */
export function rowGrid(ctx: GpuContext, rows: number, max?: number): [number, number] {
  const m = max ?? ctx.limits.maxComputeWorkgroupsPerDimension;
  return [Math.min(rows, m), Math.ceil(rows / m)];
}
