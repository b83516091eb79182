// The decoder-only transformer (Llama / Qwen2 / Qwen3) on the op surface, with an explicit
// backward per layer (llm.c style). Weights keep Hugging Face's layout and names: a projection W
// is (out, in) and y = x·Wᵀ. Training works on packed batches: B rows of T tokens (N = B·T),
// positions restart at 0 for each episode, segment ids keep episodes apart (−1: padding).
import type { Backend } from '../ops/backend.ts';
import { numel, type Tensor } from '../ops/tensor.ts';
import type { ModelConfig } from './config.ts';
import { TARGET_MODULE, adapterNames, loraScale, type LoraConfig } from './lora.ts';

/** A batch for training/scoring. ids, targets, positions: (N) i32; seg: (B, T) i32. With `score`, only
 *  those M positions get logits and log-probs (rows: (M) i32 indices into N, increasing; targets: (M)
 *  i32 their next tokens): a training step needs them only where the loss is, and the LM head (V·C
 *  per position, a third of a micro model's forward) is then paid for M positions, not N. */
export interface PackedBatch<T extends Tensor> {
  B: number;
  T: number;
  ids: T;
  targets: T;
  positions: T;
  seg: T;
  score?: { rows: T; targets: T };
}

export const view = <T extends Tensor>(t: T, shape: number[]): T => {
  if (numel(shape) !== numel(t.shape)) throw new Error(`view: ${t.label} (${t.shape.join(', ')}) cannot be viewed as (${shape.join(', ')})`);
  return { ...t, shape };
};

export const layerName = (i: number, n: string) => `model.layers.${i}.${n}`;

interface LayerActs<T extends Tensor> {
  x: T; h1: T; rstd1: T;
  qRaw: T; kRaw: T; rstdQ?: T; rstdK?: T; qNormed?: T; kNormed?: T;
  q: T; k: T; v: T; att: T; lse: T;
  xMid: T; h2: T; rstd2: T; g: T; u: T; s: T;
  /** LoRA: s·x·Aᵀ (N, r) of each adapted module of the layer, kept for the backward. */
  xa: Record<string, T>;
}

export interface ForwardState<T extends Tensor> {
  batch: PackedBatch<T>;
  /** Every layer's activations; empty under recompute, where `inputs` keeps each layer's input x (N, C). */
  layers: LayerActs<T>[];
  inputs?: T[];
  xFinal: T; rstdF: T; logits: T; lse: T;
  /** The final hidden states the LM head read: (N, C), or (M, C) at batch.score's rows. */
  hF: T;
  /** (N), or (M) at batch.score's rows: log p(target) and the entropy of the next-token distribution. */
  logp: T; entropy: T;
  /** 1/τ when the distribution is the tempered softmax(logits / τ) (forward's `temperature`), else 1. */
  invTemperature: number;
}

export class Transformer<T extends Tensor> {
  readonly c: ModelConfig;
  /** Modules (e.g. "self_attn.q_proj") that carry LoRA adapters, in every layer. */
  readonly adapted: ReadonlySet<string>;
  /** The default of forward's `recompute` (the run config's model.recompute). */
  recompute = false;
  constructor(
    readonly be: Backend<T>,
    config: ModelConfig,
    /** Every parameter by Hugging Face name (expectedTensors order); lm_head absent when tied;
     *  plus `<module>.lora_A.weight` / `lora_B.weight` of every adapted module under LoRA. */
    readonly params: Map<string, T>,
    readonly lora?: LoraConfig,
  ) {
    this.c = config;
    this.adapted = new Set(lora ? lora.targets.map((t) => TARGET_MODULE[t]) : []);
  }

  /** y = x·Wᵀ (+ b) (+ s·(x·Aᵀ)·Bᵀ under LoRA); returns s·x·Aᵀ as `xa` for the backward. */
  project(i: number, module: string, x: T, withBias = false): { y: T; xa?: T } {
    const { be } = this;
    const name = layerName(i, module);
    const y = be.matmul(x, this.p(`${name}.weight`), { transB: true, ...(withBias ? { bias: this.p(`${name}.bias`) } : {}) });
    if (!this.adapted.has(module)) return { y };
    const n = adapterNames(name);
    const xa = be.matmul(x, this.p(n.A), { transB: true });
    be.scale(xa, loraScale(this.lora!), xa);
    be.matmul(xa, this.p(n.B), { transB: true, out: y, accumulate: true });
    return { y, xa };
  }

  /**
   * Backward of `project` given dy (N, out): gradients of what has a gradient buffer (W and b when
   * trained, A and B under LoRA), and dx (N, in), added into `dx` when given.
   */
  projectBackward(i: number, module: string, dy: T, x: T, xa: T | undefined, grads: ReadonlyMap<string, T>, dx?: T, withBias = false): T {
    const { be } = this;
    const name = layerName(i, module);
    const acc = { accumulate: true } as const;
    const gW = grads.get(`${name}.weight`);
    if (gW) be.matmul(dy, x, { transA: true, out: gW, ...acc });
    const gb = withBias ? grads.get(`${name}.bias`) : undefined;
    if (gb) be.colSum(dy, gb, true);
    const out = dx ? (be.matmul(dy, this.p(`${name}.weight`), { out: dx, ...acc }), dx) : be.matmul(dy, this.p(`${name}.weight`));
    if (xa) {
      // y += (s·x·Aᵀ)·Bᵀ: dB += dyᵀ·xa; d(xa) = dy·B; dA += s·d(xa)ᵀ·x; dx += s·d(xa)·A.
      const n = adapterNames(name);
      const gB = grads.get(n.B), gA = grads.get(n.A);
      if (gB) be.matmul(dy, xa, { transA: true, out: gB, ...acc });
      const dxa = be.matmul(dy, this.p(n.B));
      be.scale(dxa, loraScale(this.lora!), dxa);
      if (gA) be.matmul(dxa, x, { transA: true, out: gA, ...acc });
      be.matmul(dxa, this.p(n.A), { out, ...acc });
      be.free(dxa);
    }
    return out;
  }

  p(name: string): T {
    const t = this.params.get(name);
    if (!t) throw new Error(`model has no parameter ${name}`);
    return t;
  }
  get lmHead(): T {
    return this.c.tieWordEmbeddings ? this.p('model.embed_tokens.weight') : this.p('lm_head.weight');
  }

  /** Before attention: norm, q/k/v projections, Qwen3's q/k norms, rotary. x (N, C), positions (N). */
  qkv(i: number, x: T, positions: T) {
    const { be, c } = this;
    const P = (n: string) => this.p(layerName(i, n));
    const N = x.shape[0]!, NH = c.numHeads, NKV = c.numKvHeads, HS = c.headDim;
    const { y: h1, rstd: rstd1 } = be.rmsnorm(x, P('input_layernorm.weight'), c.rmsNormEps);
    const xa: Record<string, T> = {};
    const proj = (module: string) => {
      const r = this.project(i, module, h1, c.qkvBias);
      if (r.xa) xa[module] = r.xa;
      return r.y;
    };
    const qRaw = proj('self_attn.q_proj');
    const kRaw = proj('self_attn.k_proj');
    const v = proj('self_attn.v_proj');
    let qPre = qRaw, kPre = kRaw, rstdQ: T | undefined, rstdK: T | undefined;
    if (c.qkNorm) {
      const qn = be.rmsnorm(view(qRaw, [N * NH, HS]), P('self_attn.q_norm.weight'), c.rmsNormEps);
      const kn = be.rmsnorm(view(kRaw, [N * NKV, HS]), P('self_attn.k_norm.weight'), c.rmsNormEps);
      qPre = qn.y; kPre = kn.y; rstdQ = qn.rstd; rstdK = kn.rstd;
    }
    const q = be.rope(view(qPre, [N, NH, HS]), positions, c.ropeTheta);
    const k = be.rope(view(kPre, [N, NKV, HS]), positions, c.ropeTheta);
    return { h1, rstd1, qRaw, kRaw, v, q, k, xa, ...(c.qkNorm ? { rstdQ, rstdK, qNormed: qPre, kNormed: kPre } : {}) };
  }

  /** After attention: output projection + residual, norm, gate/up, SwiGLU. att (N, NH·HS). */
  attnOut(i: number, att: T, x: T, xa: Record<string, T> = {}) {
    const { be, c } = this;
    const P = (n: string) => this.p(layerName(i, n));
    const proj = (module: string, input: T) => {
      const r = this.project(i, module, input);
      if (r.xa) xa[module] = r.xa;
      return r.y;
    };
    const xMid = proj('self_attn.o_proj', att);
    be.add(xMid, x, xMid);
    const { y: h2, rstd: rstd2 } = be.rmsnorm(xMid, P('post_attention_layernorm.weight'), c.rmsNormEps);
    const g = proj('mlp.gate_proj', h2);
    const u = proj('mlp.up_proj', h2);
    const s = be.swiglu(g, u);
    return { xMid, h2, rstd2, g, u, s, xa };
  }

  /** x (N, C) → layer i's activations (what the backward needs), causal attention over segments. */
  private layerForward(i: number, x: T, positions: T, seg: T, B: number, Tn: number): LayerActs<T> {
    const { c } = this;
    const NH = c.numHeads, NKV = c.numKvHeads, HS = c.headDim, N = B * Tn;
    const pre = this.qkv(i, x, positions);
    const { out, lse } = this.be.attention(view(pre.q, [B, Tn, NH, HS]), view(pre.k, [B, Tn, NKV, HS]), view(pre.v, [B, Tn, NKV, HS]), seg);
    const att = view(out, [N, NH * HS]);
    return { x, ...pre, att, lse, ...this.attnOut(i, att, x, pre.xa) };
  }

  /** Layer output x (N, C) = xMid + s·Wdᵀ. */
  layerOut(i: number, a: { s: T; xMid: T; xa?: Record<string, T> }): T {
    const r = this.project(i, 'mlp.down_proj', a.s);
    if (r.xa && a.xa) a.xa['mlp.down_proj'] = r.xa;
    return this.be.add(r.y, a.xMid, r.y);
  }

  /**
   * Hidden states after every layer and the final norm: (N, C). Keeps activations for backward, or
   * with `recompute` only each layer's input (L·N·C floats instead of L·N·(4C + 3F + …)): the backward
   * then rebuilds one layer's activations at a time from its input, with the same ops on the same
   * values, so the gradients are bitwise those of the plain path, for about one more forward of compute.
   */
  forward(batch: PackedBatch<T>, opts: { recompute?: boolean; temperature?: number } = {}): ForwardState<T> {
    const { be, c } = this;
    // Rollouts sampled at τ ≠ 1 are scored under the distribution they came from, softmax(logits/τ),
    // so the DAPO ratio is exact (the behaviour log-probs are the sampler's at τ).
    const tau = opts.temperature ?? 1;
    if (!(tau > 0)) throw new Error(`forward: temperature must be > 0, got ${tau}`);
    const recompute = opts.recompute ?? this.recompute;
    let x = be.embedding(batch.ids, this.p('model.embed_tokens.weight'));
    const layers: LayerActs<T>[] = [];
    const inputs: T[] = [];
    for (let i = 0; i < c.numLayers; i++) {
      const a = this.layerForward(i, x, batch.positions, batch.seg, batch.B, batch.T);
      const next = this.layerOut(i, a);
      if (recompute) inputs.push(x), this.freeLayer(a);
      else layers.push(a);
      x = next;
    }
    const { y: hAll, rstd: rstdF } = be.rmsnorm(x, this.p('model.norm.weight'), c.rmsNormEps);
    const hF = batch.score ? be.gatherRows(hAll, batch.score.rows) : hAll;
    if (batch.score) be.free(hAll);
    const logits = be.matmul(hF, this.lmHead, { transB: true });
    if (tau !== 1) be.scale(logits, 1 / tau, logits);
    const lp = be.logprobs(logits, batch.score ? batch.score.targets : batch.targets);
    return { batch, layers, ...(recompute ? { inputs } : {}), xFinal: x, rstdF, hF, logits, lse: lp.lse, entropy: lp.entropy, logp: lp.logp, invTemperature: 1 / tau };
  }

  /** Frees a layer's activations except its input x. */
  private freeLayer(a: LayerActs<T>): void {
    const { be } = this;
    for (const t of [a.h1, a.rstd1, a.qRaw, a.kRaw, a.q, a.k, a.v, a.att, a.lse, a.xMid, a.h2, a.rstd2, a.g, a.u, a.s, ...Object.values(a.xa)]) be.free(t);
    if (a.rstdQ) for (const t of [a.rstdQ, a.rstdK!, a.qNormed!, a.kNormed!]) be.free(t);
  }

  /** Layer i's activations rebuilt from its input (recompute), with the down projection's LoRA x·A. */
  private relayer(i: number, x: T, batch: PackedBatch<T>): LayerActs<T> {
    const a = this.layerForward(i, x, batch.positions, batch.seg, batch.B, batch.T);
    if (this.adapted.has('mlp.down_proj')) {
      const r = this.project(i, 'mlp.down_proj', a.s);
      a.xa['mlp.down_proj'] = r.xa!;
      this.be.free(r.y);
    }
    return a;
  }

  /**
   * Backward from d(loss)/d(logp) (N) (and optionally d(loss)/d(entropy)) into `grads` (+=, by
   * parameter name, same shapes as params). Frees the forward's activations.
   */
  backward(st: ForwardState<T>, dlogp: T, grads: ReadonlyMap<string, T>, dentropy?: T): void {
    const { be, c } = this;
    // Parameters without a gradient buffer are frozen (LoRA: everything but the adapters). The
    // norms' backward always accumulates a dw: frozen ones get a scratch buffer.
    const scratch: T[] = [];
    const dw = (name: string, D: number) => grads.get(name) ?? (scratch.push(be.zeros([D], 'f32', 'dw.frozen')), scratch.at(-1)!);
    const acc = { accumulate: true } as const;
    const { batch } = st;
    const N = batch.B * batch.T, NH = c.numHeads, NKV = c.numKvHeads, HS = c.headDim, C = c.hiddenSize;
    const dlogits = be.logprobsBackward(st.logits, batch.score ? batch.score.targets : batch.targets, st.lse, st.entropy, dlogp, dentropy, st.logits);
    // Tempered: the loss saw logits/τ, so d(loss)/d(logits) = d(loss)/d(logits/τ) · (1/τ).
    if (st.invTemperature !== 1) be.scale(dlogits, st.invTemperature, dlogits);
    // lm head: logits = hF · Wᵀ → dhF = dlogits · W; dW += dlogitsᵀ · hF.
    const gLm = grads.get(c.tieWordEmbeddings ? 'model.embed_tokens.weight' : 'lm_head.weight');
    const dhSel = be.matmul(dlogits, this.lmHead);
    if (gLm) be.matmul(dlogits, st.hF, { transA: true, out: gLm, ...acc });
    // Scored rows only: their gradients go back to their positions (a scatter-add by row index, which
    // is what the embedding's backward is), zero elsewhere.
    let dhF = dhSel;
    if (batch.score) {
      dhF = be.zeros([N, C], 'f32', 'dhF');
      be.embeddingBackward(batch.score.rows, dhSel, dhF);
      be.free(dhSel);
    }
    const dx = be.rmsnormBackward(dhF, st.xFinal, this.p('model.norm.weight'), st.rstdF, dw('model.norm.weight', C));
    for (const t of [dlogits, dhF, st.hF, st.rstdF, st.lse, st.entropy, st.logp]) be.free(t);

    for (let i = c.numLayers - 1; i >= 0; i--) {
      const a = st.inputs ? this.relayer(i, st.inputs[i]!, batch) : st.layers[i]!;
      const P = (n: string) => this.p(layerName(i, n));
      const back = (module: string, dy: T, x: T, into?: T, bias = false) => this.projectBackward(i, module, dy, x, a.xa[module], grads, into, bias);
      // MLP: x = xMid + s·Wdᵀ.
      const ds = back('mlp.down_proj', dx, a.s);
      const { dgate, dup } = be.swigluBackward(ds, a.g, a.u);
      const dh2 = back('mlp.gate_proj', dgate, a.h2);
      back('mlp.up_proj', dup, a.h2, dh2);
      // dx (the residual) now holds dxMid += rmsnorm backward of dh2.
      be.rmsnormBackward(dh2, a.xMid, P('post_attention_layernorm.weight'), a.rstd2, dw(layerName(i, 'post_attention_layernorm.weight'), C), { accumulateDx: dx });
      // Attention: xMid = x + att·Woᵀ.
      const datt = back('self_attn.o_proj', dx, a.att);
      const B = batch.B, Tn = batch.T;
      const { dq, dk, dv } = be.attentionBackward(
        view(a.q, [B, Tn, NH, HS]), view(a.k, [B, Tn, NKV, HS]), view(a.v, [B, Tn, NKV, HS]),
        view(a.att, [B, Tn, NH, HS]), view(datt, [B, Tn, NH, HS]), a.lse, batch.seg,
      );
      let dqPre = be.rope(view(dq, [N, NH, HS]), batch.positions, c.ropeTheta, { inverse: true });
      let dkPre = be.rope(view(dk, [N, NKV, HS]), batch.positions, c.ropeTheta, { inverse: true });
      if (c.qkNorm) {
        const dqr = be.rmsnormBackward(view(dqPre, [N * NH, HS]), view(a.qRaw, [N * NH, HS]), P('self_attn.q_norm.weight'), a.rstdQ!, dw(layerName(i, 'self_attn.q_norm.weight'), HS));
        const dkr = be.rmsnormBackward(view(dkPre, [N * NKV, HS]), view(a.kRaw, [N * NKV, HS]), P('self_attn.k_norm.weight'), a.rstdK!, dw(layerName(i, 'self_attn.k_norm.weight'), HS));
        be.free(dqPre); be.free(dkPre);
        dqPre = dqr; dkPre = dkr;
      }
      const dqf = view(dqPre, [N, NH * HS]), dkf = view(dkPre, [N, NKV * HS]), dvf = view(dv, [N, NKV * HS]);
      const dh1 = back('self_attn.q_proj', dqf, a.h1, undefined, c.qkvBias);
      back('self_attn.k_proj', dkf, a.h1, dh1, c.qkvBias);
      back('self_attn.v_proj', dvf, a.h1, dh1, c.qkvBias);
      be.rmsnormBackward(dh1, a.x, P('input_layernorm.weight'), a.rstd1, dw(layerName(i, 'input_layernorm.weight'), C), { accumulateDx: dx });
      for (const t of [ds, dgate, dup, dh2, datt, dq, dk, dv, dqPre, dkPre, dh1]) be.free(t);
      this.freeLayer(a);
      if (i > 0) be.free(a.x); // layer 0's input is the embedding output, freed below
    }
    const gE = grads.get('model.embed_tokens.weight');
    if (gE) be.embeddingBackward(batch.ids, dx, gE);
    be.free(st.inputs ? st.inputs[0]! : st.layers[0]!.x);
    be.free(st.xFinal);
    be.free(dx);
    for (const t of scratch) be.free(t);
  }
}
