// The oracle of the function corpus: runs a corpus function (or a mutant of it) on its examples in a
// fresh V8 context with a time limit per call (node:vm), and writes each result down as a JS literal.
// The correct function's results become its tests (functions.ts testFileText); a mutant whose results
// differ on some example is "killed" and may become a task (the sandbox validates it as any other).
// Not a security boundary: it only ever runs our own corpus and our own mutants of it.
import vm from 'node:vm';
import { LEVEL0_OPERATORS } from './levels.ts';
import { callName, EXAMPLES_MAX, EXAMPLES_MIN, moduleText, type CorpusFunction, type KilledMutant, type OracleCase, type Outcome } from './functions.ts';
import { enumerateMutants } from './mutate.ts';

/** Longest literal a result may be written as (a test's expected value stays readable). */
export const RESULT_MAX_CHARS = 240;
const CALL_TIMEOUT_MS = 100;

// Runs inside the context: a JS literal for a value (or an exception naming what cannot be written),
// a deep copy of the arguments (a function may change its inputs), and one call.
const PRELUDE = `
const __lit = (v, depth = 0) => {
  if (depth > 8) throw new Error('nested more than 8 levels deep');
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean': return String(v);
    case 'number': return Object.is(v, -0) ? '-0' : Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : String(v);
    case 'string': return JSON.stringify(v);
    case 'object': {
      if (Array.isArray(v)) return '[' + v.map((x) => __lit(x, depth + 1)).join(', ') + ']';
      if (Object.getPrototypeOf(v) !== Object.prototype) throw new Error('a ' + (v.constructor?.name ?? 'non-plain object') + ' cannot be written as a literal (return arrays, plain objects and primitives)');
      const keys = Object.keys(v);
      if (keys.length === 0) return '{}';
      return '{ ' + keys.map((k) => (/^[A-Za-z_$][\\w$]*$/.test(k) ? k : JSON.stringify(k)) + ': ' + __lit(v[k], depth + 1)).join(', ') + ' }';
    }
    default: throw new Error('a ' + typeof v + ' cannot be written as a literal');
  }
};
const __copy = (v) => (Array.isArray(v) ? v.map(__copy) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, __copy(x)])) : v);
globalThis.__call = (fn, args) => {
  let r;
  try { r = fn(...__copy(args)); } catch (e) { return { kind: 'throws', name: String(e?.name ?? typeof e), message: String(e?.message ?? e).slice(0, 200) }; }
  try { return { kind: 'value', source: __lit(r) }; } catch (e) { return { kind: 'unwritable', message: e.message }; }
};
`;

const FORBIDDEN = /\bMath\.random\b|\bDate\b|\bconsole\b|\bprocess\b|\bglobalThis\b|\bimport\b|\brequire\b|\bsetTimeout\b|\bperformance\b/;

export interface OracleRun {
  cases: OracleCase[];
  /** Why the function cannot be used as it is (names the example and the fix). */
  errors: string[];
}

/** Run `fnSource` (a `function name(…) {…}` declaration) on each example of `examplesSource`. */
export function runOracle(name: string, fnSource: string, examplesSource: string, timeoutMs = CALL_TIMEOUT_MS): OracleRun {
  const errors: string[] = [];
  const ctx = vm.createContext({});
  vm.runInContext(PRELUDE, ctx);
  try {
    vm.runInContext(`${fnSource}\n;globalThis.__fn = ${name};`, ctx, { timeout: timeoutMs });
    vm.runInContext(`globalThis.__ex = (${examplesSource});`, ctx, { timeout: timeoutMs });
  } catch (e) {
    return { cases: [], errors: [`${name}: does not load: ${(e as Error).message}`] };
  }
  const count = vm.runInContext('Array.isArray(__ex) && __ex.every((a) => Array.isArray(a)) ? __ex.length : -1', ctx) as number;
  if (count < 0) return { cases: [], errors: [`EXAMPLES.${name}: expected an array of argument arrays, e.g. [[1, 2], [3, 4]]`] };
  const cases: OracleCase[] = [];
  for (let i = 0; i < count; i++) {
    let args: string[];
    try {
      args = vm.runInContext(`__ex[${i}].map((a) => __lit(a))`, ctx) as string[];
    } catch (e) {
      errors.push(`EXAMPLES.${name}[${i}]: ${(e as Error).message}`);
      continue;
    }
    let outcome: Outcome;
    try {
      const r = vm.runInContext(`__call(__fn, __ex[${i}])`, ctx, { timeout: timeoutMs }) as { kind: string; source?: string; name?: string; message?: string };
      if (r.kind === 'unwritable') {
        errors.push(`${callName(name, args)}: the result ${r.message}`);
        continue;
      }
      outcome = r.kind === 'value' ? { kind: 'value', source: r.source! } : { kind: 'throws', name: r.name!, message: r.message! };
    } catch (e) {
      if ((e as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e;
      outcome = { kind: 'timeout' };
    }
    cases.push({ args, outcome });
  }
  return { cases, errors };
}

export const sameOutcome = (a: Outcome, b: Outcome) =>
  a.kind === b.kind && (a.kind === 'value' ? a.source === (b as typeof a).source : a.kind === 'throws' ? a.name === (b as typeof a).name : true);

export interface FunctionReport {
  name: string;
  family: string;
  lines: number;
  cases: OracleCase[];
  errors: string[];
  /** Level-0 mutants of the function alone, and those its examples kill (some result differs, none hangs). */
  mutants: number;
  /** Each killed mutant (offsets in moduleText([source])) with what it does on every example. */
  killed: KilledMutant[];
  /** Mutants that made some example run past the time limit (never tasks: they would time out). */
  hangs: number;
}

/** Check one corpus function: its oracle cases, the problems that make it unusable, and its mutation score. */
export function checkFunction(fn: CorpusFunction): FunctionReport {
  const errors: string[] = [];
  const base = { name: fn.name, family: fn.family, lines: fn.lines, mutants: 0, killed: [] as KilledMutant[], hangs: 0 };
  const forbidden = FORBIDDEN.exec(fn.source);
  if (forbidden) errors.push(`${fn.name}: uses \`${forbidden[0]}\`; a corpus function is pure and stands alone (no clock, randomness, I/O or globals of the host)`);
  const run = runOracle(fn.name, fn.source, fn.examplesSource);
  errors.push(...run.errors);
  const again = runOracle(fn.name, fn.source, fn.examplesSource);
  if (!errors.length && again.cases.some((c, i) => !sameOutcome(c.outcome, run.cases[i]!.outcome))) errors.push(`${fn.name}: gives different results on two runs; a corpus function must be deterministic`);
  const { cases } = run;
  if (cases.length < EXAMPLES_MIN || cases.length > EXAMPLES_MAX) errors.push(`${fn.name}: ${cases.length} examples; give between ${EXAMPLES_MIN} and ${EXAMPLES_MAX}`);
  for (const c of cases) {
    const call = callName(fn.name, c.args);
    if (c.outcome.kind === 'timeout') errors.push(`${call}: runs past ${CALL_TIMEOUT_MS} ms; choose smaller inputs`);
    else if (c.outcome.kind === 'throws' && /^(ReferenceError|SyntaxError)$/.test(c.outcome.name)) {
      errors.push(`${call}: throws ${c.outcome.name}: ${c.outcome.message} (a corpus function may use only its parameters, its locals and the language's globals)`);
    } else if (c.outcome.kind === 'value' && c.outcome.source.length > RESULT_MAX_CHARS) errors.push(`${call}: the result is ${c.outcome.source.length} characters as a literal; keep results under ${RESULT_MAX_CHARS}`);
  }
  const calls = cases.map((c) => c.args.join(', '));
  if (new Set(calls).size < calls.length) errors.push(`${fn.name}: two examples have the same call; make each example different`);
  if (cases.filter((c) => c.outcome.kind === 'throws').length > cases.length / 2) errors.push(`${fn.name}: most examples throw; most should return a value`);
  if (errors.length) return { ...base, cases, errors };
  const text = moduleText([fn.source]);
  const mutants = enumerateMutants(`src/${fn.name}.js`, text).filter((m) => (LEVEL0_OPERATORS as readonly string[]).includes(m.operator));
  const killed: KilledMutant[] = [];
  let hangs = 0;
  for (const m of mutants) {
    const src = (text.slice(0, m.start) + m.mutated + text.slice(m.end)).replace(/^export /, '');
    const r = runOracle(fn.name, src, fn.examplesSource);
    if (r.cases.length !== cases.length) continue; // fails to load, or an argument changed: not a simple bug
    if (r.cases.some((c) => c.outcome.kind === 'timeout')) hangs++;
    else if (r.cases.some((c, i) => !sameOutcome(c.outcome, cases[i]!.outcome))) killed.push({ mutant: m, cases: r.cases });
  }
  return { ...base, cases, errors, mutants: mutants.length, killed, hangs };
}
