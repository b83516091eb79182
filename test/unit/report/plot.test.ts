// The run plot: panels from a run's metrics rows (held-out evaluations with their std, rollout pass
// rate, reward, format errors, smoothed loss), phase bands ending at each evaluation, and an SVG that
// holds them; rows without wall time are left out.
import { describe, expect, it } from 'vitest';
import { plotRun, runPanels } from '../../../src/report/plot.ts';
import type { MetricRecord } from '../../../src/store/types.ts';

const at = (s: number) => ({ elapsed_s: s });
const rows: MetricRecord[] = [
  { phase: 'base', step: -1, values: { expert_pass_rate: 1 }, timing: at(30) },
  ...Array.from({ length: 30 }, (_, i): MetricRecord => ({ phase: 'base', step: i, values: { loss: 3 - i / 15 }, timing: at(60 + 10 * i) })),
  { phase: 'eval-base', step: 0, values: { 'pass@1': 0.03, 'pass@1_std': 0.01, 'pass@k': 0.1 }, timing: at(420) },
  { phase: 'rft', step: -1, values: { pass_rate: 0.05, reward_mean: -0.8, format_error_rate: 0.2 }, timing: at(600) },
  { phase: 'rft', step: 0, values: { loss: 0.4 }, timing: at(620) },
  { phase: 'eval-rft', step: 0, values: { 'pass@1': 0.08, 'pass@1_std': 0.02, 'pass@k': 0.2 }, timing: at(720) },
  { phase: 'dapo', step: 0, values: { pass_rate: 0.2, reward_mean: -0.5, format_error_rate: 0.15 }, timing: at(840) },
  { phase: 'dapo', step: 1, values: { pass_rate: 0.3, reward_mean: -0.3, format_error_rate: 0.1 }, timing: at(960) },
  { phase: 'eval-dapo', step: 0, values: { 'pass@1': 0.14, 'pass@1_std': 0.02, 'pass@k': 0.3 }, timing: at(1080) },
  { phase: 'dapo', step: 2, values: { pass_rate: 0.9 } },
];

describe('run plot', () => {
  it('panels: evaluations as points with their std, rollouts as lines, loss smoothed; phases end at their evaluations', () => {
    const { panels, bands, end } = runPanels(rows);
    expect(panels.map((p) => p.title)).toEqual(['pass@1', 'mean reward (rollouts)', 'format errors (share of turns)', 'supervised loss (nats / action token)']);
    const [held, train] = panels[0]!.series;
    expect(held!.points).toEqual([{ x: 7, y: 0.03, err: 0.01, label: 'base' }, { x: 12, y: 0.08, err: 0.02, label: 'rft' }, { x: 18, y: 0.14, err: 0.02, label: 'dapo' }]);
    expect(train!.points.map((p) => p.y)).toEqual([0.05, 0.2, 0.3]); // the untimed row is left out
    expect(bands).toEqual([{ phase: 'base', from: 0, to: 7 }, { phase: 'rft', from: 7, to: 12 }, { phase: 'dapo', from: 12, to: 18 }]);
    expect(end).toBe(18);
    const loss = panels[3]!.series[0]!.points;
    expect(loss).toHaveLength(31);
    expect(loss[0]!.y).toBe(3);
    expect(loss[29]!.y).toBeCloseTo(3 - (10 + 29) / 2 / 15, 10); // the mean of steps 10..29
  });
  it('writes one SVG with the title, the phase labels, the evaluations and the legend', () => {
    const svg = plotRun(rows, 'micro <seed 1>');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('micro &lt;seed 1&gt;');
    for (const s of ['>base<', '>rft<', '>dapo<', 'base 3%', 'rft 8%', 'dapo 14%', 'held-out pass@1 ± std', 'rollouts, training tasks', 'minutes since the run started']) expect(svg).toContain(s);
    expect(svg.match(/<polyline/g)!.length).toBe(4);
  });
  it('labels the time axis at its ticks as they are (12.5 min is not "13")', () => {
    const long = rows.map((r) => (r.timing ? { ...r, timing: at(r.timing.elapsed_s! + 60) } : r)); // ends at 19 min: ticks every 2.5
    const labels = [...plotRun(long, 'x').matchAll(/fill="#555">([^<]*)</g)].map((m) => m[1]);
    const axis = labels.filter((l) => /^[0-9.]+$/.test(l!));
    expect(axis.slice(0, 8)).toEqual(['0', '2.5', '5', '7.5', '10', '12.5', '15', '17.5']);
    expect(axis).not.toContain('13');
  });
});
