// What the run charts draw, apart from drawing it (no DOM, tested in node): the x axis in minutes of
// wall time (timing.elapsed_s, which a resumed run continues), each row's phase family, the phases as
// bands, the values of a series with the expert's rows kept out of the policy's series, and the gaps
// that stop a line from joining two points of different phases (a chart spans the rows a series skips
// inside a phase, never a phase boundary).
import type { MetricRecord } from '../store/types.ts';

export interface SeriesSpec {
  key: string;
  label: string;
  /** Read from `timing` (wall-clock) rather than `values`. */
  timing?: boolean;
  /** The scripted expert's figure (base's row at step −1); every other series skips that row, whose
   *  reward, pass rate and turns are the expert's, not the policy's. */
  expert?: boolean;
}

export interface ChartSpec {
  id: string;
  title: string;
  series: SeriesSpec[];
  /** Fractions are drawn on [0, 1] whatever their values. */
  fraction?: boolean;
}

export const CHARTS: readonly ChartSpec[] = [
  { id: 'reward', title: 'Reward', series: [{ key: 'reward_mean', label: 'mean reward' }] },
  { id: 'pass-rate', title: 'Pass rate', series: [{ key: 'pass_rate', label: 'rollouts' }, { key: 'expert_pass_rate', label: 'expert', expert: true }, { key: 'pass@1', label: 'eval pass@1' }, { key: 'probe_pass_rate', label: 'probe (8 held-out tasks)' }], fraction: true },
  { id: 'loss', title: 'Loss', series: [{ key: 'loss', label: 'loss' }] },
  { id: 'clip', title: 'Clip fractions', series: [{ key: 'clipfrac_low', label: 'low (1 − ε_low)' }, { key: 'clipfrac_high', label: 'high (1 + ε_high)' }], fraction: true },
  { id: 'entropy', title: 'Entropy', series: [{ key: 'entropy', label: 'entropy' }] },
  { id: 'kl', title: 'KL (approx., behaviour ‖ policy)', series: [{ key: 'approx_kl', label: 'approx KL' }] },
  { id: 'turns', title: 'Turns per episode', series: [{ key: 'turns_mean', label: 'mean turns' }] },
  { id: 'action-tokens', title: 'Action tokens', series: [{ key: 'action_tokens_mean', label: 'per episode' }, { key: 'action_tokens', label: 'per update' }] },
  { id: 'copy-probe', title: 'Copy probe (cloning)', series: [{ key: 'copy_probe', label: 'held-out views' }], fraction: true },
  { id: 'format-errors', title: 'Format errors', series: [{ key: 'format_error_rate', label: 'per turn' }], fraction: true },
  { id: 'hack-flags', title: 'Reward-hack flags', series: [{ key: 'hack_flags', label: 'flagged episodes' }], fraction: true },
  { id: 'drop-rate', title: 'Dynamic-sampling drop rate', series: [{ key: 'groups_dropped_frac', label: 'groups dropped' }], fraction: true },
  { id: 'tokens-per-s', title: 'Tokens/s', series: [{ key: 'gen_tokens_per_s', label: 'generation', timing: true }, { key: 'train_tokens_per_s', label: 'training', timing: true }] },
];

/** The phase family of a row: base, rft, dapo (an evaluation belongs to the phase it evaluates). */
export const family = (phase: string) => phase.replace(/^eval-/, '');

/** The row the base phase logs for the scripted expert's episodes. */
export const isExpertRow = (r: MetricRecord) => r.phase === 'base' && r.step === -1;

/** x of every row: minutes since the run started where every row has timing.elapsed_s, else the row
 *  number (runs written before rows carried it). Returns the unit for the axis label. */
export function xAxis(rows: readonly MetricRecord[]): { xs: number[]; label: string } {
  const timed = rows.length > 0 && rows.every((r) => Number.isFinite(r.timing?.elapsed_s));
  if (!timed) return { xs: rows.map((_, i) => i), label: 'metrics row' };
  // Monotone for uPlot (a row logged out of order by a few ms must not fold the line back).
  let last = 0;
  return { xs: rows.map((r) => (last = Math.max(last, r.timing!.elapsed_s! / 60))), label: 'minutes since the run started' };
}

/** One series' values per row (null where the row has none, or is the expert's and the series is not). */
export function seriesValues(rows: readonly MetricRecord[], s: SeriesSpec): (number | null)[] {
  return rows.map((r) => {
    if (isExpertRow(r) !== Boolean(s.expert)) return null;
    const v = s.timing ? r.timing?.[s.key] : r.values[s.key];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  });
}

/** The phases as bands over x that tile the run: a phase ends at its evaluation (eval-<phase>), where the
 *  next one begins (its first row comes only when its rollouts are done); a phase with no evaluation yet
 *  runs to the next family's first row, or to the last row. The CLI's plot draws the same (report/plot.ts). */
export function phaseBands(rows: readonly MetricRecord[], xs: readonly number[]): { phase: string; from: number; to: number }[] {
  const out: { phase: string; from: number; to: number; closed: boolean }[] = [];
  rows.forEach((r, i) => {
    const f = family(r.phase);
    const last = out.at(-1);
    if (last && last.phase === f) {
      if (!last.closed) last.to = xs[i]!;
    } else {
      if (last && !last.closed) last.to = xs[i]!;
      out.push({ phase: f, from: last ? last.to : xs[i]!, to: xs[i]!, closed: false });
    }
    if (r.phase.startsWith('eval-')) out.at(-1)!.closed = true;
  });
  return out.map(({ phase, from, to }) => ({ phase, from, to }));
}

/**
 * Where a line must break: between each pair of consecutive points of the series (nulls skipped, as
 * the chart spans them) whose rows are in different phase families, as [x of the earlier, x of the
 * later]. The chart turns them into gaps; a test checks every drawn segment stays in one phase.
 */
export function boundaryGaps(rows: readonly MetricRecord[], xs: readonly number[], ys: readonly (number | null)[]): [number, number][] {
  const gaps: [number, number][] = [];
  let prev = -1;
  for (let i = 0; i < ys.length; i++) {
    if (ys[i] === null) continue;
    if (prev >= 0 && family(rows[prev]!.phase) !== family(rows[i]!.phase)) gaps.push([xs[prev]!, xs[i]!]);
    prev = i;
  }
  return gaps;
}

/** The segments a chart draws for a series: consecutive points (nulls spanned) not split by a gap. */
export function drawnSegments(xs: readonly number[], ys: readonly (number | null)[], gaps: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let prev = -1;
  for (let i = 0; i < ys.length; i++) {
    if (ys[i] === null) continue;
    if (prev >= 0 && !gaps.some(([a, b]) => a === xs[prev] && b === xs[i])) out.push([prev, i]);
    prev = i;
  }
  return out;
}

/** A y-axis tick in at most six characters (the axis is 48 px wide): 20,000 → "20k", 0.0002 → "2e-4",
 *  0.25 → "0.25". uPlot's own labels ran past the axis's left edge ("0,000") or rounded KL's ~1e-4 ticks to "0". */
export function axisLabel(v: number): string {
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a >= 1e6) return `${+(v / 1e6).toPrecision(2)}M`;
  if (a >= 1e3) return `${+(v / 1e3).toPrecision(a >= 1e4 ? 3 : 2)}k`;
  if (a < 0.01) return v.toExponential(0);
  return String(+v.toPrecision(3));
}
