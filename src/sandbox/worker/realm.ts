// The realm of a runner (a browser Worker, runner.worker.ts, or a confined node process, runner-serve.ts), kept fit
// to serve another sandbox: the hosts hand a runner whose runs left it as it started to the next episode instead of
// starting a new one (a Worker start is ~50 ms of the browser's CPU, a node start ~50-75 ms of CPU).
// Two parts:
//  - lockdown(): before any job, the global keeps what Node 20 has and a test may use (ECMAScript's built-ins,
//    URL, TextEncoder/TextDecoder, structuredClone, atob/btoa, queueMicrotask, the timers, Event/EventTarget,
//    AbortController, a `performance` and a `crypto` of plain functions; under node also Buffer and the immediates)
//    and loses the rest, above all what could run code after a run ended where no timer is counted: fetch,
//    messaging, storage, Workers, WebAssembly's async compiles, FinalizationRegistry's callbacks,
//    Atomics.waitAsync, listeners on the global.
//  - snapshot()/changed(): every object reachable from the global (and from the runner's classes a run can reach:
//    runner.ts RUNNER_SHARED) through own properties and prototypes (not through getters, which are never called),
//    with its prototype, extensibility, own keys and descriptors (values, getters and setters by identity), recorded
//    fresh; changed() reads each recorded object again and nothing else (an object the run made, a Proxy say, is
//    never touched): a prototype patched, a global added, a built-in frozen or replaced shows as a change, and such
//    a runner is ended instead of reused.
// Not seen, and unable to run code: engine state no property shows (the Symbol registry, Math.random's state).
// Under node the code under test must not reach past this realm at all (node's own modules, the real `process`):
// the node runner refuses code generation from strings (runner-serve.ts), so only the loader's rewritten modules run.
// Core code; the unit tests run snapshot/changed on object graphs of their own.

/** Own keys of the global that a run sets for itself (the runner's shims): not compared. */
const RUN_KEYS = new Set(['__webswe_shims__', '__webswe_import__', '__webswe_loop__']);

/** ECMAScript's globals (ES2025 and what V8 ships beside it) minus those that call back from the host. */
const ECMASCRIPT = 'Object Function Array Number parseFloat parseInt Infinity NaN undefined Boolean String Symbol Date Promise RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError globalThis JSON Math Intl ArrayBuffer SharedArrayBuffer Atomics Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array BigUint64Array BigInt64Array Uint8ClampedArray Float32Array Float64Array DataView Map BigInt Set Iterator WeakMap WeakSet Proxy Reflect WeakRef decodeURI decodeURIComponent encodeURI encodeURIComponent escape unescape eval isFinite isNaN SuppressedError DisposableStack AsyncDisposableStack';
/** Web APIs Node 20 also has as globals, synchronous ones only. */
const WEB = 'console process URL URLSearchParams TextEncoder TextDecoder structuredClone atob btoa queueMicrotask setTimeout setInterval clearTimeout clearInterval Event EventTarget CustomEvent DOMException AbortController AbortSignal performance crypto';
export const KEPT_GLOBALS: ReadonlySet<string> = new Set(`${ECMASCRIPT} ${WEB}`.split(' '));
/** What the node runner keeps beside them: node's own synchronous globals, which a browser does not have
 *  (its immediates are counted between jobs like its timers: job-queue.ts). */
export const NODE_GLOBALS: readonly string[] = ['Buffer', 'setImmediate', 'clearImmediate', 'global'];
/** The kept globals a job replaces with its own for each run (runner.ts, job-queue.ts): not hardened. */
export const PER_JOB_GLOBALS: readonly string[] = ['console', 'process', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'setImmediate', 'clearImmediate'];

type Bag = Record<PropertyKey, unknown>;

/** A property no code can change and that holds no object (WebIDL's constants, like TEMPORARY): harmless kept. */
const isConstant = (d: PropertyDescriptor | undefined) => !!d && 'value' in d && !d.writable && !d.configurable && !isObject(d.value);

/**
 * Take off the global (and its prototypes up to EventTarget.prototype) every name not in KEPT_GLOBALS or `extra`
 * (the node runner keeps Buffer, setImmediate, clearImmediate and global: NODE_GLOBALS); make
 * `performance` and `crypto` plain frozen objects of their sync functions; refuse listeners and dispatch on the
 * global (EventTarget's methods for other targets stay). Call once, before any job and after the runner took
 * what it needs (postMessage, addEventListener). Returns the names it could not remove (none expected).
 */
export function lockdown(g: Bag = globalThis as unknown as Bag, extra: readonly string[] = []): string[] {
  const failed: string[] = [];
  const kept = (k: string) => KEPT_GLOBALS.has(k) || extra.includes(k);
  const perf = g.performance as { now(): number; timeOrigin: number } | undefined;
  const cryp = g.crypto as { getRandomValues<T>(a: T): T; randomUUID(): string } | undefined;
  const eventTarget = (g.EventTarget as { prototype: Bag } | undefined)?.prototype;
  /** Delete `o`'s own string keys but `keep`'s (and constructor); a key that stays is a failure unless constant. */
  const strip = (o: Bag, keep: (k: string) => boolean) => {
    for (const k of Reflect.ownKeys(o)) {
      if (typeof k !== 'string' || k === 'constructor' || keep(k)) continue;
      if (!Reflect.deleteProperty(o, k) && !isConstant(Reflect.getOwnPropertyDescriptor(o, k))) failed.push(k);
    }
  };
  strip(g, kept);
  // The kept names become the global's own data properties (a browser's timers and atob are the prototype's; node
  // defines some as getters that replace themselves on first use, which would read as a change); then the
  // prototypes below EventTarget.prototype are emptied.
  for (const k of [...KEPT_GLOBALS, ...extra]) {
    const d = Reflect.getOwnPropertyDescriptor(g, k);
    if (k === 'performance' || k === 'crypto' || (d && 'value' in d)) continue;
    const v = g[k];
    if (v !== undefined) Object.defineProperty(g, k, { value: v, writable: true, configurable: true, enumerable: d?.enumerable ?? false });
  }
  for (let o = Object.getPrototypeOf(g) as Bag | null; o && o !== eventTarget && o !== Object.prototype; o = Object.getPrototypeOf(o) as Bag | null) strip(o, () => false);
  const plain = (v: object) => ({ value: Object.freeze(v), writable: true, configurable: true, enumerable: false });
  if (perf) Object.defineProperty(g, 'performance', plain({ now: () => perf.now(), timeOrigin: perf.timeOrigin }));
  if (cryp) Object.defineProperty(g, 'crypto', plain({ getRandomValues: <T>(a: T) => cryp.getRandomValues(a), randomUUID: () => cryp.randomUUID() }));
  // Host callbacks that no timer of the run counts: Atomics.waitAsync's wake-up, AbortSignal.timeout's abort.
  for (const [owner, name] of [[g.Atomics, 'waitAsync'], [g.AbortSignal, 'timeout']] as const) {
    if (isObject(owner) && Object.hasOwn(owner, name) && !Reflect.deleteProperty(owner, name)) failed.push(name);
  }
  if (eventTarget) {
    for (const name of ['addEventListener', 'removeEventListener', 'dispatchEvent']) {
      const own = eventTarget[name] as ((...a: unknown[]) => unknown) | undefined;
      if (typeof own !== 'function') continue;
      Object.defineProperty(eventTarget, name, {
        value: {
          [name](this: unknown, ...a: unknown[]) {
            if (this === g || this === undefined) throw new TypeError(`${name} on the global scope is not available in the worker sandbox (node has no such global)`);
            return own.apply(this, a);
          },
        }[name],
        writable: true,
        configurable: true,
        enumerable: true,
      });
    }
  }
  return failed;
}

/** An object's shape: prototype, extensibility, then per own key: the key, flags, value or getter, setter. */
type Shape = unknown[];
export type Snapshot = Map<object, Shape>;

const isObject = (v: unknown): v is object => (typeof v === 'object' && v !== null) || typeof v === 'function';

function shapeOf(o: object, root: boolean, visit: (v: unknown) => void): Shape {
  const proto = Object.getPrototypeOf(o) as unknown;
  visit(proto);
  const out: Shape = [proto, Object.isExtensible(o)];
  // One call for every descriptor (a Worker's fresh realm is walked cold, in the interpreter: ~850 objects).
  const all = Object.getOwnPropertyDescriptors(o) as Record<PropertyKey, PropertyDescriptor>;
  for (const k of Reflect.ownKeys(all)) {
    if (root && typeof k === 'string' && RUN_KEYS.has(k)) continue;
    const d = all[k]!;
    const data = 'value' in d;
    const a = data ? d.value : d.get, b = data ? undefined : d.set;
    if (isObject(a)) visit(a);
    if (isObject(b)) visit(b);
    out.push(k, (d.enumerable ? 1 : 0) | (d.configurable ? 2 : 0) | (d.writable ? 4 : 0) | (data ? 8 : 0), a, b);
  }
  return out;
}

/** Every object reachable from `root` and from `also` (own properties' values, getters, setters; prototypes)
 *  and its shape. `also`: objects the code under test can reach that the global does not (the runner's own
 *  classes whose instances it throws into a run: runner.ts RUNNER_SHARED). */
export function snapshot(root: object, also: readonly object[] = []): Snapshot {
  const seen: Snapshot = new Map();
  const todo: object[] = [root];
  const visit = (v: unknown) => {
    if (isObject(v) && !seen.has(v)) {
      seen.set(v, []);
      todo.push(v);
    }
  };
  seen.set(root, []);
  for (const o of also) visit(o);
  while (todo.length) {
    const o = todo.pop()!;
    seen.set(o, shapeOf(o, o === root, visit));
  }
  return seen;
}

/** What differs between `before` and `root` now (null when nothing): the first difference found, in words.
 *  Only the objects `before` knows are read, each against its own record: if every one has the prototype,
 *  extensibility and own properties it had, every edge still leads to a known object and the graph is the same;
 *  an object the code under test made (a Proxy, say) is never touched, so no code of it runs in the check. */
export function changed(before: Snapshot, root: object): string | null {
  if (!before.has(root)) return 'the snapshot is of another root';
  const skip = () => undefined;
  for (const [o, was] of before) {
    const shape = shapeOf(o, o === root, skip);
    if (was.length !== shape.length) {
      const a = keysOf(was), b = keysOf(shape);
      const added = b.filter((k) => !a.includes(k)), gone = a.filter((k) => !b.includes(k));
      return `${describe(o, was)}: ${[added.length ? `${added.join(', ')} added` : '', gone.length ? `${gone.join(', ')} removed` : ''].filter(Boolean).join(', ') || 'its own properties changed'}`;
    }
    for (let i = 0; i < shape.length; i++) {
      if (!Object.is(was[i], shape[i])) return `${describe(o, was)}: ${i === 0 ? 'its prototype' : i === 1 ? 'its extensibility' : `property ${String(shape[2 + 4 * Math.floor((i - 2) / 4)])}`} changed`;
    }
  }
  return null;
}

const keysOf = (s: Shape) => s.filter((_, i) => i >= 2 && (i - 2) % 4 === 0).map(String);
/** A name for a known object, read through own data descriptors only (a getter the code under test put there
 *  never runs): a function's own name, else the name of the constructor on the prototype it had. */
function describe(o: object, was: Shape): string {
  const nameOf = (f: unknown) => {
    const d = isObject(f) ? Reflect.getOwnPropertyDescriptor(f, 'name') : undefined;
    return d && 'value' in d && typeof d.value === 'string' ? d.value : '';
  };
  if (typeof o === 'function') return `function ${nameOf(o) || '(anonymous)'}`;
  const proto = was[0];
  const c = isObject(proto) ? Reflect.getOwnPropertyDescriptor(proto, 'constructor') : undefined;
  return `object ${(c && 'value' in c && nameOf(c.value)) || '(anonymous)'}`;
}
