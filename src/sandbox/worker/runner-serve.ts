// The worker sandbox's runner process, as one function (`serve`): jobs arrive on stdin as JSON lines, each
// is run by runner.ts with the repository's modules as data: URLs (a nonce per module, so no run sees
// another's module instances), and its events leave on stdout as JSON lines. The process serves one sandbox
// (one episode) and runs its jobs one after another; the host kills it at a time limit and starts a fresh
// one for the next job. Between jobs the globals a job may replace are put back and its timers cleared
// (job-queue.ts, shared with the browser's runner Worker). Its first line out says it is
// loaded ({"ready":true}). Two entries call it: runner.process.ts (the module loaded from stdin) and
// runner-snapshot.node.ts (node's startup snapshot, where it runs when the snapshot is deserialised), so
// everything it reads of the process (globals, stdin) is read when it runs, not when it is loaded.
// Types only: the process's own globals are Node's, reached through `globalThis` as loosely typed here.
import type { RunJob, RunnerEvent } from './protocol.ts';
import { serveJobs } from './job-queue.ts';

interface NodeLike {
  stdin: { on(ev: 'data', fn: (chunk: Uint8Array) => void): void; on(ev: 'end', fn: () => void): void };
  stdout: { write(s: string): boolean };
  on(ev: 'uncaughtException' | 'unhandledRejection', fn: (e: unknown) => void): void;
  exit(code?: number): never;
}

/** Serve jobs on stdin until it ends; `importer` loads the job's modules where the runner's own import()
 *  cannot (the snapshot's entry gives one). */
export function serve(importer?: (url: string) => Promise<unknown>): void {
  const g = globalThis as unknown as Record<string, unknown>;
  const proc = g.process as NodeLike;
  let nonce = 0;
  const toBase64 = (s: string) => (g.Buffer as { from(s: string): { toString(e: string): string } }).from(s).toString('base64');
  const makeUrl = (code: string) => `data:text/javascript;base64,${toBase64(`${code}\n// ${nonce++}`)}`;
  const send = (e: RunnerEvent) => proc.stdout.write(`${JSON.stringify(e)}\n`);
  const jobs = serveJobs({ post: send, makeUrl, ownsGlobals: true, ...(importer ? { importer } : {}) });
  proc.on('uncaughtException', jobs.uncaught);
  proc.on('unhandledRejection', jobs.uncaught);

  let pending = '';
  const utf8 = new (g.TextDecoder as new () => { decode(b: Uint8Array, o: { stream: boolean }): string })();
  proc.stdin.on('data', (chunk) => {
    const lines = (pending + utf8.decode(chunk, { stream: true })).split('\n');
    pending = lines.pop()!;
    for (const l of lines) if (l.trim()) jobs.push(JSON.parse(l) as RunJob);
  });
  proc.stdin.on('end', () => proc.exit(0));
  // Loaded: the host starts the first job's CPU clock from here, so node's own start is not counted.
  proc.stdout.write('{"ready":true}\n');
}
