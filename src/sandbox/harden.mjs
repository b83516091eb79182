// Hardening a realm before the code under test runs in it, so that no code it judges can change the tools the
// verdict is made with: the runner's (JSON, Function.prototype.call, Reflect, Array/Map/Promise methods, Error)
// and the tests' own (the iterators a `for … of` over test cases uses, String and Array methods, Object.is).
// SES's lockdown() does this for the same reason, and its design is followed here (its anonymous intrinsics, its
// override list), without its cost: ses is 237 KB to parse in every process the node sandbox starts and its
// lockdown() 7-11 ms more (+16 ms a test run with V8's code cache, +43 ms without, on a ~70 ms run), and it cannot
// run in node's startup snapshot (V8 refuses frozen intrinsics there). This walk freezes ~650 objects in ~5 ms.
//  - hardenIntrinsics(): every object reachable from ECMAScript's globals and from the intrinsics no global names
//    (the iterator prototypes, %TypedArray%, the generator and async function constructors and prototypes,
//    %ThrowTypeError%, the iterator helpers) through own properties (values, getters, setters) and prototypes is
//    frozen; the properties ordinary code assigns on its own objects (toString, valueOf, an Error's name and
//    message) become accessors whose setter defines the property on the object assigned to, so that
//    `this.name = 'X'` in an Error subclass still works on a frozen Error.prototype (the "override mistake");
//    and the global's bindings of those names become read-only, so `globalThis.JSON = …` cannot replace what
//    the runner calls.
//  - harden(root): the same deep freeze for a host's own objects that a run can reach (node:test's and
//    node:assert's exports, the runner's classes whose instances it throws).
//  - lockPrototype(proto): a host's class whose instances assign over their prototype's properties (node's
//    EventEmitter and streams: `this._events = …`) kept working with no method replaceable.
// Plain JavaScript (harden.d.mts types it): the node sandbox's preload (node-reporter.mjs) imports it as it is,
// in a process started without tsx; the worker sandbox's runner (a browser Worker or a confined node process)
// is bundled with it. No DOM, no Node.

/** ECMAScript's global constructors, namespaces and functions (ES2025 and what engines ship beside it). */
export const ECMASCRIPT_GLOBALS = Object.freeze(
  'globalThis Object Function Array Number parseFloat parseInt Boolean String Symbol Date Promise RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError JSON Math Intl ArrayBuffer SharedArrayBuffer Atomics Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array BigUint64Array BigInt64Array Uint8ClampedArray Float16Array Float32Array Float64Array DataView Map BigInt Set Iterator WeakMap WeakSet Proxy Reflect WeakRef FinalizationRegistry decodeURI decodeURIComponent encodeURI encodeURIComponent escape unescape eval isFinite isNaN SuppressedError DisposableStack AsyncDisposableStack'.split(' '),
);

const isObject = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function';
const getProto = Object.getPrototypeOf;
const { defineProperty, freeze, getOwnPropertyDescriptors, hasOwn } = Object;
const { getOwnPropertyDescriptor, ownKeys } = Reflect;

/** The intrinsics no global names (after SES's get-anonymous-intrinsics.js), each where the engine has it. */
export function anonymousIntrinsics(g = globalThis) {
  const out = [];
  const add = (f) => {
    try {
      out.push(f());
    } catch {
      // an engine without it
    }
  };
  add(() => getOwnPropertyDescriptor((function () { return arguments; })(), 'callee')?.get); // %ThrowTypeError%
  add(() => getProto([][Symbol.iterator]())); // %ArrayIteratorPrototype%
  add(() => getProto(getProto([][Symbol.iterator]()))); // %IteratorPrototype%
  add(() => getProto(''[Symbol.iterator]())); // %StringIteratorPrototype%
  add(() => getProto(new Map().entries())); // %MapIteratorPrototype%
  add(() => getProto(new Set().values())); // %SetIteratorPrototype%
  add(() => getProto(/./[Symbol.matchAll](''))); // %RegExpStringIteratorPrototype%
  add(() => getProto(Uint8Array)); // %TypedArray%
  add(() => getProto(function* () {}).constructor); // %GeneratorFunction% (its prototype is %Generator%)
  add(() => getProto(async function () {}).constructor); // %AsyncFunction%
  add(() => getProto(async function* () {}).constructor); // %AsyncGeneratorFunction% (→ %AsyncGenerator%)
  add(() => getProto(getProto(getProto(async function* () {}).prototype))); // %AsyncIteratorPrototype%
  const Iter = g.Iterator;
  if (typeof Iter?.from === 'function') {
    add(() => getProto(Iter.from([]).take(0))); // %IteratorHelperPrototype%
    add(() => getProto(Iter.from({ next: () => ({ done: true, value: undefined }) }))); // %WrapForValidIteratorPrototype%
  }
  // Not Intl.Segmenter's %SegmentsPrototype% and %SegmentIteratorPrototype%: reaching them means making a Segmenter,
  // ~8 ms of ICU's start in every process, and neither the runner nor a test's own code goes through them.
  return out.filter(isObject);
}

/**
 * Properties that ordinary code assigns on its own objects, kept assignable there once their owner is frozen: the
 * part of SES's "moderate" list (enablements.js) that changes nothing else. Not `constructor` (node's util.inspect
 * and ours name an object by its prototype's own `constructor` data property: an accessor there prints a plain
 * object as `[Object: null prototype]`), and not Array.prototype's or the iterators' Symbol.iterator (replacing it,
 * even by an accessor that returns it, turns off V8's fast array iteration in the whole realm).
 */
function overrides(g) {
  const errors = ['Error', 'TypeError', 'SyntaxError', 'RangeError', 'URIError', 'EvalError', 'ReferenceError', 'AggregateError'];
  return [
    [Object.prototype, ['toString', 'valueOf', 'toLocaleString']],
    [Function.prototype, ['toString', 'bind']],
    ...errors.map((n) => [g[n]?.prototype, ['name', 'message', 'toString']]),
    [getProto(getProto([][Symbol.iterator]())), ['toString', Symbol.toStringTag]],
  ];
}

/** Turn `owner`'s configurable data properties `keys` (default: every one but `constructor`) into SES's accessor
 *  pairs: reads give the value, an assignment to an object that inherits it defines the property there, one to
 *  the owner itself throws. Call before the owner is frozen. */
export function enableOverrides(owner, keys = ownKeys(owner).filter((k) => k !== 'constructor')) {
  for (const key of keys) {
    const d = getOwnPropertyDescriptor(owner, key);
    if (!d || !('value' in d) || !d.configurable) continue;
    const value = d.value;
    const pair = {
      get [key]() {
        return value;
      },
      set [key](v) {
        if (this === owner) throw new TypeError(`Cannot assign to read only property '${String(key)}' of a hardened object`);
        if (hasOwn(this, key)) this[key] = v;
        else defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
      },
    };
    const accessor = getOwnPropertyDescriptor(pair, key);
    // harden() walks a getter's own properties, so the original value stays reachable (and frozen) through it.
    defineProperty(accessor.get, 'originalValue', { value, writable: false, enumerable: false, configurable: false });
    defineProperty(owner, key, { get: accessor.get, set: accessor.set, enumerable: d.enumerable ?? false, configurable: true });
  }
}

/**
 * Lock a host class's prototype without freezing it (node's EventEmitter and streams, whose instances assign over
 * their prototype's properties, `this._events = …`, and whose subclasses assign over them on their own prototypes,
 * `Socket.prototype.end = …` in node:net; EventEmitter's non-configurable kCapture is written on the instances): its
 * configurable data properties become override accessors (enableOverrides), every property non-configurable (no
 * method can be replaced or redefined on it), and the object non-extensible (its prototype cannot be swapped). The
 * values stay as they are: a method's own function object is not frozen.
 */
export function lockPrototype(owner) {
  enableOverrides(owner);
  for (const k of ownKeys(owner)) {
    const d = getOwnPropertyDescriptor(owner, k);
    if (d.configurable) defineProperty(owner, k, 'value' in d ? { ...d, writable: false, configurable: false } : { ...d, configurable: false });
  }
  Object.preventExtensions(owner);
}

/** Lock a host class's own (static) properties: its functions (EventEmitter.init, which every emitter's constructor
 *  calls) read-only, and nothing redefinable; its settings (EventEmitter.usingDomains, which node:domain sets) stay
 *  writable. */
export function lockStatics(C) {
  for (const k of ownKeys(C)) {
    const d = getOwnPropertyDescriptor(C, k);
    if (!d.configurable) continue;
    const fn = 'value' in d && typeof d.value === 'function';
    defineProperty(C, k, 'value' in d ? { ...d, writable: fn ? false : d.writable, configurable: false } : { ...d, configurable: false });
  }
}

/** Objects hardened so far in this realm: a walk stops at them (the intrinsics, once hardened, are not walked again). */
const hardenedSet = new WeakSet();

/**
 * Freeze `root` (and `more`) and everything reachable from them through own properties (data values, getters,
 * setters) and prototypes. `skip`: objects left as they are (and not walked through). Returns `root`.
 */
export function harden(root, skip = new Set(), ...more) {
  const todo = [root, ...more];
  const seen = new Set();
  while (todo.length) {
    const o = todo.pop();
    if (!isObject(o) || seen.has(o) || skip.has(o) || hardenedSet.has(o)) continue;
    seen.add(o);
    todo.push(getProto(o));
    const all = getOwnPropertyDescriptors(o);
    for (const k of ownKeys(all)) {
      const d = all[k];
      if ('value' in d) todo.push(d.value);
      else todo.push(d.get, d.set);
    }
  }
  for (const o of seen) freeze(o), hardenedSet.add(o);
  return root;
}

let done = false;

/**
 * Harden the realm's intrinsics (see the header) once; later calls do nothing. Call before any code under test runs
 * in the realm, after the host took what it needs. `globals`: further global names whose values are hardened and
 * whose bindings become read-only (the worker runner's kept web and node globals: URL, TextEncoder, Buffer, …);
 * `skip`: objects left unfrozen however they are reached (a host's own mutable objects).
 */
export function hardenIntrinsics({ globals = [], skip = [] } = {}, g = globalThis) {
  if (done) return;
  done = true;
  for (const [owner, keys] of overrides(g)) if (owner) enableOverrides(owner, keys);
  const names = [...ECMASCRIPT_GLOBALS, ...globals];
  const values = names.map((n) => getOwnPropertyDescriptor(g, n)).filter((d) => d && 'value' in d).map((d) => d.value);
  harden(Object.prototype, new Set([g, ...skip]), ...values, ...anonymousIntrinsics(g));
  for (const n of names) {
    const d = getOwnPropertyDescriptor(g, n);
    if (d && 'value' in d && d.configurable) defineProperty(g, n, { value: d.value, writable: false, enumerable: d.enumerable ?? false, configurable: false });
  }
}

/** Whether hardenIntrinsics() has run in this realm. */
export const hardened = () => done;
