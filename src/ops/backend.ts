// The op surface: one contract, two implementations (cpu.ts: the references in reference/;
// webgpu.ts: the WGSL kernels). The model, the trainer and the tests are written once against it.
//
// Conventions (all ops):
// - Shape alphabet: N tokens (= B·T when batched), B batch, T time, C channels, F MLP width,
//   V vocabulary, NH query heads, NKV key/value heads (NKV divides NH), HS head size.
// - Token-major layouts: activations are (N, C); attention q is (B, T, NH, HS), k/v (B, T, NKV, HS).
// - f32 everywhere, accumulated in f32 on the GPU; ids, positions, segment ids and lengths are i32.
// - GPU ops record work and return at once; `read`/`sync` submit. Results are new tensors unless
//   an `out` is given; `accumulate: true` means out += result (gradient accumulation).
// - Deterministic: the same inputs give bitwise-equal outputs; no floating-point atomics; every
//   reduction has a fixed order (two-pass where it spans workgroups).
// - Bad shapes or dtypes throw an Error naming the op, the argument and both shapes.
import type { MatmulOptions } from './matmul.shape.ts';
import type { DType, Tensor, TypedArray } from './tensor.ts';

/** Allocation, transfer and synchronisation. */
export interface BackendCore<T extends Tensor> {
  readonly kind: 'cpu' | 'webgpu';
  /** A tensor holding a copy of `data`. */
  fromArray(data: TypedArray, shape: readonly number[], label?: string): T;
  zeros(shape: readonly number[], dtype?: DType, label?: string): T;
  /** The tensor's values on the CPU (flushes queued GPU work). */
  read(t: T): Promise<TypedArray>;
  free(t: T): void;
  /** Wait for all queued work; surfaces GPU errors. */
  sync(): Promise<void>;
  /** Device memory held by this backend's buffers, where it has a device (WebGPU): live bytes, their
   *  high-water mark since the last `resetPeak`, the pool of released ones, and what the pool's bound has
   *  destroyed so far (churn: buffers asked for again cost an allocation). */
  memory?(): { liveBytes: number; peakBytes: number; pooledBytes: number; evictedBytes: number; resetPeak(): void };
}

export interface MatmulOps<T extends Tensor> {
  /** (B?, M, K) · (B?, K, N) → (B?, M, N); see MatmulOptions for layouts, bias and +=. */
  matmul(a: T, b: T, opts?: MatmulOptions<T>): T;
}

/** Embedding, norms, rotary, MLP activation and elementwise helpers. */
export interface LayerOps<T extends Tensor> {
  /** out[n, :] = table[ids[n], :]. ids (N) i32, table (V, C) → (N, C). Refuses ids outside [0, V). */
  embedding(ids: T, table: T): T;
  /** dtable[v, :] += Σ_{n: ids[n] = v} dout[n, :], summed in increasing n (deterministic). */
  embeddingBackward(ids: T, dout: T, dtable: T): void;

  /** y = x · rsqrt(mean(x²) + eps) · w over the last dim. x (R, D), w (D) → y (R, D), rstd (R).
   *  Qwen3's per-head q/k norm is the same op on (N·NH, HS). */
  rmsnorm(x: T, w: T, eps: number): { y: T; rstd: T };
  /** dx (R, D) (= or += per `accumulateDx`), dw (D) += Σ_rows (two-pass, deterministic). */
  rmsnormBackward(dy: T, x: T, w: T, rstd: T, dw: T, opts?: { accumulateDx?: T }): T;

  /** Rotary embedding, Hugging Face half-rotation: for i < HS/2, with θ_i = pos · theta^(−2i/HS),
   *  (x_i, x_{i+HS/2}) → (x_i cos θ − x_{i+HS/2} sin θ, x_{i+HS/2} cos θ + x_i sin θ).
   *  x (N, H, HS), positions (N) i32 (absolute: include the KV-cache offset) → (N, H, HS).
   *  `inverse` rotates by −θ, which is the backward. */
  rope(x: T, positions: T, theta: number, opts?: { inverse?: boolean }): T;

  /** h = silu(gate) · up; gate, up (N, F) → (N, F). */
  swiglu(gate: T, up: T): T;
  /** Given dh → { dgate, dup }, both (N, F). */
  swigluBackward(dh: T, gate: T, up: T): { dgate: T; dup: T };

  /** a + b, same shape (residual add); into `out` when given (may alias a). */
  add(a: T, b: T, out?: T): T;
  /** a · s elementwise; into `out` when given (may alias a). */
  scale(a: T, s: number, out?: T): T;
  /** Column sums: x (R, D) → (D), or += into `out` (bias gradients). Two-pass, deterministic. */
  colSum(x: T, out?: T, accumulate?: boolean): T;
  /** Rows of x selected by idx: x (R, D), idx (M) i32 → (M, D). */
  gatherRows(x: T, idx: T): T;
}

export interface AttentionOps<T extends Tensor> {
  /** Causal grouped-query attention with segments (FlashAttention-style: online softmax, tiles).
   *  q (B, T, NH, HS), k/v (B, T, NKV, HS), seg (B, T) i32: token t attends to s ≤ t with
   *  seg[s] = seg[t]; seg −1 marks padding (its output is 0). scale = 1/√HS by default.
   *  → out (B, T, NH, HS), lse (B, NH, T): log Σ exp(scores) per row (kept for the backward). */
  attention(q: T, k: T, v: T, seg: T, opts?: { scale?: number }): { out: T; lse: T };
  /** Recomputes the probabilities from q, k and lse; memory O(T·HS), never O(T²).
   *  → dq (B, T, NH, HS), dk, dv (B, T, NKV, HS) (dk/dv summed over the heads of each group). */
  attentionBackward(q: T, k: T, v: T, out: T, dout: T, lse: T, seg: T, opts?: { scale?: number }): { dq: T; dk: T; dv: T };
  /** Append new keys/values to a cache: cache (B, S, NKV, HS), x (B, TQ, NKV, HS),
   *  start (B) i32: x[b, i] is written at position start[b] + i (rows past S are refused). */
  kvWrite(cache: T, x: T, start: T): void;
  /** Queries against a KV cache (decode when TQ = 1; chunked prefill otherwise).
   *  q (B, TQ, NH, HS); kCache/vCache (B, S, NKV, HS); len (B) i32 = valid cache length after the
   *  new tokens were written: query i of sequence b sits at position len[b] − TQ + i and attends to
   *  cache positions ≤ its own. Rows with len[b] − TQ + i < 0 give 0. Optional rows (B) i32: only
   *  queries i < rows[b] are wanted (the rest are a chunk's right padding); a backend may skip the
   *  others, whose output is then 0, or compute them. → out (B, TQ, NH, HS). */
  attentionCached(q: T, kCache: T, vCache: T, len: T, opts?: { scale?: number; rows?: T }): T;
}

export interface LossOps<T extends Tensor> {
  /** Fused log-softmax over V, streamed in chunks (no (N, V) probability matrix is kept):
   *  logits (N, V), targets (N) i32 → logp (N) = log p(target), entropy (N) = −Σ p log p,
   *  lse (N) = log Σ exp(logits). */
  logprobs(logits: T, targets: T): { logp: T; entropy: T; lse: T };
  /** dlogits = dlogp · (onehot − p) + dentropy · (−p · (log p + H)), p recomputed from lse.
   *  dentropy may be omitted. Writes into `out` (may alias logits to save memory). → (N, V). */
  logprobsBackward(logits: T, targets: T, lse: T, entropy: T, dlogp: T, dentropy?: T, out?: T): T;

  /** DAPO's token-level clipped surrogate (docs/dapo.md), as a loss to minimise:
   *  ρ = exp(logp − oldLogp); per token ℓ = −min(ρ·A, clip(ρ, 1−εlow, 1+εhigh)·A) · mask;
   *  loss = Σ ℓ / denom (denom = action tokens in the whole batch; defaults to Σ mask).
   *  logp, oldLogp, adv, mask (N) f32 → dlogp (N) = ∂loss/∂logp (= −ρ·A·mask/denom where the
   *  unclipped term is active, else 0), stats (4) = [loss, clipfrac_low, clipfrac_high, approx_kl]
   *  (clip fractions over masked tokens: ρ < 1−εlow with A < 0, ρ > 1+εhigh with A > 0; approx_kl =
   *  masked mean of the k3 estimator of KL(π_old‖π_θ): ρ − 1 − log ρ). Sums use `denom` too. */
  dapoLoss(logp: T, oldLogp: T, adv: T, mask: T, opts: { epsLow: number; epsHigh: number; denom?: number }): { dlogp: T; stats: T };
}

export interface OptimOps<T extends Tensor> {
  /** sqrt(Σ over all tensors Σ g²) → (1), two-pass deterministic reduction. */
  globalNorm(grads: T[]): T;
  /** AdamW in place (decoupled weight decay, bias correction), step ≥ 1:
   *  g' = g · min(1, maxNorm / (norm + 1e-6)) when clip is given (norm read on the GPU);
   *  m = β1 m + (1−β1) g'; v = β2 v + (1−β2) g'²; p −= lr (m̂ / (√v̂ + eps) + wd · p). */
  adamw(
    param: T,
    grad: T,
    m: T,
    v: T,
    hp: { lr: number; beta1: number; beta2: number; eps: number; weightDecay: number; step: number },
    clip?: { norm: T; maxNorm: number },
  ): void;
}

export interface SamplingOps<T extends Tensor> {
  /** Categorical sampling at a temperature with a counter-based generator (Philox4x32-10):
   *  the uniform for row b is philox(key = seed, counter = (counters[b], b)), so the same seed and
   *  counters give the same tokens on any run and any backend. logits (B, V), counters (B) i32.
   *  topK / topP only as explicit evaluation options (training rollouts use neither).
   *  → ids (B) i32, logp (B): log-probability of the chosen id under the sampled distribution. */
  sample(logits: T, counters: T, opts: { seed: number; temperature?: number; topK?: number; topP?: number }): { ids: T; logp: T };
  /** Greedy: ids (B) i32 of the first maximum, logp (B) at temperature 1. */
  argmax(logits: T): { ids: T; logp: T };
}

export type Backend<T extends Tensor = Tensor> = BackendCore<T> &
  MatmulOps<T> &
  LayerOps<T> &
  AttentionOps<T> &
  LossOps<T> &
  OptimOps<T> &
  SamplingOps<T>;
