// The run's table: each phase's gain over the phase before it against the headline's bar (twice the larger
// of the two stds across the K samples), in the Markdown table and in `train --json`'s `gains`.
import { describe, expect, it } from 'vitest';
import { phaseGains } from '../../../src/rl/gains.ts';
import { resultsTable, type PhaseRow } from '../../../src/rl/results.ts';

const row = (phase: PhaseRow['phase'], p1: number, std: number): PhaseRow => ({ phase, 'pass@1': p1, 'pass@1_std': std, 'pass@k': p1 + 0.1, k: 4, tasks: 149, wall_s: 100 });

describe('phase gains against the bar', () => {
  // E44 on val: base 53.0 ± 3.1 → RFT 55.4 ± 1.2 → DAPO 56.9 ± 1.8, and a step that clears its bar.
  const rows = [row('base', 0.53, 0.031), row('rft', 0.554, 0.012), row('dapo', 0.62, 0.018)];
  it('each step: the gain, twice the larger std, and whether the gain is above it', () => {
    const g = phaseGains(rows);
    expect(g.map((x) => [x.from, x.to, x.clears])).toEqual([['base', 'rft', false], ['rft', 'dapo', true]]);
    expect(g[0]!.gain).toBeCloseTo(0.024, 10);
    expect(g[0]!.bar).toBeCloseTo(0.062, 10);
    expect(g[1]!.bar).toBeCloseTo(0.036, 10);
    expect(phaseGains(rows.slice(0, 1))).toEqual([]);
    expect(phaseGains([row('base', 0.5, 0.02), row('rft', 0.45, 0.01)])[0]).toMatchObject({ clears: false });
  });
  it('the table shows them beside every phase after the first', () => {
    const lines = resultsTable(rows).split('\n');
    expect(lines[0]).toBe('| phase | pass@1 (mean ± std) | pass@K | K | test tasks | wall time | gain (bar: 2 × the larger std) |');
    expect(lines[2]).toBe('| base | 53.0 % ± 3.1 % | 63.0 % | 4 | 149 | 100 s |  |');
    expect(lines[3]).toMatch(/^\| rft \| 55\.4 % ± 1\.2 % .* \| \+2\.4 \(bar 6\.2\): below it \|$/);
    expect(lines[4]).toMatch(/\| \+6\.6 \(bar 3\.6\): clears it \|$/);
    expect(resultsTable([row('base', 0.5, 0.02), row('rft', 0.45, 0.01)]).split('\n')[3]).toMatch(/\| −5\.0 \(bar 4\.0\): below it \|$/);
  });
});
