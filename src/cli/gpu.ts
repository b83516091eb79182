// `webswe gpu`: the adapter Dawn offers (vendor, architecture, fallback or not), its limits and
// features, the Vulkan driver found, and which backend `--backend auto` would really run on, and why;
// with `--preset`, the run preset's own pick on a hardware adapter: both backends measured at its shape
// (a pretrained preset: its Hub model's shape with the run's LoRA, random weights, offline), or the rates
// measured before, the run priced at each (src/rl/auto-backend.ts); and on any machine one DAPO iteration of
// it priced on the backend auto opens (src/rl/iteration.ts: a pretrained model's episodes at their budgets).
import type { Command } from 'commander';
import { probeNodeAdapter } from '../gpu/adapter.node.ts';
import { limitsRecord, summarizeAdapter } from '../gpu/device.ts';
import { knownRunShape, type AutoMeasured } from '../rl/auto-backend.ts';
import { resolveConfig } from '../rl/config.ts';
import { iterationLines, measureIteration, timeTestRun, type MeasuredIteration } from '../rl/iteration.ts';
import type { TaskSelection } from '../tasks/select.ts';
import { RUN_PRESETS } from '../rl/presets.ts';
import { sandboxFactory } from '../sandbox/index.node.ts';
import { autoChoice, openBackend } from './backend.ts';
import { fmtBytes, printJson, runCommand, UserError } from './output.ts';
import { readTaskFile } from './task-file.ts';

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
  /** With --preset on a hardware adapter: both backends' rates and the run's price at each. */
  measured?: AutoMeasured;
  /** With --preset: one DAPO iteration priced on the backend auto opens. */
  iteration?: MeasuredIteration;
}

export async function gpuReport(preset?: string): Promise<GpuReport> {
  const { adapter, reason, driver } = await probeNodeAdapter();
  let auto: { backend: 'webgpu' | 'wasm'; why: string; measured?: AutoMeasured } = autoChoice(adapter, reason);
  let iteration: MeasuredIteration | undefined;
  if (preset !== undefined) {
    const run = Object.hasOwn(RUN_PRESETS, preset) ? RUN_PRESETS[preset] : undefined;
    if (!run) throw new UserError(`--preset must be a run preset (${Object.keys(RUN_PRESETS).join(', ')}), got "${preset}"`);
    const cfg = resolveConfig(run.overrides);
    // A pretrained preset's Hub model has a known shape (model/shapes.ts): measured at it, with the run's LoRA.
    let shaped;
    try {
      shaped = { cfg, ...knownRunShape(cfg) };
    } catch (e) {
      throw new UserError(`the run preset "${preset}": ${(e as Error).message} (train it with --backend auto to measure it)`);
    }
    // Both backends measured only where there is a choice to make (a hardware adapter; else the rule decides);
    // the iteration on the one auto opens, from that measurement or its own.
    const t0 = performance.now();
    const opened = await openBackend('auto', undefined, shaped);
    auto = opened.auto ?? auto;
    iteration = await measureIteration({ preset, ...shaped, b: opened, testRunS: () => {
      // The first of the run's held-out tasks, as the run chooses them, in the run's sandbox.
      const task = readTaskFile(cfg.tasks.test, { max: cfg.tasks.maxTest, difficulty: cfg.tasks.difficulty, select: cfg.tasks.select as TaskSelection })[0]!;
      return timeTestRun(sandboxFactory(cfg.agent.sandbox), task, cfg.agent.commandTimeoutMs);
    }, since: t0 });
  }
  const measured = { ...(auto.measured ? { measured: auto.measured } : {}), ...(iteration ? { iteration } : {}) };
  if (!adapter) return { adapter: null, limits: {}, features: [], backend: auto.backend, backendReason: auto.why, driver, reason, ...measured };
  return {
    ...measured,
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
    .option('--preset <run preset>', 'price this run preset on both backends (a hardware adapter), measured at its shape, say which auto opens for it, and price one DAPO iteration of it there')
    .option('--json', 'print one JSON document on stdout')
    .action((opts: { json?: boolean; preset?: string }) =>
      runCommand(async () => {
        const r = await gpuReport(opts.preset);
        if (opts.json) return printJson(r);
        const priced = () => r.iteration && console.log(iterationLines(r.iteration).join('\n  '));
        if (!r.adapter) {
          console.log(`backend: ${r.backend} (${r.backendReason})`);
          priced();
          return;
        }
        const m = r.measured;
        const a = r.adapter;
        console.log(`adapter:  ${a.vendor || '?'} / ${a.architecture || '?'}${a.description ? ` (${a.description})` : ''}`);
        console.log(`fallback: ${a.isFallbackAdapter ? 'yes' : 'no'}`);
        console.log(`driver:   ${r.driver}`);
        console.log(`backend:  ${r.backend} (${r.backendReason})`);
        if (m) {
          for (const k of ['webgpu', 'wasm'] as const) {
            console.log(`  ${k.padEnd(7)} generation ${m[k].genTokensPerS.toFixed(0)} tokens/s · training ${m[k].trainTokensPerS.toFixed(0)} tokens/s · the run ${r.iteration?.bound ? 'at most' : 'about'} ${(m[k].runS / 60).toFixed(1)} min`);
          }
        }
        priced();
        console.log(`features: ${r.features.join(', ')}`);
        console.log('limits:');
        for (const [k, v] of Object.entries(r.limits)) {
          console.log(`  ${k.padEnd(44)} ${/Size$/.test(k) && v >= 1024 ? `${v} (${fmtBytes(v)})` : v}`);
        }
      }),
    );
}
