// The worker sandbox's test-runner Worker: serves one sandbox (one episode) at a time, its jobs (protocol.ts)
// one after another (job-queue.ts → runner.ts), each with the repository's modules as data: URLs of its own
// (a nonce per module, so no run sees another's module instances), and posts their events. The host keeps it
// between runs and terminates it at a time limit, at a loop limit or when it is unfit; a Worker whose runs left
// its realm as it started serves the next sandbox (worker.browser.ts), which is why it is locked down first.
// data: URLs, not blob: URLs: a blob: URL is made and fetched through the browser process (an IPC each way
// per module), a data: URL is read in the Worker; a test run 26.6 → 6.4 ms.
// Before any job: the runner takes what it needs of the global (postMessage, addEventListener), then
// lockdown() (realm.ts) takes off the rest of what Node does not have, postMessage and close among them (a
// forged 'result' or 'exit' would be a forged reward), and the fresh realm is recorded. A job with `verify`
// (the Worker served another sandbox before) runs only if nothing tainted the Worker and its realm is unchanged;
// else the Worker answers 'dirty' and the host ends it. Messages the page did not send (isTrusted false: a
// dispatchEvent by the code under test) are ignored.
// Lives under src/ and type-checks as core code: the few Worker globals it touches are typed here.
import type { RunJob, RunnerEvent } from './protocol.ts';
import { serveReusable } from './reuse.ts';

interface WorkerScope {
  postMessage(message: RunnerEvent): void;
  addEventListener(type: 'message', fn: (e: { data: RunJob; isTrusted: boolean }) => void): void;
  addEventListener(type: 'error' | 'unhandledrejection', fn: (e: { error?: unknown; reason?: unknown; preventDefault(): void }) => void): void;
}

const scope = globalThis as unknown as WorkerScope;
const post = scope.postMessage.bind(scope);
const listen = scope.addEventListener.bind(scope);

let nonce = 0;
const runner = serveReusable({
  post,
  makeUrl: (code) => `data:text/javascript;charset=utf-8,${encodeURIComponent(`${code}\n// ${nonce++}`)}`,
  ownsGlobals: true,
});
if ('postMessage' in globalThis || 'close' in globalThis) throw new Error('the runner Worker could not take postMessage and close off its global scope');

listen('error', (ev) => {
  ev.preventDefault();
  runner.uncaught(ev.error);
});
listen('unhandledrejection', (ev) => {
  ev.preventDefault();
  runner.uncaught(ev.reason);
});
listen('message', (e) => {
  if (e.isTrusted) runner.push(e.data);
});
