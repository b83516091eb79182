// Deep equality as node:assert decides it (after Node's lib/internal/util/comparisons.js, MIT): strict
// (deepStrictEqual: Object.is, same prototypes, own enumerable keys and symbols, holes matter) and
// loose (deepEqual: == for primitives, prototypes ignored). Maps and Sets match object keys by deep
// equality; cycles compare equal when they recur in step. Core code: no DOM, no Node.

type Obj = Record<PropertyKey, unknown>;
const hasOwn = (o: object, k: PropertyKey) => Object.prototype.hasOwnProperty.call(o, k);
const isEnumerable = (o: object, k: PropertyKey) => Object.prototype.propertyIsEnumerable.call(o, k);
const tagOf = (v: object) => Object.prototype.toString.call(v);
const isIndex = (k: string) => /^(0|[1-9][0-9]*)$/.test(k) && Number(k) < 2 ** 32 - 1;
const BOXED = new Set(['[object Number]', '[object String]', '[object Boolean]', '[object BigInt]', '[object Symbol]']);

/** Pairs under comparison, so a cycle met again in step counts as equal. */
type Memo = Map<object, Set<object>>;

export function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  return inner(a, b, true, new Map());
}

export function isDeepLooseEqual(a: unknown, b: unknown): boolean {
  return inner(a, b, false, new Map());
}

function inner(a: unknown, b: unknown, strict: boolean, memo: Memo): boolean {
  if (a === b) return a !== 0 || !strict || Object.is(a, b);
  if (strict) {
    if (typeof a !== 'object') return typeof a === 'number' && Number.isNaN(a) && Number.isNaN(b);
    if (typeof b !== 'object' || a === null || b === null) return false;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  } else {
    if (a === null || typeof a !== 'object') {
      // eslint-disable-next-line eqeqeq
      if (b === null || typeof b !== 'object') return a == b || (Number.isNaN(a) && Number.isNaN(b));
      return false;
    }
    if (b === null || typeof b !== 'object') return false;
  }
  const A = a as object;
  const B = b as object;
  const tag = tagOf(A);
  if (tag !== tagOf(B)) return false;

  if (Array.isArray(A)) {
    if (!Array.isArray(B) || A.length !== B.length) return false;
    const ka = extraKeys(A, strict);
    if (ka.length !== extraKeys(B, strict).length) return false;
    return keyCheck(A, B, strict, memo, 'array', ka);
  }
  if (tag === '[object Object]') return keyCheck(A, B, strict, memo, 'none');
  if (A instanceof Date) {
    if (!(B instanceof Date) || A.getTime() !== B.getTime()) return false;
  } else if (A instanceof RegExp) {
    if (!(B instanceof RegExp) || A.source !== B.source || A.flags !== B.flags || A.lastIndex !== B.lastIndex) return false;
  } else if (A instanceof Error) {
    if (!(B instanceof Error) || A.message !== B.message || A.name !== B.name) return false;
  } else if (ArrayBuffer.isView(A)) {
    if (!ArrayBuffer.isView(B) || A.byteLength !== B.byteLength) return false;
    const x = new Uint8Array(A.buffer, A.byteOffset, A.byteLength);
    const y = new Uint8Array(B.buffer, B.byteOffset, B.byteLength);
    if (!strict && (tag === '[object Float32Array]' || tag === '[object Float64Array]')) {
      const fa = A as unknown as ArrayLike<number>;
      const fb = B as unknown as ArrayLike<number>;
      for (let i = 0; i < fa.length; i++) if (fa[i] !== fb[i]) return false;
    } else {
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    }
    const ka = extraKeys(A, strict);
    if (ka.length !== extraKeys(B, strict).length) return false;
    return keyCheck(A, B, strict, memo, 'none', ka);
  } else if (A instanceof Set) {
    if (!(B instanceof Set) || A.size !== B.size) return false;
    return keyCheck(A, B, strict, memo, 'set');
  } else if (A instanceof Map) {
    if (!(B instanceof Map) || A.size !== B.size) return false;
    return keyCheck(A, B, strict, memo, 'map');
  } else if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') {
    const x = new Uint8Array(A as ArrayBuffer);
    const y = new Uint8Array(B as ArrayBuffer);
    if (x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
  } else if (BOXED.has(tag)) {
    if (!Object.is((A as { valueOf(): unknown }).valueOf(), (B as { valueOf(): unknown }).valueOf())) return false;
  } else if (Array.isArray(B) || ArrayBuffer.isView(B) || B instanceof Set || B instanceof Map || B instanceof Date || B instanceof RegExp || B instanceof Error) {
    return false;
  }
  return keyCheck(A, B, strict, memo, 'none');
}

/** Own enumerable keys that are not array indices (and, strict, enumerable symbols). */
function extraKeys(o: object, strict: boolean): PropertyKey[] {
  const keys: PropertyKey[] = Object.keys(o).filter((k) => !isIndex(k));
  if (strict) keys.push(...Object.getOwnPropertySymbols(o).filter((s) => isEnumerable(o, s)));
  return keys;
}

type Kind = 'none' | 'array' | 'set' | 'map';

function keyCheck(a: object, b: object, strict: boolean, memo: Memo, kind: Kind, aKeys?: PropertyKey[]): boolean {
  if (aKeys === undefined) {
    aKeys = Object.keys(a);
    if (aKeys.length !== Object.keys(b).length) return false;
    if (strict) {
      const sa = Object.getOwnPropertySymbols(a).filter((s) => isEnumerable(a, s));
      const sb = Object.getOwnPropertySymbols(b).filter((s) => isEnumerable(b, s));
      if (sa.length !== sb.length) return false;
      aKeys.push(...sa);
    }
  }
  for (const k of aKeys) if (!isEnumerable(b, k)) return false;

  // Cycles: a pair already being compared is taken as equal (it is decided by the outer comparison).
  let seen = memo.get(a);
  if (seen?.has(b)) return true;
  if (!seen) memo.set(a, (seen = new Set()));
  seen.add(b);
  try {
    if (kind === 'set' && !setEquiv(a as Set<unknown>, b as Set<unknown>, strict, memo)) return false;
    if (kind === 'map' && !mapEquiv(a as Map<unknown, unknown>, b as Map<unknown, unknown>, strict, memo)) return false;
    if (kind === 'array') {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let i = 0; i < x.length; i++) {
        const inA = hasOwn(x, i);
        const inB = hasOwn(y, i);
        if (inA !== inB && strict) return false;
        if (!inner(x[i], y[i], strict, memo)) return false;
      }
    }
    for (const k of aKeys) if (!inner((a as Obj)[k], (b as Obj)[k], strict, memo)) return false;
    return true;
  } finally {
    seen.delete(b);
  }
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

function takeEqual(pool: Set<unknown>, v: unknown, strict: boolean, memo: Memo): boolean {
  for (const w of pool) {
    if (inner(v, w, strict, memo)) {
      pool.delete(w);
      return true;
    }
  }
  return false;
}

function setEquiv(a: Set<unknown>, b: Set<unknown>, strict: boolean, memo: Memo): boolean {
  let pool: Set<unknown> | null = null;
  for (const v of a) {
    if (isObject(v)) (pool ??= new Set()).add(v);
    else if (!b.has(v)) {
      if (strict) return false;
      (pool ??= new Set()).add(v);
    }
  }
  if (pool === null) return true;
  for (const v of b) {
    if (isObject(v) || (!strict && !a.has(v))) {
      if (!takeEqual(pool, v, strict, memo)) return false;
    }
  }
  return pool.size === 0;
}

function mapEquiv(a: Map<unknown, unknown>, b: Map<unknown, unknown>, strict: boolean, memo: Memo): boolean {
  let pool: Set<unknown> | null = null;
  for (const [k, v] of a) {
    if (isObject(k)) (pool ??= new Set()).add(k);
    else if (!b.has(k) || !inner(v, b.get(k), strict, memo)) {
      if (strict) return false;
      (pool ??= new Set()).add(k);
    }
  }
  if (pool === null) return true;
  for (const [k, v] of b) {
    if (isObject(k) || (!strict && (!a.has(k) || !inner(a.get(k), v, strict, memo)))) {
      let found = false;
      for (const k2 of pool) {
        if (inner(k, k2, strict, memo) && inner(v, a.get(k2), strict, memo)) {
          pool.delete(k2);
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
  }
  return pool.size === 0;
}
