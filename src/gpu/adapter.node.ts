// WebGPU under Node through Dawn (the `webgpu` package), with kernels read from kernels/ on disk.
// Needs the Vulkan environment of vulkan.node.ts in force at process start (bin/webswe.js and
// vitest.config.ts apply it); explains what is missing when it is not.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NoAdapterError } from './errors.ts';
import { registerKernelSources } from './kernels.ts';
import { vulkanEnvironment, vulkanEnvironmentApplied } from './vulkan.node.ts';
import { acquireContext, requestAdapter, type AcquireOptions } from './device.ts';
import type { GpuContext } from './context.ts';

export const KERNELS_DIR = fileURLToPath(new URL('../../kernels/', import.meta.url));

export function loadKernelSourcesFromDisk(dir = KERNELS_DIR): void {
  const files: Record<string, string> = {};
  for (const f of readdirSync(dir)) if (f.endsWith('.wgsl')) files[f] = readFileSync(dir + f, 'utf8');
  registerKernelSources(files);
}

let gpuPromise: Promise<GPU> | null = null;

/** Dawn's navigator.gpu for Node; throws NoAdapterError naming the fix when there is none. */
export function nodeGpu(): Promise<GPU> {
  gpuPromise ??= (async () => {
    const setup = vulkanEnvironment();
    if (setup.problem) throw new NoAdapterError(setup.problem);
    if (!vulkanEnvironmentApplied(setup)) {
      const vars = Object.entries(setup.env).map(([k, v]) => `${k}=${v}`).join(' ');
      throw new NoAdapterError(`Dawn needs the Vulkan loader environment at process start: run through \`npx webswe\`, or set ${vars}`);
    }
    const { create, globals } = (await import('webgpu')) as unknown as { create(o: string[]): GPU; globals: object };
    Object.assign(globalThis, globals);
    loadKernelSourcesFromDisk();
    return create([]);
  })();
  return gpuPromise;
}

/** The adapter Dawn offers, or the reason there is none (never throws). */
export async function probeNodeAdapter(): Promise<{ adapter: GPUAdapter | null; reason?: string; driver: string }> {
  const driver = vulkanEnvironment().driver;
  try {
    return { adapter: await requestAdapter(await nodeGpu()), driver };
  } catch (e) {
    return { adapter: null, reason: (e as Error).message, driver };
  }
}

export async function nodeContext(opts?: AcquireOptions): Promise<GpuContext> {
  return acquireContext(await nodeGpu(), opts);
}
