// The worker sandbox's test-runner Worker: takes one job (protocol.ts), runs it (runner.ts) with the
// repository's modules as blob: URLs, and posts its events. The host terminates it after the 'exit'
// event or at the time limit; a fresh Worker serves each run, so no module state outlives a run.
// Lives under src/ and type-checks as core code: the few Worker globals it touches are typed here.
import type { RunJob, RunnerEvent } from './protocol.ts';
import { runJob } from './runner.ts';

interface WorkerScope {
  onmessage: ((e: { data: RunJob }) => void) | null;
  postMessage(message: RunnerEvent): void;
  addEventListener(type: 'error' | 'unhandledrejection', fn: (e: { error?: unknown; reason?: unknown; preventDefault(): void }) => void): void;
}
interface BlobUrls {
  Blob: new (parts: string[], options: { type: string }) => object;
  URL: { createObjectURL(blob: object): string };
}

const scope = globalThis as unknown as WorkerScope;
const { Blob, URL } = globalThis as unknown as BlobUrls;

scope.onmessage = (e) => {
  scope.onmessage = null; // one job per Worker
  void runJob(e.data, {
    post: (event) => scope.postMessage(event),
    makeUrl: (code) => URL.createObjectURL(new Blob([code], { type: 'text/javascript' })),
    ownsGlobals: true,
    onUncaught: (handler) => {
      scope.addEventListener('error', (ev) => {
        ev.preventDefault();
        handler(ev.error);
      });
      scope.addEventListener('unhandledrejection', (ev) => {
        ev.preventDefault();
        handler(ev.reason);
      });
    },
  });
};
