// The live view's time left for a whole run (src/app/views/live.ts): the run's config priced by the
// estimate (src/rl/estimate.ts), paced by the run's own progress reports. Kept apart from the view so
// that it can be tested without a page (test/unit/app/run-eta.test.ts).
import type { Progress } from '../rl/phases.ts';
import { resolveConfig, type ConfigValue, type RunConfig } from '../rl/config.ts';
import { CALIBRATION_RATES, estimateRun, partOf, runTimeLeft, workDone, type RunEstimate } from '../rl/estimate.ts';

/** The whole run's time left: the work its config asks for, priced at the calibration rates
 *  (src/rl/estimate.ts), paced by how fast this run's own reports have advanced through it since this
 *  view began watching (or the run last started). Null until that pace is known. */
export class RunEta {
  private est: RunEstimate | null = null;
  private cfg: RunConfig | null = null;
  /** Held-out tasks an evaluation plays, once a report has said (0: not yet). */
  private evalTasks = 0;
  private start: { atMs: number; workS: number } | null = null;
  constructor(private readonly config: () => Record<string, ConfigValue> | undefined) {}
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
    // The held-out set's size is known from the first evaluation's report (tasks × samples), where the
    // config keeps every test task (tasks.maxTest 0): the estimate is priced again with it, and the pace restarts.
    const evalTasks = p.stage === 'eval' && !this.evalTasks ? Math.round(p.total / Math.max(1, this.cfg.eval.samples)) : 0;
    if (evalTasks) (this.evalTasks = evalTasks), (this.start = null);
    if (!this.est || evalTasks) this.est = estimateRun(this.cfg, CALIBRATION_RATES, this.evalTasks || undefined);
    const x = partOf(this.est, p, this.cfg.dapo.iterations);
    if (!x) return null;
    const now = { atMs: at, workS: workDone(this.est, x) };
    if (!this.start || now.workS < this.start.workS) this.start = now;
    return runTimeLeft(this.est, this.start, now);
  }
}
