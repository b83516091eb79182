// One optimiser step of supervised fine-tuning (behaviour cloning, RFT) or of DAPO on a packed
// batch: forward, the loss's gradient w.r.t. the target log-probs, explicit backward, AdamW with
// global-norm clipping. Returns the step's metrics and where its wall time went (the device is
// synced after the backward, so on WebGPU queued backward work is not billed to the optimiser).
// A step may run in passes (model.passTokens): whole rows at a time, each pass's gradient scaled by the
// whole batch's denominator and added into the same gradients (the backward accumulates), then one
// update. Both losses are sums over tokens divided by the batch's count, so the gradient is the one-pass
// gradient (up to float summation order); peak activation memory is one pass's.
import type { Transformer } from '../model/transformer.ts';
import type { Tensor } from '../ops/tensor.ts';
import type { AdamW } from './optimizer.ts';
import { passes, type PackedRows } from './pack.ts';

export interface StepMetrics {
  loss: number;
  gradNorm: number;
  actionTokens: number;
  /** Mean entropy of the policy on action tokens. */
  entropy: number;
  clipFracLow?: number;
  clipFracHigh?: number;
  approxKl?: number;
  /** Mean |logp − oldLogp| on action tokens (behaviour vs current policy drift). */
  logpDrift?: number;
  /** Wall seconds: upload + forward + loss + backward, then the AdamW update (with the norm). */
  seconds: { forwardBackward: number; optimizer: number };
}

/** Wait for the backward, then time the update: the step's wall-time split. */
async function timedUpdate<T extends Tensor>(model: Transformer<T>, opt: AdamW<T>, lr: number, t0: number): Promise<{ gradNorm: number; seconds: StepMetrics['seconds'] }> {
  await model.be.sync();
  const t1 = performance.now();
  const gradNorm = await opt.update(lr);
  return { gradNorm, seconds: { forwardBackward: (t1 - t0) / 1000, optimizer: (performance.now() - t1) / 1000 } };
}

/** The batch on the device, scored only where the loss is (mask 1): `at` are those positions. */
function upload<T extends Tensor>(model: Transformer<T>, rows: PackedRows) {
  const be = model.be, N = rows.B * rows.T;
  const at: number[] = [];
  for (let i = 0; i < N; i++) if (rows.mask[i]) at.push(i);
  const M = at.length;
  return {
    at,
    batch: {
      B: rows.B, T: rows.T,
      ids: be.fromArray(rows.ids, [N], 'batch.ids'),
      targets: be.fromArray(rows.targets, [N], 'batch.targets'),
      positions: be.fromArray(rows.positions, [N], 'batch.positions'),
      seg: be.fromArray(rows.seg, [rows.B, rows.T], 'batch.seg'),
      score: { rows: be.fromArray(Int32Array.from(at), [M], 'batch.score.rows'), targets: be.fromArray(Int32Array.from(at, (i) => rows.targets[i]!), [M], 'batch.score.targets') },
    },
  };
}

const freeBatch = <T extends Tensor>(model: Transformer<T>, b: ReturnType<typeof upload<T>>['batch']) => {
  for (const t of [b.ids, b.targets, b.positions, b.seg, b.score.rows, b.score.targets]) model.be.free(t);
};

/** SFT: loss = −Σ mask·logp / Σ mask, the token mean over the action tokens of the batch (mask 1). `passTokens`: run
 *  the batch in passes of at most that many tokens (0: one pass). `temperature` τ: logp scores softmax(logits/τ), the
 *  distribution a policy sampled at τ plays: fitting samples drawn at τ moves the policy at τ towards them, where at 1
 *  it would move the policy at 1 to the sharper τ-distribution and the evaluation at τ would sharpen it once more. */
export async function sftStep<T extends Tensor>(model: Transformer<T>, opt: AdamW<T>, rows: PackedRows, lr: number, passTokens = 0, temperature = 1): Promise<StepMetrics> {
  const be = model.be;
  if (rows.actionTokens === 0) throw new Error('sftStep: the batch has no action tokens to train on');
  const t0 = performance.now();
  let logpSum = 0, entropySum = 0;
  for (const part of passes(rows, passTokens)) {
    if (part.actionTokens === 0) continue; // rows that score nothing: no gradient to add
    const { batch, at } = upload(model, part);
    const st = model.forward(batch, { temperature });
    const logp = await be.read(st.logp);
    const entropy = await be.read(st.entropy);
    at.forEach((i, j) => {
      if (part.mask[i] === 1) (logpSum += logp[j]!), (entropySum += entropy[j]!);
    });
    const dlogp = be.fromArray(Float32Array.from(at, (i) => -part.mask[i]! / rows.actionTokens), [at.length], 'sft.dlogp');
    model.backward(st, dlogp, opt.grads);
    be.free(dlogp);
    freeBatch(model, batch);
  }
  const { gradNorm, seconds } = await timedUpdate(model, opt, lr, t0);
  return { loss: -logpSum / rows.actionTokens, gradNorm, actionTokens: rows.actionTokens, entropy: entropySum / rows.actionTokens, seconds };
}

/** DAPO: the clipped token-level surrogate (dapoLoss), no KL term; `denom`: action tokens in this step's
 *  batch, in every pass (`passTokens`, as sftStep's), so the passes' losses and statistics add up. */
export async function dapoStep<T extends Tensor>(
  model: Transformer<T>,
  opt: AdamW<T>,
  rows: PackedRows,
  lr: number,
  clip: { epsLow: number; epsHigh: number },
  /** τ the rollouts were sampled at: the policy is scored as softmax(logits/τ), the distribution sampled. */
  temperature = 1,
  passTokens = 0,
): Promise<StepMetrics> {
  const be = model.be;
  if (rows.actionTokens === 0) throw new Error('dapoStep: the batch has no action tokens to train on');
  const t0 = performance.now();
  const sums = [0, 0, 0, 0]; // loss, clip fraction low, high, approx. KL: each Σ/denom over the batch
  let drift = 0, entropySum = 0, scored = 0;
  for (const part of passes(rows, passTokens)) {
    if (part.actionTokens === 0) continue; // a pass of padding rows only: nothing to score
    const { batch, at } = upload(model, part);
    const M = at.length;
    const st = model.forward(batch, { temperature });
    const oldLogp = Float32Array.from(at, (i) => part.oldLogp[i]!);
    const old = be.fromArray(oldLogp, [M], 'dapo.old');
    const adv = be.fromArray(Float32Array.from(at, (i) => part.adv[i]!), [M], 'dapo.adv');
    const mask = be.fromArray(new Float32Array(M).fill(1), [M], 'dapo.mask');
    const { dlogp, stats } = be.dapoLoss(st.logp, old, adv, mask, { ...clip, denom: rows.actionTokens });
    (await be.read(stats)).forEach((v, k) => (sums[k]! += v));
    const logp = await be.read(st.logp);
    const entropy = await be.read(st.entropy);
    for (let j = 0; j < M; j++) (drift += Math.abs(logp[j]! - oldLogp[j]!)), (entropySum += entropy[j]!);
    scored += M;
    model.backward(st, dlogp, opt.grads);
    for (const t of [old, adv, mask, dlogp, stats]) be.free(t);
    freeBatch(model, batch);
  }
  const { gradNorm, seconds } = await timedUpdate(model, opt, lr, t0);
  const [loss, clipFracLow, clipFracHigh, approxKl] = sums;
  return {
    loss: loss!, gradNorm, actionTokens: rows.actionTokens, entropy: scored ? entropySum / scored : 0,
    clipFracLow: clipFracLow!, clipFracHigh: clipFracHigh!, approxKl: approxKl!, logpDrift: drift / rows.actionTokens, seconds,
  };
}

/**
 * No gradient: the tempered logits (M, V) and log-probs (M) of the scored (mask 1) targets under the
 * current weights, in position order. The learner of a shared run checks a contributor's sampled ids
 * and behaviour log-probs with it (src/share/verify.ts). Under recompute, so only each layer's input
 * is held at once.
 */
export async function scoreActions<T extends Tensor>(model: Transformer<T>, rows: PackedRows, temperature = 1): Promise<{ at: number[]; logits: Float32Array; logp: Float32Array; V: number }> {
  const be = model.be;
  const { batch, at } = upload(model, rows);
  const st = model.forward(batch, { temperature, recompute: true });
  const logits = (await be.read(st.logits)) as Float32Array;
  const logp = (await be.read(st.logp)) as Float32Array;
  for (const t of [...(st.inputs ?? []), st.xFinal, st.rstdF, st.hF, st.logits, st.lse, st.entropy, st.logp]) be.free(t);
  freeBatch(model, batch);
  return { at, logits, logp, V: model.c.vocabSize };
}
