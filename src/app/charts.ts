// The live run's curves (uPlot): one small chart per quantity DAPO.md asks to watch, all over the
// same x axis (the metrics row number, since steps restart in each phase), with a dashed marker and
// the phase's name wherever the phase changes. Each figure carries a text summary for screen readers.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { MetricRecord } from '../store/types.ts';
import { el, num } from './dom.ts';

interface SeriesSpec {
  key: string;
  label: string;
  /** Read from `timing` (wall-clock) rather than `values`. */
  timing?: boolean;
}
interface ChartSpec {
  id: string;
  title: string;
  series: SeriesSpec[];
  /** Fractions are drawn on [0, 1] whatever their values. */
  fraction?: boolean;
}

export const CHARTS: readonly ChartSpec[] = [
  { id: 'reward', title: 'Reward', series: [{ key: 'reward_mean', label: 'mean reward' }] },
  { id: 'pass-rate', title: 'Pass rate', series: [{ key: 'pass_rate', label: 'rollouts' }, { key: 'expert_pass_rate', label: 'expert' }, { key: 'pass@1', label: 'eval pass@1' }], fraction: true },
  { id: 'loss', title: 'Loss', series: [{ key: 'loss', label: 'loss' }] },
  { id: 'clip', title: 'Clip fractions', series: [{ key: 'clipfrac_low', label: 'low (1 − ε_low)' }, { key: 'clipfrac_high', label: 'high (1 + ε_high)' }], fraction: true },
  { id: 'entropy', title: 'Entropy', series: [{ key: 'entropy', label: 'entropy' }] },
  { id: 'kl', title: 'KL (approx., behaviour ‖ policy)', series: [{ key: 'approx_kl', label: 'approx KL' }] },
  { id: 'turns', title: 'Turns per episode', series: [{ key: 'turns_mean', label: 'mean turns' }] },
  { id: 'action-tokens', title: 'Action tokens', series: [{ key: 'action_tokens_mean', label: 'per episode' }, { key: 'action_tokens', label: 'per update' }] },
  { id: 'format-errors', title: 'Format errors', series: [{ key: 'format_error_rate', label: 'per turn' }], fraction: true },
  { id: 'drop-rate', title: 'Dynamic-sampling drop rate', series: [{ key: 'groups_dropped_frac', label: 'groups dropped' }], fraction: true },
  { id: 'tokens-per-s', title: 'Tokens/s', series: [{ key: 'gen_tokens_per_s', label: 'generation', timing: true }, { key: 'train_tokens_per_s', label: 'training', timing: true }] },
];

const COLOURS = ['#1f6feb', '#c4302b', '#2da44e', '#8250df'];
/** Rows are whole numbers: ticks at whole steps only. */
export const ROW_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
/** uPlot's padded range, except that a flat series gets ±1 around its value rather than 0..100. */
export const yRange: uPlot.Range.Function = (_u, min, max) => (min === max ? [min - 1, max + 1] : uPlot.rangeNum(min, max, 0.1, true));

/** The phase family of a row: base, rft, dapo (eval rows belong to the phase they evaluate). */
const family = (phase: string) => phase.replace(/^eval-/, '').replace(/^dapo2$/, 'dapo');

/** Where each phase starts, as [row, label]. */
export function phaseMarkers(rows: readonly MetricRecord[]): [number, string][] {
  const out: [number, string][] = [];
  rows.forEach((r, i) => {
    const f = r.phase.startsWith('eval-') ? r.phase : family(r.phase);
    const prev = i > 0 ? rows[i - 1]!.phase : null;
    const pf = prev === null ? null : prev.startsWith('eval-') ? prev : family(prev);
    if (f !== pf) out.push([i, r.phase.startsWith('eval-') ? 'eval' : r.phase]);
  });
  return out;
}

/** A group of phase markers: x positions and labels, drawn as dashed lines in one colour. */
export interface MarkerGroup {
  markers: [number, string][];
  stroke: string;
  fill: string;
}

/**
 * Dashed vertical lines with labels at phase changes. Several groups (runs compared) get their own
 * colours, and each later group's labels sit one line lower, so markers at the same row stay readable.
 */
export function markerPlugin(groups: () => readonly MarkerGroup[]): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u) => {
          const c = u.ctx;
          c.save();
          c.setLineDash([4, 4]);
          c.font = `${Math.round(10 * devicePixelRatio)}px system-ui, sans-serif`;
          groups().forEach((g, k) => {
            c.strokeStyle = g.stroke;
            c.fillStyle = g.fill;
            for (const [x, label] of g.markers) {
              const px = u.valToPos(x, 'x', true);
              if (px < u.bbox.left - 1 || px > u.bbox.left + u.bbox.width + 1) continue;
              c.beginPath();
              c.moveTo(px, u.bbox.top);
              c.lineTo(px, u.bbox.top + u.bbox.height);
              c.stroke();
              c.fillText(label, px + 3, u.bbox.top + (10 + 12 * k) * devicePixelRatio);
            }
          });
          c.restore();
        },
      ],
    },
  };
}

export class RunCharts {
  readonly element: HTMLElement;
  private plots: { spec: ChartSpec; plot: uPlot; figure: HTMLElement }[] = [];
  private rows: MetricRecord[] = [];
  private markers: [number, string][] = [];
  private resize: ResizeObserver;

  constructor() {
    this.element = el('div', { class: 'charts', id: 'charts' });
    const HEIGHT = 150;
    for (const spec of CHARTS) {
      const figure = el('figure', { class: 'chart', id: `chart-${spec.id}`, 'data-points': 0 });
      const caption = el('figcaption', {}, spec.title, el('span', { class: 'empty-note' }, ' (no values yet)'));
      figure.append(caption);
      const opts: uPlot.Options = {
        width: 320,
        height: HEIGHT,
        legend: { show: true, live: false },
        cursor: { show: true, drag: { x: false, y: false } },
        scales: { x: { time: false, range: (_u, _min, max) => [0, Math.max(1, max ?? 1)] }, y: { range: spec.fraction ? [0, 1] : yRange } },
        axes: [{ label: 'metrics row', size: 34, labelSize: 14, incrs: ROW_STEPS }, { size: 48 }],
        series: [{ label: 'row' }, ...spec.series.map((s, i) => ({ label: s.label, stroke: COLOURS[i % COLOURS.length]!, width: 1.5, spanGaps: true, points: { show: true, size: 4 } }))],
        plugins: [markerPlugin(() => [{ markers: this.markers, stroke: '#8c959f', fill: '#57606a' }])],
      };
      const plot = new uPlot(opts, [[], ...spec.series.map(() => [])] as uPlot.AlignedData, figure);
      // uPlot's canvas is not readable by screen readers; the figure's label summarises it.
      figure.setAttribute('role', 'img');
      this.plots.push({ spec, plot, figure });
      this.element.append(figure);
    }
    // Each chart takes its figure's width (the grid decides it), once attached and on every resize.
    this.resize = new ResizeObserver((entries) => {
      for (const e of entries) {
        const p = this.plots.find((x) => x.figure === e.target);
        const w = Math.floor(e.contentRect.width);
        if (p && w > 0 && w !== p.plot.width) p.plot.setSize({ width: w, height: HEIGHT });
      }
    });
    for (const p of this.plots) this.resize.observe(p.figure);
  }

  /** Replace all rows (a run opened or reloaded). */
  setRows(rows: readonly MetricRecord[]): void {
    this.rows = [...rows];
    this.redraw();
  }

  /** Append rows that start at row `from`; returns false when they do not follow on (then reload all). */
  append(rows: readonly MetricRecord[], from: number): boolean {
    if (from !== this.rows.length) return false;
    this.rows.push(...rows);
    this.redraw();
    return true;
  }

  get rowCount(): number {
    return this.rows.length;
  }

  /**
   * Redraw every chart, one per task: eleven uPlot redraws in one task held a loaded machine's main thread
   * for over 100 ms, and the Live view keeps every task of a live run under that (Long Tasks API in
   * test/browser/run.test.ts). Rows that arrive meanwhile join the pass under way.
   */
  private redraw(): void {
    this.markers = phaseMarkers(this.rows);
    for (const p of this.plots) this.stale.add(p);
    if (this.drawing) return;
    this.drawing = true;
    const next = () => {
      const p = this.stale.values().next().value;
      if (!p || this.destroyed) return void (this.drawing = false);
      this.stale.delete(p);
      this.draw(p);
      setTimeout(next, 0);
    };
    setTimeout(next, 0);
  }
  private readonly stale = new Set<RunCharts['plots'][number]>();
  private drawing = false;
  private destroyed = false;

  private draw({ spec, plot, figure }: RunCharts['plots'][number]): void {
    const xs = this.rows.map((_, i) => i);
    const ys = spec.series.map((s) => this.rows.map((r) => (s.timing ? r.timing?.[s.key] : r.values[s.key]) ?? null));
    plot.setData([xs, ...ys] as uPlot.AlignedData);
    const points = ys.reduce((a, y) => a + y.filter((v) => v !== null).length, 0);
    figure.dataset.points = String(points);
    figure.querySelector<HTMLElement>('.empty-note')!.hidden = points > 0;
    const last = spec.series.map((s, i) => {
      const y = ys[i]!;
      let j = y.length - 1;
      while (j >= 0 && y[j] === null) j--;
      return j >= 0 ? `${s.label} ${num(y[j])} at row ${j}` : null;
    }).filter(Boolean);
    figure.setAttribute('aria-label', `${spec.title}: ${last.length ? last.join('; ') : 'no values yet'}`);
  }

  destroy(): void {
    this.destroyed = true;
    this.resize.disconnect();
    for (const p of this.plots) p.plot.destroy();
  }
}
