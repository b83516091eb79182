// Memory planner: bytes a run needs for weights, gradients, AdamW state, saved activations, logits
// and the KV cache, from the config, batch and context; and the up-front refusal of a run that does
// not fit, with the numbers and what to lower. Everything is f32 (4 bytes), as on the op surface.
// Buffers: the WebGPU ops split a tensor larger than one storage binding into row chunks
// (src/ops/webgpu/split.ts): weights, gradients, AdamW state and logits never need one large buffer,
// only one row (e.g. V floats of a logits row) per chunk. Activations and the KV cache are bound
// whole: the largest of them must fit one binding (they shrink with batch and context).
import { paramCount, type ModelConfig } from './config.ts';

export interface PlanOptions {
  /** B: sequences per optimiser step (and rollouts in flight, unless generateBatch is given). */
  batch: number;
  /** T: tokens per sequence (the KV cache holds this many positions). */
  context: number;
  training: 'full' | 'lora' | 'none';
  /** LoRA rank r on all seven projections of every layer (default 16). */
  loraRank?: number;
  /** Keep only each layer's input and recompute the rest in the backward. */
  recompute?: boolean;
  /** Tokens per logits chunk of the fused log-softmax (default 1024). */
  logitsChunk?: number;
  /** Sequences generated at once (default batch). */
  generateBatch?: number;
}

export interface MemoryPlan {
  readonly params: number;
  readonly trainableParams: number;
  readonly bytes: {
    readonly weights: number;
    readonly grads: number;
    /** AdamW first and second moments. */
    readonly adam: number;
    /** Saved for the backward, all layers (+ final norm). */
    readonly activations: number;
    /** Transient tensors of the one layer being computed (forward or backward). */
    readonly scratch: number;
    readonly logits: number;
    readonly kvCache: number;
  };
  /** Peak of a training step and of generation; `total` is the larger. */
  readonly train: number;
  readonly generate: number;
  readonly total: number;
  /** The largest buffer bound whole (activations, a layer's KV cache): at most one binding. */
  readonly largestBuffer: { readonly name: string; readonly bytes: number };
  /** The widest row of the tensors split into row chunks (weights, gradients, AdamW state,
   *  logits): a chunk holds at least one row, so this too must fit one binding. */
  readonly largestRow: { readonly name: string; readonly bytes: number };
}

const F32 = 4;

/** LoRA parameters: r·(in + out) for q, k, v, o, gate, up, down in every layer. */
export function loraParamCount(c: ModelConfig, r: number): number {
  const { hiddenSize: C, intermediateSize: F, numHeads: NH, numKvHeads: NKV, headDim: HS } = c;
  const perLayer = C + NH * HS + 2 * (C + NKV * HS) + (NH * HS + C) + 2 * (C + F) + (F + C);
  return c.numLayers * r * perLayer;
}

export function planMemory(c: ModelConfig, o: PlanOptions): MemoryPlan {
  const { vocabSize: V, hiddenSize: C, intermediateSize: F, numHeads: NH, numKvHeads: NKV, headDim: HS, numLayers: L } = c;
  for (const [k, v] of [['batch', o.batch], ['context', o.context]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`planMemory: ${k} must be a positive integer, got ${v}`);
  }
  const r = o.loraRank ?? 16;
  const N = o.batch * o.context; // tokens per step
  const P = paramCount(c);
  const trainable = o.training === 'full' ? P : o.training === 'lora' ? loraParamCount(c, r) : 0;

  // Weights: the frozen or trained base (P·4), plus the adapters under LoRA (trainable·4).
  const weights = F32 * (P + (o.training === 'lora' ? trainable : 0));
  // Gradients: one per trainable parameter; AdamW: m and v per trainable parameter.
  const grads = F32 * trainable;
  const adam = 2 * F32 * trainable;

  // Saved per layer for the backward, per token: layer input x (C) and its rstd (1); the normed
  // input of q/k/v (C); q after RoPE (NH·HS), k, v (NKV·HS each); attention output (NH·HS) and its
  // lse (NH); the residual after attention (C), its rstd (1) and normed value (C); gate, up (F each)
  // and silu(gate)·up (F). Qwen3 adds q, k before their norm ((NH+NKV)·HS) and rstds (NH+NKV).
  // LoRA adds x·A (r) for each of the 7 adapted projections.
  let perToken = 4 * C + 2 * NH * HS + 2 * NKV * HS + 3 * F + NH + 2;
  if (c.qkNorm) perToken += (NH + NKV) * (HS + 1);
  if (o.training === 'lora') perToken += 7 * r;
  const training = o.training !== 'none';
  // With recompute only the layer input is kept; one layer's full set is rebuilt in the backward.
  const saved = !training ? 0 : o.recompute ? L * N * C + N * perToken : L * N * perToken;
  const activations = F32 * (saved + (training ? N * (2 * C + 1) : 0)); // + final norm's input, output, rstd
  // One layer in flight: its outputs and, in the backward, the gradients of the largest of them
  // (an estimate: residual and its gradient, the MLP's three F-wide tensors and q/k/v/attention).
  const scratch = F32 * N * (2 * C + 3 * F + 2 * NH * HS + 2 * NKV * HS);
  // Logits in chunks: chunk·V (the backward writes dlogits in place), plus logp, entropy, lse per token.
  const chunk = Math.min(N, o.logitsChunk ?? 1024);
  const logits = F32 * (chunk * V + 3 * N);
  // KV cache: keys and values for every layer, sequence and position.
  const Bg = o.generateBatch ?? o.batch;
  const kvCache = F32 * 2 * L * Bg * o.context * NKV * HS;

  const persistent = weights + grads + adam;
  const train = persistent + activations + scratch + logits;
  const generate = persistent + kvCache + F32 * Bg * (V + 2 * C + 3 * F + 2 * NH * HS);
  const largest = (list: [string, number][]) => list.reduce((a, b) => (b[1] > a[1] ? b : a));
  // Activation rows: every token of a training step; one token per sequence when only generating
  // (as in `generate` above).
  const [rows, rowsName] = training ? [N, 'B·T'] : [Bg, 'B'];
  const [name, bytes] = largest([
    ['KV cache of one layer (B × T × NKV × HS, keys or values)', F32 * Bg * o.context * NKV * HS],
    [`MLP activations (${rowsName} × F)`, F32 * rows * F],
    [`attention activations (${rowsName} × NH·HS)`, F32 * rows * NH * HS],
  ]);
  const [rowName, rowBytes] = largest([
    [`the logits (V = ${V})`, F32 * V],
    [`mlp.down_proj.weight (F = ${F})`, F32 * F],
    [`model.embed_tokens.weight (C = ${C})`, F32 * C],
    [`self_attn.o_proj.weight (NH·HS = ${NH * HS})`, F32 * NH * HS],
  ]);
  return Object.freeze({
    params: P,
    trainableParams: trainable,
    bytes: Object.freeze({ weights, grads, adam, activations, scratch, logits, kvCache }),
    train,
    generate,
    total: Math.max(training ? train : 0, generate),
    largestBuffer: Object.freeze({ name, bytes }),
    largestRow: Object.freeze({ name: rowName, bytes: rowBytes }),
  });
}

export function formatBytes(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(2)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(1)} MiB`;
  return n >= 2 ** 10 ? `${(n / 2 ** 10).toFixed(1)} KiB` : `${n} B`;
}

export interface Budget {
  /** Memory the run may use (device memory, or what the user allows). */
  memoryBytes?: number;
  /** The adapter's maxBufferSize: no single buffer may be larger. */
  maxBufferSize?: number;
  /** The adapter's maxStorageBufferBindingSize: no buffer bound whole may be larger (larger
   *  tensors are split into row chunks). */
  maxBindingSize?: number;
}

export type Fit = { ok: true; plan: MemoryPlan } | { ok: false; plan: MemoryPlan; message: string };

/** Plans the run and refuses it when it does not fit, saying what to lower (values that fit). */
export function checkFit(c: ModelConfig, o: PlanOptions, budget: Budget): Fit {
  const plan = planMemory(c, o);
  const f = formatBytes;
  const perBuffer = Math.min(budget.maxBufferSize ?? Infinity, budget.maxBindingSize ?? Infinity);
  const limitName = perBuffer === budget.maxBindingSize ? 'maxStorageBufferBindingSize' : 'maxBufferSize';
  if (plan.largestRow.bytes > perBuffer) {
    const r = plan.largestRow;
    return { ok: false, plan, message: `one row of ${r.name} needs ${f(r.bytes)} but the adapter allows ${f(perBuffer)} per buffer (${limitName}): larger tensors are split into row chunks, and one row is the smallest chunk: use a model with a smaller vocabulary or width` };
  }
  if (plan.largestBuffer.bytes > perBuffer) {
    const b = plan.largestBuffer;
    return { ok: false, plan, message: `the largest buffer bound whole, ${b.name}, needs ${f(b.bytes)} but the adapter allows ${f(perBuffer)} per buffer (${limitName}): lower batch or context (weights, gradients, AdamW state and logits are split automatically)` };
  }
  const mem = budget.memoryBytes;
  if (mem === undefined || plan.total <= mem) return { ok: true, plan };
  const b = plan.bytes;
  const parts = [`weights ${f(b.weights)}`];
  if (b.grads) parts.push(`gradients ${f(b.grads)}`, `AdamW m+v ${f(b.adam)}`);
  if (o.training !== 'none') parts.push(`activations ${f(b.activations + b.scratch)} for batch ${o.batch} × context ${o.context}`, `logits ${f(b.logits)}`);
  parts.push(`KV cache ${f(b.kvCache)}`);
  const fits = (p: Partial<PlanOptions>) => planMemory(c, { ...o, ...p }).total <= mem;
  const fixes: string[] = [];
  let batch = o.batch - 1;
  while (batch >= 1 && !fits({ batch })) batch--;
  if (batch >= 1) fixes.push(`lower batch to ${batch}`);
  let lo = 0, hi = o.context; // largest context that fits: binary search
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits({ context: mid })) lo = mid;
    else hi = mid;
  }
  if (lo >= 1) fixes.push(`lower context to ${lo}`);
  if (o.training !== 'none' && !o.recompute && fits({ recompute: true })) fixes.push('turn on recompute');
  if (o.training === 'full' && fits({ training: 'lora' })) fixes.push(`train with LoRA (rank ${o.loraRank ?? 16})`);
  const advice = fixes.length ? fixes.join(', or ') : `even batch 1 does not fit: choose a smaller model (${(plan.params / 1e6).toFixed(1)} M parameters)${o.training === 'full' ? ' or LoRA' : ''}`;
  return { ok: false, plan, message: `this run needs ${f(plan.total)} but the budget is ${f(mem)} (${parts.join(', ')}): ${advice}` };
}
