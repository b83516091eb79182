// `webswe bench kernels`: op throughput with napkin math and the TF.js peer's ratio; `bench generate`
// and `bench train` (model throughput; `bench train --dapo`: a real DAPO iteration's time split).
import os from 'node:os';
import type { Command } from 'commander';
import { nodeContext, nodeGpu } from '../gpu/adapter.node.ts';
import { benchKernels, type BenchResult, type ShapeSet } from '../bench/kernels.ts';
import { startTfPeer } from '../bench/peer-tfjs.ts';
import { UserError, fmtBytes, printJson, runCommand } from './output.ts';
import { benchGenerate, benchTrain, LARGE_SHAPE_PARAMS, type ModelBenchBackend, type ModelBenchResult } from '../rl/throughput.ts';
import { paramCount } from '../model/config.ts';
import { modelShape, shapeOfModel, SHAPE_NAMES, type ModelShape } from '../model/shapes.ts';
import { CpuBackend } from '../ops/reference/backend.ts';
import { FastCpuBackend } from '../ops/fast-cpu/backend.ts';
import { WebGpuBackend } from '../ops/webgpu/backend.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { probeNodeAdapter } from '../gpu/adapter.node.ts';
import { registerSandboxBench } from './bench-sandbox.ts';
import { benchDapo, compareOverlap, dapoBenchConfig, type DapoBenchOptions, type DapoBenchResult, type OverlapComparison } from '../bench/dapo.ts';
import { ConfigError, parseOverrides, resolveConfig } from '../rl/config.ts';
import { RUN_PRESETS } from '../rl/presets.ts';
import { sandboxFactory } from '../sandbox/index.node.ts';
import { MODEL_PRESETS, modelPreset } from '../model/presets.ts';
import { toHfConfig } from '../model/config.ts';
import { openBackend, refuseOldBackendName } from './backend.ts';
import { nodeThreads, wasmBackendNode } from '../ops/wasm/threads.node.ts';
import { benchCpuOps, measureCpuPeak, type CpuOpResult, type CpuPeak } from '../bench/cpu-roofline.ts';
import { readTaskFile } from './task-file.ts';

function table(rows: BenchResult[]): string {
  const head = ['op', 'shape', 'ms', 'rate', 'peer ms', 'speed-up (peer ms / ours)', 'napkin'];
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

/** The CPU roofline: the SIMD peak on this machine, and the WASM backend's hot ops against it. */
async function cpuRoofline(onProgress: (label: string) => void): Promise<{ peak: CpuPeak; ops: CpuOpResult[] }> {
  const be = await wasmBackendNode(nodeThreads());
  try {
    onProgress('SIMD peak');
    const peak = await measureCpuPeak(be);
    return { peak, ops: await benchCpuOps(be, new FastCpuBackend(), peak, onProgress) };
  } finally {
    be.close();
  }
}

function cpuTable({ peak, ops }: { peak: CpuPeak; ops: CpuOpResult[] }): string {
  const head = `cpu roofline: SIMD f32 multiply-add peak ${peak.one_thread_gflops.toFixed(1)} GFLOP/s on one thread, ${peak.all_threads_gflops.toFixed(1)} GFLOP/s on ${peak.threads}; read bandwidth ${peak.read_gbps.toFixed(1)} GB/s on ${peak.threads} (measured by the WASM kernels peak_item and stream_item, the latter over 128 MiB)`;
  const rows = ops.map((o) => [o.op, o.shape, `${o.ms.toFixed(2)} ms`, `${o.gflops.toFixed(1)} GFLOP/s`, `${(100 * o.share_of_peak).toFixed(0)} % of peak`, `fast-cpu ${o.fast_cpu_ms.toFixed(1)} ms`, `speed-up ${o.speedup.toFixed(1)}×`]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return [head, `wasm backend, tiny's training shapes (B 4 × T 256), ${peak.threads} threads:`, ...rows.map((r) => '  ' + r.map((c, i) => c.padEnd(widths[i]!)).join('  '))].join('\n');
}

export function registerBench(program: Command): void {
  const bench = program.command('bench').description('throughput benchmarks (figures beside a peer measured in the same run)');
  registerModelBench(bench);
  registerSandboxBench(bench); // `bench sandbox`: src/cli/bench-sandbox.ts over src/bench/sandbox.node.ts
  bench
    .command('kernels')
    .description('every op at training shapes; matmul and attention beside TF.js WebGPU on the same adapter')
    .option('--shapes <set>', 'small (CPU-only machines) or large (a real GPU)', 'small')
    .option('--no-peer', 'skip the TF.js peer')
    .option('--no-cpu', 'skip the CPU roofline (the WASM backend against the measured SIMD peak)')
    .option('--json', 'print one JSON document on stdout')
    .action((opts: { shapes: string; peer: boolean; cpu: boolean; json?: boolean }) =>
      runCommand(async () => {
        if (opts.shapes !== 'small' && opts.shapes !== 'large') throw new UserError(`--shapes must be small or large, got "${opts.shapes}"`);
        const cpu = opts.cpu ? await cpuRoofline((label) => process.stderr.write(`bench: cpu ${label}\n`)) : null;
        const ctx = await nodeContext();
        const peer = opts.peer ? await startTfPeer(await nodeGpu()) : null;
        const t0 = performance.now();
        const results = await benchKernels(ctx, {
          shapes: opts.shapes as ShapeSet,
          peer,
          onProgress: (label) => process.stderr.write(`bench: ${label} (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`),
        });
        const doc = { results, adapter: ctx.adapter, shapes: opts.shapes, wall_s: (performance.now() - t0) / 1000, ...(cpu ? { cpu } : {}) };
        if (opts.json) printJson(doc);
        else {
          if (cpu) console.log(`${cpuTable(cpu)}\n`);
          console.log(`adapter: ${ctx.adapter.vendor} / ${ctx.adapter.architecture} (${ctx.adapter.description})`);
          console.log(table(results));
        }
        process.exit(0); // TF.js keeps its device alive; nothing else is pending
      }),
    );
}

const MODEL_BACKENDS = ['webgpu', 'wasm', 'fast-cpu', 'reference'];

/** The first pretrained-sized shape measured (over LARGE_SHAPE_PARAMS), if any. */
const largeShape = (shapes: readonly ModelShape[]) => shapes.find((s) => paramCount(s.config) > LARGE_SHAPE_PARAMS);

/**
 * `--backend`'s names: a comma list of webgpu, wasm, fast-cpu and reference (the JS references), or both (all
 * of them; at a pretrained shape webgpu and wasm only, as the JS backends would take hours there: named, they
 * run). The note says so when both was narrowed.
 */
export function backendNames(which: string, shapes: readonly ModelShape[]): { names: string[]; note?: string } {
  if (which !== 'both') return { names: which.split(',').map((w) => w.trim()) };
  const big = largeShape(shapes);
  if (!big) return { names: MODEL_BACKENDS };
  return { names: ['webgpu', 'wasm'], note: `bench: at ${big.name}, both means webgpu and wasm (fast-cpu and reference would take hours there; name them with --backend to measure them)` };
}

async function modelBackends(which: string, shapes: readonly ModelShape[] = []): Promise<ModelBenchBackend[]> {
  const { names, note } = backendNames(which, shapes);
  if (note) process.stderr.write(note + '\n');
  for (const n of names) refuseOldBackendName(n);
  const bad = names.find((n) => !MODEL_BACKENDS.includes(n));
  if (bad !== undefined || !names.length) throw new UserError(`--backend must be a comma list of webgpu, wasm, fast-cpu and reference, or both (all of them), got "${which}"`);
  const out: ModelBenchBackend[] = [];
  for (const name of MODEL_BACKENDS.filter((n) => names.includes(n))) {
    if (name === 'webgpu') {
      const probe = await probeNodeAdapter();
      if (probe.adapter) {
        const ctx = await nodeContext();
        out.push({
          name: `webgpu (${ctx.adapter.architecture || ctx.adapter.vendor})`,
          be: new WebGpuBackend(ctx) as unknown as Backend<Tensor>,
          resetPeak: () => ctx.resetPeak(),
          peak: () => ctx.peakBytes,
          submissions: () => ctx.submissions,
          software: ctx.adapter.isFallbackAdapter,
        });
      } else if (names.length === 1 || which !== 'both') throw new UserError(`no WebGPU adapter: ${probe.reason}`);
    }
    if (name === 'wasm') {
      const threads = nodeThreads();
      out.push({ name: `wasm (SIMD, ${threads} thread${threads === 1 ? '' : 's'})`, be: (await wasmBackendNode(threads)) as unknown as Backend<Tensor> });
    }
    if (name === 'fast-cpu') out.push({ name: FAST_CPU, be: new FastCpuBackend() as unknown as Backend<Tensor> });
    if (name === 'reference') out.push({ name: 'reference (plain JS)', be: new CpuBackend() as unknown as Backend<Tensor> });
  }
  return out;
}

const FAST_CPU = 'fast-cpu (blocked JS)';

/**
 * A software adapter (SwiftShader) multiplies at ~1 GFLOP/s, and a pretrained shape's forward costs ~1 GFLOP
 * a token: its default sizes would take hours there. So when such an adapter is among the backends and a
 * pretrained-sized shape is measured, the sizes the user left at their defaults take these (every backend of
 * the command measures the same sizes, so the ratios stay like for like), and stderr says so.
 */
export function softwareSizes<K extends string>(given: (k: K) => boolean, o: { [k in K]: string }, shapes: readonly ModelShape[], backends: readonly Pick<ModelBenchBackend, 'name' | 'software'>[], small: Record<K, string>): string | null {
  const soft = backends.find((b) => b.software), big = largeShape(shapes);
  if (!soft || !big) return null;
  const changed = (Object.keys(small) as K[]).filter((k) => !given(k));
  if (!changed.length) return null;
  for (const k of changed) o[k] = small[k];
  const flag = (k: string) => (k === 'group' ? '-G' : `--${k}`);
  return `bench: ${soft.name} is a GPU emulated on the CPU (~1 GFLOP/s); ${big.name} measured at ${changed.map((k) => `${flag(k)} ${small[k]}`).join(', ')} on every backend (give the sizes to measure others)`;
}

/** softwareSizes for a command: the sizes given on its command line are kept; the note goes to stderr. */
function softwareSizesOf<K extends string>(cmd: Command, o: { [k in K]: string }, shapes: readonly ModelShape[], backends: readonly ModelBenchBackend[], small: Record<K, string>): void {
  const note = softwareSizes<K>((k) => cmd.getOptionValueSource(k) === 'cli', o, shapes, backends, small);
  if (note) process.stderr.write(note + '\n');
}

/** Each row's tokens/s over fast-cpu's for the same measurement, when fast-cpu ran in this command. */
/** Each row's tokens/s over the wasm row's and the fast-cpu row's for the same measurement, where those ran
 *  in this command (the CPU backends a WebGPU figure is weighed against). */
function withRatios(rows: ModelBenchResult[]): (ModelBenchResult & { vs_wasm?: number; vs_fast_cpu?: number })[] {
  const over = (r: ModelBenchResult, backend: (name: string) => boolean) => {
    const peer = rows.find((p) => backend(p.backend) && p !== r && p.name === r.name && p.model === r.model && p.shape === r.shape);
    return peer ? r.tokens_per_s / peer.tokens_per_s : undefined;
  };
  return rows.map((r) => {
    const vsWasm = over(r, (n) => n.startsWith('wasm ')), vsFast = over(r, (n) => n === FAST_CPU);
    return { ...r, ...(vsWasm !== undefined ? { vs_wasm: vsWasm } : {}), ...(vsFast !== undefined ? { vs_fast_cpu: vsFast } : {}) };
  });
}

/** A per-token rate as a fraction a person reads: 0.031 → "1/32". */
const fmtPerToken = (x: number) => (x > 0 && x < 1 ? `1/${(1 / x).toFixed(0)}` : x.toFixed(2));

function modelTable(rows: ModelBenchResult[]): string {
  return withRatios(rows)
    .map((r) => `${r.name.padEnd(11)} ${r.model.padEnd(12)} ${r.backend.padEnd(24)} ${r.shape.padEnd(20)} ${r.ms.toFixed(0).padStart(8)} ms ${r.tokens_per_s.toFixed(1).padStart(9)} tok/s${r.vs_wasm !== undefined ? `  ${r.vs_wasm.toFixed(2).padStart(6)}× wasm` : ''}${r.vs_fast_cpu !== undefined ? `  ${r.vs_fast_cpu.toFixed(2).padStart(6)}× fast-cpu` : ''}${r.vs_padded !== undefined ? `  ${r.vs_padded.toFixed(2)}× padded` : ''}${r.vs_one_step !== undefined ? `  ${r.vs_one_step.toFixed(2)}× 1-step` : ''}${r.readbacks_per_token !== undefined ? `  ${fmtPerToken(r.readbacks_per_token)} read-backs${r.submits_per_token !== undefined ? `, ${fmtPerToken(r.submits_per_token)} submits` : ''}/token` : ''}${r.weights_gbps !== undefined ? `  weights ${r.weights_gbps.toFixed(2)} GB/s` : ''}  planned ${fmtBytes(r.planned_bytes)}${r.peak_bytes !== undefined ? `, peak ${fmtBytes(r.peak_bytes)}` : ''}`)
    .join('\n');
}

/** --preset's help, on every bench that measures a model shape. */
const PRESET_HELP = `instead of --model: a run preset (${Object.keys(RUN_PRESETS).join(', ')}: the shape its run trains at, random weights) or a shape name`;

export function registerModelBench(bench: Command): void {
  /** The shape(s) to measure: --model's, or --preset's, which takes a run preset (the shape its run trains at:
   *  qwen-coder-lora's Hub model has the qwen2.5-coder-0.5b shape) or a shape name. */
  const modelArg = (o: { model: string; preset?: string }, cmd: Command): string => {
    if (o.preset === undefined) return o.model;
    if (cmd.getOptionValueSource('model') === 'cli') throw new UserError(`give the shape with --model or with --preset, not both (got --model ${o.model} --preset ${o.preset})`);
    if (modelShape(o.preset)) return o.preset;
    if (!Object.hasOwn(RUN_PRESETS, o.preset)) throw new UserError(`--preset must be a run preset (${Object.keys(RUN_PRESETS).join(', ')}) or a model shape (${SHAPE_NAMES.join(', ')}), got "${o.preset}"`);
    const model = resolveConfig(RUN_PRESETS[o.preset]!.overrides).model.preset;
    const shape = shapeOfModel(model);
    if (!shape) throw new UserError(`the run preset ${o.preset} trains ${model}, which is no shape bench knows (${SHAPE_NAMES.join(', ')})`);
    return shape.name;
  };
  const shapesOf = (o: { model: string; preset?: string }, cmd: Command): ModelShape[] => {
    const model = modelArg(o, cmd);
    return (model === 'both' ? ['scratch-160k', 'scratch-5m'] : model.split(',')).map((n) => {
      const shape = modelShape(n.trim());
      if (!shape) throw new UserError(`--model must be one of ${SHAPE_NAMES.join(', ')} (a comma list, or both), got "${n.trim()}"`);
      return shape;
    });
  };
  bench
    .command('dist')
    .description('a shared run under load on loopback: a learner, a real nats-server and N simulated contributors (a share hostile); accepted results/s, rejections by reason, round time against the learner alone, poisoned groups (checked)')
    .option('--contributors <n>', 'simulated contributors (each its own connection and user)', '100')
    .option('--hostile <share>', 'share of them that forge (reward, log-prob, stale, oversized, malformed, other seed, replay, other subject)', '0.3')
    .option('--rounds <n>', 'shared generation rounds (each --tasks groups of new work)', '4')
    .option('--tasks <n>', 'groups per round', '16')
    .option('-G, --group <n>', 'episodes per group', '4')
    .option('--model <shape>', `the learner's model shape, random weights (${SHAPE_NAMES.join(', ')}; a pretrained shape with LoRA rank 16 and a BPE filled up to its vocabulary)`, 'scratch-30k')
    .option('--preset <name>', PRESET_HELP)
    .option('--backend <name>', "the learner's backend: fast-cpu or wasm (default: fast-cpu for a from-scratch shape, wasm for a pretrained one)")
    .option('--audit <share>', "dist.auditShare: the share of results whose sampled tokens and log-probs the learner checks with its forward pass (replay and grading run on every one); below 1 the report adds the bound's figures", '1')
    .option('--overlap', "instead: a shared DAPO phase (micro's settings and model shape, or --model's, at random init) with dist.maxOffPolicy 0 and then 1, its contributors `webswe contribute` processes (--contributors, default 1 here): the learner's iteration time and idle share in each, and the ratio")
    .option('--iterations <n>', '--overlap: DAPO iterations of each run (the first is not counted: its round is never issued early)', '4')
    .option('--json', 'print one JSON document on stdout')
    .action((o: { contributors: string; hostile: string; rounds: string; tasks: string; group: string; model: string; preset?: string; backend?: string; audit: string; overlap?: boolean; iterations: string; json?: boolean }, cmd: Command) =>
      runCommand(async () => {
        o.model = modelArg(o, cmd);
        if (!modelShape(o.model)) throw new UserError(`--model must be one of ${SHAPE_NAMES.join(', ')}, got "${o.model}"`);
        if (o.overlap && !modelPreset(o.model)) throw new UserError(`--overlap runs a from-scratch shape (${Object.keys(MODEL_PRESETS).join(', ')}), got "${o.model}"`);
        const backend = o.backend ?? (modelPreset(o.model) ? 'fast-cpu' : 'wasm');
        if (backend !== 'fast-cpu' && backend !== 'wasm') throw new UserError(`--backend must be fast-cpu or wasm, got "${backend}"`);
        const tasks = readTaskFile('public/tasks/level0/train.jsonl', { max: 64, difficulty: 'token', select: 'shortest' });
        const n = (s: string, what: string, min: number) => {
          const v = Number(s);
          if (!Number.isFinite(v) || v < min) throw new UserError(`--${what} must be a number ≥ ${min}, got "${s}"`);
          return v;
        };
        if (o.overlap) {
          const { benchOverlap } = await import('../bench/dist-overlap.node.ts');
          const given = (k: string) => cmd.getOptionValueSource(k) !== 'default';
          const r = await benchOverlap({
            tasks, test: tasks.slice(0, 1), contributors: given('contributors') ? Math.round(n(o.contributors, 'contributors', 1)) : 1,
            iterations: Math.round(n(o.iterations, 'iterations', 2)), tasksPerIteration: given('tasks') ? Math.round(n(o.tasks, 'tasks', 1)) : 8,
            groupSize: Math.round(n(o.group, 'group', 2)), ...(given('model') ? { model: o.model } : {}), seed: 1,
            onIteration: (x) => process.stderr.write(`bench: dist --overlap maxOffPolicy ${x.maxOffPolicy}: iteration ${x.iteration + 1} in ${x.seconds.toFixed(1)} s (waited ${x.waitS.toFixed(1)} s)\n`),
          });
          if (o.json) return printJson(r);
          console.log(`shared DAPO phase on loopback · ${r.model} at random init · ${r.contributors} contributor process${r.contributors > 1 ? 'es' : ''} · ${os.availableParallelism()} cores`);
          for (const x of r.runs) console.log(`dist.maxOffPolicy ${x.max_off_policy}: ${x.iteration_s.toFixed(2)} s an iteration after the first, the learner idle ${(100 * x.idle_share).toFixed(0)} % of it (waiting for results) · accepted ${x.accepted} groups, played by the learner ${x.played_by_learner}`);
          console.log(`overlapping rounds: ×${r.speedup.toFixed(2)} iterations per second`);
          process.exit(0);
        }
        const { benchDist } = await import('../bench/dist.node.ts');
        const hostile = n(o.hostile, 'hostile', 0);
        if (hostile > 1) throw new UserError(`--hostile is a share in 0..1, got ${hostile}`);
        const audit = n(o.audit, 'audit', 0.01);
        if (audit > 1) throw new UserError(`--audit is a share in 0.01..1, got ${audit}`);
        const r = await benchDist({
          tasks, contributors: Math.round(n(o.contributors, 'contributors', 1)), hostile, rounds: Math.round(n(o.rounds, 'rounds', 1)),
          tasksPerRound: Math.round(n(o.tasks, 'tasks', 1)), groupSize: Math.round(n(o.group, 'group', 1)), seed: 1, model: o.model, backend, audit,
          onRound: (x) => process.stderr.write(`bench: dist round ${x.round + 1}: ${x.accepted} groups in ${x.seconds.toFixed(1)} s\n`),
          onStep: (what) => process.stderr.write(`bench: dist ${what}\n`),
        });
        if (o.json) return printJson(r);
        console.log(`shared run on loopback · ${r.contributors} contributors (${Object.entries(r.hostile).filter(([, c]) => c).map(([k, c]) => `${c} ${k}`).join(', ')} hostile) · ${r.rounds} rounds, ${r.groups} groups of ${r.episodes / Math.max(1, r.groups)} in ${r.seconds.toFixed(0)} s`);
        console.log(`accepted ${r.accepted_per_s.toFixed(2)} results/s · rejected: ${Object.entries(r.rejected).map(([k, c]) => `${k} ${c}`).join(', ') || 'none'} · refused by the server: ${r.refused_by_server} · played by the learner: ${r.played_by_learner}`);
        console.log(`round: ${r.round_s_shared.toFixed(2)} s shared (the learner verifying) vs ${r.round_s_alone.toFixed(2)} s the learner playing it alone (×${r.ratio_alone_over_shared.toFixed(2)})`);
        console.log(`poisoned groups: ${r.poisoned} (checked: every kept group against the honest play of its item) · accepted from hostile contributors: ${r.hostile_accepted}`);
        const p = r.play_per_episode, v = r.verify_per_episode, ms = (x: number) => `${x.toFixed(1)} ms`;
        if (r.audit_share < 1) {
          console.log(`audits: ${(100 * r.audit_share).toFixed(0)} % of results (${r.audited} of ${r.drawn} drawn were audited) · banned: ${Object.entries(r.banned).map(([k, c]) => `${c} ${k}`).join(', ') || 'none'} · accepted results dropped on a ban: ${r.dropped}`);
          console.log(`forged results in kept groups per contributor forging what only an audit catches (logprob, other_seed): ${r.forged_kept_per_evader.toFixed(2)} (the bound's mean (1 − p)/p: ${r.forged_kept_bound.toFixed(2)})`);
        }
        console.log(`per episode at ${r.model} on ${r.backend}, measured apart: play ${ms(p.total_ms)} (generation ${ms(p.generation_ms)}, sandbox and grading ${ms(p.sandbox_ms)}) · verify ${ms(v.total_ms)} (sandbox replay and grading ${ms(v.replay_ms)}, log-prob forward ${ms(v.forward_ms)}, sampler and log-prob checks ${ms(v.check_ms)}) · verify/play ${(100 * r.verify_over_play).toFixed(0)} %`);
        process.exit(0);
      }),
    );

  bench
    .command('config <shape>')
    .description(`print a model shape's config.json in the Hugging Face form (${SHAPE_NAMES.join(', ')}), so that a peer (scripts/torch-peer.py) builds the same model`)
    .action((name: string) =>
      runCommand(async () => {
        const shape = modelShape(name);
        if (!shape) throw new UserError(`the shape must be one of ${SHAPE_NAMES.join(', ')}, got "${name}"`);
        printJson({ ...toHfConfig(shape.config), ...(shape.lora ? { webswe_lora: { rank: shape.lora.rank, alpha: shape.lora.alpha, targets: [...shape.lora.targets] } } : {}) });
      }),
    );
  bench
    .command('generate')
    .description('prefill and decode tokens/s for G sequences of a model shape (random weights), each backend beside the others, with memory')
    .option('--model <shape>', `${SHAPE_NAMES.join(', ')} (random weights of the pretrained model's shape), a comma list, or both (scratch-160k and scratch-5m)`, 'scratch-160k')
    .option('--preset <name>', PRESET_HELP)
    .option('--backend <name>', 'a comma list of webgpu, wasm, fast-cpu, reference (the plain JS oracle), or both (all of them; webgpu and wasm at a pretrained shape)', 'both')
    .option('-G, --group <n>', 'sequences generated together (1 for a pretrained shape beside a software adapter)', '8')
    .option('--prompt <n>', 'prompt tokens per sequence (16 for a pretrained shape beside a software adapter)', '128')
    .option('--decode <n>', 'decode steps (4 for a pretrained shape beside a software adapter)', '32')
    .option('--json', 'print one JSON document on stdout')
    .action((o: { model: string; preset?: string; backend: string; group: string; prompt: string; decode: string; json?: boolean }, cmd: Command) =>
      runCommand(async () => {
        const presets = shapesOf(o, cmd);
        const results: ModelBenchResult[] = [];
        const backends = await modelBackends(o.backend, presets);
        softwareSizesOf<'group' | 'prompt' | 'decode'>(cmd, o, presets, backends, { group: '1', prompt: '16', decode: '4' });
        for (const preset of presets) {
          for (const b of backends) {
            process.stderr.write(`bench: generate ${preset.name} on ${b.name}\n`);
            results.push(...(await benchGenerate(b, preset, { G: Number(o.group), P: Number(o.prompt), D: Number(o.decode) })));
          }
        }
        if (o.json) printJson({ results: withRatios(results) });
        else console.log(modelTable(results));
        process.exit(0);
      }),
    );
  bench
    .command('train')
    .description('training tokens/s (forward + backward + AdamW; LoRA at a pretrained shape) of a model shape (random weights), each backend beside the others, with memory; --dapo: the time split of a real DAPO iteration')
    .option('--model <shape>', `${SHAPE_NAMES.join(', ')} (random weights of the pretrained model's shape, LoRA rank 16), a comma list, or both (scratch-160k and scratch-5m; --dapo: one from-scratch shape, with the settings of the run preset that trains it)`, 'scratch-160k')
    .option('--preset <name>', PRESET_HELP)
    .option('--backend <name>', 'a comma list of webgpu, wasm, fast-cpu, reference (the plain JS oracle), or both (all of them; webgpu and wasm at a pretrained shape) (default: both); with --dapo also auto, the default there (as a run picks: measured on a hardware adapter, else wasm)')
    .option('--rows <n>', 'rows per step (B) (1 for a pretrained shape beside a software adapter)', '4')
    .option('--tokens <n>', 'tokens per row (T) (16 for a pretrained shape beside a software adapter)', '256')
    .option('--steps <n>', 'timed steps (1 for a pretrained shape beside a software adapter)', '2')
    .option('--dapo', 'one real DAPO iteration (episodes on the shortest training tasks in the node sandbox, then the update): generation / sandbox / forward-backward / optimiser seconds and tokens/s')
    .option('--overlap <mode>', '--dapo: on, off, or both (the iteration\'s rollout batch with and without overlap: wall time, and a check that every run plays the same trajectories)', 'on')
    .option('--repeat <n>', '--dapo --overlap both: runs of each (order alternating; medians reported)', '3')
    .option('--set <key=value...>', '--dapo: override a config field, e.g. --set dapo.groupSize=8')
    .option('--json', 'print one JSON document on stdout')
    .action((o: { model: string; preset?: string; backend?: string; rows: string; tokens: string; steps: string; dapo?: boolean; overlap: string; repeat: string; set?: string[]; json?: boolean }, cmd: Command) =>
      runCommand(async () => {
        const presets = shapesOf(o, cmd);
        if (o.dapo) process.exit(await benchDapoCommand({ ...o, model: presets.map((p) => p.name).join(','), backend: o.backend ?? 'auto' })); // exit: a WebGPU device would keep the process alive
        if (o.set?.length || o.overlap !== 'on' || o.repeat !== '3') throw new UserError('--set, --overlap and --repeat apply to --dapo only');
        const results: ModelBenchResult[] = [];
        const backends = await modelBackends(o.backend ?? 'both', presets);
        softwareSizesOf<'rows' | 'tokens' | 'steps'>(cmd, o, presets, backends, { rows: '1', tokens: '16', steps: '1' });
        for (const preset of presets) {
          for (const b of backends) {
            process.stderr.write(`bench: train ${preset.name} on ${b.name}\n`);
            results.push(await benchTrain(b, preset, { B: Number(o.rows), T: Number(o.tokens), steps: Number(o.steps) }));
          }
        }
        if (o.json) printJson({ results: withRatios(results) });
        else console.log(modelTable(results));
        process.exit(0);
      }),
    );
}

/** `bench train --dapo`: one DAPO iteration per backend; with --overlap both, its rollout batch
 *  timed with and without overlap instead (--repeat times each, order alternating). */
async function benchDapoCommand(o: { model: string; backend: string; overlap: string; repeat: string; set?: string[]; json?: boolean }): Promise<number> {
  if (!['on', 'off', 'both'].includes(o.overlap)) throw new UserError(`--overlap must be on, off or both, got "${o.overlap}"`);
  const repeats = Number(o.repeat);
  if (!Number.isInteger(repeats) || repeats < 1) throw new UserError(`--repeat must be a whole number ≥ 1, got "${o.repeat}"`);
  let overrides;
  try {
    overrides = parseOverrides(o.set ?? []);
    if (o.overlap !== 'both') overrides['agent.overlap'] = o.overlap === 'on';
    dapoBenchConfig(o.model, overrides); // refuse a bad --model or --set before any work
  } catch (e) {
    if (e instanceof ConfigError || /--model/.test((e as Error).message)) throw new UserError((e as Error).message);
    throw e;
  }
  const cfg = dapoBenchConfig(o.model, overrides);
  const file = cfg.tasks.train;
  const tasks = readTaskFile(file);
  const shape = modelPreset(cfg.model.preset);
  const backends = o.backend === 'auto' ? [await openBackend('auto', undefined, shape ? { cfg, config: shape.config } : undefined)] : (await modelBackends(o.backend)).map((b) => ({ be: b.be, name: b.name }));
  const t0 = performance.now();
  const results: DapoBenchResult[] = [];
  const comparisons: OverlapComparison[] = [];
  for (const b of backends) {
    const run: DapoBenchOptions = {
      model: o.model, be: b.be, backend: b.name, sandbox: sandboxFactory(cfg.agent.sandbox), tasks, overrides,
      onProgress: (p) => process.stderr.write(`bench: dapo ${o.model} on ${b.name}: ${p.stage} ${p.done}/${p.total} (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`),
    };
    if (o.overlap === 'both') comparisons.push(await compareOverlap(run, repeats));
    else results.push((await benchDapo(run)).result);
  }
  if (o.json) printJson(o.overlap === 'both' ? { overlap: comparisons } : { results });
  else console.log([...results.map(dapoTable), ...comparisons.map(overlapTable)].join('\n\n'));
  return 0;
}

function dapoTable(r: DapoBenchResult): string {
  const t = r.timing, s = r.settings;
  const pct = (x: number) => `${((100 * x) / Math.max(1e-9, t.total_s)).toFixed(0).padStart(3)} %`;
  const line = (name: string, secs: number, note = '') => `${name.padEnd(24)} ${secs.toFixed(2).padStart(8)} s  ${pct(secs)}${note}`;
  return [
    `DAPO iteration · ${r.model} · ${r.backend} · overlap ${r.overlap ? 'on' : 'off'} · ${s.tasks} tasks × G ${s.group_size} = ${s.episodes} episodes, ≤ ${s.max_turns} turns of ≤ ${s.action_tokens} tokens`,
    line('generation', t.generation_s),
    line('sandbox, not overlapped', t.sandbox_s - t.sandbox_overlapped_s, `   (sandbox ${t.sandbox_s.toFixed(2)} s, ${t.sandbox_overlapped_s.toFixed(2)} s of it during generation)`),
    line('forward/backward', t.forward_backward_s),
    line('optimiser', t.optimizer_s),
    line('other', t.other_s),
    line('total', t.total_s, `   (rollouts ${t.rollout_s.toFixed(2)} s)`),
    `generation ${String(r.tokens.generated).padStart(7)} tokens ${r.generation_tokens_per_s.toFixed(1).padStart(9)} tok/s`,
    `training   ${String(r.tokens.trained).padStart(7)} tokens ${r.training_tokens_per_s.toFixed(1).padStart(9)} tok/s`,
  ].join('\n');
}

function overlapTable(c: OverlapComparison): string {
  const s = c.settings;
  const rows = c.runs.map((r, i) => `${String(Math.floor(i / 2) + 1).padStart(6)}  ${(r.overlap ? 'on' : 'off').padEnd(7)} ${r.rollout_s.toFixed(2).padStart(9)} ${r.generation_s.toFixed(2).padStart(12)} ${r.sandbox_s.toFixed(2).padStart(9)} ${r.sandbox_overlapped_s.toFixed(2).padStart(11)}`);
  return [
    `DAPO rollout batch · ${c.model} · ${c.backend} · ${s.tasks} tasks × G ${s.group_size} = ${s.episodes} episodes, ≤ ${s.max_turns} turns of ≤ ${s.action_tokens} tokens`,
    'repeat  overlap  rollout s  generation s  sandbox s  overlapped s',
    ...rows,
    `median rollout: ${c.median_rollout_s.with_overlap.toFixed(2)} s with overlap, ${c.median_rollout_s.without_overlap.toFixed(2)} s without (${c.speedup.toFixed(2)}×); every run played the same trajectories (${s.episodes} episodes, ${c.sampled_tokens} sampled tokens)`,
  ].join('\n');
}
