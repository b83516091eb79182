// The runner Worker's realm check (src/sandbox/worker/realm.ts) on object graphs of its own: every kind of
// change to what is reachable from the root is found and named, nothing is found when nothing changed, the
// run's own keys on the root are not compared; lockdown() on a stand-in global keeps Node's names only and
// refuses listeners on the global.
import { describe, expect, it } from 'vitest';
import { changed, KEPT_GLOBALS, lockdown, snapshot } from '../../../src/sandbox/worker/realm.ts';

function world() {
  class Thing {
    static count = 1;
    hello() {
      return 'hi';
    }
  }
  const shared = { list: [1, 2, 3], deep: { x: 1 } };
  const root: Record<string, unknown> = { Thing, shared, fn: () => 1, n: 5 };
  Object.defineProperty(root, 'acc', { get: () => 1, configurable: true });
  return { root, Thing, shared };
}

describe('realm snapshot', () => {
  it('finds nothing when nothing changed, and ignores values read and objects made but not kept', () => {
    const { root, Thing } = world();
    const before = snapshot(root);
    void new Thing().hello();
    void JSON.stringify(root.shared);
    expect(changed(before, root)).toBeNull();
  });

  it('finds each kind of change, however deep', () => {
    const cases: Record<string, (w: ReturnType<typeof world>) => void> = {
      'a key added at the root': (w) => (w.root.leak = 1),
      'a value replaced': (w) => (w.root.n = 6),
      'a method patched on a prototype': (w) => ((w.Thing.prototype as unknown as Record<string, unknown>).hello = () => 'evil'),
      'a static changed': (w) => (w.Thing.count = 2),
      'an element of a reachable array': (w) => (w.shared.list[0] = 9),
      'a nested object frozen': (w) => Object.freeze(w.shared.deep),
      'a prototype swapped': (w) => Object.setPrototypeOf(w.shared.deep, null),
      'a getter replaced': (w) => Object.defineProperty(w.root, 'acc', { get: () => 2 }),
      'a key deleted and put back': (w) => {
        const v = w.root.fn;
        delete w.root.fn;
        w.root.fn = v;
      },
      'a property made read-only': (w) => Object.defineProperty(w.shared.deep, 'x', { writable: false }),
    };
    for (const [name, mutate] of Object.entries(cases)) {
      const w = world();
      const before = snapshot(w.root);
      mutate(w);
      expect(changed(before, w.root), name).toEqual(expect.any(String));
    }
    const w = world();
    const before = snapshot(w.root);
    w.root.leak = 1;
    expect(changed(before, w.root)).toBe('object Object: leak added');
  });

  it('runs no code of the changed realm: a Proxy put in the graph and a throwing getter are never touched', () => {
    const trap = () => {
      throw new Error('code of the run ran in the check');
    };
    const hostile = new Proxy({}, { ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap, isExtensible: trap });
    let w = world();
    let before = snapshot(w.root);
    Object.setPrototypeOf(w.shared.deep, hostile);
    expect(changed(before, w.root)).toBe('object Object: its prototype changed');
    w = world();
    before = snapshot(w.root);
    w.root.leak = hostile;
    Object.defineProperty(w.shared, 'constructor', { get: trap });
    expect(changed(before, w.root)).toBe('object Object: leak added');
    expect(changed(snapshot(w.shared), w.shared)).toBeNull();
  });

  it("does not compare the run's own keys on the root", () => {
    const { root } = world();
    const before = snapshot(root);
    root.__webswe_shims__ = { test: {} };
    root.__webswe_import__ = () => undefined;
    expect(changed(before, root)).toBeNull();
  });
});

describe('lockdown', () => {
  it("keeps Node's names on the global as own properties, takes off the rest, refuses listeners on the global", () => {
    class EventTarget {
      addEventListener() {
        return 'added';
      }
      removeEventListener() {}
      dispatchEvent() {
        return true;
      }
    }
    const scope = Object.create(EventTarget.prototype) as Record<string, unknown>;
    Object.assign(scope, { setTimeout: () => 1, fetch: () => 'net', indexedDB: {}, importScripts: () => undefined });
    Object.defineProperty(scope, 'TEMPORARY', { value: 0, writable: false, configurable: false });
    const g = Object.create(scope) as Record<string, unknown>;
    Object.assign(g, { Object, Array, EventTarget, postMessage: () => undefined, close: () => undefined, WebSocket: class {}, Atomics: { ...Atomics, waitAsync: () => undefined } });
    Object.defineProperty(g, 'performance', { value: { now: () => 42, timeOrigin: 7, mark: () => undefined }, configurable: true, writable: true });

    expect(lockdown(g)).toEqual([]);
    expect(Reflect.ownKeys(g).filter((k) => typeof k === 'string').sort()).toEqual(['Array', 'Atomics', 'EventTarget', 'Object', 'performance', 'setTimeout']);
    expect(Object.keys(Object.getOwnPropertyDescriptors(scope))).toEqual(['TEMPORARY']); // a constant stays
    expect((g.setTimeout as () => number)()).toBe(1);
    expect('waitAsync' in (g.Atomics as object)).toBe(false);
    expect(g.performance).toEqual({ now: expect.any(Function), timeOrigin: 7 });
    expect(Object.isFrozen(g.performance)).toBe(true);
    expect(() => (EventTarget.prototype.addEventListener as (this: unknown) => unknown).call(g)).toThrow(/addEventListener on the global scope is not available/);
    expect(new EventTarget().addEventListener()).toBe('added');
    for (const k of ['URL', 'TextEncoder', 'structuredClone', 'queueMicrotask', 'setInterval', 'process']) expect(KEPT_GLOBALS.has(k), k).toBe(true);
    for (const k of ['fetch', 'postMessage', 'close', 'WebAssembly', 'FinalizationRegistry', 'MessageChannel', 'indexedDB']) expect(KEPT_GLOBALS.has(k), k).toBe(false);
  });
});
