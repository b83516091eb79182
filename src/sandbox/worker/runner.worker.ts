// The worker sandbox's test-runner Worker: serves one sandbox (one episode), its jobs (protocol.ts) one
// after another (job-queue.ts → runner.ts), each with the repository's modules as data: URLs of its own
// (a nonce per module, so no run sees another's module instances), and posts their events. The host keeps
// it between runs and terminates it at a time limit, at a loop limit or when the sandbox is disposed; the
// next run then gets a fresh Worker. A Worker start is ~25-40 ms of a browser's serialized time, most of a
// short run (docs/learning.md E146).
// data: URLs, not blob: URLs: a blob: URL is made and fetched through the browser process (an IPC each way
// per module), a data: URL is read in the Worker; a test run 26.6 → 6.4 ms (docs/learning.md E155).
// The code under test cannot speak the host's protocol: postMessage and close are taken off the global
// before any job runs (a forged 'result' or 'exit' would be a forged reward; node has neither global).
// Lives under src/ and type-checks as core code: the few Worker globals it touches are typed here.
import type { RunJob, RunnerEvent } from './protocol.ts';
import { serveJobs } from './job-queue.ts';

interface WorkerScope {
  postMessage(message: RunnerEvent): void;
  addEventListener(type: 'message', fn: (e: { data: RunJob }) => void): void;
  addEventListener(type: 'error' | 'unhandledrejection', fn: (e: { error?: unknown; reason?: unknown; preventDefault(): void }) => void): void;
}

const scope = globalThis as unknown as WorkerScope;
const post = scope.postMessage.bind(scope);
const listen = scope.addEventListener.bind(scope);
/** The globals the code under test must not have, removed wherever on the global's prototype chain they are. */
const HOST_ONLY = ['postMessage', 'close'] as const;
for (const name of HOST_ONLY) {
  for (let o: object | null = globalThis; o; o = Object.getPrototypeOf(o) as object | null) {
    if (Object.hasOwn(o, name) && !Reflect.deleteProperty(o, name)) throw new Error(`the runner Worker cannot remove ${name} from its global scope`);
  }
}

let nonce = 0;
const jobs = serveJobs({
  post,
  makeUrl: (code) => `data:text/javascript;charset=utf-8,${encodeURIComponent(`${code}\n// ${nonce++}`)}`,
  ownsGlobals: true,
});
listen('error', (ev) => {
  ev.preventDefault();
  jobs.uncaught(ev.error);
});
listen('unhandledrejection', (ev) => {
  ev.preventDefault();
  jobs.uncaught(ev.reason);
});
// A listener, not onmessage: code that sets onmessage in one run does not deafen the runner to the next.
listen('message', (e) => jobs.push(e.data));
