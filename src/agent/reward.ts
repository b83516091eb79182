// Episode rewards (docs/dapo.md): R = 1 if every FAIL_TO_PASS and PASS_TO_PASS test passes, else 0, plus the
// paper's turn-length penalty (Eqs. 3-4), which the from-scratch presets turn off (the test result alone).

export interface RewardParts {
  /** Tests part: 1 or 0. */
  tests: number;
  /** Turn-length penalty, ≤ 0. */
  length_penalty: number;
  total: number;
}

export interface RewardConfig {
  maxTurns: number; // T_max
  lengthThreshold: number; // L_thr
  lengthPenalty: boolean;
}

/** R_len = 0 if |τ| < L_thr, else (L_thr − |τ|) / (T_max − L_thr). |τ| = agent turns. */
export function turnLengthPenalty(turns: number, lengthThreshold: number, maxTurns: number): number {
  if (maxTurns <= lengthThreshold) throw new Error(`turn penalty needs T_max (${maxTurns}) > L_thr (${lengthThreshold})`);
  return turns < lengthThreshold ? 0 : (lengthThreshold - turns) / (maxTurns - lengthThreshold);
}

export function episodeReward(testsPassed: boolean, turns: number, cfg: RewardConfig): RewardParts {
  const tests = testsPassed ? 1 : 0;
  const length_penalty = cfg.lengthPenalty ? turnLengthPenalty(turns, cfg.lengthThreshold, cfg.maxTurns) : 0;
  return { tests, length_penalty, total: tests + length_penalty };
}
