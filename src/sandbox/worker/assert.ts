// The node:assert and node:assert/strict surface for the worker sandbox (after Node 20's lib/assert.js,
// MIT): the equality checks, throws/rejects with a class, RegExp, validation object or function,
// match, ifError, fail, and ok quoting the source of the failing call. Messages: assertion-error.ts.
// Core code: no DOM, no Node.
import { AssertionError, captureStack, isObj, type AssertionErrorOptions } from './assertion-error.ts';
import { isDeepLooseEqual, isDeepStrictEqual } from './deep-equal.ts';
import { inspect } from './inspect.ts';

export { AssertionError };

type Fn = (...a: never[]) => unknown;
type Obj = Record<PropertyKey, unknown>;

function typeError(code: string, message: string): TypeError {
  const e = new TypeError(message);
  (e as TypeError & { code: string }).code = code;
  return e;
}

/** Node's ERR_INVALID_ARG_TYPE text: 'The "fn" argument must be of type function. Received type number (5)'. */
function invalidArgType(name: string, expected: string, actual: unknown): TypeError {
  let received: string;
  if (actual == null) received = ` Received ${actual}`;
  else if (typeof actual === 'function') received = ` Received function ${(actual as { name?: string }).name || '(anonymous)'}`;
  else if (typeof actual === 'object') received = ` Received ${(actual as object).constructor?.name ? `an instance of ${(actual as object).constructor.name}` : inspect(actual, { depth: -1 })}`;
  else {
    let shown = inspect(actual);
    if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
    received = ` Received type ${typeof actual} (${shown})`;
  }
  return typeError('ERR_INVALID_ARG_TYPE', `The "${name}" argument must be ${expected}.${received}`);
}

function innerFail(obj: AssertionErrorOptions): never {
  if (obj.message instanceof Error) throw obj.message;
  throw new AssertionError(obj);
}

/**
 * How the running module finds the source text of `assert.ok(…)` at a stack location; set by the
 * runner (which knows the module URLs). Returns the call expression's text, or undefined.
 */
let callSiteSource: ((url: string, line: number, column: number) => string | undefined) | undefined;
export function setCallSiteSource(fn: typeof callSiteSource): void {
  callSiteSource = fn;
}

function okMessage(fn: Fn): string | undefined {
  const probe: { stack?: string } = {};
  captureStack(probe, fn);
  const frame = probe.stack?.split('\n').find((l) => /^\s+at /.test(l));
  const m = frame && /\(?([a-z][\w+.-]*:[^\s]*?):(\d+):(\d+)\)?$/.exec(frame.trim());
  if (!m || !callSiteSource) return undefined;
  const code = callSiteSource(m[1]!, Number(m[2]) - 1, Number(m[3]) - 1);
  return code === undefined ? undefined : `The expression evaluated to a falsy value:\n\n  ${code}\n`;
}

function innerOk(fn: Fn, argLen: number, value: unknown, message?: unknown): void {
  if (value) return;
  let generated = false;
  if (argLen === 0) {
    generated = true;
    message = 'No value argument passed to `assert.ok()`';
  } else if (message == null) {
    generated = true;
    message = okMessage(fn);
  } else if (message instanceof Error) throw message;
  const err = new AssertionError({ actual: value, expected: true, message, operator: '==', stackStartFn: fn });
  err.generatedMessage = generated;
  throw err;
}

const NO_EXCEPTION = Symbol('no exception');
const isRegExp = (v: unknown): v is RegExp => v instanceof RegExp;
const isError = (v: unknown): v is Error => v instanceof Error || Object.prototype.toString.call(v) === '[object Error]';

class Comparison {
  constructor(obj: Obj, keys: string[], actual?: Obj) {
    for (const key of keys) {
      if (!(key in obj)) continue;
      const useActual = actual !== undefined && typeof actual[key] === 'string' && isRegExp(obj[key]) && (obj[key] as RegExp).exec(actual[key] as string) !== null;
      (this as unknown as Obj)[key] = useActual ? actual![key] : obj[key];
    }
  }
}

function expectedException(actual: unknown, expected: unknown, message: unknown, fn: Fn): void {
  let generated = false;
  let throwError = false;
  if (typeof expected !== 'function') {
    if (isRegExp(expected)) {
      const str = String(actual);
      if (expected.exec(str) !== null) return;
      if (!message) {
        generated = true;
        message = `The input did not match the regular expression ${inspect(expected)}. Input:\n\n${inspect(str)}\n`;
      }
      throwError = true;
    } else if (typeof actual !== 'object' || actual === null) {
      const err = new AssertionError({ actual, expected, message, operator: 'deepStrictEqual', stackStartFn: fn });
      err.operator = fn.name;
      throw err;
    } else {
      const exp = expected as Obj;
      const keys = Object.keys(exp);
      if (expected instanceof Error) keys.push('name', 'message');
      else if (keys.length === 0) throw typeError('ERR_INVALID_ARG_VALUE', `The argument 'error' may not be an empty object. Received ${inspect(expected)}`);
      const act = actual as Obj;
      for (const key of keys) {
        if (typeof act[key] === 'string' && isRegExp(exp[key]) && (exp[key] as RegExp).exec(act[key] as string) !== null) continue;
        if (!(key in act) || !isDeepStrictEqual(act[key], exp[key])) {
          if (!message) {
            const err = new AssertionError({ actual: new Comparison(act, keys), expected: new Comparison(exp, keys, act), operator: 'deepStrictEqual', stackStartFn: fn });
            err.actual = actual;
            err.expected = expected;
            err.operator = fn.name;
            throw err;
          }
          innerFail({ actual, expected, message, operator: fn.name, stackStartFn: fn });
        }
      }
      return;
    }
  } else if (expected.prototype !== undefined && actual instanceof (expected as new () => unknown)) {
    return;
  } else if (Object.prototype.isPrototypeOf.call(Error, expected)) {
    if (!message) {
      generated = true;
      message = `The error is expected to be an instance of "${expected.name}". Received `;
      if (isError(actual)) {
        const name = actual.constructor?.name || actual.name;
        message += expected.name === name ? 'an error with identical name but a different prototype.' : `"${name}"`;
        if (actual.message) message += `\n\nError message:\n\n${actual.message}`;
      } else message += `"${inspect(actual, { depth: -1 })}"`;
    }
    throwError = true;
  } else {
    const res = (expected as (e: unknown) => unknown).call({}, actual);
    if (res !== true) {
      if (!message) {
        generated = true;
        const name = expected.name ? `"${expected.name}" ` : '';
        message = `The ${name}validation function is expected to return "true". Received ${inspect(res)}`;
        if (isError(actual)) message += `\n\nCaught error:\n\n${actual}`;
      }
      throwError = true;
    }
  }
  if (throwError) {
    const err = new AssertionError({ actual, expected, message, operator: fn.name, stackStartFn: fn });
    err.generatedMessage = generated;
    throw err;
  }
}

function expectsError(fn: Fn, actual: unknown, args: unknown[]): void {
  let [error, message] = args;
  if (typeof error === 'string') {
    if (args.length === 2) throw invalidArgType('error', 'of type function or an instance of Error, RegExp, or Object', error);
    if ((typeof actual === 'object' && actual !== null && (actual as Obj).message === error) || actual === error) {
      throw typeError('ERR_AMBIGUOUS_ARGUMENT', `The "error/message" argument is ambiguous. The error ${typeof actual === 'object' ? 'message ' : ''}"${error}" is identical to the message.`);
    }
    message = error;
    error = undefined;
  } else if (error != null && typeof error !== 'object' && typeof error !== 'function') {
    throw invalidArgType('error', 'of type function or an instance of Error, RegExp, or Object', error);
  }
  if (actual === NO_EXCEPTION) {
    let details = '';
    const name = (error as { name?: unknown } | undefined)?.name;
    if (error && name) details += ` (${String(name)})`;
    details += message ? `: ${String(message)}` : '.';
    const kind = fn.name === 'rejects' ? 'rejection' : 'exception';
    innerFail({ actual: undefined, expected: error, operator: fn.name, message: `Missing expected ${kind}${details}`, stackStartFn: fn });
  }
  if (error) expectedException(actual, error, message, fn);
}

function expectsNoError(fn: Fn, actual: unknown, args: unknown[]): void {
  if (actual === NO_EXCEPTION) return;
  let [error, message] = args;
  if (typeof error === 'string') {
    message = error;
    error = undefined;
  }
  const matches = () => {
    if (typeof error !== 'function') {
      if (isRegExp(error)) return error.exec(String(actual)) !== null;
      throw invalidArgType('expected', 'of type function or an instance of RegExp', error);
    }
    if (error.prototype !== undefined && actual instanceof (error as new () => unknown)) return true;
    if (Object.prototype.isPrototypeOf.call(Error, error)) return false;
    return (error as (e: unknown) => unknown).call({}, actual) === true;
  };
  if (!error || matches()) {
    const details = message ? `: ${String(message)}` : '.';
    const kind = fn.name === 'doesNotReject' ? 'rejection' : 'exception';
    innerFail({ actual, expected: error, operator: fn.name, message: `Got unwanted ${kind}${details}\nActual message: "${(actual as Error | undefined)?.message}"`, stackStartFn: fn });
  }
  throw actual;
}

function getActual(fn: unknown): unknown {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
  try {
    (fn as () => unknown)();
  } catch (e) {
    return e;
  }
  return NO_EXCEPTION;
}

async function waitForActual(promiseFn: unknown): Promise<unknown> {
  let p: unknown;
  if (typeof promiseFn === 'function') {
    p = (promiseFn as () => unknown)();
    if (!(p instanceof Promise) && !(isObj(p) && typeof (p as { then?: unknown }).then === 'function')) {
      throw typeError('ERR_INVALID_RETURN_VALUE', `Expected instance of Promise to be returned from the "promiseFn" function but got ${isObj(p) ? `an instance of ${(p as object).constructor?.name}` : `type ${typeof p}`}.`);
    }
  } else if (promiseFn instanceof Promise) p = promiseFn;
  else throw invalidArgType('promiseFn', 'of type function or an instance of Promise', promiseFn);
  try {
    await p;
  } catch (e) {
    return e;
  }
  return NO_EXCEPTION;
}

function internalMatch(str: unknown, regexp: unknown, message: unknown, fn: Fn): void {
  if (!isRegExp(regexp)) throw invalidArgType('regexp', 'an instance of RegExp', regexp);
  const match = fn.name === 'match';
  if (typeof str !== 'string' || (regexp.exec(str) !== null) !== match) {
    if (message instanceof Error) throw message;
    const generated = !message;
    message ||=
      typeof str !== 'string'
        ? `The "string" argument must be of type string. Received type ${typeof str} (${inspect(str)})`
        : `${match ? 'The input did not match the regular expression ' : 'The input was expected to not match the regular expression '}${inspect(regexp)}. Input:\n\n${inspect(str)}\n`;
    const err = new AssertionError({ actual: str, expected: regexp, message, operator: fn.name, stackStartFn: fn });
    err.generatedMessage = generated;
    throw err;
  }
}

function missingArgs(n: number): void {
  if (n < 2) throw typeError('ERR_MISSING_ARGS', 'The "actual" and "expected" arguments must be specified');
}

/** Builds node:assert (legacy: == and loose deepEqual) with `.strict`, node:assert/strict's export. */
export function createAssert(): { legacy: Fn & Obj; strict: Fn & Obj } {
  const m = {
    fail(this: unknown, ...args: unknown[]): never {
      let [actual, expected, message, operator] = args;
      let internal = false;
      if (actual == null && args.length <= 1) {
        internal = true;
        message = 'Failed';
      } else if (args.length === 1) {
        message = actual;
        actual = undefined;
      } else if (args.length === 2) operator = '!=';
      if (message instanceof Error) throw message;
      const err = new AssertionError({ actual, expected, operator: operator === undefined ? 'fail' : String(operator), stackStartFn: m.fail, message });
      if (internal) err.generatedMessage = true;
      throw err;
    },
    ok(...args: unknown[]) {
      innerOk(m.ok, args.length, args[0], args[1]);
    },
    equal(...args: unknown[]) {
      missingArgs(args.length);
      const [a, e, message] = args;
      // eslint-disable-next-line eqeqeq
      if (a != e && (!Number.isNaN(a) || !Number.isNaN(e))) innerFail({ actual: a, expected: e, message, operator: '==', stackStartFn: m.equal });
    },
    notEqual(...args: unknown[]) {
      missingArgs(args.length);
      const [a, e, message] = args;
      // eslint-disable-next-line eqeqeq
      if (a == e || (Number.isNaN(a) && Number.isNaN(e))) innerFail({ actual: a, expected: e, message, operator: '!=', stackStartFn: m.notEqual });
    },
    deepEqual(...args: unknown[]) {
      missingArgs(args.length);
      if (!isDeepLooseEqual(args[0], args[1])) innerFail({ actual: args[0], expected: args[1], message: args[2], operator: 'deepEqual', stackStartFn: m.deepEqual });
    },
    notDeepEqual(...args: unknown[]) {
      missingArgs(args.length);
      if (isDeepLooseEqual(args[0], args[1])) innerFail({ actual: args[0], expected: args[1], message: args[2], operator: 'notDeepEqual', stackStartFn: m.notDeepEqual });
    },
    deepStrictEqual(...args: unknown[]) {
      missingArgs(args.length);
      if (!isDeepStrictEqual(args[0], args[1])) innerFail({ actual: args[0], expected: args[1], message: args[2], operator: 'deepStrictEqual', stackStartFn: m.deepStrictEqual });
    },
    notDeepStrictEqual(...args: unknown[]) {
      missingArgs(args.length);
      if (isDeepStrictEqual(args[0], args[1])) innerFail({ actual: args[0], expected: args[1], message: args[2], operator: 'notDeepStrictEqual', stackStartFn: m.notDeepStrictEqual });
    },
    strictEqual(...args: unknown[]) {
      missingArgs(args.length);
      if (!Object.is(args[0], args[1])) innerFail({ actual: args[0], expected: args[1], message: args[2], operator: 'strictEqual', stackStartFn: m.strictEqual });
    },
    notStrictEqual(...args: unknown[]) {
      missingArgs(args.length);
      if (Object.is(args[0], args[1])) innerFail({ actual: args[0], expected: args[1], message: args[2], operator: 'notStrictEqual', stackStartFn: m.notStrictEqual });
    },
    throws(fn: unknown, ...args: unknown[]) {
      expectsError(m.throws, getActual(fn), args);
    },
    async rejects(fn: unknown, ...args: unknown[]) {
      expectsError(m.rejects, await waitForActual(fn), args);
    },
    doesNotThrow(fn: unknown, ...args: unknown[]) {
      expectsNoError(m.doesNotThrow, getActual(fn), args);
    },
    async doesNotReject(fn: unknown, ...args: unknown[]) {
      expectsNoError(m.doesNotReject, await waitForActual(fn), args);
    },
    ifError(err: unknown) {
      if (err === null || err === undefined) return;
      let message = 'ifError got unwanted exception: ';
      if (typeof err === 'object' && typeof (err as Error).message === 'string') {
        message += (err as Error).message.length === 0 && (err as object).constructor ? (err as object).constructor.name : (err as Error).message;
      } else message += inspect(err);
      throw new AssertionError({ actual: err, expected: null, operator: 'ifError', message, stackStartFn: m.ifError });
    },
    match(str: unknown, regexp: unknown, message?: unknown) {
      internalMatch(str, regexp, message, m.match);
    },
    doesNotMatch(str: unknown, regexp: unknown, message?: unknown) {
      internalMatch(str, regexp, message, m.doesNotMatch);
    },
  };
  const legacy = Object.assign((...args: unknown[]) => innerOk(legacy, args.length, args[0], args[1]), m, { AssertionError });
  const strict = Object.assign((...args: unknown[]) => innerOk(strict, args.length, args[0], args[1]), m, {
    AssertionError,
    equal: m.strictEqual,
    notEqual: m.notStrictEqual,
    deepEqual: m.deepStrictEqual,
    notDeepEqual: m.notDeepStrictEqual,
  });
  Object.assign(legacy, { strict });
  Object.assign(strict, { strict });
  return { legacy: legacy as unknown as Fn & Obj, strict: strict as unknown as Fn & Obj };
}

/** The classes of this module a run can reach (an assertion error it caught, its `actual`): one per runner, not
 *  per run, so the realm check records them too (realm.ts snapshot). */
export const ASSERT_CLASSES: readonly object[] = [AssertionError, Comparison];
