// Shared generation checks, run on the CPU backend (unit tier) and on WebGPU (gpu tier): the
// sampler's behaviour log-probs must equal the training forward's log-probs of the same tokens.
import { KvGenerator } from '../../src/model/generate.ts';
import type { Transformer } from '../../src/model/transformer.ts';
import type { Tensor } from '../../src/ops/tensor.ts';

/** Score whole sequences with the training forward (one sequence per row, right-padded with seg −1). */
export async function scoreSequences<T extends Tensor>(model: Transformer<T>, seqs: number[][]): Promise<number[][]> {
  const be = model.be;
  const B = seqs.length, T = Math.max(...seqs.map((s) => s.length)), N = B * T;
  const ids = new Int32Array(N), tg = new Int32Array(N), pos = new Int32Array(N), seg = new Int32Array(N).fill(-1);
  seqs.forEach((s, b) => s.forEach((id, t) => {
    ids[b * T + t] = id;
    pos[b * T + t] = t;
    seg[b * T + t] = 0;
    if (t + 1 < s.length) tg[b * T + t] = s[t + 1]!;
  }));
  const st = model.forward({ B, T, ids: be.fromArray(ids, [N]), targets: be.fromArray(tg, [N]), positions: be.fromArray(pos, [N]), seg: be.fromArray(seg, [B, T]) });
  const logp = await be.read(st.logp);
  // logp[t] scores token t + 1.
  return seqs.map((s, b) => s.slice(1).map((_, t) => logp[b * T + t]!));
}

/** Two turns per sequence: prompt → generate → observation → generate; returns everything. */
export async function twoTurnRollout<T extends Tensor>(model: Transformer<T>, prompts: number[][], obs: number[][], seed: number, chunk = 128) {
  const gen = new KvGenerator(model, prompts.length, 96, chunk);
  const stopIds = [model.c.vocabSize - 1];
  const t1 = await gen.generate(prompts, { seed, maxTokens: [5, 7, 3].slice(0, prompts.length), stopIds });
  const t2 = await gen.generate(obs, { seed, maxTokens: 4, stopIds });
  gen.dispose();
  const seqs = prompts.map((p, b) => [...p, ...t1[b]!.ids, ...obs[b]!, ...t2[b]!.ids]);
  // Indices (into seqs[b].slice(1) scores) of sampled tokens, with their behaviour log-probs.
  const sampled = prompts.map((p, b) => {
    const a = p.length - 1, c = a + t1[b]!.ids.length + obs[b]!.length;
    return [
      ...t1[b]!.logprobs.map((lp, i) => ({ at: a + i, lp })),
      ...t2[b]!.logprobs.map((lp, i) => ({ at: c + i, lp })),
    ];
  });
  return { t1, t2, seqs, sampled, lens: gen.len };
}
