// The live run's curves (uPlot): one small chart per quantity docs/dapo.md asks to watch, all over the
// same x axis (minutes of wall time: chart-data.ts), the phases as shaded bands named where there is
// room, no line across a phase boundary, the expert's rows apart from the policy's, and a chart shown
// once it has a value. Each figure carries a text summary for screen readers.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { MetricRecord } from '../store/types.ts';
import { axisLabel, boundaryGaps, CHARTS, family, phaseBands, seriesValues, xAxis, type ChartSpec } from './chart-data.ts';

export { CHARTS };
import { el, num } from './dom.ts';
import { PassPacer } from './pass-pacer.ts';

const COLOURS = ['#1f6feb', '#c4302b', '#2da44e', '#8250df'];
/** The least time between the end of one redraw pass and the start of the next (RunCharts.redraw). */
export const REDRAW_GAP_MS = 1000;

/** Rows are whole numbers: ticks at whole steps only. */
export const ROW_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
/** uPlot's padded range, except that a flat series gets ±1 around its value rather than 0..100. */
export const yRange: uPlot.Range.Function = (_u, min, max) => (min === max ? [min - 1, max + 1] : uPlot.rangeNum(min, max, 0.1, true));

/** Where each phase family starts, as [row, label] (the compare view marks both runs' changes). */
export function phaseMarkers(rows: readonly MetricRecord[]): [number, string][] {
  const out: [number, string][] = [];
  rows.forEach((r, i) => {
    if (i === 0 || family(r.phase) !== family(rows[i - 1]!.phase)) out.push([i, family(r.phase)]);
  });
  return out;
}

const BAND_FILL: Record<string, string> = { base: 'rgba(31, 111, 235, 0.07)', rft: 'rgba(45, 164, 78, 0.08)', dapo: 'rgba(196, 48, 43, 0.07)' };

/** Phases as shaded bands with their name at the top left, written only where the band has room for
 *  it (two short phases side by side never print over each other). */
export function bandPlugin(bands: () => readonly { phase: string; from: number; to: number }[]): uPlot.Plugin {
  return {
    hooks: {
      drawClear: [
        (u) => {
          const c = u.ctx;
          c.save();
          c.font = `${Math.round(10 * devicePixelRatio)}px system-ui, sans-serif`;
          for (const b of bands()) {
            const x0 = Math.max(u.bbox.left, u.valToPos(b.from, 'x', true));
            const x1 = Math.min(u.bbox.left + u.bbox.width, u.valToPos(b.to, 'x', true));
            if (x1 <= x0) continue;
            c.fillStyle = BAND_FILL[b.phase] ?? 'rgba(0, 0, 0, 0.05)';
            c.fillRect(x0, u.bbox.top, x1 - x0, u.bbox.height);
            if (c.measureText(b.phase).width + 6 * devicePixelRatio <= x1 - x0) {
              c.fillStyle = '#57606a';
              c.fillText(b.phase, x0 + 3 * devicePixelRatio, u.bbox.top + 11 * devicePixelRatio);
            }
          }
          c.restore();
        },
      ],
    },
  };
}

/** A uPlot gaps refiner that breaks a series' line at phase boundaries only (nulls inside a phase are
 *  spanned: a series such as the rollouts' reward skips the update rows between its points). */
export const phaseGaps = (gapsOf: (seriesIdx: number) => readonly [number, number][]): uPlot.Series.GapsRefiner =>
  (u, seriesIdx) => gapsOf(seriesIdx).map(([a, b]) => [Math.round(u.valToPos(a, 'x', true)), Math.round(u.valToPos(b, 'x', true))]);

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
  private readonly plots: { spec: ChartSpec; plot: uPlot; figure: HTMLElement }[] = [];
  private rows: MetricRecord[] = [];
  private bands: { phase: string; from: number; to: number }[] = [];
  /** Per chart and series (1-based, as uPlot counts), the x ranges where its line must break. */
  private gaps = new Map<string, [number, number][][]>();
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
        scales: { x: { time: false, range: (_u, _min, max) => [0, max && max > 0 ? max : 1] }, y: { range: spec.fraction ? [0, 1] : yRange } },
        axes: [{ label: 'minutes since the run started', size: 34, labelSize: 14 }, { size: 48, values: (_u, splits) => splits.map(axisLabel) }],
        // spanGaps off so that the refiner decides: it breaks lines at phase boundaries only.
        series: [{ label: 'x' }, ...spec.series.map((s, i) => ({ label: s.label, stroke: COLOURS[i % COLOURS.length]!, width: 1.5, spanGaps: false, gaps: phaseGaps((k) => this.gaps.get(spec.id)?.[k - 1] ?? []), points: { show: true, size: 4 } }))],
        plugins: [bandPlugin(() => this.bands)],
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
    this.frame = null;
    this.redraw();
  }

  /** Append rows that start at row `from`; returns false when they do not follow on (then reload all). */
  append(rows: readonly MetricRecord[], from: number): boolean {
    if (from !== this.rows.length) return false;
    this.rows.push(...rows);
    this.frame = null;
    this.redraw();
    return true;
  }

  get rowCount(): number {
    return this.rows.length;
  }

  /** Redraws every chart, paced (pass-pacer.ts: one chart a task, a pass at most once a second while rows stream in). */
  private redraw(): void {
    this.pacer.request();
  }
  private readonly pacer = new PassPacer(this.plots, (p) => this.draw(p), { gapMs: REDRAW_GAP_MS, passEnd: (n) => (this.element.dataset.passes = String(n)) });
  /** What every chart of a pass shares (x and its label; the bands), made once for the present rows. */
  private frame: { xs: number[]; label: string } | null = null;

  private draw({ spec, plot, figure }: RunCharts['plots'][number]): void {
    if (!this.frame) {
      this.frame = xAxis(this.rows);
      this.bands = phaseBands(this.rows, this.frame.xs);
    }
    const { xs, label } = this.frame;
    const ys = spec.series.map((s) => seriesValues(this.rows, s));
    this.gaps.set(spec.id, ys.map((y) => boundaryGaps(this.rows, xs, y)));
    const points = ys.reduce((a, y) => a + y.filter((v) => v !== null).length, 0);
    figure.dataset.points = String(points);
    figure.querySelector<HTMLElement>('.empty-note')!.hidden = points > 0;
    // A chart appears once it has a value (DAPO's charts stay out of the way during cloning).
    figure.hidden = points === 0;
    if (points === 0) return;
    if (plot.axes[0]!.label !== label) (plot.axes[0]!.label = label), plot.redraw(false, true);
    plot.setData([xs, ...ys] as uPlot.AlignedData);
    const unit = label === 'metrics row' ? 'row' : 'min';
    const last = spec.series.map((s, i) => {
      const y = ys[i]!;
      let j = y.length - 1;
      while (j >= 0 && y[j] === null) j--;
      return j >= 0 ? `${s.label} ${num(y[j])} at ${unit} ${num(xs[j]!)}` : null;
    }).filter(Boolean);
    figure.setAttribute('aria-label', `${spec.title}: ${last.length ? last.join('; ') : 'no values yet'}`);
  }

  destroy(): void {
    this.pacer.stop();
    this.resize.disconnect();
    for (const p of this.plots) p.plot.destroy();
  }
}
