// `webswe bench kernels`: op throughput with napkin math and the TF.js peer's ratio.
import type { Command } from 'commander';
import { nodeContext, nodeGpu } from '../gpu/adapter.node.ts';
import { benchKernels, type BenchResult, type ShapeSet } from '../bench/kernels.ts';
import { startTfPeer } from '../bench/peer-tfjs.ts';
import { UserError, fmtBytes, printJson, runCommand } from './output.ts';
import { benchGenerate, benchTrain, type ModelBenchBackend, type ModelBenchResult } from '../bench/model.ts';
import { micro, tiny } from '../model/presets.ts';
import { CpuBackend } from '../ops/cpu.ts';
import { FastCpuBackend } from '../ops/fast-cpu/backend.ts';
import { WebGpuBackend } from '../ops/webgpu.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { probeNodeAdapter } from '../gpu/adapter.node.ts';
import { registerSandboxBench } from '../bench/sandbox.node.ts';

function table(rows: BenchResult[]): string {
  const head = ['op', 'shape', 'ms', 'rate', 'peer ms', 'ours/peer', 'napkin'];
  const body = rows.map((r) => [
    r.op,
    r.shape,
    r.ms.toFixed(2),
    r.gflops !== undefined ? `${r.gflops.toFixed(3)} GFLOP/s` : r.gbps !== undefined ? `${r.gbps.toFixed(3)} GB/s` : '',
    r.peer_ms !== undefined ? r.peer_ms.toFixed(2) : '',
    r.ratio !== undefined ? `${r.ratio.toFixed(2)}×` : '',
    r.napkin + (r.note ? ` (${r.note})` : ''),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  return [head, ...body].map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

export function registerBench(program: Command): void {
  const bench = program.command('bench').description('throughput benchmarks (figures beside a peer measured in the same run)');
  registerModelBench(bench);
  registerSandboxBench(bench); // `bench sandbox`: src/bench/sandbox.node.ts
  bench
    .command('kernels')
    .description('every op at training shapes; matmul and attention beside TF.js WebGPU on the same adapter')
    .option('--shapes <set>', 'small (CPU-only machines) or large (a real GPU)', 'small')
    .option('--no-peer', 'skip the TF.js peer')
    .option('--json', 'print one JSON document on stdout')
    .action((opts: { shapes: string; peer: boolean; json?: boolean }) =>
      runCommand(async () => {
        if (opts.shapes !== 'small' && opts.shapes !== 'large') throw new UserError(`--shapes must be small or large, got "${opts.shapes}"`);
        const ctx = await nodeContext();
        const peer = opts.peer ? await startTfPeer(await nodeGpu()) : null;
        const t0 = performance.now();
        const results = await benchKernels(ctx, {
          shapes: opts.shapes as ShapeSet,
          peer,
          onProgress: (label) => process.stderr.write(`bench: ${label} (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`),
        });
        const doc = { results, adapter: ctx.adapter, shapes: opts.shapes, wall_s: (performance.now() - t0) / 1000 };
        if (opts.json) printJson(doc);
        else {
          console.log(`adapter: ${ctx.adapter.vendor} / ${ctx.adapter.architecture} (${ctx.adapter.description})`);
          console.log(table(results));
        }
        process.exit(0); // TF.js keeps its device alive; nothing else is pending
      }),
    );
}

async function modelBackends(which: string): Promise<ModelBenchBackend[]> {
  const out: ModelBenchBackend[] = [];
  if (which === 'webgpu' || which === 'both') {
    const probe = await probeNodeAdapter();
    if (probe.adapter) {
      const ctx = await nodeContext();
      out.push({
        name: `webgpu (${ctx.adapter.architecture || ctx.adapter.vendor})`,
        be: new WebGpuBackend(ctx) as unknown as Backend<Tensor>,
        resetPeak: () => (ctx.resetPeak(), ctx.peakBytes),
        peak: () => ctx.peakBytes,
      });
    } else if (which === 'webgpu') throw new UserError(`no WebGPU adapter: ${probe.reason}`);
  }
  if (which === 'fast-cpu' || which === 'both') out.push({ name: 'fast-cpu (blocked JS)', be: new FastCpuBackend() as unknown as Backend<Tensor> });
  if (which === 'cpu' || which === 'both') out.push({ name: 'cpu (JS references)', be: new CpuBackend() as unknown as Backend<Tensor> });
  if (!out.length) throw new UserError(`--backend must be webgpu, fast-cpu, cpu or both, got "${which}"`);
  return out;
}

function modelTable(rows: ModelBenchResult[]): string {
  return rows
    .map((r) => `${r.name.padEnd(11)} ${r.preset.padEnd(6)} ${r.backend.padEnd(24)} ${r.shape.padEnd(20)} ${r.ms.toFixed(0).padStart(8)} ms ${r.tokens_per_s.toFixed(1).padStart(9)} tok/s  planned ${fmtBytes(r.planned_bytes)}${r.peak_bytes !== undefined ? `, peak ${fmtBytes(r.peak_bytes)}` : ''}`)
    .join('\n');
}

export function registerModelBench(bench: Command): void {
  const presetOf = (name: string) => {
    if (name === 'micro') return micro;
    if (name === 'tiny') return tiny;
    throw new UserError(`--preset must be micro or tiny, got "${name}"`);
  };
  bench
    .command('generate')
    .description('prefill and decode tokens/s for G sequences at a preset, with memory')
    .option('--preset <name>', 'micro or tiny', 'micro')
    .option('--backend <name>', 'webgpu, fast-cpu, cpu (the JS references) or both (all of them)', 'both')
    .option('-G, --group <n>', 'sequences generated together', '8')
    .option('--prompt <n>', 'prompt tokens per sequence', '128')
    .option('--decode <n>', 'decode steps', '32')
    .option('--json', 'print one JSON document on stdout')
    .action((o: { preset: string; backend: string; group: string; prompt: string; decode: string; json?: boolean }) =>
      runCommand(async () => {
        const preset = presetOf(o.preset);
        const results: ModelBenchResult[] = [];
        for (const b of await modelBackends(o.backend)) {
          process.stderr.write(`bench: generate ${preset.name} on ${b.name}\n`);
          results.push(...(await benchGenerate(b, preset, { G: Number(o.group), P: Number(o.prompt), D: Number(o.decode) })));
        }
        if (o.json) printJson({ results });
        else console.log(modelTable(results));
        process.exit(0);
      }),
    );
  bench
    .command('train')
    .description('training tokens/s (forward + backward + AdamW) at a preset, with memory')
    .option('--preset <name>', 'micro or tiny', 'micro')
    .option('--backend <name>', 'webgpu, fast-cpu, cpu (the JS references) or both (all of them)', 'both')
    .option('--rows <n>', 'rows per step (B)', '4')
    .option('--tokens <n>', 'tokens per row (T)', '256')
    .option('--steps <n>', 'timed steps', '2')
    .option('--json', 'print one JSON document on stdout')
    .action((o: { preset: string; backend: string; rows: string; tokens: string; steps: string; json?: boolean }) =>
      runCommand(async () => {
        const preset = presetOf(o.preset);
        const results: ModelBenchResult[] = [];
        for (const b of await modelBackends(o.backend)) {
          process.stderr.write(`bench: train ${preset.name} on ${b.name}\n`);
          results.push(await benchTrain(b, preset, { B: Number(o.rows), T: Number(o.tokens), steps: Number(o.steps) }));
        }
        if (o.json) printJson({ results });
        else console.log(modelTable(results));
        process.exit(0);
      }),
    );
}
