// The run plot: a run's metrics rows drawn against wall time as one SVG (no dependencies), for the
// README and the CLI (`webswe plot RUN`). Four panels share the x axis (minutes since the run started,
// timing.elapsed_s): pass@1 on the held-out tasks (each phase's evaluation, ± its std) beside the pass
// rate of the rollouts on training tasks; the rollouts' mean reward; their format-error rate; the
// supervised loss (cloning, RFT). The phases are shaded bands, each ending at its evaluation.
import type { MetricRecord } from '../store/types.ts';

interface Pt {
  x: number;
  y: number;
  err?: number;
  label?: string;
}
interface Series {
  name: string;
  color: string;
  points: Pt[];
  /** Points only (evaluations); else a line through them. */
  dots?: boolean;
}
interface Panel {
  title: string;
  series: Series[];
  /** Fixed y range (pass rates); else from the data. */
  y?: [number, number];
  percent?: boolean;
}

const PHASES = ['base', 'rft', 'dapo'] as const;
const BAND: Record<string, string> = { base: '#eef3fb', rft: '#f3f9ee', dapo: '#fbf1ee' };
const W = 900, PH = 150, ML = 64, MR = 170, MT = 34, GAP = 34;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (v: number, percent?: boolean) => (percent ? `${Math.round(v * 100)}%` : Math.abs(v) >= 10 ? String(+v.toFixed(1)) : v.toFixed(2).replace(/\.?0+$/, '') || '0');

/** Round-number ticks covering [lo, hi]. */
function ticks(lo: number, hi: number, n = 5): number[] {
  const span = hi - lo || 1;
  const raw = span / n, mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(+v.toFixed(10));
  return out;
}

/** The run's panels from its metrics rows (rows without timing.elapsed_s are left out). */
export function runPanels(rows: readonly MetricRecord[]): { panels: Panel[]; bands: { phase: string; from: number; to: number }[]; end: number } {
  const t = (r: MetricRecord) => (r.timing?.elapsed_s ?? NaN) / 60;
  const timed = rows.filter((r) => Number.isFinite(t(r)));
  const evals = timed.filter((r) => r.phase.startsWith('eval-'));
  const rollouts = timed.filter((r) => (r.phase === 'rft' && r.step === -1) || r.phase === 'dapo');
  const series = (name: string, color: string, rs: MetricRecord[], key: string): Series => ({ name, color, points: rs.filter((r) => typeof r.values[key] === 'number').map((r) => ({ x: t(r), y: r.values[key]! })) });
  const held: Series = {
    name: 'held-out pass@1 ± std',
    color: '#c0392b',
    dots: true,
    points: evals.map((r) => ({ x: t(r), y: r.values['pass@1']!, err: r.values['pass@1_std'] ?? 0, label: r.phase.slice(5) })),
  };
  const loss = timed.filter((r) => (r.phase === 'base' || r.phase === 'rft') && r.step >= 0 && typeof r.values.loss === 'number');
  // A moving mean over 20 steps: single steps of 2-8 episodes are noisy.
  const smooth = (rs: MetricRecord[]): Pt[] => rs.map((r, i) => ({ x: t(r), y: rs.slice(Math.max(0, i - 19), i + 1).reduce((a, q) => a + q.values.loss!, 0) / Math.min(20, i + 1) }));
  const panels: Panel[] = [
    { title: 'pass@1', percent: true, y: [0, Math.min(1, Math.max(0.1, ...held.points.map((p) => p.y + (p.err ?? 0)), ...rollouts.map((r) => r.values.pass_rate ?? 0)) * 1.15)], series: [held, series('rollouts, training tasks', '#2471a3', rollouts, 'pass_rate')] },
    { title: 'mean reward (rollouts)', series: [series('reward', '#7d3c98', rollouts, 'reward_mean')] },
    { title: 'format errors (share of turns)', percent: true, y: [0, 1], series: [series('format errors', '#b9770e', rollouts, 'format_error_rate')] },
    { title: 'supervised loss (nats / action token)', series: [{ name: 'cloning, RFT (20-step mean)', color: '#1e8449', points: smooth(loss) }] },
  ];
  const bands: { phase: string; from: number; to: number }[] = [];
  let from = 0;
  for (const p of PHASES) {
    const e = evals.find((r) => r.phase === `eval-${p}`);
    const own = timed.filter((r) => r.phase === p || r.phase === `${p}2`);
    const to = e ? t(e) : own.length ? Math.max(...own.map(t)) : NaN;
    if (!Number.isFinite(to)) continue;
    bands.push({ phase: p, from, to });
    from = to;
  }
  const end = Math.max(from, ...timed.map(t), 1e-3);
  return { panels, bands, end };
}

/** The SVG document of a run's plot. */
export function plotRun(rows: readonly MetricRecord[], title: string): string {
  const { panels, bands, end } = runPanels(rows);
  const H = MT + panels.length * (PH + GAP) + 20;
  const X = (m: number) => ML + ((W - ML - MR) * m) / end;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${ML}" y="18" font-size="14" font-weight="bold">${esc(title)}</text>`,
  ];
  panels.forEach((p, k) => {
    const top = MT + k * (PH + GAP);
    const ys = p.series.flatMap((s) => s.points.flatMap((q) => [q.y - (q.err ?? 0), q.y + (q.err ?? 0)]));
    const [lo, hi] = p.y ?? (ys.length ? [Math.min(0, ...ys), Math.max(...ys) * 1.05 || 1] : [0, 1]);
    const Y = (v: number) => top + PH - (PH * (v - lo)) / (hi - lo || 1);
    for (const b of bands) {
      out.push(`<rect x="${X(b.from).toFixed(1)}" y="${top}" width="${(X(b.to) - X(b.from)).toFixed(1)}" height="${PH}" fill="${BAND[b.phase]}"/>`);
      if (k === 0) out.push(`<text x="${((X(b.from) + X(b.to)) / 2).toFixed(1)}" y="${top - 4}" text-anchor="middle" fill="#555">${b.phase}</text>`);
    }
    out.push(`<rect x="${ML}" y="${top}" width="${W - ML - MR}" height="${PH}" fill="none" stroke="#999"/>`);
    out.push(`<text x="${ML - 52}" y="${top + PH / 2}" transform="rotate(-90 ${ML - 52} ${top + PH / 2})" text-anchor="middle">${esc(p.title)}</text>`);
    for (const v of ticks(lo, hi, 4)) {
      out.push(`<line x1="${ML - 3}" x2="${W - MR}" y1="${Y(v).toFixed(1)}" y2="${Y(v).toFixed(1)}" stroke="#e5e5e5"/>`, `<text x="${ML - 6}" y="${(Y(v) + 4).toFixed(1)}" text-anchor="end">${fmt(v, p.percent)}</text>`);
    }
    for (const v of ticks(0, end, 8)) out.push(`<text x="${X(v).toFixed(1)}" y="${top + PH + 13}" text-anchor="middle" fill="#555">${fmt(v)}</text>`);
    p.series.forEach((s, j) => {
      if (s.points.length === 0) return;
      // One polyline per phase: a line never joins two phases (RFT's rollouts to DAPO's, cloning's loss to RFT's).
      const band = (x: number) => bands.findIndex((b) => x <= b.to + 1e-9);
      if (!s.dots) {
        let run: Pt[] = [];
        const flush = () => run.length > 1 && out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="1.6" points="${run.map((q) => `${X(q.x).toFixed(1)},${Y(q.y).toFixed(1)}`).join(' ')}"/>`);
        for (const q of s.points) {
          if (run.length && band(q.x) !== band(run.at(-1)!.x)) flush(), (run = []);
          run.push(q);
        }
        flush();
      }
      for (const q of s.points) {
        if (q.err) out.push(`<line x1="${X(q.x).toFixed(1)}" x2="${X(q.x).toFixed(1)}" y1="${Y(q.y - q.err).toFixed(1)}" y2="${Y(q.y + q.err).toFixed(1)}" stroke="${s.color}" stroke-width="1.5"/>`);
        out.push(`<circle cx="${X(q.x).toFixed(1)}" cy="${Y(q.y).toFixed(1)}" r="${s.dots ? 4 : 2.2}" fill="${s.color}"/>`);
        // A label near the plot's right edge goes to the point's left, clear of the legend.
        const left = X(q.x) > W - MR - 80;
        if (q.label) out.push(`<text x="${(X(q.x) + (left ? -6 : 6)).toFixed(1)}" y="${(Y(q.y) - 6).toFixed(1)}"${left ? ' text-anchor="end"' : ''} fill="${s.color}">${esc(q.label)} ${fmt(q.y, p.percent)}</text>`);
      }
      out.push(`<line x1="${W - MR + 10}" x2="${W - MR + 24}" y1="${top + 12 + 16 * j}" y2="${top + 12 + 16 * j}" stroke="${s.color}" stroke-width="3"/>`, `<text x="${W - MR + 28}" y="${top + 16 + 16 * j}">${esc(s.name)}</text>`);
    });
  });
  out.push(`<text x="${(ML + W - MR) / 2}" y="${H - 4}" text-anchor="middle">minutes since the run started</text>`, '</svg>');
  return out.join('\n') + '\n';
}
