// Compare two runs: the live view's curves (charts.ts's CHARTS) with both runs overlaid on each chart,
// one colour per run and one dash pattern per quantity, over minutes since each run started (as the live
// view; the metrics row where a run's rows carry no times); each run's phase changes are marked in its
// colour. A legend names the runs; each figure's label summarises both.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { MetricRecord } from '../../store/types.ts';
import { axisLabel, boundaryGaps, seriesValues, xAxis } from '../chart-data.ts';
import { CHARTS, markerPlugin, phaseGaps, phaseMarkers, ROW_STEPS, yRange } from '../charts.ts';
import { trainer } from '../client.ts';
import { el, errorText, heading, num, runHref } from '../dom.ts';

const RUN_COLOURS = ['#1f6feb', '#c4302b'];
/** Quantities in one chart are told apart by dash, runs by colour. */
const DASHES: number[][] = [[], [6, 4], [2, 3]];
const HEIGHT = 170;

interface Side {
  name: string;
  rows: MetricRecord[];
  colour: string;
}

/** The last value of a series, for the figure's text summary. */
function last(ys: (number | null)[], xs: readonly number[], unit: (x: number) => string): string | null {
  for (let j = ys.length - 1; j >= 0; j--) if (ys[j] !== null && ys[j] !== undefined) return `${num(ys[j])} at ${unit(xs[j]!)}`;
  return null;
}

/** Each run's x values, in one unit for both: minutes where both runs' rows carry times, else the row. */
export function compareAxes(sides: readonly { rows: readonly MetricRecord[] }[]): { xs: number[][]; label: string; minutes: boolean } {
  const axes = sides.map((s) => xAxis(s.rows));
  const minutes = axes.every((a, k) => sides[k]!.rows.length === 0 || a.label !== 'metrics row');
  return minutes
    ? { xs: axes.map((a) => a.xs), label: 'minutes since the run started', minutes }
    : { xs: sides.map((s) => s.rows.map((_, i) => i)), label: 'metrics row', minutes };
}

/** The charts of the two runs, but those neither run has a value for (they are named in `empty`). */
function drawCharts(container: HTMLElement, empty: HTMLElement, sides: readonly Side[]): uPlot[] {
  const axes = compareAxes(sides);
  // One x for both runs: the union of their x values; a run's series is null at the other's points,
  // and the gaps refiner spans those (it breaks lines at phase boundaries only).
  const xs = [...new Set(axes.xs.flat())].sort((p, q) => p - q);
  const at = new Map(xs.map((x, i) => [x, i]));
  const unit = (x: number) => (axes.minutes ? `${num(x)} min` : `row ${x}`);
  const plots: uPlot[] = [];
  const none: string[] = [];
  for (const spec of CHARTS) {
    if (!sides.some((side) => spec.series.some((s) => seriesValues(side.rows, s).some((v) => v !== null && v !== undefined)))) {
      none.push(spec.title);
      continue;
    }
    const figure = el('figure', { class: 'chart', id: `compare-${spec.id}`, role: 'img' });
    figure.append(el('figcaption', {}, spec.title));
    container.append(figure);
    const series: uPlot.Series[] = [{ label: axes.minutes ? 'minutes' : 'row' }];
    const data: (number | null)[][] = [];
    const summary: string[] = [];
    const points: number[] = [];
    sides.forEach((side, k) => {
      let n = 0;
      const ownXs = axes.xs[k]!;
      spec.series.forEach((s, i) => {
        const own = seriesValues(side.rows, s);
        const ys = new Array<number | null>(xs.length).fill(null);
        own.forEach((v, r) => {
          if (v !== null && v !== undefined) ys[at.get(ownXs[r]!)!] = v;
        });
        n += ys.filter((v) => v !== null).length;
        // Lines span the rows a series skips inside a phase, never a phase boundary (chart-data.ts).
        const gaps = boundaryGaps(side.rows, ownXs, own);
        series.push({ label: `${side.name} · ${s.label}`, stroke: side.colour, dash: DASHES[i % DASHES.length], width: 1.5, spanGaps: false, gaps: phaseGaps(() => gaps), points: { show: true, size: 4 } });
        data.push(ys);
        const l = last(ys, xs, unit);
        if (l) summary.push(`${side.name} ${s.label} ${l}`);
      });
      points.push(n);
    });
    figure.dataset.points = points.join(',');
    figure.setAttribute('aria-label', `${spec.title}: ${summary.length ? summary.join('; ') : 'no values in either run'}`);
    const width = Math.max(280, Math.floor(figure.getBoundingClientRect().width) || 320);
    plots.push(new uPlot({
      width, height: HEIGHT,
      legend: { show: true, live: false },
      cursor: { show: true, drag: { x: false, y: false } },
      scales: { x: { time: false, range: (_u, _min, max) => [0, axes.minutes ? Math.max(1e-3, (max ?? 1) * 1.02) : Math.max(1, max ?? 1)] }, y: { range: spec.fraction ? [0, 1] : yRange } },
      axes: [{ label: axes.label, size: 34, labelSize: 14, ...(axes.minutes ? {} : { incrs: ROW_STEPS }) }, { size: 48, values: (_u, splits) => splits.map(axisLabel) }],
      series,
      plugins: [markerPlugin(() => sides.map((s, k) => ({ markers: phaseMarkers(s.rows).map(([r, label]) => [axes.xs[k]![r]!, label] as [number, string]), stroke: s.colour, fill: s.colour })))],
    }, [xs, ...data] as uPlot.AlignedData, figure));
  }
  empty.hidden = none.length === 0;
  empty.textContent = none.length ? `Not drawn, as neither run has values for them: ${none.join(', ')}.` : '';
  return plots;
}

export function renderCompare(root: HTMLElement, a: string, b: string): () => void {
  const error = el('div', { class: 'error', role: 'alert', hidden: true });
  const legend = el('ul', { id: 'compare-legend', class: 'inline-list', 'aria-label': 'runs compared' });
  const charts = el('div', { class: 'charts', id: 'compare-charts' });
  const empty = el('p', { id: 'compare-empty', hidden: true });
  root.append(
    heading(`Compare ${a} and ${b}`),
    el('p', {}, el('a', { href: '#/runs' }, '← runs'), ' · curves over minutes since each run started; phase changes are marked in each run\'s colour'),
    error, legend, charts, empty,
  );
  let plots: uPlot[] = [];
  let closed = false;
  void (async () => {
    try {
      const sides: Side[] = [];
      for (const [k, name] of [a, b].entries()) {
        const run = await trainer.getRun(name);
        if (!run) throw new Error(`This browser has no run named "${name}".`);
        sides.push({ name, rows: await trainer.readMetrics(name), colour: RUN_COLOURS[k]! });
      }
      if (closed) return;
      for (const s of sides) {
        legend.append(el('li', { 'data-run': s.name },
          el('span', { class: 'swatch', style: `background:${s.colour}`, 'aria-hidden': 'true' }), ' ',
          el('a', { href: runHref(s.name) }, s.name), ` (${s.rows.length} metrics rows; ${s === sides[0] ? 'blue' : 'red'})`));
      }
      plots = drawCharts(charts, empty, sides);
    } catch (e) {
      error.hidden = false;
      error.textContent = errorText(e);
    }
  })();
  return () => {
    closed = true;
    for (const p of plots) p.destroy();
  };
}
