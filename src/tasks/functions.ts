// The function corpus of the graded task world (levels 0 and 1): files of small standalone functions
// with the calls their tests make. A corpus file is an ES module:
//
//   export function clamp(value, low, high) { … }      one or more, each standing alone
//   export const EXAMPLES = { clamp: [[5, 0, 10], …] }  per function, the argument lists of its tests
//
// Each function is at most FUNCTION_MAX_LINES lines, refers to nothing but its parameters, its locals
// and the language's globals, and is pure. Its tests are made by running the correct function on its
// examples (the oracle) and writing the results down as literals (functions-oracle.node.ts). Core code:
// parsing and the text of the repository a task is built from; no Node APIs.
import type { FunctionDeclaration, Node } from 'acorn';
import { parseModule, type Mutant } from './mutate.ts';

/** A level-0 function fits on one screen of a small model's view: ≤ 20 lines, signature and brace included. */
export const FUNCTION_MAX_LINES = 20;
/** Examples per function: enough to kill most mutants, few enough to keep a test run's output short. */
export const EXAMPLES_MIN = 4;
export const EXAMPLES_MAX = 12;

export interface CorpusFunction {
  name: string;
  /** The family file it comes from (its base name without .js, e.g. "strings"). */
  family: string;
  /** Its source text from `function` to the closing brace (no `export`), ending in a newline. */
  source: string;
  params: string[];
  lines: number;
  /** The source text of its example list (an array literal of argument arrays). */
  examplesSource: string;
  /** 1-based line of the function in its family file. */
  line: number;
}

export interface CorpusFile {
  family: string;
  functions: CorpusFunction[];
  /** Problems that make a function (or the file) unusable, each naming the function and the fix. */
  errors: string[];
}

const lineOf = (src: string, at: number) => src.slice(0, at).split('\n').length;

/** Parse one corpus file. Syntax errors and shape problems come back in `errors`, never thrown. */
export function parseCorpusFile(family: string, source: string): CorpusFile {
  const errors: string[] = [];
  let program;
  try {
    program = parseModule(source);
  } catch (e) {
    return { family, functions: [], errors: [`${family}.js does not parse: ${(e as Error).message}`] };
  }
  const decls: FunctionDeclaration[] = [];
  let examples: Map<string, string> | null = null;
  for (const st of program.body) {
    if (st.type === 'ExportNamedDeclaration' && st.declaration?.type === 'FunctionDeclaration') {
      const d = st.declaration;
      if (d.async || d.generator) errors.push(`${d.id.name}: async and generator functions are not supported (write a plain function)`);
      else decls.push(d);
    } else if (st.type === 'ExportNamedDeclaration' && st.declaration?.type === 'VariableDeclaration') {
      const v = st.declaration.declarations[0];
      if (v?.id.type === 'Identifier' && v.id.name === 'EXAMPLES' && v.init?.type === 'ObjectExpression') {
        examples = new Map();
        for (const p of v.init.properties) {
          if (p.type !== 'Property' || p.computed) {
            errors.push(`EXAMPLES: every entry must be "name: [[args], …]" (line ${lineOf(source, p.start)})`);
            continue;
          }
          const key = p.key.type === 'Identifier' ? p.key.name : p.key.type === 'Literal' ? String(p.key.value) : '';
          if (p.value.type !== 'ArrayExpression') errors.push(`EXAMPLES.${key}: expected an array of argument arrays`);
          else examples.set(key, source.slice(p.value.start, p.value.end));
        }
      } else errors.push(`line ${lineOf(source, st.start)}: only exported functions and one \`export const EXAMPLES = { … }\` may appear at the top level`);
    } else if (st.type !== 'EmptyStatement') {
      errors.push(`line ${lineOf(source, st.start)}: only exported functions and one \`export const EXAMPLES = { … }\` may appear at the top level (found ${st.type})`);
    }
  }
  if (!examples) errors.push('no `export const EXAMPLES = { name: [[args], …], … }` object');
  const functions: CorpusFunction[] = [];
  for (const d of decls) {
    const name = d.id.name;
    const text = source.slice(d.start, d.end);
    const lines = text.split('\n').length;
    const params = d.params.map((p: Node) => source.slice(p.start, p.end));
    const ex = examples?.get(name);
    if (lines > FUNCTION_MAX_LINES) errors.push(`${name}: ${lines} lines; a level-0 function has at most ${FUNCTION_MAX_LINES}`);
    else if (ex === undefined) errors.push(`${name}: no EXAMPLES.${name} entry (its tests are made from it)`);
    else functions.push({ name, family, source: text + '\n', params, lines, examplesSource: ex, line: lineOf(source, d.start) });
  }
  for (const key of examples?.keys() ?? []) if (!decls.some((d) => d.id.name === key)) errors.push(`EXAMPLES.${key}: no exported function of that name`);
  return { family, functions, errors };
}

/** A one-line test name for a call: the call as written, cut to 72 characters. */
export function callName(name: string, argsSource: readonly string[]): string {
  const full = `${name}(${argsSource.join(', ')})`;
  return full.length <= 72 ? full : full.slice(0, 71) + '…';
}

/** What the correct function did on one example: returned a value (as a JS literal) or threw. */
export type Outcome = { kind: 'value'; source: string } | { kind: 'throws'; name: string; message: string } | { kind: 'timeout' };

export interface OracleCase {
  /** Each argument as a JS literal. */
  args: string[];
  outcome: Outcome;
}

/** A mutant of a corpus function that its examples notice, with what it does on each example. */
export interface KilledMutant {
  /** Offsets in moduleText([source]) of the function alone. */
  mutant: Mutant;
  cases: OracleCase[];
}

/** A usable corpus function: its oracle cases and the level-0 mutants they kill. */
export interface CheckedFunction {
  fn: CorpusFunction;
  cases: OracleCase[];
  killed: KilledMutant[];
}

/** The test names of a test file's cases, in order: each call, made unique with " #2", " #3". */
export function caseTitles(fns: readonly { name: string; cases: readonly OracleCase[] }[]): string[] {
  const used = new Set<string>();
  return fns.flatMap((f) =>
    f.cases.map((c) => {
      let title = callName(f.name, c.args);
      for (let k = 2; used.has(title); k++) title = `${callName(f.name, c.args)} #${k}`;
      used.add(title);
      return title;
    }),
  );
}

/** The test file of one or more functions from their oracle cases: one test per example, named by its call. */
export function testFileText(modulePath: string, fns: readonly { name: string; cases: readonly OracleCase[] }[]): string {
  const lines = [`import { test } from 'node:test';`, `import assert from 'node:assert/strict';`, `import { ${fns.map((f) => f.name).join(', ')} } from '${modulePath}';`, ''];
  const titles = caseTitles(fns);
  let t = 0;
  for (const f of fns) {
    for (const c of f.cases) {
      const title = titles[t++]!;
      const call = `${f.name}(${c.args.join(', ')})`;
      const body =
        c.outcome.kind === 'value'
          ? `  assert.deepEqual(${call}, ${c.outcome.source});`
          : c.outcome.kind === 'throws'
            ? `  assert.throws(() => ${call}, { name: ${JSON.stringify(c.outcome.name)} });`
            : null;
      if (body === null) throw new Error(`${f.name}: an example timed out in the oracle; drop it`);
      lines.push(`test(${JSON.stringify(title)}, () => {`, body, '});', '');
    }
  }
  return lines.join('\n');
}

/** `export function …` text of a module holding the given functions, in order, a blank line apart. */
export function moduleText(sources: readonly string[]): string {
  return sources.map((s) => `export ${s.trimEnd()}\n`).join('\n');
}
