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

/**
 * Decoding in windows (KvGenerator.window) against the one-step loop: three turns over four sequences —
 * a stop id drawn mid-window, per-row budgets, an inactive row, a stop predicate, then a cohort kept to
 * two rows (their streams out of order) — sampled and greedy. Returns each run's turns, lengths,
 * counters and read-back rounds, window 1 first.
 */
export async function windowRuns<T extends Tensor>(model: Transformer<T>, windows: readonly number[], greedy = false) {
  const prompts = [[1, 2, 3, 4, 5, 6, 7], [9, 8], [5, 4, 3, 2, 1, 10, 11, 12, 13], [3, 3]];
  const sampling = { seed: 77, ...(greedy ? { greedy: true } : {}) };
  // A stop id the first sequence draws at its fourth token (found by a run without stops).
  const probe = new KvGenerator(model, 4, 80, 16);
  probe.window = 1;
  const stop = (await probe.generate(prompts, { ...sampling, maxTokens: 6, stopIds: [] }))[0]!.ids[3]!;
  probe.dispose();
  const runs = [];
  for (const w of windows) {
    const gen = new KvGenerator(model, 4, 80, 16);
    gen.window = w;
    const t1 = await gen.generate(prompts, { ...sampling, maxTokens: [12, 5, 20, 0], stopIds: [stop], active: [true, true, true, false] });
    const t2 = await gen.generate([[20, 21], [22], [23, 24, 25], [26]], { ...sampling, maxTokens: 9, stopIds: [], stopWhen: (b, ids) => b === 2 && ids.length === 4 });
    const kept = gen.keepRows([2, 0]);
    kept.window = w;
    const t3 = await kept.generate([[30], [31, 32]], { ...sampling, maxTokens: [11, 6], stopIds: [stop] });
    runs.push({ window: w, turns: [t1, t2, t3], len: [...gen.len], counters: [...gen.counters], keptLen: [...kept.len], keptCounters: [...kept.counters], readRounds: gen.readRounds + kept.readRounds });
    kept.dispose();
    gen.dispose();
  }
  return { stop, runs };
}
