// WebGPU in the browser (page or dedicated Worker): navigator.gpu, with kernels bundled as text
// by Vite. Where WebGPU is missing, explains how to enable it.
import { registerKernelSources } from './kernels.ts';
import { NoAdapterError } from './errors.ts';
import { acquireContext, type AcquireOptions } from './device.ts';
import type { GpuContext } from './context.ts';

registerKernelSources(import.meta.glob('/kernels/*.wgsl', { query: '?raw', import: 'default', eager: true }) as Record<string, string>);

export const ENABLE_WEBGPU_HELP =
  'This browser offers no WebGPU. Use a recent Chrome, Edge or Chromium (WebGPU is on by default on ' +
  'Windows, macOS and ChromeOS; on Linux start it with --enable-unsafe-webgpu, and --use-webgpu-adapter=swiftshader ' +
  'where there is no GPU driver), or Firefox 141+ / Safari 26+. The page must be served from https or localhost.';

export function browserGpu(): GPU {
  const gpu = (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu;
  if (!gpu) throw new NoAdapterError(ENABLE_WEBGPU_HELP);
  return gpu;
}

export function browserContext(opts?: AcquireOptions): Promise<GpuContext> {
  return acquireContext(browserGpu(), opts);
}
