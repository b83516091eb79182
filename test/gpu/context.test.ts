// GpuContext failure modes and services: compile errors name the kernel file and line, OOM names
// the size and the limit, device loss reaches the one listener and stops later work, pipelines
// are cached by kernel and constants, both timing methods measure, and the pool of released buffers
// stays within its budget when sizes change from call to call.
import { describe, expect } from 'vitest';
import { nodeContext } from '../../src/gpu/adapter.node.ts';
import { GpuContext, sizeClass } from '../../src/gpu/context.ts';
import { GpuDeviceLostError, GpuOutOfMemoryError, KernelCompileError } from '../../src/gpu/errors.ts';
import { kernelSource, overrideKernelSource } from '../../src/gpu/kernels.ts';
import { MATMUL } from '../../src/ops/webgpu/matmul.ts';
import { SAMPLE } from '../../src/ops/webgpu/sample.ts';
import { ARGMAX } from '../../src/ops/webgpu/argmax.ts';
import { WebGpuBackend } from '../../src/ops/webgpu/backend.ts';
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
      // 64 rows: matmul.wgsl's product (a few rows would run matmul_rows.wgsl).
      const a = be.fromArray(new Float32Array(128), [64, 2]), b = be.fromArray(new Float32Array(4), [2, 2]);
      const err = await be.read(be.matmul(a, b)).then(() => null, (e: unknown) => e);
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

  gpuIt('the pool of released buffers stays within its budget while sizes change every call, and serves a size asked again', async () => {
    const shared = await sharedContext();
    const limit = 64 * 1024;
    const ctx = new GpuContext(shared.device, shared.adapter, { poolLimit: limit });
    // One live buffer at a time, a new size each call (as prefill and training lengths follow the
    // episodes): without a bound the pool would keep all 40 (~520 KiB).
    const sizes = Array.from({ length: 40 }, (_, i) => 1024 * (8 + (i % 9)) + 16 * i);
    for (const [i, bytes] of sizes.entries()) {
      const b = ctx.buffer(`step${i}`, bytes);
      ctx.clear(b); // work that touches it: released buffers are pooled at the submit of such work
      ctx.release(b);
      await ctx.flush();
      expect(ctx.pooledBytes).toBeLessThanOrEqual(limit);
    }
    expect(ctx.evictedBytes).toBeGreaterThan(0);
    // The newest buffers stay pooled: the last size comes back from the pool, not the driver.
    // Data written into it after evictions reads back intact.
    const pooledBefore = ctx.pooledBytes;
    const data = Float32Array.from({ length: sizes.at(-1)! / 4 }, (_, i) => i * 0.5);
    const again = ctx.upload('again', data);
    expect(ctx.pooledBytes).toBe(pooledBefore - again.size);
    expect(new Float32Array(await ctx.read(again, data.byteLength))).toEqual(data);
    ctx.release(again);
    // A working set larger than the limit is pooled whole: the budget is the live high-water mark.
    const big = [0, 1, 2].map((i) => ctx.buffer(`big${i}`, 96 * 1024));
    for (const b of big) ctx.clear(b), ctx.release(b);
    await ctx.flush();
    expect(ctx.pooledBytes).toBeGreaterThanOrEqual(3 * 96 * 1024);
    expect(ctx.pooledBytes).toBeLessThanOrEqual(3 * 96 * 1024 + 16 * 1024 + limit);
    await ctx.trimPool();
    expect(ctx.pooledBytes).toBe(0);
  });

  gpuIt('sizes of one class share pooled buffers: lengths that change every call reuse instead of churning', async () => {
    // Size classes: multiples of 256 below 64 KiB, eight per power of two above it (at most 1/8 larger).
    expect([16, 300, 65536, 65540, 98304, 100_000, 131_076].map(sizeClass)).toEqual([256, 512, 65536, 73728, 98304, 106496, 147456]);
    for (let b = 4; b < 1 << 26; b = Math.ceil(b * 1.37)) {
      const c = sizeClass(b);
      expect(c).toBeGreaterThanOrEqual(b);
      if (b > 65536) expect(c / b).toBeLessThanOrEqual(1.125);
    }
    const shared = await sharedContext();
    const ctx = new GpuContext(shared.device, shared.adapter, { poolLimit: 0 });
    // 40 prefill-like sizes between 100,000 and 105,928 bytes, one live at a time: one class, so after the
    // first every buffer comes from the pool and nothing is destroyed (exact sizes: 39 new buffers and
    // ~3.9 MB destroyed).
    for (let i = 0; i < 40; i++) {
      const bytes = 100_000 + 152 * i;
      const data = Float32Array.from({ length: bytes / 4 }, (_, j) => i + j);
      const b = ctx.upload(`prefill${i}`, data);
      expect(b.size).toBe(106496);
      if (i % 13 === 0) expect(new Float32Array(await ctx.read(b, bytes))).toEqual(data);
      ctx.clear(b); // work that touches it: released buffers are pooled at the submit of such work
      ctx.release(b);
      await ctx.flush();
    }
    expect(ctx.evictedBytes).toBe(0);
    expect(ctx.pooledBytes).toBe(106496);
    await ctx.trimPool();
  });

  gpuIt('caches pipelines by kernel and override constants', async () => {
    const ctx = await sharedContext();
    const p1 = ctx.pipeline(MATMUL, { TRANS_A: false, TRANS_B: true });
    expect(ctx.pipeline(MATMUL, { TRANS_A: false, TRANS_B: true })).toBe(p1);
    expect(ctx.pipeline(MATMUL, { TRANS_A: true, TRANS_B: true })).not.toBe(p1);
    await ctx.compile(MATMUL, { TRANS_A: true, TRANS_B: true });
  });

  gpuIt('compiles a subgroup path only where the device has the feature, each variant its own pipeline', async () => {
    const ctx = await sharedContext();
    const has = ctx.features.has('subgroups');
    expect(ctx.subgroups).toBe(has);
    // A device asked without the feature runs the fallback and refuses the subgroup path.
    const plain = await nodeContext({ withoutFeatures: ['subgroups'] });
    expect(plain.features.has('subgroups')).toBe(false);
    expect(plain.subgroups).toBe(false);
    expect(() => (plain.subgroups = true)).toThrow(/this device has no 'subgroups' feature/);
    await plain.compile(SAMPLE, { FILTERED: true });
    plain.dispose();
    if (!has) return;
    const sg = ctx.pipeline(SAMPLE, { FILTERED: false });
    ctx.subgroups = false;
    try {
      expect(ctx.pipeline(SAMPLE, { FILTERED: false })).not.toBe(sg);
      await ctx.compile(SAMPLE, { FILTERED: false });
    } finally {
      ctx.subgroups = true;
    }
    expect(ctx.pipeline(SAMPLE, { FILTERED: false })).toBe(sg);
    await ctx.compile(ARGMAX);
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
