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
