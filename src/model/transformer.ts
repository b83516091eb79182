// The decoder-only transformer (Llama / Qwen2 / Qwen3) on the op surface, with an explicit
// backward per layer (llm.c style). Weights keep Hugging Face's layout and names: a projection W
// is (out, in) and y = x·Wᵀ. Training works on packed batches: B rows of T tokens (N = B·T),
// positions restart at 0 for each episode, segment ids keep episodes apart (−1: padding).
import type { Backend } from '../ops/backend.ts';
import { numel, type Tensor } from '../ops/tensor.ts';
import type { ModelConfig } from './config.ts';

/** A batch for training/scoring. ids, targets, positions: (N) i32; seg: (B, T) i32. */
export interface PackedBatch<T extends Tensor> {
  B: number;
  T: number;
  ids: T;
  targets: T;
  positions: T;
  seg: T;
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
}

export interface ForwardState<T extends Tensor> {
  batch: PackedBatch<T>;
  layers: LayerActs<T>[];
  xFinal: T; rstdF: T; hF: T; logits: T; lse: T;
  /** (N): log p(target) and the entropy of each position's next-token distribution. */
  logp: T; entropy: T;
}

export class Transformer<T extends Tensor> {
  readonly c: ModelConfig;
  constructor(
    readonly be: Backend<T>,
    config: ModelConfig,
    /** Every parameter by Hugging Face name (expectedTensors order); lm_head absent when tied. */
    readonly params: Map<string, T>,
  ) {
    this.c = config;
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
    const proj = (w: string, b: string) => be.matmul(h1, P(w), { transB: true, ...(c.qkvBias ? { bias: P(b) } : {}) });
    const qRaw = proj('self_attn.q_proj.weight', 'self_attn.q_proj.bias');
    const kRaw = proj('self_attn.k_proj.weight', 'self_attn.k_proj.bias');
    const v = proj('self_attn.v_proj.weight', 'self_attn.v_proj.bias');
    let qPre = qRaw, kPre = kRaw, rstdQ: T | undefined, rstdK: T | undefined;
    if (c.qkNorm) {
      const qn = be.rmsnorm(view(qRaw, [N * NH, HS]), P('self_attn.q_norm.weight'), c.rmsNormEps);
      const kn = be.rmsnorm(view(kRaw, [N * NKV, HS]), P('self_attn.k_norm.weight'), c.rmsNormEps);
      qPre = qn.y; kPre = kn.y; rstdQ = qn.rstd; rstdK = kn.rstd;
    }
    const q = be.rope(view(qPre, [N, NH, HS]), positions, c.ropeTheta);
    const k = be.rope(view(kPre, [N, NKV, HS]), positions, c.ropeTheta);
    return { h1, rstd1, qRaw, kRaw, v, q, k, ...(c.qkNorm ? { rstdQ, rstdK, qNormed: qPre, kNormed: kPre } : {}) };
  }

  /** After attention: output projection + residual, norm, gate/up, SwiGLU. att (N, NH·HS). */
  attnOut(i: number, att: T, x: T) {
    const { be, c } = this;
    const P = (n: string) => this.p(layerName(i, n));
    const xMid = be.matmul(att, P('self_attn.o_proj.weight'), { transB: true });
    be.add(xMid, x, xMid);
    const { y: h2, rstd: rstd2 } = be.rmsnorm(xMid, P('post_attention_layernorm.weight'), c.rmsNormEps);
    const g = be.matmul(h2, P('mlp.gate_proj.weight'), { transB: true });
    const u = be.matmul(h2, P('mlp.up_proj.weight'), { transB: true });
    const s = be.swiglu(g, u);
    return { xMid, h2, rstd2, g, u, s };
  }

  /** x (N, C) → layer i's activations (what the backward needs), causal attention over segments. */
  private layerForward(i: number, x: T, positions: T, seg: T, B: number, Tn: number): LayerActs<T> {
    const { c } = this;
    const NH = c.numHeads, NKV = c.numKvHeads, HS = c.headDim, N = B * Tn;
    const pre = this.qkv(i, x, positions);
    const { out, lse } = this.be.attention(view(pre.q, [B, Tn, NH, HS]), view(pre.k, [B, Tn, NKV, HS]), view(pre.v, [B, Tn, NKV, HS]), seg);
    const att = view(out, [N, NH * HS]);
    return { x, ...pre, att, lse, ...this.attnOut(i, att, x) };
  }

  /** Layer output x (N, C) = xMid + s·Wdᵀ. */
  layerOut(i: number, a: { s: T; xMid: T }): T {
    const out = this.be.matmul(a.s, this.p(layerName(i, 'mlp.down_proj.weight')), { transB: true });
    return this.be.add(out, a.xMid, out);
  }

  /** Hidden states after every layer and the final norm: (N, C). Keeps activations for backward. */
  forward(batch: PackedBatch<T>): ForwardState<T> {
    const { be, c } = this;
    let x = be.embedding(batch.ids, this.p('model.embed_tokens.weight'));
    const layers: LayerActs<T>[] = [];
    for (let i = 0; i < c.numLayers; i++) {
      const a = this.layerForward(i, x, batch.positions, batch.seg, batch.B, batch.T);
      layers.push(a);
      x = this.layerOut(i, a);
    }
    const { y: hF, rstd: rstdF } = be.rmsnorm(x, this.p('model.norm.weight'), c.rmsNormEps);
    const logits = be.matmul(hF, this.lmHead, { transB: true });
    const lp = be.logprobs(logits, batch.targets);
    return { batch, layers, xFinal: x, rstdF, hF, logits, lse: lp.lse, entropy: lp.entropy, logp: lp.logp };
  }

  /**
   * Backward from d(loss)/d(logp) (N) (and optionally d(loss)/d(entropy)) into `grads` (+=, by
   * parameter name, same shapes as params). Frees the forward's activations.
   */
  backward(st: ForwardState<T>, dlogp: T, grads: ReadonlyMap<string, T>, dentropy?: T): void {
    const { be, c } = this;
    const G = (n: string) => {
      const g = grads.get(n);
      if (!g) throw new Error(`no gradient buffer for ${n}`);
      return g;
    };
    const acc = { accumulate: true } as const;
    const { batch } = st;
    const N = batch.B * batch.T, NH = c.numHeads, NKV = c.numKvHeads, HS = c.headDim;
    const dlogits = be.logprobsBackward(st.logits, batch.targets, st.lse, st.entropy, dlogp, dentropy, st.logits);
    // lm head: logits = hF · Wᵀ → dhF = dlogits · W; dW += dlogitsᵀ · hF.
    const lmName = c.tieWordEmbeddings ? 'model.embed_tokens.weight' : 'lm_head.weight';
    const dhF = be.matmul(dlogits, this.lmHead);
    be.matmul(dlogits, st.hF, { transA: true, out: G(lmName), ...acc });
    const dx = be.rmsnormBackward(dhF, st.xFinal, this.p('model.norm.weight'), st.rstdF, G('model.norm.weight'));
    for (const t of [dlogits, dhF, st.hF, st.rstdF, st.lse, st.entropy, st.logp]) be.free(t);

    for (let i = c.numLayers - 1; i >= 0; i--) {
      const a = st.layers[i]!;
      const P = (n: string) => this.p(layerName(i, n));
      const GL = (n: string) => G(layerName(i, n));
      // MLP: x = xMid + s·Wdᵀ.
      const ds = be.matmul(dx, P('mlp.down_proj.weight'));
      be.matmul(dx, a.s, { transA: true, out: GL('mlp.down_proj.weight'), ...acc });
      const { dgate, dup } = be.swigluBackward(ds, a.g, a.u);
      be.matmul(dgate, a.h2, { transA: true, out: GL('mlp.gate_proj.weight'), ...acc });
      be.matmul(dup, a.h2, { transA: true, out: GL('mlp.up_proj.weight'), ...acc });
      const dh2 = be.matmul(dgate, P('mlp.gate_proj.weight'));
      be.matmul(dup, P('mlp.up_proj.weight'), { out: dh2, ...acc });
      // dx (the residual) now holds dxMid += rmsnorm backward of dh2.
      be.rmsnormBackward(dh2, a.xMid, P('post_attention_layernorm.weight'), a.rstd2, GL('post_attention_layernorm.weight'), { accumulateDx: dx });
      // Attention: xMid = x + att·Woᵀ.
      const datt = be.matmul(dx, P('self_attn.o_proj.weight'));
      be.matmul(dx, a.att, { transA: true, out: GL('self_attn.o_proj.weight'), ...acc });
      const B = batch.B, Tn = batch.T;
      const { dq, dk, dv } = be.attentionBackward(
        view(a.q, [B, Tn, NH, HS]), view(a.k, [B, Tn, NKV, HS]), view(a.v, [B, Tn, NKV, HS]),
        view(a.att, [B, Tn, NH, HS]), view(datt, [B, Tn, NH, HS]), a.lse, batch.seg,
      );
      let dqPre = be.rope(view(dq, [N, NH, HS]), batch.positions, c.ropeTheta, { inverse: true });
      let dkPre = be.rope(view(dk, [N, NKV, HS]), batch.positions, c.ropeTheta, { inverse: true });
      if (c.qkNorm) {
        const dqr = be.rmsnormBackward(view(dqPre, [N * NH, HS]), view(a.qRaw, [N * NH, HS]), P('self_attn.q_norm.weight'), a.rstdQ!, GL('self_attn.q_norm.weight'));
        const dkr = be.rmsnormBackward(view(dkPre, [N * NKV, HS]), view(a.kRaw, [N * NKV, HS]), P('self_attn.k_norm.weight'), a.rstdK!, GL('self_attn.k_norm.weight'));
        be.free(dqPre); be.free(dkPre);
        dqPre = dqr; dkPre = dkr;
      }
      const dqf = view(dqPre, [N, NH * HS]), dkf = view(dkPre, [N, NKV * HS]), dvf = view(dv, [N, NKV * HS]);
      if (c.qkvBias) {
        be.colSum(dqf, GL('self_attn.q_proj.bias'), true);
        be.colSum(dkf, GL('self_attn.k_proj.bias'), true);
        be.colSum(dvf, GL('self_attn.v_proj.bias'), true);
      }
      be.matmul(dqf, a.h1, { transA: true, out: GL('self_attn.q_proj.weight'), ...acc });
      be.matmul(dkf, a.h1, { transA: true, out: GL('self_attn.k_proj.weight'), ...acc });
      be.matmul(dvf, a.h1, { transA: true, out: GL('self_attn.v_proj.weight'), ...acc });
      const dh1 = be.matmul(dqf, P('self_attn.q_proj.weight'));
      be.matmul(dkf, P('self_attn.k_proj.weight'), { out: dh1, ...acc });
      be.matmul(dvf, P('self_attn.v_proj.weight'), { out: dh1, ...acc });
      be.rmsnormBackward(dh1, a.x, P('input_layernorm.weight'), a.rstd1, GL('input_layernorm.weight'), { accumulateDx: dx });
      for (const t of [ds, dgate, dup, dh2, datt, dq, dk, dv, dqPre, dkPre, dh1]) be.free(t);
      for (const t of [a.h1, a.rstd1, a.qRaw, a.kRaw, a.q, a.k, a.v, a.att, a.lse, a.xMid, a.h2, a.rstd2, a.g, a.u, a.s]) be.free(t);
      if (a.rstdQ) for (const t of [a.rstdQ, a.rstdK!, a.qNormed!, a.kNormed!]) be.free(t);
      if (i > 0) be.free(a.x); // layer 0's input is the embedding output, freed below
    }
    be.embeddingBackward(batch.ids, dx, G('model.embed_tokens.weight'));
    be.free(st.layers[0]!.x);
    be.free(st.xFinal);
    be.free(dx);
  }
}
