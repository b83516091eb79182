// Group advantages and dynamic sampling (docs/dapo.md): Â_i = (R_i − mean_group R) / (std_group R + δ),
// one scalar per episode broadcast to its action tokens; groups whose rewards are all equal have
// zero advantage everywhere and carry no gradient, so dynamic sampling drops them.

/** Â per episode of one group. The std is the unbiased one (n − 1), as verl's GRPO/DAPO advantage
 *  uses torch.std; a single-episode group has advantage 0. */
export function groupAdvantages(rewards: readonly number[], eps: number): number[] {
  const n = rewards.length;
  if (n === 0) return [];
  const mean = rewards.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return [0];
  const variance = rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / (n - 1);
  const std = Math.sqrt(variance);
  return rewards.map((r) => (r - mean) / (std + eps));
}

/** Â per episode and key with token-weighted baselines (dapo.baseline = tokens: one key for every turn;
 *  command: a key per command, view, sub, submit, …). `counts[i]` maps key → trained tokens of episode i;
 *  each key k has its own baseline, the group's reward weighted by those tokens:
 *  b_k = Σ_i R_i n_ik / Σ_i n_ik, Â_ik = (R_i − b_k) / (std + δ), so Σ_i Â_ik n_ik = 0 and the token-mean loss
 *  pushes as many of key k's tokens up as down. With the paper's episode mean a group whose failures ran to the
 *  turn limit (twice a success's tokens) pushes the tokens all episodes share down: 7 successes of 60 tokens and
 *  one failure of 130 give Σ Â_i n_i = 7·60·0.35 − 130·2.47 = −174 token-units. Per command, no command as a
 *  whole is pushed up or down (failures are mostly subs, successes end with a submit: finding 34); what moves is
 *  what a command's tokens say. For the tokens after a turn's first the command is part of their state, so its
 *  baseline leaves their gradient unbiased; the first token's, the choice of command, it removes. The std is the
 *  rewards' own. */
export function keyedAdvantages(rewards: readonly number[], counts: readonly Readonly<Record<string, number>>[], eps: number): Record<string, number>[] {
  const n = rewards.length;
  if (counts.length !== n) throw new Error(`keyedAdvantages: ${counts.length} token counts for ${n} rewards`);
  if (n < 2) return counts.map((c) => Object.fromEntries(Object.keys(c).map((k) => [k, 0])));
  const mean = rewards.reduce((a, b) => a + b, 0) / n;
  const std = Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / (n - 1));
  const baseline: Record<string, number> = {};
  for (const k of new Set(counts.flatMap((c) => Object.keys(c)))) {
    const w = counts.reduce((a, c) => a + (c[k] ?? 0), 0);
    baseline[k] = w > 0 ? counts.reduce((a, c, i) => a + rewards[i]! * (c[k] ?? 0), 0) / w : mean;
  }
  return counts.map((c, i) => Object.fromEntries(Object.keys(c).map((k) => [k, (rewards[i]! - baseline[k]!) / (std + eps)])));
}

/** True when a group teaches nothing: every reward equal (all solved or all failed, same length). */
export function isDegenerateGroup(rewards: readonly number[], tol = 1e-9): boolean {
  return rewards.every((r) => Math.abs(r - rewards[0]!) <= tol);
}

export interface DynamicSamplingState<G> {
  kept: G[];
  dropped: number;
  generated: number;
  rounds: number;
}

/**
 * Dynamic sampling [filter_groups]: keep groups with non-zero advantage until `target` groups are
 * kept. 'refill' asks `generate` for more groups (up to `maxRounds` generation rounds in all);
 * 'shrink' trains on what the first round kept. Returns at most `target` groups.
 */
export async function dynamicSample<G extends { rewards: readonly number[] }>(
  target: number,
  generate: (count: number, round: number) => Promise<G[]>,
  opts: { enabled: boolean; mode: 'refill' | 'shrink'; maxRounds: number },
): Promise<DynamicSamplingState<G>> {
  const st: DynamicSamplingState<G> = { kept: [], dropped: 0, generated: 0, rounds: 0 };
  while (st.kept.length < target && st.rounds < (opts.enabled && opts.mode === 'refill' ? opts.maxRounds : 1)) {
    const need = st.rounds === 0 ? target : target - st.kept.length;
    const groups = await generate(need, st.rounds);
    st.rounds++;
    st.generated += groups.length;
    for (const g of groups) {
      if (opts.enabled && isDegenerateGroup(g.rewards)) st.dropped++;
      else if (st.kept.length < target) st.kept.push(g);
    }
  }
  return st;
}
