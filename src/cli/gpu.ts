// `webswe gpu`: the adapter Dawn offers (vendor, architecture, fallback or not), its limits and
// features, the Vulkan driver found, and which backend `--backend auto` would really run on, and why.
import type { Command } from 'commander';
import { probeNodeAdapter } from '../gpu/adapter.node.ts';
import { limitsRecord, summarizeAdapter } from '../gpu/device.ts';
import { autoChoice } from './backend.ts';
import { fmtBytes, printJson, runCommand } from './output.ts';

export interface GpuReport {
  adapter: ReturnType<typeof summarizeAdapter> | null;
  limits: Record<string, number>;
  features: string[];
  /** What `--backend auto` (train, eval, solve, bench, and the app's auto) runs on. */
  backend: 'webgpu' | 'wasm';
  /** Why auto chose it. */
  backendReason: string;
  driver: string;
  reason?: string;
}

export async function gpuReport(): Promise<GpuReport> {
  const { adapter, reason, driver } = await probeNodeAdapter();
  const auto = autoChoice(adapter, reason);
  if (!adapter) return { adapter: null, limits: {}, features: [], backend: auto.backend, backendReason: auto.why, driver, reason };
  return {
    adapter: summarizeAdapter(adapter),
    limits: limitsRecord(adapter.limits),
    features: [...(adapter.features as unknown as Iterable<string>)].sort(),
    backend: auto.backend,
    backendReason: auto.why,
    driver,
  };
}

export function registerGpu(program: Command): void {
  program
    .command('gpu')
    .description('show the WebGPU adapter, its limits and features, and which backend would run')
    .option('--json', 'print one JSON document on stdout')
    .action((opts: { json?: boolean }) =>
      runCommand(async () => {
        const r = await gpuReport();
        if (opts.json) return printJson(r);
        if (!r.adapter) {
          console.log(`backend: ${r.backend} (${r.backendReason})`);
          return;
        }
        const a = r.adapter;
        console.log(`adapter:  ${a.vendor || '?'} / ${a.architecture || '?'}${a.description ? ` (${a.description})` : ''}`);
        console.log(`fallback: ${a.isFallbackAdapter ? 'yes' : 'no'}`);
        console.log(`driver:   ${r.driver}`);
        console.log(`backend:  ${r.backend} (${r.backendReason})`);
        console.log(`features: ${r.features.join(', ')}`);
        console.log('limits:');
        for (const [k, v] of Object.entries(r.limits)) {
          console.log(`  ${k.padEnd(44)} ${/Size$/.test(k) && v >= 1024 ? `${v} (${fmtBytes(v)})` : v}`);
        }
      }),
    );
}
