// GpuContext failure modes and services: compile errors name the kernel file and line, OOM names
// the size and the limit, device loss reaches the one listener and stops later work, pipelines
// are cached by kernel and constants, and both timing methods measure.
import { describe, expect } from 'vitest';
import { nodeContext } from '../../src/gpu/adapter.node.ts';
import { GpuDeviceLostError, GpuOutOfMemoryError, KernelCompileError } from '../../src/gpu/errors.ts';
import { kernelSource, overrideKernelSource } from '../../src/gpu/kernels.ts';
import { MATMUL } from '../../src/ops/matmul.ts';
import { WebGpuBackend } from '../../src/ops/webgpu.ts';
import { gpuIt, sharedContext } from '../helpers/gpu.ts';

describe('GpuContext', () => {
  gpuIt('a WGSL syntax error fails with the kernel file name and the compiler line', async () => {
    const ctx = await nodeContext();
    const src = kernelSource('matmul.wgsl');
    const lines = src.split('\n');
    const at = lines.findIndex((l) => l.includes('let M = params.M;'));
    lines[at] = '  let M = params.M +* ;';
    const restore = overrideKernelSource('matmul.wgsl', lines.join('\n'));
    try {
      const be = new WebGpuBackend(ctx);
      const a = be.fromArray(new Float32Array(4), [2, 2]);
      const err = await be.read(be.matmul(a, a)).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(KernelCompileError);
      expect((err as Error).message).toMatch(new RegExp(`kernels/matmul\\.wgsl:${at + 1}:\\d+: error: `));
    } finally {
      restore();
      ctx.dispose();
    }
  });

  gpuIt('an allocation beyond the limit names the size asked and the limit', async () => {
    const ctx = await sharedContext();
    const bytes = ctx.limits.maxBufferSize + 1024;
    let err: unknown;
    try {
      ctx.buffer('huge-activations', bytes);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GpuOutOfMemoryError);
    expect((err as GpuOutOfMemoryError).bytes).toBe(bytes);
    expect((err as Error).message).toMatch(/"huge-activations".* MiB asked, the device allows .* MiB/);
  });

  gpuIt('device loss reaches the one listener, and later work throws GpuDeviceLostError', async () => {
    const ctx = await nodeContext();
    const seen = new Promise<GpuDeviceLostError>((resolve) => ctx.onLost(resolve));
    ctx.device.destroy(); // what a driver reset looks like from here
    const lost = await seen;
    expect(lost.reason).toBe('destroyed');
    expect(ctx.lost).toBe(lost);
    expect(() => ctx.buffer('after-loss', 64)).toThrow(GpuDeviceLostError);
    expect(lost.message).toMatch(/resume from the last checkpoint/);
  });

  gpuIt('caches pipelines by kernel and override constants', async () => {
    const ctx = await sharedContext();
    const p1 = ctx.pipeline(MATMUL, { TRANS_A: false, TRANS_B: true });
    expect(ctx.pipeline(MATMUL, { TRANS_A: false, TRANS_B: true })).toBe(p1);
    expect(ctx.pipeline(MATMUL, { TRANS_A: true, TRANS_B: true })).not.toBe(p1);
    await ctx.compile(MATMUL, { TRANS_A: true, TRANS_B: true });
  });

  gpuIt('times work by timestamp queries and, without them, by whole submissions', async () => {
    for (const without of [[], ['timestamp-query']]) {
      const ctx = await nodeContext({ withoutFeatures: without });
      const be = new WebGpuBackend(ctx);
      const a = be.fromArray(new Float32Array(64 * 64).fill(1), [64, 64]);
      const t = await ctx.time(() => be.matmul(a, a));
      expect(t.method).toBe(without.length ? 'submission' : ctx.features.has('timestamp-query') ? 'timestamp' : 'submission');
      expect(t.ms).toBeGreaterThan(0);
      ctx.dispose();
    }
  });
});
