// The headline's test of a phase (docs/learning.md): its gain in held-out pass@1 over the phase before it
// must exceed twice the larger of the two standard deviations across the K samples. Pure; the CLI's table,
// `train --json` and the app's results table use it.

/** What a phase's evaluation gives (PhaseRow's fields this needs). */
export interface PhaseScore {
  phase: string;
  'pass@1': number;
  'pass@1_std': number;
}

/** A phase's step over the one before it, against the headline's bar: the gain in pass@1 must exceed twice
 *  the larger of the two standard deviations (across the K samples) for the step to count as learning. */
export interface PhaseGain {
  from: string;
  to: string;
  /** pass@1 after `to` minus pass@1 after `from` (fractions). */
  gain: number;
  /** 2 × max(std after `from`, std after `to`). */
  bar: number;
  clears: boolean;
}

/** Each phase's step over the phase before it in the table (none for the first row). */
export function phaseGains(rows: readonly PhaseScore[]): PhaseGain[] {
  return rows.slice(1).map((r, i) => {
    const prev = rows[i]!;
    const gain = r['pass@1'] - prev['pass@1'];
    const bar = 2 * Math.max(r['pass@1_std'], prev['pass@1_std']);
    return { from: prev.phase, to: r.phase, gain, bar, clears: gain > bar };
  });
}

/** A step as the run's table and the app's print it: "+4.4 (bar 4.3): clears it" (percentage points). */
export const gainText = (g: PhaseGain): string =>
  `${g.gain >= 0 ? '+' : '−'}${Math.abs(100 * g.gain).toFixed(1)} (bar ${(100 * g.bar).toFixed(1)}): ${g.clears ? 'clears it' : 'below it'}`;

