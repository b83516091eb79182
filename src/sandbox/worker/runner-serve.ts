// The worker sandbox's runner process, as one function (`serve`): jobs arrive on stdin as JSON lines, each
// is run by runner.ts with the repository's modules as data: URLs (a nonce per module, so no run sees
// another's module instances), and its events leave on stdout as JSON lines. The process serves one sandbox
// (one episode) at a time and runs its jobs one after another; the host kills it at a time limit, and hands it
// to another sandbox when its realm is unchanged (reuse.ts: a job marked `verify` is checked first, and a
// process that is not fit answers 'dirty'). Between jobs the globals a job may replace are put back and its timers
// cleared (job-queue.ts, shared with the browser's runner Worker). Its first line out says it is loaded
// ({"ready":true}).
// What keeps a reward a reward: the code under test reaches nothing of node's past the runner's realm. The host
// starts node with code generation from strings refused (--disallow-code-generation-from-strings): eval and
// `new Function` throw, so the only code that runs is the loader's rewritten modules, whose every import goes
// through the loader (no `node:` module but the shims); `node -e` code runs through vm.Script (evaluate, below).
// Before any job the real `process` and `console` leave the global (a run gets the runner's own: runner.ts), and
// lockdown() keeps Node's synchronous names only (realm.ts; no fetch, WebAssembly, streams, messaging): so no run can
// write the runner's events on stdout (a forged 'result' would be a forged reward) or touch what a later sandbox
// would see without the realm check seeing it.
// Two entries call it: runner-process.node.ts (the module loaded from stdin) and runner-snapshot.node.ts (node's
// startup snapshot, where it runs when the snapshot is deserialised), so everything it reads of the process
// (globals, stdin) is read when it runs, not when it is loaded.
// Types only: the process's own globals are Node's, reached through `globalThis` as loosely typed here.
import type { RunJob, RunnerEvent } from './protocol.ts';
import { NODE_GLOBALS } from './realm.ts';
import { serveReusable } from './reuse.ts';

interface NodeLike {
  stdin: { on(ev: 'data', fn: (chunk: Uint8Array) => void): void; on(ev: 'end', fn: () => void): void; resume(): void };
  stdout: { write(s: string): boolean };
  on(ev: 'uncaughtException' | 'unhandledRejection', fn: (e: unknown) => void): void;
  exit(code?: number): never;
}

/** What the runner needs of node's `vm` (the entries import it: this module imports no node module). */
export interface ScriptCompiler {
  Script: new (code: string, options: { filename: string }) => { runInThisContext(): unknown };
}

export interface ServeOptions {
  /** Loads the job's modules where the runner's own import() cannot (the snapshot's entry gives one). */
  importer?: (url: string) => Promise<unknown>;
  vm: ScriptCompiler;
}

/** Serve jobs on stdin until it ends. */
export function serve(options: ServeOptions): void {
  const g = globalThis as unknown as Record<string, unknown>;
  const proc = g.process as NodeLike;
  const { Script } = options.vm;
  let nonce = 0;
  const toBase64 = (s: string) => (g.Buffer as { from(s: string): { toString(e: string): string } }).from(s).toString('base64');
  const makeUrl = (code: string) => `data:text/javascript;base64,${toBase64(`${code}\n// ${nonce++}`)}`;
  const send = (e: RunnerEvent) => proc.stdout.write(`${JSON.stringify(e)}\n`);
  /** `node -e CODE`: a script in the global scope, compiled alone first (a syntax error is V8's own, and nothing
   *  runs), then run as a block so that its let, const and class stay its own: at a script's top level they would
   *  outlive the run as global bindings no property shows (and shadow a global for every later module). */
  const evaluate = (code: string) => {
    new Script(code, { filename: '[eval]' });
    return new Script(`{${code}\n}`, { filename: '[eval]' }).runInThisContext();
  };
  const utf8 = new (g.TextDecoder as new () => { decode(b: Uint8Array, o: { stream: boolean }): string })();
  // The real process and console are the runner's alone; a run installs its own (runner.ts).
  delete g.process;
  Object.defineProperty(g, 'console', { value: Object.freeze({}), writable: true, configurable: true, enumerable: false });
  const runner = serveReusable({ post: send, makeUrl, ownsGlobals: true, evaluate, ...(options.importer ? { importer: options.importer } : {}) }, NODE_GLOBALS);
  proc.on('uncaughtException', runner.uncaught);
  proc.on('unhandledRejection', runner.uncaught);

  let pending = '';
  proc.stdin.on('data', (chunk) => {
    const lines = (pending + utf8.decode(chunk, { stream: true })).split('\n');
    pending = lines.pop()!;
    for (const l of lines) if (l.trim()) runner.push(JSON.parse(l) as RunJob);
  });
  proc.stdin.on('end', () => proc.exit(0));
  proc.stdin.resume(); // node -e BOOT paused it to hand the rest of the first chunk back
  // Loaded: the host starts the first job's CPU clock from here, so node's own start is not counted.
  proc.stdout.write('{"ready":true}\n');
}
