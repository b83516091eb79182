// Evaluation statistics: pass@1 as the mean over K samples per task with its standard deviation
// (the std of the per-sample pass rate across the K sampling rounds, as the paper reports
// "39.0 % ± 0.5"), and pass@K (a task counts if any of its K samples passed).

export interface PassStats {
  'pass@1': number;
  'pass@1_std': number;
  'pass@k': number;
  k: number;
  tasks: number;
}

/** results[t][s]: did sample s of task t pass. Every task must have the same K ≥ 1 samples. */
export function passStats(results: readonly (readonly boolean[])[]): PassStats {
  const tasks = results.length;
  if (tasks === 0) return { 'pass@1': 0, 'pass@1_std': 0, 'pass@k': 0, k: 0, tasks: 0 };
  const k = results[0]!.length;
  if (k === 0 || results.some((r) => r.length !== k)) throw new Error('passStats: every task needs the same number (≥ 1) of samples');
  // Pass rate of sampling round s over all tasks, then mean and std over rounds.
  const rounds = Array.from({ length: k }, (_, s) => results.reduce((a, r) => a + (r[s] ? 1 : 0), 0) / tasks);
  const mean = rounds.reduce((a, b) => a + b, 0) / k;
  const std = k > 1 ? Math.sqrt(rounds.reduce((a, r) => a + (r - mean) ** 2, 0) / (k - 1)) : 0;
  const passK = results.reduce((a, r) => a + (r.some(Boolean) ? 1 : 0), 0) / tasks;
  return { 'pass@1': mean, 'pass@1_std': std, 'pass@k': passK, k, tasks };
}
