// util.inspect and util.format as Node 20 print them, for the worker sandbox's console and assertion
// messages: the same algorithm (after Node's lib/internal/util/inspect.js, MIT) for the values tests
// meet — primitives, arrays (holes, extra keys), plain and class objects, Map, Set, Date, RegExp,
// errors, functions, boxed primitives, typed arrays, circular references. Core code: no DOM, no Node.
// util.format, which uses it, is in format.ts.

export interface InspectOptions {
  depth: number;
  /** false: every entry on its own line (assert); a number: up to that many inner levels on one line. */
  compact: number | false;
  breakLength: number;
  sorted: boolean;
  getters: boolean;
  maxArrayLength: number;
  maxStringLength: number;
  customInspect: boolean;
}

/** console.log's options (Node's defaults). */
export const CONSOLE_OPTIONS: Readonly<InspectOptions> = Object.freeze({
  depth: 2, compact: 3, breakLength: 80, sorted: false, getters: false, maxArrayLength: 100, maxStringLength: 10_000, customInspect: true,
});
/** The options assert's messages use (Node's assertion_error.js inspectValue). */
export const ASSERT_OPTIONS: Readonly<InspectOptions> = Object.freeze({
  depth: 1000, compact: false, breakLength: 80, sorted: true, getters: true, maxArrayLength: Infinity, maxStringLength: 10_000, customInspect: false,
});

interface Ctx extends InspectOptions {
  seen: object[];
  indentationLvl: number;
  currentDepth: number;
  circular?: Map<object, number>;
}

type Obj = Record<PropertyKey, unknown>;
const ARRAY = 0; // element of an array: value only
const OBJECT = 1; // property: `key: value`
const ARRAY_EXTRAS = 2; // extra keys of an array-like

const CUSTOM = Symbol.for('nodejs.util.inspect.custom');
const keyStr = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
const escapeAll = /[\x00-\x1f\x27\x5c\x7f-\x9f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const escapeNoQuote = /[\x00-\x1f\x5c\x7f-\x9f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NAMED: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r', 39: "\\'", 92: '\\\\' };
const escapeChar = (c: string) => {
  const code = c.charCodeAt(0);
  if (NAMED[code]) return NAMED[code]!;
  if (code >= 0xd800 && code <= 0xdfff) return `\\u${code.toString(16).toUpperCase()}`;
  return `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`;
};

/** A string in quotes as Node shows it: '…' unless it holds ' (then "…", or `…` if it holds " too). */
export function strEscape(str: string): string {
  let quote = "'";
  let re = escapeAll;
  if (str.includes("'")) {
    if (!str.includes('"')) quote = '"';
    else if (!str.includes('`') && !str.includes('${')) quote = '`';
    if (quote !== "'") re = escapeNoQuote;
  }
  re.lastIndex = 0;
  return quote + str.replace(re, escapeChar) + quote;
}

/** A number as Node prints it (-0 kept). */
export const formatNumber = (n: number) => (Object.is(n, -0) ? '-0' : `${n}`);

function formatPrimitive(ctx: Ctx, value: unknown): string {
  if (typeof value === 'string') {
    let trailer = '';
    if (value.length > ctx.maxStringLength) {
      const remaining = value.length - ctx.maxStringLength;
      value = value.slice(0, ctx.maxStringLength);
      trailer = `... ${remaining} more character${remaining > 1 ? 's' : ''}`;
    }
    const s = value as string;
    if (s.length > 16 && s.length > ctx.breakLength - ctx.indentationLvl - 4) {
      return s.split(/(?<=\n)/).map(strEscape).join(` +\n${' '.repeat(ctx.indentationLvl + 2)}`) + trailer;
    }
    return strEscape(s) + trailer;
  }
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol') return value.toString().replace(escapeNoQuote, escapeChar);
  return String(value);
}

/** The name of the first constructor on the prototype chain, or null for a null-prototype object. */
function constructorName(obj: object): string | null {
  let o: object | null = obj;
  while (o !== null) {
    const d = Object.getOwnPropertyDescriptor(o, 'constructor');
    if (d && typeof d.value === 'function' && d.value.name !== '' && obj instanceof d.value) return d.value.name as string;
    o = Object.getPrototypeOf(o) as object | null;
  }
  return null;
}

function prefix(constructor: string | null, tag: string, fallback: string, size = ''): string {
  if (constructor === null) {
    if (tag !== '' && fallback !== tag) return `[${fallback}${size}: null prototype] [${tag}] `;
    return `[${fallback}${size}: null prototype] `;
  }
  if (tag !== '' && constructor !== tag) return `${constructor}${size} [${tag}] `;
  return `${constructor}${size} `;
}

const ownKeys = (v: object): PropertyKey[] => [
  ...Object.keys(v),
  ...Object.getOwnPropertySymbols(v).filter((s) => Object.prototype.propertyIsEnumerable.call(v, s)),
];
const isIndex = (k: PropertyKey) => typeof k === 'string' && /^(0|[1-9][0-9]*)$/.test(k) && Number(k) < 2 ** 32 - 1;
const tagOf = (v: object) => Object.prototype.toString.call(v).slice(8, -1);
const TYPED = new Set(['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']);

function formatValue(ctx: Ctx, value: unknown, recurseTimes: number, typedArray = false): string {
  if (typeof value !== 'object' && typeof value !== 'function') return formatPrimitive(ctx, value);
  if (value === null) return 'null';
  if (ctx.customInspect) {
    const custom = (value as Obj)[CUSTOM];
    if (typeof custom === 'function') {
      const ret = custom.call(value, ctx.depth - recurseTimes, { ...ctx }, inspect);
      if (ret !== value) return typeof ret === 'string' ? ret : formatValue(ctx, ret, recurseTimes);
    }
  }
  if (ctx.seen.includes(value)) {
    let index = 1;
    if (ctx.circular === undefined) {
      ctx.circular = new Map([[value, index]]);
    } else {
      index = ctx.circular.get(value) ?? ctx.circular.size + 1;
      ctx.circular.set(value, index);
    }
    return `[Circular *${index}]`;
  }
  return formatRaw(ctx, value, recurseTimes, typedArray);
}

function formatRaw(ctx: Ctx, value: object, recurseTimes: number, typedArray: boolean): string {
  let keys: PropertyKey[] = [];
  const constructor = constructorName(value);
  let tag = (value as Obj)[Symbol.toStringTag];
  if (typeof tag !== 'string' || (tag !== '' && Object.prototype.propertyIsEnumerable.call(value, Symbol.toStringTag))) tag = '';
  const t = tag as string;
  let base = '';
  let formatter: (ctx: Ctx, v: never, r: number) => string[] = () => [];
  let braces: [string, string] = ['{', '}'];
  let extrasType = OBJECT;
  const internal = tagOf(value);

  if (Array.isArray(value)) {
    keys = ownKeys(value).filter((k) => !isIndex(k));
    const p = constructor !== 'Array' || t !== '' ? prefix(constructor, t, 'Array', `(${value.length})`) : '';
    braces = [`${p}[`, ']'];
    if (value.length === 0 && keys.length === 0) return `${braces[0]}]`;
    extrasType = ARRAY_EXTRAS;
    formatter = formatArray as typeof formatter;
  } else if (value instanceof Set) {
    keys = ownKeys(value);
    const p = prefix(constructor, t, 'Set', `(${value.size})`);
    if (value.size === 0 && keys.length === 0) return `${p}{}`;
    braces = [`${p}{`, '}'];
    formatter = formatSet as typeof formatter;
  } else if (value instanceof Map) {
    keys = ownKeys(value);
    const p = prefix(constructor, t, 'Map', `(${value.size})`);
    if (value.size === 0 && keys.length === 0) return `${p}{}`;
    braces = [`${p}{`, '}'];
    formatter = formatMap as typeof formatter;
  } else if (ArrayBuffer.isView(value) && TYPED.has(internal)) {
    const arr = value as unknown as ArrayLike<number | bigint>;
    keys = ownKeys(value).filter((k) => !isIndex(k));
    const p = prefix(constructor, t, internal, `(${arr.length})`);
    braces = [`${p}[`, ']'];
    if (arr.length === 0 && keys.length === 0) return `${braces[0]}]`;
    formatter = formatTypedArray as typeof formatter;
    extrasType = ARRAY_EXTRAS;
  } else {
    keys = ownKeys(value);
    if (constructor === 'Object' && internal === 'Object') {
      if (t !== '') braces[0] = `${prefix(constructor, t, 'Object')}{`;
      if (keys.length === 0) return `${braces[0]}}`;
    } else if (typeof value === 'function') {
      base = functionBase(value, constructor, t);
      if (keys.length === 0) return base;
    } else if (value instanceof RegExp) {
      base = RegExp.prototype.toString.call(value);
      const p = prefix(constructor, t, 'RegExp');
      if (p !== 'RegExp ') base = `${p}${base}`;
      if (keys.length === 0) return base;
    } else if (value instanceof Date) {
      base = Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
      const p = prefix(constructor, t, 'Date');
      if (p !== 'Date ') base = `${p}${base}`;
      if (keys.length === 0) return base;
    } else if (value instanceof Error) {
      keys = keys.filter((k) => !(k === 'name' || k === 'message' || k === 'stack') || !String(errorStack(value)).includes(String((value as unknown as Obj)[k])));
      if (Object.prototype.hasOwnProperty.call(value, 'cause') && !keys.includes('cause')) keys.push('cause');
      base = formatError(ctx, value, constructor);
      if (keys.length === 0) return base;
    } else if (internal === 'Number' || internal === 'String' || internal === 'Boolean' || internal === 'BigInt' || internal === 'Symbol') {
      const prim = (value as { valueOf(): unknown }).valueOf();
      if (internal === 'String') keys = keys.filter((k) => !isIndex(k));
      base = `[${internal}${constructor === internal ? '' : constructor === null ? ' (null prototype)' : ` (${constructor})`}: ${formatPrimitive({ ...ctx, compact: 3 }, prim)}]`;
      if (keys.length === 0) return base;
    } else if (internal === 'Promise' || internal === 'WeakMap' || internal === 'WeakSet') {
      // A promise's state and a weak collection's items cannot be read from JavaScript.
      braces[0] = `${prefix(constructor, t, internal)}{`;
      formatter = () => [internal === 'Promise' ? '<unknown>' : '<items unknown>'];
    } else if (internal === 'ArrayBuffer' || internal === 'SharedArrayBuffer') {
      const bytes = [...new Uint8Array(value as ArrayBuffer)].map((b) => b.toString(16).padStart(2, '0'));
      const shown = bytes.slice(0, ctx.maxArrayLength).join(' ') + (bytes.length > ctx.maxArrayLength ? ` ... ${bytes.length - ctx.maxArrayLength} more byte${bytes.length - ctx.maxArrayLength > 1 ? 's' : ''}` : '');
      braces[0] = `${prefix(constructor, t, internal)}{`;
      formatter = () => [`[Uint8Contents]: <${shown}>`, `byteLength: ${(value as ArrayBuffer).byteLength}`];
    } else {
      const style = prefix(constructor, t, internal === 'Object' ? 'Object' : internal);
      if (keys.length === 0) return `${style}{}`;
      braces[0] = `${style}{`;
    }
  }

  if (recurseTimes > ctx.depth) {
    const name = prefix(constructor, t, internal === 'Array' ? 'Array' : 'Object').slice(0, -1);
    return constructor !== null ? `[${name}]` : name;
  }
  recurseTimes += 1;
  ctx.seen.push(value);
  ctx.currentDepth = recurseTimes;
  let output = formatter(ctx, value as never, recurseTimes);
  for (const k of keys) output.push(formatProperty(ctx, value, recurseTimes, k, extrasType));
  const ref = ctx.circular?.get(value);
  if (ref !== undefined) base = base === '' ? `<ref *${ref}>` : `<ref *${ref}> ${base}`;
  ctx.seen.pop();
  if (ctx.sorted) {
    if (extrasType === OBJECT) output = output.sort();
    else if (keys.length > 1) output.splice(output.length - keys.length, keys.length, ...output.slice(output.length - keys.length).sort());
  }
  void typedArray;
  return reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
}

function functionBase(fn: object, constructor: string | null, tag: string): string {
  const src = Function.prototype.toString.call(fn);
  const name = (fn as { name?: unknown }).name;
  if (src.startsWith('class') && /^class(\s|{)/.test(src)) {
    let base = `[class ${typeof name === 'string' && name !== '' ? name : '(anonymous)'}`;
    const sup = Object.getPrototypeOf(fn) as { name?: string } | null;
    if (sup && sup !== Function.prototype && sup.name) base += ` extends ${sup.name}`;
    return `${base}]`;
  }
  let type = 'Function';
  const internal = tagOf(fn);
  if (internal === 'GeneratorFunction') type = 'GeneratorFunction';
  if (internal === 'AsyncFunction') type = 'AsyncFunction';
  if (internal === 'AsyncGeneratorFunction') type = 'AsyncGeneratorFunction';
  let base = `[${type}${constructor === null ? ' (null prototype)' : ''}${typeof name === 'string' && name !== '' ? `: ${name}` : ' (anonymous)'}]`;
  if (constructor !== type && constructor !== null) base += ` ${constructor}`;
  if (tag !== '' && constructor !== tag) base += ` [${tag}]`;
  return base;
}

const errorStack = (err: Error) => (typeof err.stack === 'string' && err.stack ? err.stack : Error.prototype.toString.call(err));

function formatError(ctx: Ctx, err: Error, constructor: string | null): string {
  let stack = errorStack(err);
  const name = typeof err.name === 'string' && err.name ? err.name : 'Error';
  // A subclass that kept the name "Error" is shown by its class name, as Node's improveStack does.
  if (constructor !== null && constructor !== name && name.endsWith('Error') && stack.startsWith(name) && constructor.includes(name)) {
    stack = `${constructor}${stack.slice(name.length)}`;
  } else if (constructor !== null && constructor !== name && name.endsWith('Error') && stack.startsWith(name)) {
    stack = `${constructor} [${name}]${stack.slice(name.length)}`;
  }
  const msg = typeof err.message === 'string' ? err.message : '';
  let pos = (msg && stack.indexOf(msg)) || -1;
  if (pos !== -1) pos += msg.length;
  if (stack.indexOf('\n    at', pos) === -1) stack = `[${stack}]`;
  if (ctx.indentationLvl !== 0) stack = stack.replace(/\n/g, `\n${' '.repeat(ctx.indentationLvl)}`);
  return stack;
}

function formatArray(ctx: Ctx, value: unknown[], recurseTimes: number): string[] {
  const len = Math.min(Math.max(0, ctx.maxArrayLength), value.length);
  const output: string[] = [];
  let i = 0;
  for (; i < len; i++) {
    if (!Object.prototype.hasOwnProperty.call(value, i)) break;
    output.push(formatProperty(ctx, value, recurseTimes, i, ARRAY));
  }
  if (i < len) {
    // Holes: runs of missing indices become "<n empty items>".
    let index = i;
    while (index < value.length && output.length < len) {
      let next = index;
      while (next < value.length && !Object.prototype.hasOwnProperty.call(value, next)) next++;
      if (next > index) {
        const n = next - index;
        output.push(`<${n} empty item${n > 1 ? 's' : ''}>`);
        index = next;
        continue;
      }
      output.push(formatProperty(ctx, value, recurseTimes, index, ARRAY));
      index++;
    }
    if (index < value.length) output.push(`... ${value.length - index} more item${value.length - index > 1 ? 's' : ''}`);
    return output;
  }
  const remaining = value.length - len;
  if (remaining > 0) output.push(`... ${remaining} more item${remaining > 1 ? 's' : ''}`);
  return output;
}

function formatTypedArray(ctx: Ctx, value: ArrayLike<number | bigint>, _r: number): string[] {
  const len = Math.min(Math.max(0, ctx.maxArrayLength), value.length);
  const output: string[] = [];
  for (let i = 0; i < len; i++) output.push(formatPrimitive(ctx, value[i]));
  if (value.length > len) output.push(`... ${value.length - len} more item${value.length - len > 1 ? 's' : ''}`);
  return output;
}

function formatSet(ctx: Ctx, value: Set<unknown>, recurseTimes: number): string[] {
  const max = Math.min(Math.max(0, ctx.maxArrayLength), value.size);
  const output: string[] = [];
  ctx.indentationLvl += 2;
  for (const v of value) {
    if (output.length >= max) break;
    output.push(formatValue(ctx, v, recurseTimes));
  }
  if (value.size > max) output.push(`... ${value.size - max} more item${value.size - max > 1 ? 's' : ''}`);
  ctx.indentationLvl -= 2;
  return output;
}

function formatMap(ctx: Ctx, value: Map<unknown, unknown>, recurseTimes: number): string[] {
  const max = Math.min(Math.max(0, ctx.maxArrayLength), value.size);
  const output: string[] = [];
  ctx.indentationLvl += 2;
  for (const [k, v] of value) {
    if (output.length >= max) break;
    output.push(`${formatValue(ctx, k, recurseTimes)} => ${formatValue(ctx, v, recurseTimes)}`);
  }
  if (value.size > max) output.push(`... ${value.size - max} more item${value.size - max > 1 ? 's' : ''}`);
  ctx.indentationLvl -= 2;
  return output;
}

function formatProperty(ctx: Ctx, value: object, recurseTimes: number, key: PropertyKey, type: number): string {
  let str: string;
  const desc = Object.getOwnPropertyDescriptor(value, key) ?? { value: (value as Obj)[key], enumerable: true };
  if (desc.value !== undefined) {
    ctx.indentationLvl += 2;
    str = formatValue(ctx, desc.value, recurseTimes);
    ctx.indentationLvl -= 2;
  } else if (desc.get !== undefined) {
    const label = desc.set !== undefined ? 'Getter/Setter' : 'Getter';
    if (ctx.getters) {
      try {
        const tmp: unknown = desc.get.call(value);
        ctx.indentationLvl += 2;
        if (tmp === null) str = `[${label}: null]`;
        else if (typeof tmp === 'object') str = `[${label}] ${formatValue(ctx, tmp, recurseTimes)}`;
        else str = `[${label}: ${formatPrimitive(ctx, tmp)}]`;
        ctx.indentationLvl -= 2;
      } catch (e) {
        str = `[${label}: <Inspection threw (${(e as Error)?.message})>]`;
      }
    } else str = `[${label}]`;
  } else if (desc.set !== undefined) str = '[Setter]';
  else str = 'undefined';
  if (type === ARRAY) return str;
  let name: string;
  if (typeof key === 'symbol') name = `[${key.toString().replace(escapeNoQuote, escapeChar)}]`;
  else if (key === '__proto__') name = "['__proto__']";
  else if (desc.enumerable === false) name = `[${String(key)}]`;
  else if (keyStr.test(String(key))) name = String(key);
  else name = strEscape(String(key));
  return `${name}: ${str}`;
}

function groupArrayElements(ctx: Ctx, output: string[], value: unknown): string[] {
  let totalLength = 0;
  let maxLength = 0;
  let outputLength = output.length;
  if (ctx.maxArrayLength < output.length) outputLength--; // the "... more items" entry
  const separatorSpace = 2;
  const dataLen: number[] = [];
  for (let i = 0; i < outputLength; i++) {
    const len = output[i]!.length;
    dataLen.push(len);
    totalLength += len + separatorSpace;
    if (maxLength < len) maxLength = len;
  }
  const actualMax = maxLength + separatorSpace;
  if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength && (totalLength / actualMax > 5 || maxLength <= 6)) {
    const averageBias = Math.sqrt(actualMax - totalLength / output.length);
    const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    const columns = Math.min(
      Math.round(Math.sqrt(2.5 * biasedMax * outputLength) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      (ctx.compact as number) * 4,
      15,
    );
    if (columns <= 1) return output;
    const maxLineLength: number[] = [];
    for (let i = 0; i < columns; i++) {
      let lineLength = 0;
      for (let j = i; j < output.length; j += columns) if (dataLen[j]! > lineLength) lineLength = dataLen[j]!;
      maxLineLength.push(lineLength + separatorSpace);
    }
    let padStart = true;
    if (Array.isArray(value)) {
      for (let i = 0; i < output.length; i++) {
        if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') {
          padStart = false;
          break;
        }
      }
    }
    const tmp: string[] = [];
    for (let i = 0; i < outputLength; i += columns) {
      const max = Math.min(i + columns, outputLength);
      let str = '';
      let j = i;
      for (; j < max - 1; j++) {
        const cell = `${output[j]}, `;
        str += padStart ? cell.padStart(maxLineLength[j - i]!, ' ') : cell.padEnd(maxLineLength[j - i]!, ' ');
      }
      str += padStart ? output[j]!.padStart(maxLineLength[j - i]! - separatorSpace, ' ') : output[j]!;
      tmp.push(str);
    }
    if (ctx.maxArrayLength < output.length) tmp.push(output[outputLength]!);
    return tmp;
  }
  return output;
}

function isBelowBreakLength(ctx: Ctx, output: string[], start: number, base: string): boolean {
  let total = output.length + start;
  if (total + output.length > ctx.breakLength) return false;
  for (const o of output) {
    total += o.length;
    if (total > ctx.breakLength) return false;
  }
  return base === '' || !base.includes('\n');
}

function reduceToSingleString(ctx: Ctx, output: string[], base: string, braces: [string, string], extrasType: number, recurseTimes: number, value: unknown): string {
  if (ctx.compact !== false && ctx.compact >= 1) {
    const entries = output.length;
    if (extrasType === ARRAY_EXTRAS && entries > 6) output = groupArrayElements(ctx, output, value);
    if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
      const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
      if (isBelowBreakLength(ctx, output, start, base)) {
        const joined = output.join(', ');
        if (!joined.includes('\n')) return `${base ? `${base} ` : ''}${braces[0]} ${joined} ${braces[1]}`;
      }
    }
  }
  const indentation = `\n${' '.repeat(ctx.indentationLvl)}`;
  return `${base ? `${base} ` : ''}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
}

/** util.inspect(value, options). */
export function inspect(value: unknown, options: Partial<InspectOptions> = {}): string {
  const ctx: Ctx = { ...CONSOLE_OPTIONS, ...options, seen: [], indentationLvl: 0, currentDepth: 0 };
  return formatValue(ctx, value, 0);
}
