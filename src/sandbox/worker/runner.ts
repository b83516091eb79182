// One run of `node ARGS` inside the worker sandbox's test-runner Worker: installs the console, timers
// and `process` the repository's code sees, loads the entry module (loader.ts) with node:test and
// node:assert shimmed, runs the registered tests (node-test.ts) and streams events to the host, paths
// shown repo-relative. Core code: the host (runner.worker.ts, or a test) supplies what is global.
import { EVAL_FLAGS } from '../runs.ts';
import { ASSERT_CLASSES, createAssert, setCallSiteSource } from './assert.ts';
import { format } from './format.ts';
import { inspect } from './inspect.ts';
import { harden } from '../harden.mjs';
import { LoadError, ModuleLoader } from './loader.ts';
import { Harness, errorText } from './node-test.ts';
import type { RunJob, RunnerEvent } from './protocol.ts';

export interface RunnerHost {
  post(e: RunnerEvent): void;
  /** A URL the engine can import() for this module text (data: with a nonce: runner.worker.ts, runner-serve.ts). */
  makeUrl(code: string): string;
  /** Replace console, timers and `process` on globalThis (a Worker: yes; an in-process test: no). */
  ownsGlobals: boolean;
  /** Register for errors nothing caught (a Worker's 'error' and 'unhandledrejection' events). */
  onUncaught?(handler: (e: unknown) => void): void;
  /** import() of a module URL, where the runner's own `import()` cannot (code deserialised from node's
   *  startup snapshot has no dynamic import: runner-snapshot.node.ts); default: `import()`. */
  importer?(url: string): Promise<unknown>;
  /** This runner is no longer fit to serve another sandbox (code of a run may still run after it ended). */
  taint?(reason: string): void;
  /** Run `node -e` code as a script in the global scope, returning its completion value; default: indirect eval
   *  (the node runner refuses eval: runner-serve.ts). */
  evaluate?(code: string): unknown;
}

type Timers = {
  setTimeout: (cb: (...a: unknown[]) => void, ms?: number, ...a: unknown[]) => unknown;
  clearTimeout: (id: unknown) => void;
  setInterval: (cb: (...a: unknown[]) => void, ms?: number, ...a: unknown[]) => unknown;
  clearInterval: (id: unknown) => void;
};
type G = Record<string, unknown> & Timers;

const SHIMS = '__webswe_shims__';
const IMPORT_HOOK = '__webswe_import__';
const LOOP_GUARD = '__webswe_loop__';

/** What the runner's globals (the node:test and node:assert shims, the import hook, the loop guard) give the
 *  running job. */
const current: Record<string, unknown> = {};

/**
 * The runner's globals as non-configurable getters of the running job's values, installed once a realm: the code
 * under test can neither replace them nor define them before the shims read them (a module that set
 * `globalThis.__webswe_shims__` before a test file's `import 'node:assert'` was evaluated would otherwise hand
 * the tests an assert that asserts nothing). Returns the getters (the runner hardens them).
 */
export function installRunnerGlobals(g: object = globalThis): object[] {
  const out: object[] = [];
  for (const name of [SHIMS, IMPORT_HOOK, LOOP_GUARD]) {
    const d = Reflect.getOwnPropertyDescriptor(g, name);
    if (d?.get && !d.configurable) {
      out.push(d.get);
      continue;
    }
    const get = () => current[name];
    Object.defineProperty(g, name, { get, configurable: false, enumerable: false });
    out.push(get);
  }
  return out;
}
/** The version `process.version` reports: the Node line the node sandbox runs on. */
const NODE_VERSION = 'v20.0.0-webswe';

class ExitSignal {
  constructor(readonly code: number) {}
}

/** Thrown by the loop guard past the budget (again at every later iteration, should the code catch it). */
class LoopLimit extends Error {
  constructor(budget: number) {
    super(`the worker sandbox's loop limit of ${budget} iterations was reached`);
  }
}

/** The runner's classes whose instances a run can catch (and so reach their prototypes): a runner serving another
 *  sandbox checks them with its global (realm.ts snapshot). */
export const RUNNER_SHARED: readonly object[] = [...ASSERT_CLASSES, LoadError, ExitSignal, LoopLimit];

/** Run one job; resolves after the 'exit' event was posted. */
export async function runJob(job: RunJob, host: RunnerHost): Promise<void> {
  const g = globalThis as unknown as G;
  const load = host.importer ?? ((url: string) => import(/* @vite-ignore */ url));
  // Bound: a browser's timer functions refuse to run with another `this` ("Illegal invocation").
  const native: Timers = {
    setTimeout: g.setTimeout.bind(globalThis),
    clearTimeout: g.clearTimeout.bind(globalThis),
    setInterval: g.setInterval.bind(globalThis),
    clearInterval: g.clearInterval.bind(globalThis),
  };
  let exited = false;
  let loader: ModuleLoader | undefined;
  const repoPaths = (text: string) => {
    for (const m of loader?.modules() ?? []) text = text.split(m.url).join(m.path);
    return text;
  };
  const post = (e: RunnerEvent) => {
    if (exited) return;
    if (e.type === 'exit') exited = true;
    host.post(e.type === 'out' ? { ...e, text: repoPaths(e.text) } : e.type === 'result' && e.message !== undefined ? { ...e, message: repoPaths(e.message) } : e);
  };
  const write = (stream: 'stdout' | 'stderr', text: string) => post({ type: 'out', stream, text });

  // Timers the repository starts keep the run alive, as they keep a node process alive.
  const active = new Set<unknown>();
  const state = { exitCode: undefined as number | undefined };
  const stop = { harness: undefined as Harness | undefined };
  const exit = (code: number): never => {
    post({ type: 'exit', code });
    stop.harness?.stop();
    throw new ExitSignal(code);
  };
  if (host.ownsGlobals) {
    g.setTimeout = (cb, ms, ...a) => {
      const id = native.setTimeout(() => {
        active.delete(id);
        cb(...a);
      }, ms);
      active.add(id);
      return id;
    };
    g.clearTimeout = (id) => {
      active.delete(id);
      native.clearTimeout(id);
    };
    g.setInterval = (cb, ms, ...a) => {
      const id = native.setInterval(() => cb(...a), ms);
      active.add(id);
      return id;
    };
    g.clearInterval = (id) => {
      active.delete(id);
      native.clearInterval(id);
    };
    const out = (...a: unknown[]) => write('stdout', `${format(...a)}\n`);
    const err = (...a: unknown[]) => write('stderr', `${format(...a)}\n`);
    g.console = {
      log: out,
      info: out,
      debug: out,
      error: err,
      warn: err,
      trace: (...a: unknown[]) => err(`Trace: ${format(...a)}\n${(new Error().stack ?? '').split('\n').slice(2).join('\n')}`),
      dir: (v: unknown) => write('stdout', `${inspect(v)}\n`),
      table: out,
      assert: (cond: unknown, ...a: unknown[]) => void (cond || err(a.length ? `Assertion failed: ${format(...a)}` : 'Assertion failed')),
      group: out,
      groupEnd: () => undefined,
      time: () => undefined,
      timeEnd: () => undefined,
      count: () => undefined,
    };
    const script = EVAL_FLAGS.includes(job.argv[0] ?? '') ? [] : job.argv.slice(0, 1);
    g.process = {
      argv: ['/usr/local/bin/node', ...script, ...job.argv.slice(script.length ? 1 : 2)],
      env: { HOME: '/repo', LANG: 'C.UTF-8', TZ: 'UTC', NO_COLOR: '1' },
      platform: 'linux',
      version: NODE_VERSION,
      versions: { node: NODE_VERSION.slice(1) },
      cwd: () => '/repo',
      exit: (code?: number) => exit(code ?? state.exitCode ?? 0),
      get exitCode() {
        return state.exitCode;
      },
      set exitCode(c: number | undefined) {
        state.exitCode = c;
      },
      stdout: { write: (s: unknown) => (write('stdout', String(s)), true), isTTY: false },
      stderr: { write: (s: unknown) => (write('stderr', String(s)), true), isTTY: false },
      nextTick: (fn: (...a: unknown[]) => void, ...a: unknown[]) => queueMicrotask(() => fn(...a)),
      hrtime: Object.assign((prev?: [number, number]) => {
        const ns = Math.round(performance.now() * 1e6);
        const t: [number, number] = [Math.floor(ns / 1e9), ns % 1e9];
        return prev ? [t[0] - prev[0], t[1] - prev[1]] : t;
      }, { bigint: () => BigInt(Math.round(performance.now() * 1e6)) }),
      on: () => undefined,
      once: () => undefined,
      emitWarning: (w: unknown) => err(`(node) Warning: ${errorText(w)}`),
    };
  }
  const nextTurn = () => new Promise<void>((r) => native.setTimeout(() => r(), 0));
  const activeHandles = () => (host.ownsGlobals ? active.size : 1);

  const harness = new Harness({
    events: {
      running: (path) => post({ type: 'running', path }),
      result: (path, status, message, ms) => post(message === undefined ? { type: 'result', path, status, ms } : { type: 'result', path, status, message, ms }),
    },
    ...(job.namePattern !== undefined ? { namePattern: new RegExp(job.namePattern) } : {}),
    activeHandles,
    nextTurn,
  });
  stop.harness = harness;
  installRunnerGlobals();
  const asserts = createAssert();
  const api = harness.api();
  // In a runner's own realm (hardened: reuse.ts) node:test's and node:assert's objects are frozen, so no module
  // can rebind what the tests call; an in-process host (a unit test) keeps its realm as it is.
  if (host.ownsGlobals) harden(api, new Set(), asserts.legacy, asserts.strict);
  current[SHIMS] = { test: api, assert: asserts.legacy, strict: asserts.strict };
  const shim = (key: string, names: string[]) =>
    host.makeUrl(`const m = globalThis.${SHIMS}.${key};\nexport default m.default ?? m;\nexport const { ${names.filter((n) => n !== 'default').join(', ')} } = m;\n`);
  const builtins: Record<string, string> = {};
  builtins['node:test'] = shim('test', Object.keys(api));
  builtins['node:assert'] = builtins.assert = shim('assert', Object.keys(asserts.legacy));
  builtins['node:assert/strict'] = builtins['assert/strict'] = shim('strict', Object.keys(asserts.strict));
  const budget = job.loopBudget;
  if (budget !== undefined) {
    let n = 0;
    current[LOOP_GUARD] = () => {
      if (++n <= budget) return;
      if (n === budget + 1) {
        post({ type: 'limit', clock: 'loops' });
        stop.harness?.stop();
      }
      throw new LoopLimit(budget);
    };
  } else current[LOOP_GUARD] = undefined;
  loader = new ModuleLoader({ files: job.files, makeUrl: host.makeUrl, builtins, importHook: IMPORT_HOOK, ...(budget !== undefined ? { loopGuard: LOOP_GUARD } : {}) });
  const ld = loader;
  // import() calls still loading when the run ends could run the run's code after it: counted (host.taint).
  let importing = 0;
  current[IMPORT_HOOK] = async (from: string, spec: unknown) => {
    importing++;
    try {
      return await load(ld.resolve(String(spec), from));
    } finally {
      importing--;
    }
  };
  setCallSiteSource((url, line, column) => ld.callExpressionAt(url, line, column));

  /** The stack without the runner's own frames: the message, then the repository's frames. */
  const repoStack = (stack: string) => {
    const urls = ld.modules().map((m) => m.url);
    return stack
      .split('\n')
      .filter((l) => !/^\s+at /.test(l) || urls.some((u) => l.includes(u)))
      .join('\n');
  };
  /** How node reports an error nothing caught: its stack (repo paths), and the exit code. */
  const crash = (e: unknown) => {
    if (e instanceof ExitSignal) return;
    if (!(e instanceof LoadError)) {
      write('stderr', `${e instanceof Error && e.stack ? repoStack(e.stack) : `Uncaught ${inspect(e)}`}\n`);
      exit(harness.used ? 7 : 1);
    }
  };
  host.onUncaught?.((e) => {
    try {
      if (!harness.uncaught(e)) crash(e);
    } catch {
      // ExitSignal: the run is over
    }
  });

  try {
    const [first, ...rest] = job.argv;
    if (first !== undefined && EVAL_FLAGS.includes(first)) {
      const result = host.evaluate ? host.evaluate(rest[0] ?? '') : ((0, eval)(rest[0] ?? '') as unknown);
      if (first === '-p' || first === '--print') write('stdout', `${format(result)}\n`);
    } else {
      try {
        await load(loader.urlFor(first ?? ''));
      } catch (e) {
        if (!(e instanceof LoadError)) throw e;
        write('stderr', await describeLoadError(e, host, load));
        exit(1);
      }
    }
    if (harness.used) await harness.run();
    // Like a node process, the run ends when no timer is left (an in-process host has none of its own).
    while (host.ownsGlobals && active.size > 0 && !exited) await nextTurn();
    exit(harness.failed ? 1 : (state.exitCode ?? 0));
  } catch (e) {
    try {
      crash(e);
    } catch {
      // ExitSignal
    }
  } finally {
    if (!exited) post({ type: 'exit', code: 1 });
    if (importing > 0) host.taint?.(`${importing} import() call(s) were still loading when the run ended`);
    if (host.ownsGlobals) Object.assign(g, native);
  }
}

/** Node's text for a module that could not load; for a syntax error, the engine's own message. */
async function describeLoadError(e: LoadError, host: RunnerHost, load: (url: string) => Promise<unknown>): Promise<string> {
  if (e.code !== 'SYNTAX') return `Error [${e.code}]: ${e.message}\n`;
  let message = e.message;
  if (e.source !== undefined) {
    try {
      // Parsed, never run: a module that parses starts with `throw` (imports fail to link first).
      await load(host.makeUrl(`throw 0;${e.source}`));
    } catch (engine) {
      if (engine instanceof SyntaxError) message = engine.message;
    }
  }
  return `${e.banner}\nSyntaxError: ${message}\n`;
}
