// The worker sandbox's test-runner Worker: serves one sandbox (one episode), its jobs (protocol.ts) one
// after another (job-queue.ts → runner.ts), each with the repository's modules as blob: URLs of its own, and
// posts their events. The host keeps it between runs and terminates it at a time limit, at a loop limit
// or when the sandbox is disposed; the next run then gets a fresh Worker. A Worker start is ~25-40 ms of a
// browser's serialized time, most of a short run (docs/learning.md E146).
// Lives under src/ and type-checks as core code: the few Worker globals it touches are typed here.
import type { RunJob, RunnerEvent } from './protocol.ts';
import { serveJobs } from './job-queue.ts';

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

const jobs = serveJobs({
  post: (event) => scope.postMessage(event),
  makeUrl: (code) => URL.createObjectURL(new Blob([code], { type: 'text/javascript' })),
  ownsGlobals: true,
});
scope.addEventListener('error', (ev) => {
  ev.preventDefault();
  jobs.uncaught(ev.error);
});
scope.addEventListener('unhandledrejection', (ev) => {
  ev.preventDefault();
  jobs.uncaught(ev.reason);
});
scope.onmessage = (e) => jobs.push(e.data);
