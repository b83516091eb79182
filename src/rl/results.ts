// A run's results: one row per phase (its held-out pass@1 mean ± std over the K samples, pass@K, wall time),
// written to results.json whenever a run returns, and the paper-style table the CLI prints from them.
import { gainText, phaseGains } from './gains.ts';
import type { TrainPhase } from './phases.ts';

export interface PhaseRow {
  phase: TrainPhase;
  'pass@1': number;
  'pass@1_std': number;
  'pass@k': number;
  k: number;
  tasks: number;
  wall_s: number;
}

/** The paper-style table: phase, pass@1 ± std, pass@K, wall time, and each step's gain against its bar. */
export function resultsTable(rows: readonly PhaseRow[]): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const gains = phaseGains(rows);
  const lines = ['| phase | pass@1 (mean ± std) | pass@K | K | test tasks | wall time | gain (bar: 2 × the larger std) |', '|---|---|---|---|---|---|---|'];
  rows.forEach((r, i) => {
    const step = i > 0 ? gainText(gains[i - 1]!) : '';
    lines.push(`| ${r.phase} | ${pct(r['pass@1'])} ± ${pct(r['pass@1_std'])} | ${pct(r['pass@k'])} | ${r.k} | ${r.tasks} | ${r.wall_s.toFixed(0)} s | ${step} |`);
  });
  return lines.join('\n');
}
