// What the run charts draw (src/app/chart-data.ts), on the rows a real run logs (cloning with the
// expert's row, its evaluation, RFT's rollout row and updates, DAPO iterations, their evaluations):
// no drawn segment joins two phases, the expert's row feeds only the expert's series, x is wall time
// in minutes, and the phases are bands that tile the run, each ending at its evaluation.
import { describe, expect, it } from 'vitest';
import { axisLabel, boundaryGaps, CHARTS, drawnSegments, family, phaseBands, seriesValues, xAxis } from '../../../src/app/chart-data.ts';
import type { MetricRecord } from '../../../src/store/types.ts';

const row = (phase: string, step: number, values: Record<string, number>, elapsed: number): MetricRecord => ({ phase, step, values, timing: { elapsed_s: elapsed } });

// base: the expert's row (its reward, pass rate, turns), 4 updates, the evaluation; rft: the rollouts'
// row, 3 updates, the evaluation; dapo: 3 iterations, the evaluation.
const ROWS: MetricRecord[] = [
  row('base', -1, { expert_pass_rate: 1, pass_rate: 1, reward_mean: 0.75, turns_mean: 4, format_error_rate: 0 }, 60),
  ...[0, 1, 2, 3].map((s) => row('base', s, { loss: 2 - s / 4, entropy: 1, action_tokens: 40 }, 70 + 10 * s)),
  row('eval-base', 0, { 'pass@1': 0.06, 'pass@1_std': 0.03, 'pass@k': 0.2 }, 130),
  row('rft', -1, { pass_rate: 0.07, reward_mean: -0.8, turns_mean: 5.8, kept: 69, format_error_rate: 0.1 }, 400),
  ...[0, 1, 2].map((s) => row('rft', s, { loss: 0.5, entropy: 0.4, action_tokens: 300 }, 410 + 5 * s)),
  row('eval-rft', 0, { 'pass@1': 0.07, 'pass@1_std': 0.02, 'pass@k': 0.22 }, 480),
  ...[0, 1, 2].map((s) => row('dapo', s, { pass_rate: 0.1 + s / 20, reward_mean: 0.1, turns_mean: 5.7, loss: 0.1, entropy: 0.06, approx_kl: 0.001, clipfrac_low: 0, clipfrac_high: 0, format_error_rate: 0.02 }, 540 + 60 * s)),
  row('eval-dapo', 0, { 'pass@1': 0.1, 'pass@1_std': 0.04, 'pass@k': 0.27 }, 720),
];

describe('run chart data', () => {
  it('no series of any chart draws a segment across a phase boundary', () => {
    const { xs } = xAxis(ROWS);
    let segments = 0;
    for (const spec of CHARTS) {
      for (const s of spec.series) {
        const ys = seriesValues(ROWS, s);
        for (const [i, j] of drawnSegments(xs, ys, boundaryGaps(ROWS, xs, ys))) {
          expect(family(ROWS[i]!.phase), `${spec.id}/${s.key} rows ${i}→${j}`).toBe(family(ROWS[j]!.phase));
          segments++;
        }
      }
    }
    expect(segments).toBeGreaterThan(10); // lines are still drawn inside phases
    // Without the gaps the same data would cross boundaries (rollouts' reward: RFT's row → DAPO's rows).
    const ys = seriesValues(ROWS, { key: 'reward_mean', label: 'mean reward' });
    expect(drawnSegments(xs, ys, []).some(([i, j]) => family(ROWS[i]!.phase) !== family(ROWS[j]!.phase))).toBe(true);
    // A series spans the rows it skips inside a phase: DAPO's loss is one line over three iterations.
    const loss = seriesValues(ROWS, { key: 'loss', label: 'loss' });
    expect(drawnSegments(xs, loss, boundaryGaps(ROWS, xs, loss)).filter(([i]) => ROWS[i]!.phase === 'dapo')).toHaveLength(2);
  });

  it("the expert's row feeds only the expert's series", () => {
    const rollouts = seriesValues(ROWS, { key: 'pass_rate', label: 'rollouts' });
    const expert = seriesValues(ROWS, { key: 'expert_pass_rate', label: 'expert', expert: true });
    expect(rollouts[0]).toBeNull(); // the expert's 100 % is not the policy's
    expect(expert[0]).toBe(1);
    expect(expert.filter((v) => v !== null)).toHaveLength(1);
    expect(seriesValues(ROWS, { key: 'reward_mean', label: 'r' })[0]).toBeNull();
    expect(rollouts.filter((v) => v !== null)).toHaveLength(4); // RFT's rollouts and three DAPO iterations
  });

  it('x is minutes of wall time; the phases tile the run as bands', () => {
    const { xs, label } = xAxis(ROWS);
    expect(label).toBe('minutes since the run started');
    expect(xs[0]).toBe(1);
    expect(xs.at(-1)).toBe(12);
    // A phase ends at its evaluation, where the next begins (RFT's first row comes after its rollouts).
    expect(phaseBands(ROWS, xs)).toEqual([
      { phase: 'base', from: 1, to: 130 / 60 },
      { phase: 'rft', from: 130 / 60, to: 8 },
      { phase: 'dapo', from: 8, to: 12 },
    ]);
    // A run in progress: the phase without an evaluation yet runs to the last row.
    expect(phaseBands(ROWS.slice(0, 10), xs)).toEqual([
      { phase: 'base', from: 1, to: 130 / 60 },
      { phase: 'rft', from: 130 / 60, to: 420 / 60 },
    ]);
    // Rows without wall time (older runs): the row number, named as such.
    const old = ROWS.map(({ timing: _t, ...r }) => r as MetricRecord);
    expect(xAxis(old)).toEqual({ xs: ROWS.map((_, i) => i), label: 'metrics row' });
  });
});

describe('y-axis labels', () => {
  it('fit six characters: thousands as k, tiny values in exponent form, the rest to three digits', () => {
    expect([0, 20000, 2500, 150000, 3.2e6, 0.0002, -0.0005, 0.25, 1, 0.5, 7.5, 400, -2].map(axisLabel)).toEqual(['0', '20k', '2.5k', '150k', '3.2M', '2e-4', '-5e-4', '0.25', '1', '0.5', '7.5', '400', '-2']);
    for (const v of [123456, 0.000123, 0.0123, 99999, 999.9]) expect(axisLabel(v).length).toBeLessThanOrEqual(6);
  });
});
