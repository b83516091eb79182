// node:assert's AssertionError and its messages as Node 20 builds them (after Node 20's
// lib/internal/assert/assertion_error.js, MIT): "Expected values to be strictly equal:\n\n1 !== 2\n",
// the "+ actual - expected" line diff with skipped lines, reference-equality and loose-equality texts.
// Core code: no DOM, no Node.
import { ASSERT_OPTIONS, inspect } from './inspect.ts';

type Fn = (...a: never[]) => unknown;
type Obj = Record<PropertyKey, unknown>;

const READABLE: Record<string, string> = {
  deepStrictEqual: 'Expected values to be strictly deep-equal:',
  strictEqual: 'Expected values to be strictly equal:',
  strictEqualObject: 'Expected "actual" to be reference-equal to "expected":',
  deepEqual: 'Expected values to be loosely deep-equal:',
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notStrictEqualObject: 'Expected "actual" not to be reference-equal to "expected":',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notIdentical: 'Values have same structure but are not reference-equal:',
  notDeepEqualUnequal: 'Expected values not to be loosely deep-equal:',
};
/** Output as if stderr were not a terminal (Node's non-TTY width). */
const COLUMNS = 80;
export const inspectValue = (v: unknown) => inspect(v, ASSERT_OPTIONS);
export const isObj = (v: unknown) => (typeof v === 'object' && v !== null) || typeof v === 'function';

export const captureStack = (target: object, fn?: Fn) => (Error as unknown as { captureStackTrace?: (t: object, f?: Fn) => void }).captureStackTrace?.(target, fn);

/** The diff message of strictEqual / deepStrictEqual (Node 20's createErrDiff). */
function createErrDiff(actual: unknown, expected: unknown, operator: string, custom?: string): string {
  let other = '';
  let res = '';
  let end = '';
  let skipped = false;
  const actualInspected = inspectValue(actual);
  const actualLines = actualInspected.split('\n');
  const expectedLines = inspectValue(expected).split('\n');
  let i = 0;
  let indicator = '';
  if (operator === 'strictEqual' && ((typeof actual === 'object' && actual !== null && typeof expected === 'object' && expected !== null) || (typeof actual === 'function' && typeof expected === 'function'))) {
    operator = 'strictEqualObject';
  }
  const header = custom ?? READABLE[operator]!;
  if (actualLines.length === 1 && expectedLines.length === 1 && actualLines[0] !== expectedLines[0]) {
    const a = actualLines[0]!;
    const e = expectedLines[0]!;
    const inputLength = a.length + e.length;
    if (inputLength <= 12) {
      if ((typeof actual !== 'object' || actual === null) && (typeof expected !== 'object' || expected === null) && (actual !== 0 || expected !== 0)) {
        return `${header}\n\n${a} !== ${e}\n`;
      }
    } else if (operator !== 'strictEqualObject' && inputLength < COLUMNS) {
      while (a[i] === e[i]) i++;
      if (i > 2) {
        indicator = `\n  ${' '.repeat(i)}^`;
        i = 0;
      }
    }
  }
  // Drop the identical trailing lines (keeping up to three for context).
  let a = actualLines[actualLines.length - 1];
  let b = expectedLines[expectedLines.length - 1];
  while (a === b) {
    if (i++ < 3) end = `\n  ${a}${end}`;
    else other = a!;
    actualLines.pop();
    expectedLines.pop();
    if (actualLines.length === 0 || expectedLines.length === 0) break;
    a = actualLines[actualLines.length - 1];
    b = expectedLines[expectedLines.length - 1];
  }
  const maxLines = Math.max(actualLines.length, expectedLines.length);
  if (maxLines === 0) {
    const lines = actualInspected.split('\n');
    if (lines.length > 50) {
      lines[46] = '...';
      lines.length = 47;
    }
    return `${READABLE.notIdentical}\n\n${lines.join('\n')}\n`;
  }
  if (i >= 5) {
    end = `\n...${end}`;
    skipped = true;
  }
  if (other !== '') {
    end = `\n  ${other}${end}`;
    other = '';
  }
  let printedLines = 0;
  let identical = 0;
  const msg = `${header}\n+ actual - expected`;
  const skippedMsg = ' ... Lines skipped';
  let lines = actualLines;
  let plusMinus = '+';
  let maxLength = expectedLines.length;
  if (actualLines.length < maxLines) {
    lines = expectedLines;
    plusMinus = '-';
    maxLength = actualLines.length;
  }
  const printIdentical = (src: string[], at: number) => {
    if (identical > 2) {
      if (identical > 3) {
        if (identical > 4) {
          if (identical === 5) {
            res += `\n  ${src[at - 3]}`;
            printedLines++;
          } else {
            res += '\n...';
            skipped = true;
          }
        }
        res += `\n  ${src[at - 2]}`;
        printedLines++;
      }
      res += `\n  ${src[at - 1]}`;
      printedLines++;
    }
    identical = 0;
  };
  for (i = 0; i < maxLines; i++) {
    if (maxLength < i + 1) {
      printIdentical(lines, i);
      if (lines === actualLines) res += `\n${plusMinus} ${lines[i]}`;
      else other += `\n${plusMinus} ${lines[i]}`;
      printedLines++;
    } else {
      const expectedLine = expectedLines[i]!;
      let actualLine = actualLines[i]!;
      let diverging = actualLine !== expectedLine && (!actualLine.endsWith(',') || actualLine.slice(0, -1) !== expectedLine);
      if (diverging && expectedLine.endsWith(',') && expectedLine.slice(0, -1) === actualLine) {
        diverging = false;
        actualLine += ',';
      }
      if (diverging) {
        printIdentical(actualLines, i);
        res += `\n+ ${actualLine}`;
        other += `\n- ${expectedLine}`;
        printedLines += 2;
      } else {
        res += other;
        other = '';
        identical++;
        if (identical <= 2) {
          res += `\n  ${actualLine}`;
          printedLines++;
        }
      }
    }
    if (printedLines > 50 && i < maxLines - 2) return `${msg}${skippedMsg}\n${res}\n...${other}\n...`;
  }
  return `${msg}${skipped ? skippedMsg : ''}\n${res}${other}${end}${indicator}`;
}

export interface AssertionErrorOptions {
  message?: unknown;
  actual?: unknown;
  expected?: unknown;
  operator?: string;
  stackStartFn?: Fn;
}

export class AssertionError extends Error {
  generatedMessage: boolean;
  code = 'ERR_ASSERTION';
  actual: unknown;
  expected: unknown;
  operator: string | undefined;
  constructor(options: AssertionErrorOptions) {
    const { message, operator } = options;
    let { actual, expected } = options;
    let text: string;
    if (message != null) {
      if (operator === 'deepStrictEqual' || operator === 'strictEqual') text = createErrDiff(actual, expected, operator, String(message));
      else text = String(message);
    } else {
      if (actual instanceof Error && expected instanceof Error) {
        // Shown as [Name: message] (no stack), as Node's copyError arranges.
        actual = copyError(actual);
        expected = copyError(expected);
      }
      if (operator === 'deepStrictEqual' || operator === 'strictEqual') text = createErrDiff(actual, expected, operator);
      else if (operator === 'notDeepStrictEqual' || operator === 'notStrictEqual') {
        let base = READABLE[operator]!;
        const res = inspectValue(actual).split('\n');
        if (operator === 'notStrictEqual' && isObj(actual)) base = READABLE.notStrictEqualObject!;
        if (res.length > 50) {
          res[46] = '...';
          res.length = 47;
        }
        text = res.length === 1 ? `${base}${res[0]!.length > 5 ? '\n\n' : ' '}${res[0]}` : `${base}\n\n${res.join('\n')}\n`;
      } else {
        let res = inspectValue(actual);
        let other = inspectValue(expected);
        const known = READABLE[operator ?? ''];
        if (operator === 'notDeepEqual' && res === other) {
          res = `${known}\n\n${res}`;
          if (res.length > 1024) res = `${res.slice(0, 1021)}...`;
          text = res;
        } else {
          if (res.length > 512) res = `${res.slice(0, 509)}...`;
          if (other.length > 512) other = `${other.slice(0, 509)}...`;
          if (operator === 'deepEqual') res = `${known}\n\n${res}\n\nshould loosely deep-equal\n\n`;
          else if (READABLE[`${operator}Unequal`]) res = `${READABLE[`${operator}Unequal`]}\n\n${res}\n\nshould not loosely deep-equal\n\n`;
          else other = ` ${operator} ${other}`;
          text = `${res}${other}`;
        }
      }
    }
    super(text);
    this.generatedMessage = message == null;
    this.actual = options.actual;
    this.expected = options.expected;
    this.operator = operator;
    // The stack reads "AssertionError [ERR_ASSERTION]: …", as Node's does.
    Object.defineProperty(this, 'name', { value: 'AssertionError [ERR_ASSERTION]', enumerable: false, writable: true, configurable: true });
    captureStack(this, options.stackStartFn);
    void this.stack;
    this.name = 'AssertionError';
  }
  override toString(): string {
    return `${this.name} [${this.code}]: ${this.message}`;
  }
}

function copyError(source: Error): Error {
  const target = Object.create(Object.getPrototypeOf(source)) as Error;
  for (const k of Object.keys(source)) (target as unknown as Obj)[k] = (source as unknown as Obj)[k];
  Object.defineProperty(target, 'message', { value: source.message });
  return target;
}
