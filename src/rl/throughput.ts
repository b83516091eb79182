// A model's throughput on a backend, measured: what the first screen prices a run with (workers/estimate.ts) and what
// `webswe bench generate` and `webswe bench train` print, each backend beside the others in the same run. Generation: G sequences, prefill P prompt tokens
// each, then D decode steps (prefill and decode tokens/s), and an agent turn of uneven lengths with
// packed rows beside the padded layout. Training: B rows × T tokens, forward + backward + AdamW
// (tokens/s), over every weight, or over LoRA adapters where the shape trains so (a pretrained shape). Memory: the planner's figure and, on WebGPU, the measured peak.
import { paramCount, tokenWeights } from '../model/config.ts';
import { KvGenerator } from '../model/generate.ts';
import { initParams } from '../model/init.ts';
import { adapterShapes, initAdapters, loraModules } from '../model/lora.ts';
import type { ModelShape } from '../model/shapes.ts';
import { planMemory } from '../model/planner.ts';
import { uploadParams, zeroGrads } from '../model/params.ts';
import { Transformer } from '../model/transformer.ts';
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';
import { Rng } from '../random.ts';
import { AdamW } from './optimizer.ts';
import { packEpisodes } from './pack.ts';
import { sftStep } from './steps.ts';

export interface ModelBenchResult {
  name: string;
  backend: string;
  /** The model shape (model/shapes.ts). */
  model: string;
  shape: string;
  ms: number;
  tokens_per_s: number;
  /** Bytes the memory planner predicts for this shape. */
  planned_bytes: number;
  /** Peak bytes of GPU buffers allocated while measured, the weights included: the planner's figure's
   *  counterpart (WebGPU only). */
  peak_bytes?: number;
  /** tokens/s over the peer row's measured in the same run (packed turns: over padded ones). */
  vs_padded?: number;
  /** Decode: read-back rounds (awaited reads of sampled ids) per generated token, over all rows. */
  readbacks_per_token?: number;
  /** Decode on WebGPU: command-buffer submissions per generated token. */
  submits_per_token?: number;
  /** Decode in windows: tokens/s over the one-step loop's in the same run. */
  vs_one_step?: number;
  /** Decode: GB/s (10⁹ bytes) of f32 weights, every one a token is multiplied by read once a step: against the memory's bandwidth
   *  (`bench kernels`' CPU roofline measures the machine's), what bounds decoding at a large shape. */
  weights_gbps?: number;
}

export interface ModelBenchBackend {
  name: string;
  be: Backend<Tensor>;
  /** Peak tracking, where the backend has it: the peak restarts at the bytes allocated now. */
  resetPeak?(): void;
  peak?(): number;
  /** Command buffers submitted so far, where the backend has a queue (WebGPU). */
  submissions?(): number;
  /** WebGPU on a software fallback adapter (SwiftShader: a GPU emulated on the CPU). */
  software?: boolean;
}

/**
 * Generation at G sequences of P prompt tokens and D decode steps, after one untimed pass: the prefill and
 * decode rows, and unless `turns` is false (a rate measurement needs only those two) the one-step decode
 * beside a windowed one and an uneven agent turn, packed and padded.
 */
export async function benchGenerate(b: ModelBenchBackend, preset: ModelShape, o: { G: number; P: number; D: number; turns?: boolean }): Promise<ModelBenchResult[]> {
  const c = preset.config;
  const model = new Transformer(b.be, c, uploadParams(b.be, c, initParams(c, 1)));
  const rng = new Rng(3);
  const prompts = Array.from({ length: o.G }, () => Array.from({ length: o.P }, () => rng.int(c.vocabSize)));
  // Warm-up, outside the timing: one whole pass at the measured sizes, so that every pipeline is
  // compiled and the JIT (JS, and V8's tier-up of WebAssembly from its baseline compiler) is done.
  const warm = new KvGenerator(model, o.G, o.P + o.D + 1);
  b.be.free(warm.append(prompts));
  await warm.generate(prompts.map(() => []), { seed: 0, maxTokens: o.D, stopIds: [] });
  warm.dispose();
  b.resetPeak?.();
  const gen = new KvGenerator(model, o.G, o.P + o.D + 1);
  let t0 = performance.now();
  b.be.free(gen.append(prompts));
  await b.be.sync();
  const prefillMs = performance.now() - t0;
  t0 = performance.now();
  const submitted = b.submissions?.();
  const out = await gen.generate(prompts.map(() => []), { seed: 1, maxTokens: o.D, stopIds: [] });
  const decodeMs = performance.now() - t0;
  const submits = submitted !== undefined ? b.submissions!() - submitted : undefined;
  const peak = b.peak?.();
  gen.dispose();
  const decoded = out.reduce((a, g) => a + g.ids.length, 0);
  const planned = planMemory(c, { batch: o.G, context: o.P + o.D, training: 'none' }).total;
  const common = { backend: b.name, model: preset.name, planned_bytes: planned, ...(peak !== undefined ? { peak_bytes: peak } : {}) };
  const weightsGbps = (ms: number) => (4 * tokenWeights(c) * o.D) / (ms / 1000) / 1e9;
  const decodeRow = {
    name: 'decode', shape: `G ${o.G} × ${o.D} steps`, ms: decodeMs, tokens_per_s: decoded / (decodeMs / 1000), ...common,
    readbacks_per_token: gen.readRounds / decoded, ...(submits !== undefined ? { submits_per_token: submits / decoded } : {}), weights_gbps: weightsGbps(decodeMs),
  };
  const prefillRow = { name: 'prefill', shape: `G ${o.G} × ${o.P} tokens`, ms: prefillMs, tokens_per_s: (o.G * o.P) / (prefillMs / 1000), ...common };
  if (o.turns === false) return [prefillRow, decodeRow];
  // Where decoding runs in windows (WebGPU), the one-step loop beside it: same tokens, one read-back a step.
  const oneStep = gen.window > 1 ? await decodeOneStep(model, prompts, o.D) : null;
  const packed = await unevenTurn(model, prompts, o.D, true), padded = await unevenTurn(model, prompts, o.D, false);
  const uneven = `G ${o.G}: ${Math.ceil(o.P / o.G)}..${o.P} + ${Math.ceil(o.D / o.G)}..${o.D}`;
  const rate = (r: { ms: number; tokens: number }) => r.tokens / (r.ms / 1000);
  return [
    prefillRow,
    { ...decodeRow, ...(oneStep ? { vs_one_step: (decoded / decodeMs) / (oneStep.tokens / oneStep.ms) } : {}) },
    ...(oneStep ? [{ name: 'decode 1-step', shape: `G ${o.G} × ${o.D} steps`, ms: oneStep.ms, tokens_per_s: oneStep.tokens / (oneStep.ms / 1000), ...common, readbacks_per_token: oneStep.rounds / oneStep.tokens, weights_gbps: weightsGbps(oneStep.ms) }] : []),
    { name: 'turn packed', shape: uneven, ms: packed.ms, tokens_per_s: rate(packed), vs_padded: rate(packed) / rate(padded), ...common },
    { name: 'turn padded', shape: uneven, ms: padded.ms, tokens_per_s: rate(padded), ...common },
  ];
}

/** The decode of benchGenerate with one read-back a step (KvGenerator.window 1), after its prefill. */
async function decodeOneStep<T extends Tensor>(model: Transformer<T>, prompts: number[][], D: number): Promise<{ ms: number; tokens: number; rounds: number }> {
  const gen = new KvGenerator(model, prompts.length, (prompts[0]?.length ?? 0) + D + 1);
  gen.window = 1;
  model.be.free(gen.append(prompts));
  await model.be.sync();
  const t0 = performance.now();
  const out = await gen.generate(prompts.map(() => []), { seed: 1, maxTokens: D, stopIds: [] });
  const ms = performance.now() - t0;
  gen.dispose();
  return { ms, tokens: out.reduce((a, g) => a + g.ids.length, 0), rounds: gen.readRounds };
}

/** An agent turn's shape: sequence g appends ⌈P·(g+1)/G⌉ tokens, then decodes ⌈D·(g+1)/G⌉; the
 *  batch pads both to its longest unless packed. Timed after one untimed pass; real tokens counted. */
async function unevenTurn<T extends Tensor>(model: Transformer<T>, prompts: number[][], D: number, pack: boolean): Promise<{ ms: number; tokens: number }> {
  const G = prompts.length, share = (n: number, g: number) => Math.max(1, Math.ceil((n * (g + 1)) / G));
  const turn = prompts.map((p, g) => p.slice(0, share(p.length, g)));
  const budget = turn.map((_, g) => share(D, g));
  let ms = 0, tokens = 0;
  for (const timed of [false, true]) {
    const gen = new KvGenerator(model, G, (prompts[0]?.length ?? 0) + D + 1);
    gen.pack = pack;
    const t0 = performance.now();
    const out = await gen.generate(turn, { seed: 2, maxTokens: budget, stopIds: [] });
    await model.be.sync();
    if (timed) [ms, tokens] = [performance.now() - t0, turn.reduce((a, t) => a + t.length, 0) + out.reduce((a, g) => a + g.ids.length, 0)];
    gen.dispose();
  }
  return { ms, tokens };
}

export async function benchTrain(b: ModelBenchBackend, preset: ModelShape, o: { B: number; T: number; steps: number }): Promise<ModelBenchResult> {
  const c = preset.config, lora = preset.lora;
  const params = uploadParams(b.be, c, initParams(c, 1));
  let trained = params;
  if (lora) {
    // The adapters beside the frozen weights (B zero, as a run starts); only they get gradients and AdamW state.
    const adapters = initAdapters(loraModules(c, lora), lora.rank, 1);
    trained = new Map([...adapterShapes(c, lora)].map(([n, shape]) => [n, b.be.fromArray(adapters.get(n)!, shape, n)]));
    for (const [n, t] of trained) params.set(n, t);
  }
  const model = new Transformer(b.be, c, params, lora);
  const opt = new AdamW(b.be, trained, zeroGrads(b.be, trained), { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, maxGradNorm: 1 });
  const rng = new Rng(4);
  const eps = Array.from({ length: o.B }, () => {
    const ids = Array.from({ length: o.T }, () => rng.int(c.vocabSize));
    return { ids, mask: ids.map((_, i) => (i > 0 ? 1 : 0)) };
  });
  const rows = packEpisodes(eps, o.T);
  await sftStep(model, opt, rows, 1e-4); // warm-up: pipelines compile
  b.resetPeak?.();
  const t0 = performance.now();
  for (let i = 0; i < o.steps; i++) await sftStep(model, opt, rows, 1e-4);
  const ms = (performance.now() - t0) / o.steps;
  const planned = planMemory(c, { batch: o.B, context: o.T, training: lora ? 'lora' : 'full', ...(lora ? { loraRank: lora.rank } : {}) }).total;
  return {
    name: lora ? `train step (LoRA r ${lora.rank})` : 'train step', backend: b.name, model: preset.name, shape: `B ${o.B} × T ${o.T}`, ms,
    tokens_per_s: (o.B * o.T) / (ms / 1000), planned_bytes: planned, ...(b.peak ? { peak_bytes: b.peak() } : {}),
  };
}

/** Above this many parameters the rate measurement uses small batches (seconds, not minutes, on a CPU). */
export const LARGE_SHAPE_PARAMS = 20e6;

/**
 * The two model rates a run is priced at (estimate.ts), measured in a few seconds on `b`: one timed
 * training step at the cloning batch (B × T 384) after a warm-up step, and a batched generation at the
 * rollout batch (prefill of 100 tokens, then 8 decode steps). A large shape measures B 2 × T 128 and
 * 4 rows of 32 + 8 tokens: the rates differ from a full batch's, the same way on every backend.
 */
export async function measureRates(b: ModelBenchBackend, shape: ModelShape, batch: { trainRows: number; rolloutRows: number }): Promise<{ trainTokensPerS: number; genTokensPerS: number }> {
  const c = shape.config;
  const large = paramCount(c) > LARGE_SHAPE_PARAMS;
  const train = await benchTrain(b, shape, large ? { B: 2, T: 128, steps: 1 } : { B: batch.trainRows, T: 384, steps: 1 });
  const G = large ? Math.min(4, Math.max(1, batch.rolloutRows)) : Math.max(1, batch.rolloutRows), D = 8;
  const [prefill, decode] = await benchGenerate(b, shape, { G, P: large ? 32 : 100, D, turns: false });
  return { trainTokensPerS: train.tokens_per_s, genTokensPerS: (G * D) / ((prefill!.ms + decode!.ms) / 1000) };
}
