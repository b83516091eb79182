// GPU-tier helpers: one WebGPU context per test process (Dawn), and `gpuIt`, which skips with the
// reason printed when this machine has no adapter (never passes silently).
import { it, type TestContext } from 'vitest';
import { nodeContext, probeNodeAdapter } from '../../src/gpu/adapter.node.ts';
import type { GpuContext } from '../../src/gpu/context.ts';
import { WebGpuBackend } from '../../src/ops/webgpu/backend.ts';

const probe = await probeNodeAdapter();
export const noGpuReason = probe.adapter ? null : `no WebGPU adapter (${probe.reason})`;
if (noGpuReason) console.warn(`gpu tier: skipping, ${noGpuReason}`);

let shared: Promise<GpuContext> | null = null;
export function sharedContext(): Promise<GpuContext> {
  shared ??= nodeContext();
  return shared;
}
export async function sharedBackend(): Promise<WebGpuBackend> {
  return new WebGpuBackend(await sharedContext());
}

export function gpuIt(name: string, fn: (ctx: TestContext) => Promise<void>, timeout?: number): void {
  it(
    name,
    async (ctx) => {
      if (noGpuReason) return ctx.skip(noGpuReason);
      await fn(ctx);
    },
    timeout,
  );
}
