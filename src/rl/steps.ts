// One optimiser step of supervised fine-tuning (behaviour cloning, RFT) or of DAPO on a packed
// batch: forward, the loss's gradient w.r.t. the target log-probs, explicit backward, AdamW with
// global-norm clipping. Returns the step's metrics and where its wall time went (the device is
// synced after the backward, so on WebGPU queued backward work is not billed to the optimiser).
import type { Transformer } from '../model/transformer.ts';
import type { Tensor } from '../ops/tensor.ts';
import type { AdamW } from './optimizer.ts';
import type { PackedRows } from './pack.ts';

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

const mean = (xs: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return xs.length ? s / xs.length : 0;
};

/** SFT: loss = −Σ mask·logp / Σ mask, the token mean over the action tokens of the batch (mask 1) and,
 *  when the rows carry a context weight w, the environment's tokens at weight w. The loss and entropy
 *  reported are the action tokens' alone, comparable with or without the context term. */
export async function sftStep<T extends Tensor>(model: Transformer<T>, opt: AdamW<T>, rows: PackedRows, lr: number): Promise<StepMetrics> {
  const be = model.be;
  if (rows.actionTokens === 0) throw new Error('sftStep: the batch has no action tokens to train on');
  const t0 = performance.now();
  const { batch, at } = upload(model, rows);
  const st = model.forward(batch);
  const action = at.map((i) => rows.mask[i] === 1);
  const onActions = (xs: ArrayLike<number>) => mean(Array.from(xs).filter((_, j) => action[j]));
  const logp = await be.read(st.logp);
  const entropy = await be.read(st.entropy);
  const loss = -onActions(logp);
  const dlogp = be.fromArray(Float32Array.from(at, (i) => -rows.mask[i]! / rows.weightSum), [at.length], 'sft.dlogp');
  model.backward(st, dlogp, opt.grads);
  const { gradNorm, seconds } = await timedUpdate(model, opt, lr, t0);
  be.free(dlogp);
  freeBatch(model, batch);
  return { loss, gradNorm, actionTokens: rows.actionTokens, entropy: onActions(entropy), seconds };
}

/** DAPO: the clipped token-level surrogate (dapoLoss), no KL term. `denom`: action tokens in this step's batch. */
export async function dapoStep<T extends Tensor>(
  model: Transformer<T>,
  opt: AdamW<T>,
  rows: PackedRows,
  lr: number,
  clip: { epsLow: number; epsHigh: number },
  /** τ the rollouts were sampled at: the policy is scored as softmax(logits/τ), the distribution sampled. */
  temperature = 1,
): Promise<StepMetrics> {
  const be = model.be;
  if (rows.actionTokens === 0) throw new Error('dapoStep: the batch has no action tokens to train on');
  if (rows.weightSum !== rows.actionTokens) throw new Error('dapoStep: the rows score context tokens; DAPO trains on action tokens only (pack them without a context weight)');
  const t0 = performance.now();
  const { batch, at } = upload(model, rows);
  const M = at.length;
  const st = model.forward(batch, { temperature });
  const oldLogp = Float32Array.from(at, (i) => rows.oldLogp[i]!);
  const old = be.fromArray(oldLogp, [M], 'dapo.old');
  const adv = be.fromArray(Float32Array.from(at, (i) => rows.adv[i]!), [M], 'dapo.adv');
  const mask = be.fromArray(new Float32Array(M).fill(1), [M], 'dapo.mask');
  const { dlogp, stats } = be.dapoLoss(st.logp, old, adv, mask, { ...clip, denom: rows.actionTokens });
  const [loss, clipFracLow, clipFracHigh, approxKl] = [...(await be.read(stats))];
  const logp = await be.read(st.logp);
  const entropy = await be.read(st.entropy);
  let drift = 0;
  for (let j = 0; j < M; j++) drift += Math.abs(logp[j]! - oldLogp[j]!);
  model.backward(st, dlogp, opt.grads);
  const { gradNorm, seconds } = await timedUpdate(model, opt, lr, t0);
  for (const t of [old, adv, mask, dlogp, stats]) be.free(t);
  freeBatch(model, batch);
  return {
    loss: loss!, gradNorm, actionTokens: rows.actionTokens, entropy: mean(entropy),
    clipFracLow: clipFracLow!, clipFracHigh: clipFracHigh!, approxKl: approxKl!, logpDrift: drift / rows.actionTokens, seconds,
  };
}

/**
 * No gradient: the tempered logits (M, V) and log-probs (M) of the scored (mask 1) targets under the
 * current weights, in position order. The learner of a shared run checks a contributor's sampled ids
 * and behaviour log-probs with it (src/dist/verify.ts). Under recompute, so only each layer's input
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
