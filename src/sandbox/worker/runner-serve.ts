// The worker sandbox's runner process, as one function (`serve`): jobs arrive on stdin as JSON lines, each
// is run by runner.ts with the repository's modules as data: URLs (a nonce per module, so no run sees
// another's module instances), and its events leave on stdout as JSON lines. The process serves one sandbox
// (one episode) and runs its jobs one after another; the host kills it at a time limit and starts a fresh
// one for the next job. Between jobs the globals a job may replace (console, process, timers) are put back,
// and every timer a job left is cleared, as a process that exits leaves none. Its first line out says it is
// loaded ({"ready":true}). Two entries call it: runner.process.ts (the module loaded from stdin) and
// runner-snapshot.node.ts (node's startup snapshot, where it runs when the snapshot is deserialised), so
// everything it reads of the process (globals, stdin) is read when it runs, not when it is loaded.
// Types only: the process's own globals are Node's, reached through `globalThis` as loosely typed here.
import type { RunJob, RunnerEvent } from './protocol.ts';
import { runJob } from './runner.ts';

interface NodeLike {
  stdin: { on(ev: 'data', fn: (chunk: Uint8Array) => void): void; on(ev: 'end', fn: () => void): void };
  stdout: { write(s: string): boolean };
  on(ev: 'uncaughtException' | 'unhandledRejection', fn: (e: unknown) => void): void;
  exit(code?: number): never;
}
type Timer = (cb: (...a: unknown[]) => void, ms?: number, ...a: unknown[]) => unknown;
type G = Record<string, unknown> & { setTimeout: Timer; setInterval: Timer; clearTimeout(id: unknown): void; clearInterval(id: unknown): void };

/** Serve jobs on stdin until it ends; `importer` loads the job's modules where the runner's own import()
 *  cannot (the snapshot's entry gives one). */
export function serve(importer?: (url: string) => Promise<unknown>): void {
  const g = globalThis as unknown as G;
  const proc = g.process as NodeLike;
  const saved = { console: g.console, process: g.process };
  const base = { setTimeout: g.setTimeout, setInterval: g.setInterval, clearTimeout: g.clearTimeout, clearInterval: g.clearInterval };

  // Every timer a job starts is known, so none outlives it.
  const timeouts = new Set<unknown>(), intervals = new Set<unknown>();
  const track = () => {
    g.setTimeout = (cb, ms, ...a) => {
      const id = base.setTimeout((...x: unknown[]) => {
        timeouts.delete(id);
        cb(...x);
      }, ms, ...a);
      timeouts.add(id);
      return id;
    };
    g.setInterval = (cb, ms, ...a) => {
      const id = base.setInterval(cb, ms, ...a);
      intervals.add(id);
      return id;
    };
    g.clearTimeout = (id) => (timeouts.delete(id), base.clearTimeout(id));
    g.clearInterval = (id) => (intervals.delete(id), base.clearInterval(id));
  };
  const untrack = () => {
    for (const id of timeouts) base.clearTimeout(id);
    for (const id of intervals) base.clearInterval(id);
    timeouts.clear();
    intervals.clear();
    Object.assign(g, base, saved);
  };

  let nonce = 0;
  const toBase64 = (s: string) => (g.Buffer as { from(s: string): { toString(e: string): string } }).from(s).toString('base64');
  const makeUrl = (code: string) => `data:text/javascript;base64,${toBase64(`${code}\n// ${nonce++}`)}`;
  const send = (e: RunnerEvent) => proc.stdout.write(`${JSON.stringify(e)}\n`);

  let uncaught: ((e: unknown) => void) | undefined;
  proc.on('uncaughtException', (e) => uncaught?.(e));
  proc.on('unhandledRejection', (e) => uncaught?.(e));

  const queue: RunJob[] = [];
  let busy = false;
  async function drain(): Promise<void> {
    if (busy) return;
    busy = true;
    while (queue.length) {
      const job = queue.shift()!;
      track();
      try {
        await runJob(job, { post: send, makeUrl, ownsGlobals: true, onUncaught: (h) => (uncaught = h), ...(importer ? { importer } : {}) });
      } finally {
        uncaught = undefined;
        untrack();
      }
    }
    busy = false;
  }

  let pending = '';
  const utf8 = new (g.TextDecoder as new () => { decode(b: Uint8Array, o: { stream: boolean }): string })();
  proc.stdin.on('data', (chunk) => {
    const lines = (pending + utf8.decode(chunk, { stream: true })).split('\n');
    pending = lines.pop()!;
    for (const l of lines) if (l.trim()) queue.push(JSON.parse(l) as RunJob);
    void drain();
  });
  proc.stdin.on('end', () => proc.exit(0));
  // Loaded: the host starts the first job's CPU clock from here, so node's own start is not counted.
  proc.stdout.write('{"ready":true}\n');
}
