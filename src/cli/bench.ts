// `webswe bench kernels`: op throughput with napkin math and the TF.js peer's ratio.
import type { Command } from 'commander';
import { nodeContext, nodeGpu } from '../gpu/adapter.node.ts';
import { benchKernels, type BenchResult, type ShapeSet } from '../bench/kernels.ts';
import { startTfPeer } from '../bench/peer-tfjs.ts';
import { UserError, printJson, runCommand } from './output.ts';

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
