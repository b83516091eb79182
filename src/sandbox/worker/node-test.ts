// The node:test surface for the worker sandbox: describe/it/test/suite (skip, todo, only), hooks,
// subtests (t.test or a nested it), done callbacks, per-test timeouts and Node 20's run order and
// outcomes: suites run their children in order, tests are reported as they finish (subtests before
// their parent), a failing describe body or before hook cancels the suite's tests, and a promise still
// pending when nothing else can run fails that test and every later one, as Node's does at exit.
// Core code: no DOM, no Node. The runner (runner.ts) gives it the events to report through.
import type { TestStatus } from '../types.ts';

export interface HarnessEvents {
  /** A test or suite starts (Node's test:dequeue); the path is its describe path and name. */
  running(path: string[]): void;
  /** A test finished (suites are not reported, as the node sandbox's reporter skips them). */
  result(path: string[], status: TestStatus, message: string | undefined, ms: number): void;
}

export interface HarnessOptions {
  events: HarnessEvents;
  /** Node 20's --test-name-pattern: a test runs when its name or an enclosing suite's matches. */
  namePattern?: RegExp;
  /** Timers and intervals still pending (0: a pending promise can never settle). */
  activeHandles: () => number;
  /** A macrotask turn (the runner's own setTimeout, not the module's wrapped one). */
  nextTurn: () => Promise<void>;
}

type AnyFn = (...a: never[]) => unknown;
type Hook = { kind: 'before' | 'after' | 'beforeEach' | 'afterEach'; fn: AnyFn };

const CANCELLED = 'test did not finish before its parent and was cancelled';
const LOOP_RESOLVED = 'Promise resolution is still pending but the event loop has already resolved';

interface Options {
  skip?: unknown;
  todo?: unknown;
  only?: unknown;
  timeout?: unknown;
}

class TestNode {
  readonly children: TestNode[] = [];
  readonly hooks: Hook[] = [];
  buildError: unknown;
  hasBuildError = false;
  buildPromise?: Promise<void>;
  failed = false;
  /** Subtests started while this test runs, one after another. */
  subQueue: Promise<void> = Promise.resolve();
  dynamicSkip?: { reason: unknown };
  dynamicTodo?: { reason: unknown };
  /** Rejected by an error nothing caught while this test runs (a timer callback's): the test fails with it. */
  readonly aborted: Promise<never>;
  abort!: (e: unknown) => void;
  readonly done: Promise<void>;
  finish!: () => void;
  constructor(
    readonly kind: 'suite' | 'test',
    readonly name: string,
    readonly fn: AnyFn | undefined,
    readonly options: Options,
    readonly parent: TestNode | null,
  ) {
    this.done = new Promise((r) => (this.finish = r));
    this.aborted = new Promise<never>((_, reject) => (this.abort = reject));
    this.aborted.catch(() => undefined);
  }
  get path(): string[] {
    const p: string[] = [];
    for (let n: TestNode | null = this; n?.parent; n = n.parent) p.unshift(n.name);
    return p;
  }
}

const flag = (v: unknown) => v !== undefined && v !== false;
const reasonText = (v: unknown) => (typeof v === 'string' ? v : undefined);
/** The failure text the node sandbox's reporter shows: the error's message, else the value itself. */
export const errorText = (e: unknown) => {
  const m = (e as { message?: unknown } | null)?.message;
  return String(m ?? e);
};

function parseArgs(args: unknown[]): { name: string; options: Options; fn: AnyFn | undefined } {
  let [name, options, fn] = args;
  if (typeof name === 'function') {
    fn = name;
    name = undefined;
  } else if (name !== null && typeof name === 'object') {
    fn = options;
    options = name;
    name = undefined;
  }
  if (typeof options === 'function') {
    fn = options;
    options = undefined;
  }
  const f = typeof fn === 'function' ? (fn as AnyFn) : undefined;
  const n = typeof name === 'string' && name !== '' ? name : f?.name || '<anonymous>';
  return { name: n, options: (options ?? {}) as Options, fn: f };
}

class LoopResolved extends Error {}

/** A fresh AbortSignal where the host has AbortController (browsers and Node both do). */
const abortSignal = () => {
  const AC = (globalThis as { AbortController?: new () => { signal: unknown } }).AbortController;
  return AC ? new AC().signal : undefined;
};

export class Harness {
  readonly root = new TestNode('suite', '', undefined, {}, null);
  private building: TestNode | null = null;
  private runningTest: TestNode | null = null;
  private loopResolved = false;
  private stopped = false;
  /** Any test or suite failed (the exit code is then 1). */
  failed = false;
  /** Something was registered (Node's harness then exists; an uncaught error exits with 7). */
  used = false;

  constructor(private readonly opts: HarnessOptions) {}

  private add(kind: 'suite' | 'test', args: unknown[], extra: Options): TestNode {
    this.used = true;
    const { name, options, fn } = parseArgs(args);
    const parent = this.building ?? this.runningTest ?? this.root;
    const node = new TestNode(kind, name, fn, { ...options, ...extra }, parent);
    parent.children.push(node);
    if (kind === 'suite' && fn && !flag(node.options.skip)) {
      const outer = this.building;
      this.building = node;
      try {
        const r = (fn as (c: unknown) => unknown).call(undefined, { name: node.name, fullName: node.path.join(' > ') }) as { then?: unknown } | undefined;
        if (r && typeof r.then === 'function') {
          node.buildPromise = Promise.resolve(r).then(
            () => undefined,
            (e: unknown) => {
              node.hasBuildError = true;
              node.buildError = e;
            },
          );
        }
      } catch (e) {
        node.hasBuildError = true;
        node.buildError = e;
      } finally {
        this.building = outer;
      }
    }
    if (parent.kind === 'test') {
      // A subtest: it runs now, after the subtests its parent started before it.
      parent.subQueue = parent.subQueue.then(() => (kind === 'suite' ? this.runSuite(node) : this.runTest(node)));
    }
    return node;
  }

  /** describe / it / test / hooks, shaped as node:test exports them. */
  api(): Record<string, unknown> {
    const mk = (kind: 'suite' | 'test') => {
      const f = (...a: unknown[]) => this.add(kind, a, {}).done;
      return Object.assign(f, {
        skip: (...a: unknown[]) => this.add(kind, a, { skip: true }).done,
        todo: (...a: unknown[]) => this.add(kind, a, { todo: true }).done,
        only: (...a: unknown[]) => this.add(kind, a, { only: true }).done,
      });
    };
    const describe = mk('suite');
    const it = mk('test');
    const hook = (kind: Hook['kind']) => (fn: AnyFn) => {
      const target = this.building ?? this.runningTest ?? this.root;
      target.hooks.push({ kind, fn });
    };
    return { describe, suite: describe, it, test: it, before: hook('before'), after: hook('after'), beforeEach: hook('beforeEach'), afterEach: hook('afterEach'), default: it };
  }

  /** Run everything registered at the top level; resolves when all are reported. */
  async run(): Promise<void> {
    await this.runBody(this.root);
  }

  private async runChildren(suite: TestNode): Promise<void> {
    for (const child of suite.children) {
      if (child.kind === 'suite') await this.runSuite(child);
      else await this.runTest(child);
    }
  }

  private report(node: TestNode, status: TestStatus, message: string | undefined, ms: number): void {
    if (this.stopped) return node.finish();
    if (status === 'fail') this.failed = true;
    this.opts.events.result(node.path, status, message, ms);
    node.finish();
  }

  /** Fail every test under `suite` with `message` without running it (Node's cancellation). */
  private cancel(suite: TestNode, message: string): void {
    for (const c of suite.children) {
      if (c.kind === 'suite') {
        if (!flag(c.options.skip)) this.cancel(c, message);
        c.finish();
      } else this.report(c, 'fail', message, 0);
    }
  }

  /** process.exit(): nothing more runs or reports. */
  stop(): void {
    this.stopped = true;
  }

  private async runSuite(suite: TestNode): Promise<void> {
    if (this.stopped) return suite.finish();
    if (this.loopResolved) return this.cancel(suite, LOOP_RESOLVED);
    this.opts.events.running(suite.path);
    if (flag(suite.options.skip)) return suite.finish();
    if (suite.buildPromise) await suite.buildPromise;
    if (suite.hasBuildError) {
      this.failed = true;
      this.cancel(suite, CANCELLED);
      return suite.finish();
    }
    await this.runBody(suite);
  }

  /** A suite's before hooks, children and after hooks (the root's too: module-level hooks). */
  private async runBody(suite: TestNode): Promise<void> {
    for (const h of suite.hooks.filter((h) => h.kind === 'before')) {
      try {
        await this.call(h.fn, undefined);
      } catch {
        this.failed = true;
        this.cancel(suite, CANCELLED);
        return suite.finish();
      }
    }
    await this.runChildren(suite);
    if (!this.loopResolved) {
      for (const h of suite.hooks.filter((h) => h.kind === 'after')) {
        await this.call(h.fn, undefined).catch(() => (this.failed = true));
      }
    }
    suite.finish();
  }

  private matches(node: TestNode): boolean {
    const re = this.opts.namePattern;
    if (!re) return true;
    for (let n: TestNode | null = node; n?.parent; n = n.parent) if (re.test(n.name)) return true;
    return false;
  }

  private eachHooks(test: TestNode, kind: 'beforeEach' | 'afterEach'): AnyFn[] {
    const chain: TestNode[] = [];
    for (let n = test.parent; n; n = n.parent) chain.unshift(n);
    const fns = chain.flatMap((n) => n.hooks.filter((h) => h.kind === kind).map((h) => h.fn));
    return kind === 'afterEach' ? fns.reverse() : fns;
  }

  private async runTest(test: TestNode): Promise<void> {
    if (this.stopped) return test.finish();
    if (this.loopResolved) return this.report(test, 'fail', LOOP_RESOLVED, 0);
    this.opts.events.running(test.path);
    if (!this.matches(test)) return this.report(test, 'skip', 'test name does not match pattern', 0);
    if (flag(test.options.skip)) return this.report(test, 'skip', reasonText(test.options.skip), 0);
    const started = performance.now();
    let error: unknown;
    let failed = false;
    const fail = (e: unknown) => {
      if (!failed) {
        failed = true;
        error = e;
      }
    };
    const outer = this.runningTest;
    try {
      for (const fn of this.eachHooks(test, 'beforeEach')) await this.call(fn, test);
      this.runningTest = test;
      if (test.fn) await this.invoke(test);
    } catch (e) {
      fail(e);
    }
    try {
      await test.subQueue;
    } catch (e) {
      fail(e);
    }
    this.runningTest = outer;
    if (!this.loopResolved) {
      for (const fn of this.eachHooks(test, 'afterEach')) await this.call(fn, test).catch(fail);
    }
    const failedSubtests = test.children.filter((c) => c.failed).length;
    if (!failed && failedSubtests > 0) fail(new Error(`${failedSubtests} subtest${failedSubtests > 1 ? 's' : ''} failed`));
    const ms = performance.now() - started;
    if (error instanceof LoopResolved) this.loopResolved = true;
    if (flag(test.options.todo) || test.dynamicTodo) return this.report(test, 'todo', reasonText(test.dynamicTodo ? test.dynamicTodo.reason : test.options.todo), ms);
    if (failed) {
      test.failed = true;
      return this.report(test, 'fail', error instanceof LoopResolved ? LOOP_RESOLVED : errorText(error), ms);
    }
    if (test.dynamicSkip) return this.report(test, 'skip', reasonText(test.dynamicSkip.reason), ms);
    this.report(test, 'pass', undefined, ms);
  }

  private context(test: TestNode): Record<string, unknown> {
    const ctx = {
      name: test.name,
      fullName: test.path.join(' > '),
      signal: abortSignal(),
      test: (...a: unknown[]) => {
        const outerBuilding = this.building;
        const outerRunning = this.runningTest;
        this.building = null;
        this.runningTest = test;
        try {
          return this.add('test', a, {}).done;
        } finally {
          this.building = outerBuilding;
          this.runningTest = outerRunning;
        }
      },
      skip: (reason?: unknown) => void (test.dynamicSkip = { reason }),
      todo: (reason?: unknown) => void (test.dynamicTodo = { reason }),
      diagnostic: () => undefined,
      plan: () => undefined,
      runOnly: () => undefined,
      before: (fn: AnyFn) => void test.hooks.push({ kind: 'before', fn }),
      after: (fn: AnyFn) => void test.hooks.push({ kind: 'after', fn }),
      beforeEach: (fn: AnyFn) => void test.hooks.push({ kind: 'beforeEach', fn }),
      afterEach: (fn: AnyFn) => void test.hooks.push({ kind: 'afterEach', fn }),
    };
    return ctx;
  }

  /** A hook: its promise awaited (with the pending-forever check). */
  private async call(fn: AnyFn, test: TestNode | undefined): Promise<void> {
    const r = (fn as (c: unknown) => unknown).call(undefined, test ? this.context(test) : undefined) as { then?: unknown } | undefined;
    if (r && typeof r.then === 'function') await this.settle(Promise.resolve(r));
  }

  private async invoke(test: TestNode): Promise<void> {
    const ctx = this.context(test);
    const fn = test.fn as (this: unknown, ...a: unknown[]) => unknown;
    let p: Promise<unknown>;
    if (fn.length === 2) {
      p = new Promise((resolve, reject) => {
        const r = fn.call(ctx, ctx, (err?: unknown) => (err ? reject(err) : resolve(undefined))) as { then?: unknown } | undefined;
        if (r && typeof r.then === 'function') reject(new Error('passed a callback but also returned a Promise'));
      });
    } else {
      const r = fn.call(ctx, ctx) as { then?: unknown } | undefined;
      if (!(r && typeof r.then === 'function')) return;
      p = Promise.resolve(r);
    }
    const timeout = test.options.timeout;
    if (typeof timeout === 'number' && Number.isFinite(timeout)) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`test timed out after ${timeout}ms`)), timeout)));
      try {
        await Promise.race([this.settle(p), limit, test.aborted]);
      } finally {
        clearTimeout(timer);
      }
    } else await Promise.race([this.settle(p), test.aborted]);
  }

  /** Await `p`; if it is still pending when no timer is left to settle it, it never will (LoopResolved). */
  private async settle<T>(p: Promise<T>): Promise<T> {
    let settled = false;
    const mark = () => void (settled = true);
    p.then(mark, mark);
    await null;
    while (!settled) {
      await this.opts.nextTurn();
      if (!settled && this.opts.activeHandles() === 0) {
        await this.opts.nextTurn(); // one more turn: a message or a just-resolved chain may still land
        if (!settled && this.opts.activeHandles() === 0) throw new LoopResolved(LOOP_RESOLVED);
      }
    }
    return p;
  }

  /** An error thrown outside any test's own call chain (a timer callback): fail the running test. */
  uncaught(e: unknown): boolean {
    const t = this.runningTest;
    if (!t) return false;
    t.abort(e);
    t.subQueue = t.subQueue.then(() => Promise.reject(e));
    return true;
  }
}
