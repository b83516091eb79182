// Why a run stops by itself, in words that name the cause and the fix (a full store, a lost GPU device),
// and the store a halted run's loop still holds: it refuses every write, so nothing the loop does after
// the halt reaches IndexedDB (workers/runs.ts).
import type { GpuDeviceLostError } from '../src/gpu/errors.ts';
import type { IdbRunStore, RunRecord } from '../src/store/idb.browser.ts';
import type { RunStore } from '../src/store/types.ts';
import type { ErrorInfo } from './trainer.api.ts';

export const isQuotaError = (e: unknown) => (e as { name?: string } | null)?.name === 'QuotaExceededError';

/** The pause reason of a full store: the cause and the fix. */
export function quotaStop(e: unknown, ck: RunRecord['checkpoint'] | undefined): ErrorInfo {
  const where = ck ? `its last checkpoint (${ck.phase} step ${ck.step})` : 'its start (no checkpoint yet)';
  return {
    name: 'QuotaExceededError',
    message: `the browser's storage for this site is full (${(e as Error).message || 'QuotaExceededError'}), so the run stopped; ` +
      `the write that failed was rolled back and the run resumes from ${where}. ` +
      'Free space (delete runs you no longer need in the Runs view, or free disk space), then resume.',
  };
}

/** The pause reason of a lost GPU device; `e.message` is GpuDeviceLostError's "GPU device lost (reason): detail. …". */
export function lostStop(e: GpuDeviceLostError): ErrorInfo {
  const detail = /^GPU device lost \([^)]*\): (.*?)\. Acquire/.exec(e.message)?.[1];
  return { name: 'GpuDeviceLostError', message: `the GPU device was lost: ${e.reason}${detail ? ` (${detail})` : ''}; resume to continue on a new device` };
}

/** The run store as the trainer sees it: every write refused once `closed()` says so (a paused run's loop unwinding). */
export function fencedStore(store: IdbRunStore, closed: () => string | null): RunStore {
  const guard = <A extends unknown[]>(write: (...a: A) => Promise<void>) => async (...a: A) => {
    const why = closed();
    if (why) throw new Error(`not written: ${why}`);
    return write(...a);
  };
  return {
    location: store.location,
    readJson: (n) => store.readJson(n),
    readMetrics: () => store.readMetrics(),
    readTrajectories: (p, s) => store.readTrajectories(p, s),
    listTrajectorySteps: () => store.listTrajectorySteps(),
    loadCheckpoint: () => store.loadCheckpoint(),
    listPhaseWeights: () => store.listPhaseWeights(),
    writeJson: guard((n: string, v: unknown) => store.writeJson(n, v)),
    appendMetrics: guard((r) => store.appendMetrics(r)),
    truncateMetrics: guard((c: number) => store.truncateMetrics(c)),
    writeTrajectories: guard((p: string, s: number, r: readonly unknown[]) => store.writeTrajectories(p, s, r)),
    saveCheckpoint: guard((ck) => store.saveCheckpoint(ck)),
    savePhaseWeights: guard((p: string, w) => store.savePhaseWeights(p, w)),
  };
}
