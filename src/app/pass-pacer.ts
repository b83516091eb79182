// Paces the live charts' redraw passes (charts.ts): a pass draws every stale item, one per task (eleven
// uPlot redraws in one task held a loaded machine's main thread for over 100 ms; the Live view keeps every
// task of a live run under that, Long Tasks API in test/browser/run.test.ts), and a request made during a
// pass joins it. A pass starts at most once per `gapMs` — or 4 × the last pass's drawing time, if longer —
// after the last one ended: a live run sends a metrics row per training step, several a second, and a
// pass for each of them took most of a core of a two-core machine from the run it draws. The first pass (a run opened) starts at once. No DOM: tested in node (test/unit/app/pass-pacer.test.ts).

export interface PacerClock {
  now(): number;
  later(f: () => void, ms: number): void;
}

const browserClock: PacerClock = { now: () => performance.now(), later: (f, ms) => void setTimeout(f, ms) };

export class PassPacer<T> {
  private readonly stale = new Set<T>();
  private drawing = false;
  private stopped = false;
  /** When the last pass ended and the ms its draws took (null before the first). */
  private last: { end: number; ms: number } | null = null;
  /** Passes finished. */
  passes = 0;

  private readonly gapMs: number;
  private readonly clock: PacerClock;
  private readonly passEnd: (passes: number) => void;

  constructor(private readonly items: readonly T[], private readonly draw: (item: T) => void, opts: { gapMs: number; clock?: PacerClock; passEnd?: (passes: number) => void }) {
    this.gapMs = opts.gapMs;
    this.clock = opts.clock ?? browserClock;
    this.passEnd = opts.passEnd ?? (() => {});
  }

  /** Every item is stale: drawn in the pass under way, else in the next one. */
  request(): void {
    for (const it of this.items) this.stale.add(it);
    if (this.drawing || this.stopped) return;
    this.drawing = true;
    let ms = 0;
    const next = () => {
      const it = this.stale.values().next().value;
      if (it === undefined || this.stopped) {
        this.drawing = false;
        this.passes++;
        this.last = { end: this.clock.now(), ms };
        this.passEnd(this.passes);
        return;
      }
      this.stale.delete(it);
      const t0 = this.clock.now();
      this.draw(it);
      ms += this.clock.now() - t0;
      this.clock.later(next, 0);
    };
    this.clock.later(next, this.last ? Math.max(0, this.last.end + Math.max(this.gapMs, 4 * this.last.ms) - this.clock.now()) : 0);
  }

  /** No more draws (the view is gone). */
  stop(): void {
    this.stopped = true;
  }
}
