// Episode rewards (docs/dapo.md): R = 1 if every FAIL_TO_PASS and PASS_TO_PASS test passes, else 0;
// plus the paper's turn-length penalty (Eqs. 3-4) and, optionally, DAPO's token overlong shaping.

export interface RewardParts {
  /** Tests part: 1 or 0. */
  tests: number;
  /** Turn-length penalty, ≤ 0. */
  length_penalty: number;
  /** Token overlong shaping, ≤ 0 (0 when disabled). */
  overlong_penalty: number;
  total: number;
}

export interface RewardConfig {
  maxTurns: number; // T_max
  lengthThreshold: number; // L_thr
  lengthPenalty: boolean;
  overlongBuffer: boolean;
  overlongBufferLen: number; // L_cache
  overlongPenaltyFactor: number;
  maxResponseTokens: number; // L_max (the episode's action-token budget)
}

/** R_len = 0 if |τ| < L_thr, else (L_thr − |τ|) / (T_max − L_thr). |τ| = agent turns. */
export function turnLengthPenalty(turns: number, lengthThreshold: number, maxTurns: number): number {
  if (maxTurns <= lengthThreshold) throw new Error(`turn penalty needs T_max (${maxTurns}) > L_thr (${lengthThreshold})`);
  return turns < lengthThreshold ? 0 : (lengthThreshold - turns) / (maxTurns - lengthThreshold);
}

/** DAPO overlong shaping: 0 if |y| ≤ L_max − L_cache; (L_max − L_cache − |y|)/L_cache inside the buffer; −1 beyond L_max. */
export function overlongPenalty(tokens: number, maxTokens: number, bufferLen: number): number {
  const free = maxTokens - bufferLen;
  if (tokens <= free) return 0;
  if (tokens > maxTokens) return -1;
  return (free - tokens) / bufferLen;
}

export function episodeReward(testsPassed: boolean, turns: number, actionTokens: number, cfg: RewardConfig): RewardParts {
  const tests = testsPassed ? 1 : 0;
  const length_penalty = cfg.lengthPenalty ? turnLengthPenalty(turns, cfg.lengthThreshold, cfg.maxTurns) : 0;
  const overlong_penalty = cfg.overlongBuffer ? cfg.overlongPenaltyFactor * overlongPenalty(actionTokens, cfg.maxResponseTokens, cfg.overlongBufferLen) : 0;
  return { tests, length_penalty, overlong_penalty, total: tests + length_penalty + overlong_penalty };
}
