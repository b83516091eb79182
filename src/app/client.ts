// The page's side of the trainer worker: the comlink proxy, and one listener registered with the
// worker whose run events are fanned out to the open view.
import * as Comlink from 'comlink';
import type { Progress } from '../rl/phases.ts';
import type { RunEvent, WorkerApi } from '../../workers/trainer.api.ts';

const worker = new Worker(new URL('../../workers/trainer.worker.ts', import.meta.url), { type: 'module', name: 'trainer' });
export const trainer = Comlink.wrap<WorkerApi>(worker);

const subscribers = new Set<(e: RunEvent) => void>();

/** Subscribe to run events; returns the unsubscribe function. */
export function onRunEvent(f: (e: RunEvent) => void): () => void {
  subscribers.add(f);
  return () => subscribers.delete(f);
}

/** The run the worker is training when the page opened, with its last progress. */
export const watching: Promise<{ run: string | null; progress: Progress | null }> = trainer.watch(
  Comlink.proxy((e: RunEvent) => {
    for (const f of subscribers) f(e);
  }),
);
