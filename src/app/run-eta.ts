// The live view's time left for a whole run (src/app/views/live.ts): the one estimator the first screen also
// uses (src/rl/estimate.ts: the run's config priced at device rates), here at the rates the first screen
// measured when it started the run (the calibration rates otherwise), paced by the run's own progress reports,
// and shown as a countdown: the figure falls with the clock, and a new reading corrects it by at most the time
// since the last one, so it never jumps. Kept apart from the view so that it can be tested without a page
// (test/unit/app/run-eta.test.ts).
import type { Progress } from '../rl/phases.ts';
import { resolveConfig, type ConfigValue, type RunConfig } from '../rl/config.ts';
import { CALIBRATION_RATES, estimateRun, partOf, runTimeLeft, workDone, type DeviceRates, type RunEstimate } from '../rl/estimate.ts';

/** The whole run's time left: the work its config asks for, priced at `rates` (measured on this device) or at
 *  the calibration rates, paced by how fast this run's own reports have advanced through it since this view
 *  began watching (or the run last started). With measured rates it is known from the first report; at the
 *  calibration rates, once a pace is known (null before). */
export class RunEta {
  private est: RunEstimate | null = null;
  private cfg: RunConfig | null = null;
  /** Held-out tasks an evaluation plays, once a report has said (0: not yet). */
  private evalTasks = 0;
  private start: { atMs: number; workS: number } | null = null;
  /** The share of the estimated work done at the last report (0..1). */
  fraction = 0;
  constructor(
    private readonly config: () => Record<string, ConfigValue> | undefined,
    private readonly rates: () => DeviceRates | undefined = () => undefined,
  ) {}
  /** Forget the pace (the run paused, stopped or started again). */
  reset(): void {
    this.start = null;
  }
  seconds(p: Progress, at: number): number | null {
    if (!this.cfg) {
      const c = this.config();
      if (!c) return null;
      this.cfg = resolveConfig(c);
    }
    const measured = this.rates();
    // The held-out set's size is known from the first evaluation's report (tasks × samples), where the
    // config keeps every test task (tasks.maxTest 0): the estimate is priced again with it, and the pace restarts.
    const evalTasks = p.stage === 'eval' && !this.evalTasks ? Math.round(p.total / Math.max(1, this.cfg.eval.samples)) : 0;
    if (evalTasks) (this.evalTasks = evalTasks), (this.start = null);
    if (!this.est || evalTasks) this.est = estimateRun(this.cfg, measured ?? CALIBRATION_RATES, this.evalTasks || undefined);
    const x = partOf(this.est, p, this.cfg.dapo.iterations);
    if (!x) return null;
    const now = { atMs: at, workS: workDone(this.est, x) };
    this.fraction = Math.min(1, now.workS / Math.max(1e-9, this.est.totalS));
    if (!this.start || now.workS < this.start.workS) this.start = now;
    const paced = runTimeLeft(this.est, this.start, now);
    // Priced at this device's rates the work left is already in seconds; the run's own pace replaces them once known.
    return paced ?? (measured ? Math.max(0, this.est.totalS - now.workS) : null);
  }
}

/** A time left shown as a countdown: each reading moves the shown figure down by the time elapsed since the
 *  last, then towards the new estimate by at most that time again (down) or half of it (up), so the figure always
 *  falls, between half and twice as fast as the clock, and never jumps. */
export class Countdown {
  private shown: { s: number; atMs: number } | null = null;
  /** The figure to show at `atMs` for an estimate of `estimateS` seconds left. */
  update(estimateS: number, atMs: number): number {
    if (!this.shown) {
      this.shown = { s: estimateS, atMs };
      return estimateS;
    }
    const dt = Math.max(0, (atMs - this.shown.atMs) / 1000);
    const ticked = this.shown.s - dt;
    const s = Math.max(0, ticked + Math.min(0.5 * dt, Math.max(-dt, estimateS - ticked)));
    this.shown = { s, atMs };
    return s;
  }
  /** Start again from the next estimate (a pause, a resume). */
  reset(): void {
    this.shown = null;
  }
}
