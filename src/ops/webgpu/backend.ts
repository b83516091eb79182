// WebGPU backend: the WGSL kernels behind the Backend interface. Ops record into the context's
// command encoder and return at once; `read`/`sync` submit and surface errors.
import type { GpuContext } from '../../gpu/context.ts';
import type { BackendCore, LayerOps, MatmulOps } from '../backend.ts';
import { matmul } from './matmul.ts';
import type { LossOps, OptimOps, SamplingOps } from '../backend.ts';
import type { AttentionOps } from '../backend.ts';
import { attention, attentionBackward } from './attention.ts';
import { attentionCached, kvWrite } from './attention_cached.ts';
import { adamw } from './adamw.ts';
import type { AdamwClip, AdamwHyper } from '../adamw.shape.ts';
import { argmax } from './argmax.ts';
import { dapoLoss } from './dapo_loss.ts';
import type { DapoLossOptions } from '../dapo_loss.shape.ts';
import { globalNorm } from './grad_norm.ts';
import { logprobs, logprobsBackward } from './logprobs.ts';
import { sample } from './sample.ts';
import type { SampleOptions } from '../sample.shape.ts';
import { colSum } from './col_sum.ts';
import { add, scale } from './elementwise.ts';
import { embedding, embeddingBackward } from './embedding.ts';
import { gatherRows } from './gather_rows.ts';
import { rmsnorm, rmsnormBackward } from './rmsnorm.ts';
import { rope } from './rope.ts';
import { swiglu, swigluBackward } from './swiglu.ts';
import type { MatmulOptions } from '../matmul.shape.ts';
import { allocTensor, freeTensor, readTensor } from './split.ts';
import { dtypeOf, numel, type DType, type GpuTensor, type TypedArray } from '../tensor.ts';

// Implements each op group of backend.ts as it lands; becomes `implements Backend<GpuTensor>` when all have.
export class WebGpuBackend implements BackendCore<GpuTensor>, MatmulOps<GpuTensor>, LayerOps<GpuTensor>, LossOps<GpuTensor>, OptimOps<GpuTensor>, SamplingOps<GpuTensor>, AttentionOps<GpuTensor> {
  readonly kind = 'webgpu' as const;
  /** Bound where a kernel declares an optional input that this call does not use. */
  private readonly placeholder: GPUBuffer;

  constructor(readonly ctx: GpuContext) {
    this.placeholder = ctx.buffer('placeholder', 16);
  }

  // Tensors past the context's binding limit are split into row chunks (webgpu/split.ts).
  fromArray(data: TypedArray, shape: readonly number[], label = 'tensor'): GpuTensor {
    if (data.length !== numel(shape)) throw new Error(`${label}: ${data.length} values do not fill shape (${shape.join(', ')})`);
    return allocTensor(this.ctx, label, shape, dtypeOf(data), data);
  }
  zeros(shape: readonly number[], dtype: DType = 'f32', label = 'zeros'): GpuTensor {
    // New buffers are zero-initialised by WebGPU.
    return allocTensor(this.ctx, label, shape, dtype);
  }
  read(t: GpuTensor): Promise<TypedArray> {
    return readTensor(this.ctx, t);
  }
  free(t: GpuTensor): void {
    freeTensor(this.ctx, t);
  }
  sync(): Promise<void> {
    return this.ctx.sync();
  }
  memory(): { liveBytes: number; peakBytes: number; pooledBytes: number; evictedBytes: number; resetPeak(): void } {
    const c = this.ctx;
    return { liveBytes: c.allocatedBytes, peakBytes: c.peakBytes, pooledBytes: c.pooledBytes, evictedBytes: c.evictedBytes, resetPeak: () => c.resetPeak() };
  }

  matmul(a: GpuTensor, b: GpuTensor, opts?: MatmulOptions<GpuTensor>): GpuTensor {
    return matmul(this.ctx, a, b, opts, this.placeholder);
  }

  // LayerOps: dispatchers in embedding.ts, rmsnorm.ts, rope.ts, swiglu.ts, elementwise.ts, col_sum.ts, gather_rows.ts.
  embedding(ids: GpuTensor, table: GpuTensor): GpuTensor {
    return embedding(this.ctx, ids, table);
  }
  embeddingBackward(ids: GpuTensor, dout: GpuTensor, dtable: GpuTensor): void {
    embeddingBackward(this.ctx, ids, dout, dtable);
  }
  rmsnorm(x: GpuTensor, w: GpuTensor, eps: number): { y: GpuTensor; rstd: GpuTensor } {
    return rmsnorm(this.ctx, x, w, eps);
  }
  rmsnormBackward(dy: GpuTensor, x: GpuTensor, w: GpuTensor, rstd: GpuTensor, dw: GpuTensor, opts?: { accumulateDx?: GpuTensor }): GpuTensor {
    return rmsnormBackward(this.ctx, dy, x, w, rstd, dw, opts);
  }
  rope(x: GpuTensor, positions: GpuTensor, theta: number, opts?: { inverse?: boolean }): GpuTensor {
    return rope(this.ctx, x, positions, theta, opts);
  }
  swiglu(gate: GpuTensor, up: GpuTensor): GpuTensor {
    return swiglu(this.ctx, gate, up);
  }
  swigluBackward(dh: GpuTensor, gate: GpuTensor, up: GpuTensor): { dgate: GpuTensor; dup: GpuTensor } {
    return swigluBackward(this.ctx, dh, gate, up);
  }
  add(a: GpuTensor, b: GpuTensor, out?: GpuTensor): GpuTensor {
    return add(this.ctx, a, b, out, this.placeholder);
  }
  scale(a: GpuTensor, s: number, out?: GpuTensor): GpuTensor {
    return scale(this.ctx, a, s, out, this.placeholder);
  }
  colSum(x: GpuTensor, out?: GpuTensor, accumulate?: boolean): GpuTensor {
    return colSum(this.ctx, x, out, accumulate);
  }
  gatherRows(x: GpuTensor, idx: GpuTensor): GpuTensor {
    return gatherRows(this.ctx, x, idx);
  }

  // LossOps, OptimOps, SamplingOps: dispatchers in logprobs.ts, dapo_loss.ts, grad_norm.ts, adamw.ts, sample.ts, argmax.ts.
  logprobs(logits: GpuTensor, targets: GpuTensor): { logp: GpuTensor; entropy: GpuTensor; lse: GpuTensor } {
    return logprobs(this.ctx, logits, targets);
  }
  logprobsBackward(logits: GpuTensor, targets: GpuTensor, lse: GpuTensor, entropy: GpuTensor, dlogp: GpuTensor, dentropy?: GpuTensor, out?: GpuTensor): GpuTensor {
    return logprobsBackward(this.ctx, this.placeholder, logits, targets, lse, entropy, dlogp, dentropy, out);
  }
  dapoLoss(logp: GpuTensor, oldLogp: GpuTensor, adv: GpuTensor, mask: GpuTensor, opts: DapoLossOptions): { dlogp: GpuTensor; stats: GpuTensor } {
    return dapoLoss(this.ctx, logp, oldLogp, adv, mask, opts);
  }
  globalNorm(grads: GpuTensor[]): GpuTensor {
    return globalNorm(this.ctx, grads);
  }
  adamw(param: GpuTensor, grad: GpuTensor, m: GpuTensor, v: GpuTensor, hp: AdamwHyper, clip?: AdamwClip<GpuTensor>): void {
    adamw(this.ctx, this.placeholder, param, grad, m, v, hp, clip);
  }
  sample(logits: GpuTensor, counters: GpuTensor, opts: SampleOptions): { ids: GpuTensor; logp: GpuTensor } {
    return sample(this.ctx, this.placeholder, logits, counters, opts);
  }
  argmax(logits: GpuTensor): { ids: GpuTensor; logp: GpuTensor } {
    return argmax(this.ctx, logits);
  }

  // AttentionOps: dispatchers in attention.ts (tiled forward / backward) and attention_cached.ts.
  attention(q: GpuTensor, k: GpuTensor, v: GpuTensor, seg: GpuTensor, opts?: { scale?: number }): { out: GpuTensor; lse: GpuTensor } {
    return attention(this.ctx, q, k, v, seg, opts);
  }
  attentionBackward(q: GpuTensor, k: GpuTensor, v: GpuTensor, out: GpuTensor, dout: GpuTensor, lse: GpuTensor, seg: GpuTensor, opts?: { scale?: number }): { dq: GpuTensor; dk: GpuTensor; dv: GpuTensor } {
    return attentionBackward(this.ctx, q, k, v, out, dout, lse, seg, opts);
  }
  kvWrite(cache: GpuTensor, x: GpuTensor, start: GpuTensor): void {
    kvWrite(this.ctx, cache, x, start);
  }
  attentionCached(q: GpuTensor, kCache: GpuTensor, vCache: GpuTensor, len: GpuTensor, opts?: { scale?: number }): GpuTensor {
    return attentionCached(this.ctx, q, kCache, vCache, len, opts);
  }
}
