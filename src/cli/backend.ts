// Backend choice for CLI commands: `--backend auto|webgpu|wasm|fast-cpu` (and `--threads N` for wasm).
// auto takes the WASM SIMD backend on every core when Dawn offers no adapter or only a software fallback
// (SwiftShader, where `webswe bench train --backend webgpu,wasm` measures WGSL many times slower). On a
// hardware adapter, a run (train, eval) measures its own shape on both and opens the one that prices the
// run lower (src/rl/auto-backend.ts), the rates cached per adapter and shape in the user's cache folder
// (auto-backend.json); a command without a run config to price (solve, logprobs) takes WebGPU. 'wasm' is WasmBackend (SIMD kernels
// on a thread pool; src/ops/wasm/); 'fast-cpu' is FastCpuBackend (blocked JS on one thread, sums in
// f64; src/ops/fast-cpu/). The same names in `bench`, beside 'reference' (the tests' oracle). `autoChoice` is
// the one rule; `webswe gpu` prints what it decides.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { nodeContext, probeNodeAdapter } from '../gpu/adapter.node.ts';
import type { ModelConfig } from '../model/config.ts';
import type { LoraConfig } from '../model/lora.ts';
import type { Backend } from '../ops/backend.ts';
import { FastCpuBackend } from '../ops/fast-cpu/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { nodeThreads, wasmBackendNode } from '../ops/wasm/threads.node.ts';
import { WebGpuBackend } from '../ops/webgpu/backend.ts';
import { autoKey, autoRatesOf, chooseAuto, measurementShape, ruleChoice, shapeKey, type AutoAdapter, type AutoCache, type AutoDecision } from '../rl/auto-backend.ts';
import type { RunConfig } from '../rl/config.ts';
import { measureRates } from '../rl/throughput.ts';
import { UserError } from './output.ts';

export type BackendChoice = 'auto' | 'webgpu' | 'wasm' | 'fast-cpu';
export const BACKEND_CHOICES = 'auto, webgpu, wasm (WebAssembly SIMD on every core) or fast-cpu (JS, one thread)';

/** The backends' earlier spelling: refused in one line that names the name now. */
export function refuseOldBackendName(choice: string, flag = '--backend'): void {
  if (choice === 'cpu') throw new UserError(`${flag} cpu is now called fast-cpu (the blocked JS backend; the plain references are 'reference' in bench)`);
}

/** What Dawn offers, as auto sees it. */
export function autoAdapter(adapter: GPUAdapter | null, reason?: string): AutoAdapter {
  if (!adapter) return { kind: 'none', reason: reason ?? 'none offered' };
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  if (info.isFallbackAdapter) return { kind: 'fallback', name: info.architecture || info.description || info.vendor || 'unnamed' };
  return { kind: 'hardware', name: [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'unnamed' };
}

/** What `--backend auto` runs on with no run to measure, given what Dawn offers, and why (one line for a person). */
export function autoChoice(adapter: GPUAdapter | null, reason?: string): { backend: 'webgpu' | 'wasm'; why: string } {
  const a = autoAdapter(adapter, reason);
  const rule = ruleChoice(a);
  if (rule || a.kind === 'none') return rule!;
  return { backend: 'webgpu', why: `a hardware adapter (${a.name}); a run measures its own shape on it and on wasm before it picks` };
}

/** The file auto's measured rates are kept in: $XDG_CACHE_HOME/webswe, else ~/.cache/webswe. */
export function autoCachePath(env = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'webswe', 'auto-backend.json');
}

/** auto's rates in a JSON file (one object, key → rates); an unreadable file is measured over, never an error. */
export function fileAutoCache(path = autoCachePath()): AutoCache {
  const read = (): Record<string, unknown> => {
    try {
      const j = JSON.parse(readFileSync(path, 'utf8')) as unknown;
      return typeof j === 'object' && j !== null && !Array.isArray(j) ? (j as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  };
  return {
    get: async (key) => autoRatesOf(read()[key]),
    set: async (key, value) => {
      mkdirSync(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, `${JSON.stringify({ ...read(), [key]: value }, null, 2)}\n`);
      renameSync(tmp, path);
    },
  };
}

/** A run auto can measure: its config (priced at each backend's rates) and the model it trains. */
export interface AutoRun {
  cfg: RunConfig;
  config: ModelConfig;
  lora?: LoraConfig;
}

/** `--threads`: a whole number ≥ 1, or every core when absent. */
export function parseThreads(text: string | undefined): number {
  if (text === undefined) return nodeThreads();
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new UserError(`--threads must be a whole number from 1 to 256, got "${text}"`);
  return n;
}

export async function openBackend(choice: string, threadsText?: string, run?: AutoRun, cache: AutoCache = fileAutoCache()): Promise<{ be: Backend<Tensor>; name: string; auto?: AutoDecision }> {
  refuseOldBackendName(choice);
  if (!['auto', 'webgpu', 'wasm', 'fast-cpu'].includes(choice)) throw new UserError(`--backend must be ${BACKEND_CHOICES}, got "${choice}"`);
  const threads = parseThreads(threadsText);
  if (threadsText !== undefined && choice !== 'wasm' && choice !== 'auto') throw new UserError(`--threads applies to the wasm backend (and auto, when it picks wasm), not ${choice}`);
  let cpu: { be: Backend<Tensor>; name: string } | null = null;
  const wasm = async () => (cpu ??= { be: (await wasmBackendNode(threads)) as unknown as Backend<Tensor>, name: `wasm (${threads} thread${threads === 1 ? '' : 's'})` });
  if (choice === 'fast-cpu') return { be: new FastCpuBackend() as Backend<Tensor>, name: 'fast-cpu' };
  if (choice === 'wasm') return wasm();
  const probe = await probeNodeAdapter();
  if (!probe.adapter && choice === 'webgpu') throw new UserError(`no WebGPU adapter: ${probe.reason}`);
  let gpu: { be: Backend<Tensor>; name: string } | null = null;
  const webgpu = async () => {
    const ctx = await nodeContext();
    return (gpu ??= { be: new WebGpuBackend(ctx) as unknown as Backend<Tensor>, name: `webgpu (${ctx.adapter.vendor} ${ctx.adapter.architecture})` });
  };
  if (choice === 'webgpu') return webgpu();
  const adapter = autoAdapter(probe.adapter, probe.reason);
  let auto: AutoDecision = autoChoice(probe.adapter, probe.reason);
  if (run && adapter.kind === 'hardware') {
    const shape = measurementShape(run.cfg.model.preset, run.config, run.lora);
    const batch = { trainRows: run.cfg.bc.batchEpisodes, rolloutRows: run.cfg.agent.rolloutBatch };
    process.stderr.write(`webswe: auto: pricing this run on webgpu and on wasm (${shape.name}) unless measured before\n`);
    auto = await chooseAuto({
      adapter, cfg: run.cfg, model: run.config, shape: shape.name, key: autoKey(adapter.name, shapeKey(shape.config, shape.lora), batch, threads), cache, scale: shape.scale,
      measure: async (kind) => measureRates(kind === 'webgpu' ? await webgpu() : await wasm(), shape, batch),
    });
  }
  process.stderr.write(auto.backend === 'wasm' && !auto.measured
    ? `webswe: ${auto.why}; using the WASM CPU backend on ${threads} thread${threads === 1 ? '' : 's'}\n`
    : `webswe: auto: ${auto.backend} (${auto.why})\n`);
  return { ...(auto.backend === 'wasm' ? await wasm() : await webgpu()), auto };
}
