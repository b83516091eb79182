// Device acquisition shared by browser and Node: ask the adapter for its real limits (the spec
// defaults are far lower: 128 MiB bindings, 16 KiB workgroup memory) and the optional features
// the kernels can use, and wrap the device in a GpuContext.
import { GpuContext, type AdapterSummary } from './context.ts';
import { NoAdapterError } from './errors.ts';

/** Limits the kernels and model planner depend on; requested at the adapter's maximum. */
export const REQUESTED_LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxUniformBufferBindingSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxComputeWorkgroupSizeZ',
  'maxComputeWorkgroupsPerDimension',
  'maxStorageBuffersPerShaderStage',
  'maxBindGroups',
] as const;

/** Optional features used when present (every kernel also has a path without them). */
export const OPTIONAL_FEATURES = ['timestamp-query', 'shader-f16', 'subgroups'] as const;

export interface AcquireOptions {
  powerPreference?: GPUPowerPreference;
  /** Skip features even when present (e.g. to test the fallback timing path). */
  withoutFeatures?: string[];
}

export function summarizeAdapter(adapter: GPUAdapter): AdapterSummary {
  const info = adapter.info;
  return {
    vendor: info.vendor,
    architecture: info.architecture,
    device: info.device,
    description: info.description,
    // `isFallbackAdapter` moved from GPUAdapter to GPUAdapterInfo in the spec; read both.
    isFallbackAdapter: Boolean((info as { isFallbackAdapter?: boolean }).isFallbackAdapter ?? (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter),
  };
}

export function limitsRecord(limits: GPUSupportedLimits): Record<string, number> {
  const out: Record<string, number> = {};
  // GPUSupportedLimits exposes its members as prototype getters, so walk the prototype.
  for (let o: object | null = limits; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const k of Object.getOwnPropertyNames(o)) {
      const v = (limits as unknown as Record<string, unknown>)[k];
      if (typeof v === 'number' && !(k in out)) out[k] = v;
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

export async function requestAdapter(gpu: GPU, opts: AcquireOptions = {}): Promise<GPUAdapter> {
  const adapter = await gpu.requestAdapter({ powerPreference: opts.powerPreference ?? 'high-performance' });
  if (!adapter) throw new NoAdapterError('navigator.gpu.requestAdapter() returned no adapter');
  return adapter;
}

export async function acquireContext(gpu: GPU, opts: AcquireOptions = {}): Promise<GpuContext> {
  const adapter = await requestAdapter(gpu, opts);
  const requiredLimits: Record<string, number> = {};
  for (const k of REQUESTED_LIMITS) {
    const v = (adapter.limits as unknown as Record<string, number | undefined>)[k];
    if (typeof v === 'number') requiredLimits[k] = v;
  }
  const skip = new Set(opts.withoutFeatures ?? []);
  const requiredFeatures = OPTIONAL_FEATURES.filter((f) => adapter.features.has(f) && !skip.has(f)) as GPUFeatureName[];
  const device = await adapter.requestDevice({ label: 'webswe', requiredLimits, requiredFeatures });
  return new GpuContext(device, summarizeAdapter(adapter));
}
