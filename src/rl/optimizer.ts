// AdamW over a set of named parameters on a backend: moments per parameter, the global gradient
// norm computed and applied on the device (no readback needed to clip), gradients zeroed after
// each step. The norm is read back only as a metric.
import type { Backend } from '../ops/backend.ts';
import type { Tensor } from '../ops/tensor.ts';

export interface AdamwSettings {
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  maxGradNorm: number;
}

export class AdamW<T extends Tensor> {
  readonly m = new Map<string, T>();
  readonly v = new Map<string, T>();
  step = 0;

  constructor(
    readonly be: Backend<T>,
    readonly params: ReadonlyMap<string, T>,
    readonly grads: ReadonlyMap<string, T>,
    readonly hp: AdamwSettings,
  ) {
    for (const [n, p] of params) {
      this.m.set(n, be.zeros(p.shape, 'f32', `adam.m:${n}`));
      this.v.set(n, be.zeros(p.shape, 'f32', `adam.v:${n}`));
    }
  }

  /** One update at learning rate lr; returns the gradient norm before clipping. */
  async update(lr: number): Promise<number> {
    const { be, hp } = this;
    this.step++;
    const norm = be.globalNorm([...this.grads.values()]);
    for (const [n, p] of this.params) {
      // No weight decay on norms and biases (1-D parameters), as is usual for transformers.
      const wd = p.shape.length > 1 ? hp.weightDecay : 0;
      be.adamw(p, this.grads.get(n)!, this.m.get(n)!, this.v.get(n)!, { lr, beta1: hp.beta1, beta2: hp.beta2, eps: hp.eps, weightDecay: wd, step: this.step }, { norm, maxNorm: hp.maxGradNorm });
    }
    const value = (await be.read(norm))[0]!;
    be.free(norm);
    this.zeroGrads();
    return value;
  }

  zeroGrads(): void {
    for (const g of this.grads.values()) this.be.scale(g, 0, g);
  }
}
