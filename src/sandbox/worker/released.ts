// The runners of closed sandboxes waiting for another sandbox (a browser's runner Workers: worker.browser.ts; the
// node host's runner processes: worker-node.node.ts). A runner starts at ~50-75 ms of CPU and an episode needs two
// (its own, its grading's), so one whose runs all ended on their own is shelved here; a later sandbox takes the
// newest fit one and marks its first job `verify` (the runner checks its realm first: reuse.ts). Shelved at most
// MAX_RELEASED (each holds the modules of the runs it served), each for at most MAX_JOBS_PER_RUNNER jobs, and
// ended after RELEASED_IDLE_MS unused (a run that stopped leaves no runner behind). Core code.

/** Released runners kept at most: a lockstep batch of episodes closes its sandboxes together and the next batch
 *  opens as many (agent.rolloutBatch, 32 in micro). */
export const MAX_RELEASED = 32;
/** Jobs a runner serves before it is ended: its module map keeps every run's modules. */
export const MAX_JOBS_PER_RUNNER = 256;
/** A released runner no sandbox took for this long is ended. */
export const RELEASED_IDLE_MS = 30_000;

/** What the shelf needs of a runner and its host. */
export interface ShelfHost<R> {
  /** Jobs it has been sent. */
  jobs(r: R): number;
  /** Still able to run a job (not ended, not failed). */
  alive(r: R): boolean;
  end(r: R): void;
  /** Told when it is shelved and when it is taken (the node host: whether it keeps the event loop alive). */
  shelved?(r: R, on: boolean): void;
  /** The sweep's timer does not keep the host alive (node: `unref`). */
  unref?(timer: ReturnType<typeof setTimeout>): void;
}

export class ReleasedRunners<R> {
  private readonly shelf: { r: R; at: number }[] = [];
  private sweeping: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly host: ShelfHost<R>) {}

  get size(): number {
    return this.shelf.length;
  }

  /** Shelve a runner of a closed sandbox (its runs ended on their own), or end it when it may not wait. */
  put(r: R): void {
    if (!this.host.alive(r) || this.host.jobs(r) >= MAX_JOBS_PER_RUNNER || this.shelf.length >= MAX_RELEASED) return this.host.end(r);
    this.shelf.push({ r, at: performance.now() });
    this.host.shelved?.(r, true);
    if (!this.sweeping) this.arm();
  }

  /** The newest shelved runner still alive (its next job must be marked `verify`), else undefined. */
  take(): R | undefined {
    for (let s = this.shelf.pop(); s; s = this.shelf.pop()) {
      if (this.host.alive(s.r)) {
        this.host.shelved?.(s.r, false);
        return s.r;
      }
      this.host.end(s.r);
    }
    return undefined;
  }

  private arm(): void {
    this.sweeping = setTimeout(() => this.sweep(), RELEASED_IDLE_MS);
    this.host.unref?.(this.sweeping);
  }

  private sweep(): void {
    this.sweeping = null;
    const now = performance.now();
    for (let i = this.shelf.length - 1; i >= 0; i--) {
      const s = this.shelf[i]!;
      if (!this.host.alive(s.r) || now - s.at >= RELEASED_IDLE_MS) this.host.end(this.shelf.splice(i, 1)[0]!.r);
    }
    if (this.shelf.length) this.arm();
  }
}
