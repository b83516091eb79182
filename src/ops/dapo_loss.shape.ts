// Argument rules of dapoLoss (LossOps), shared by the CPU reference and the WebGPU dispatcher.
import { expectDtype, expectShape, shapeStr, type Tensor } from './tensor.ts';

export interface DapoLossOptions {
  /** Lower clip: ρ < 1 − epsLow with A < 0 is clipped (DAPO 0.2). */
  epsLow: number;
  /** Upper clip (clip-higher): ρ > 1 + epsHigh with A > 0 is clipped (DAPO 0.28). */
  epsHigh: number;
  /** Action tokens in the whole batch (so micro-batch losses and gradients add up); default Σ mask. */
  denom?: number;
}

/** Tokens one call accepts: 65535 workgroups of 1024 tokens in the first pass of the kernel. */
export const DAPO_MAX_TOKENS = 65535 * 1024;

export function dapoLossDims(logp: Tensor, oldLogp: Tensor, adv: Tensor, mask: Tensor, opts: DapoLossOptions): { N: number } {
  const op = 'dapoLoss';
  if (logp.shape.length !== 1) throw new Error(`${op}: logp must be (N), got ${shapeStr(logp.shape)}`);
  const N = logp.shape[0]!;
  for (const [name, t] of [['logp', logp], ['oldLogp', oldLogp], ['adv', adv], ['mask', mask]] as const) {
    expectDtype(op, name, t, 'f32');
    expectShape(op, name, t.shape, [N]);
  }
  if (N > DAPO_MAX_TOKENS) throw new Error(`${op}: ${N} tokens exceed ${DAPO_MAX_TOKENS} per call; split the batch and pass the whole batch's denom`);
  for (const k of ['epsLow', 'epsHigh'] as const) {
    if (!(opts[k] >= 0 && Number.isFinite(opts[k]))) throw new Error(`${op}: ${k} must be a finite number ≥ 0, got ${opts[k]}`);
  }
  if (opts.denom !== undefined && !(opts.denom > 0 && Number.isFinite(opts.denom))) {
    throw new Error(`${op}: denom must be a finite number > 0 (action tokens in the batch), got ${opts.denom}`);
  }
  return { N };
}
