// Bug synthesis by source mutation, in the manner of StrykerJS: acorn finds the sites, and each mutant
// is one splice of the source text at node positions, so its diff is exactly the changed token(s).
// Core code (no Node APIs). One mutant per site per operator; sites come out in source order.
import { parse, type AnyNode, type Expression, type Node, type PrivateIdentifier, type SpreadElement } from 'acorn';
import type { FileMap } from '../sandbox/types.ts';
import type { Rng } from '../random.ts';

export const OPERATORS = [
  'arithmetic', // + ↔ -, * ↔ /, % → *, ++ ↔ --, += ↔ -=, *= ↔ /=
  'comparison', // < → >=, <= → >, === ↔ !==, == ↔ !=
  'boundary', // < ↔ <=, > ↔ >=
  'logical', // && ↔ ||, ?? → &&
  'negate-condition', // if/while/for/?: test c → !(c), !c → c
  'off-by-one', // integer literal n → n ± 1
  'string', // non-empty string literal → ''
  'return-value', // return true ↔ false, n → n ± 1, a + b → a, x → null
  'remove-statement', // an expression statement, break, continue or throw deleted (its whole line)
  'swap-arguments', // f(a, b) → f(b, a)
  'method-swap', // min ↔ max, floor ↔ ceil, startsWith ↔ endsWith, … (StrykerJS's MethodExpression)
] as const;
export type Operator = (typeof OPERATORS)[number];

/** One bug: replace source[start, end) of `file` with `mutated` (which was `original`). */
export interface Mutant {
  id: string;
  operator: Operator;
  file: string;
  start: number;
  end: number;
  original: string;
  mutated: string;
  /** 1-based line and column of `start`. */
  line: number;
  column: number;
}

export const NEGATE: Readonly<Record<string, string>> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<', '===': '!==', '!==': '===', '==': '!=', '!=': '==' };
export const BOUNDARY: Readonly<Record<string, string>> = { '<': '<=', '<=': '<', '>': '>=', '>=': '>' };
export const ARITH: Readonly<Record<string, string>> = { '+': '-', '-': '+', '*': '/', '/': '*', '%': '*', '+=': '-=', '-=': '+=', '*=': '/=', '/=': '*=' };
export const LOGIC: Readonly<Record<string, string>> = { '&&': '||', '||': '&&', '??': '&&' };
const METHOD_PAIRS = [
  ['min', 'max'],
  ['floor', 'ceil'],
  ['toUpperCase', 'toLowerCase'],
  ['startsWith', 'endsWith'],
  ['some', 'every'],
  ['push', 'unshift'],
  ['pop', 'shift'],
  ['indexOf', 'lastIndexOf'],
  ['trimStart', 'trimEnd'],
  ['padStart', 'padEnd'],
];
const METHODS = new Map(METHOD_PAIRS.flatMap(([a, b]) => [[a!, b!], [b!, a!]]));
/** Calls whose argument order does not matter (a swap there is an equivalent mutant). */
const COMMUTATIVE = /^Math\.(min|max|hypot)$/;

type Site = { operator: Operator; start: number; end: number; mutated: string };
type Arg = Expression | SpreadElement | PrivateIdentifier;

/** Parse a library file as an ES module (throws acorn's SyntaxError with its position). */
export const parseModule = (source: string) => parse(source, { ecmaVersion: 'latest', sourceType: 'module' });

/** Every AST node with its ancestors (outermost first), in pre-order. */
export function walk(root: Node, visit: (node: AnyNode, ancestors: readonly AnyNode[]) => void): void {
  const stack: AnyNode[] = [];
  const go = (n: AnyNode) => {
    visit(n, stack);
    stack.push(n);
    for (const v of Object.values(n)) {
      if (Array.isArray(v)) for (const c of v) isNode(c) && go(c);
      else if (isNode(v)) go(v);
    }
    stack.pop();
  };
  go(root as AnyNode);
}
const isNode = (v: unknown): v is AnyNode => typeof v === 'object' && v !== null && typeof (v as Node).type === 'string' && typeof (v as Node).start === 'number';

/** Where `op` sits between two operands: only whitespace and parentheses may surround it. */
function operatorAt(src: string, from: number, to: number, op: string): number {
  const gap = src.slice(from, to);
  const i = gap.indexOf(op);
  if (i < 0 || /[^\s()]/.test(gap.slice(0, i) + gap.slice(i + op.length))) return -1;
  return from + i;
}

const isString = (n: AnyNode | Arg) => (n.type === 'Literal' && typeof n.value === 'string') || n.type === 'TemplateLiteral';
const lineStart = (src: string, at: number) => src.lastIndexOf('\n', at - 1) + 1;

/** The mutation sites of one source file, one per operator per site. */
function sites(src: string): Site[] {
  const out: Site[] = [];
  const add = (operator: Operator, start: number, end: number, mutated: string) => out.push({ operator, start, end, mutated });
  const binary = (operator: Operator, table: Record<string, string>, op: string, left: Node, right: Node) => {
    const to = table[op];
    const at = to === undefined ? -1 : operatorAt(src, left.end, right.start, op);
    if (at >= 0) add(operator, at, at + op.length, to!);
  };
  walk(parseModule(src), (n, anc) => {
    const parent = anc[anc.length - 1];
    switch (n.type) {
      case 'BinaryExpression':
        if (n.left.type === 'PrivateIdentifier') break;
        if (!(n.operator === '+' && (isString(n.left) || isString(n.right)))) binary('arithmetic', ARITH, n.operator, n.left, n.right);
        binary('comparison', NEGATE, n.operator, n.left, n.right);
        binary('boundary', BOUNDARY, n.operator, n.left, n.right);
        break;
      case 'LogicalExpression':
        binary('logical', LOGIC, n.operator, n.left, n.right);
        break;
      case 'AssignmentExpression':
        if (!(n.operator === '+=' && isString(n.right))) binary('arithmetic', ARITH, n.operator, n.left, n.right);
        break;
      case 'UpdateExpression': {
        if (parent?.type === 'ForStatement' && parent.update === n) break; // i++ → i-- there only ever hangs
        const at = n.prefix ? n.start : n.argument.end;
        add('arithmetic', at, at + 2, n.operator === '++' ? '--' : '++');
        break;
      }
      case 'IfStatement':
      case 'WhileStatement':
      case 'DoWhileStatement':
      case 'ForStatement':
      case 'ConditionalExpression': {
        const t = n.test;
        if (!t) break;
        const text = src.slice(t.start, t.end);
        if (t.type === 'UnaryExpression' && t.operator === '!') add('negate-condition', t.start, t.end, src.slice(t.argument.start, t.argument.end));
        else add('negate-condition', t.start, t.end, /^[\w$.]+$/.test(text) || t.type === 'CallExpression' ? `!${text}` : `!(${text})`);
        break;
      }
      case 'Literal': {
        if (parent?.type === 'ImportDeclaration' || parent?.type === 'ExportNamedDeclaration' || parent?.type === 'ExportAllDeclaration') break;
        if (parent?.type === 'Property' && parent.key === n && !parent.computed) break;
        if (typeof n.value === 'number' && /^\d+$/.test(n.raw ?? '')) {
          const up = n.value === 0 || n.start % 2 === 0; // which way is fixed by the site, not the seed
          add('off-by-one', n.start, n.end, String(up ? n.value + 1 : n.value - 1));
        } else if (typeof n.value === 'string' && n.value !== '' && !anc.some((a) => a.type === 'ThrowStatement')) {
          if (parent?.type === 'ExpressionStatement' && 'directive' in parent) break;
          const q = (n.raw ?? "'")[0]!;
          add('string', n.start, n.end, q + q);
        }
        break;
      }
      case 'ReturnStatement': {
        const a = n.argument;
        if (!a) break;
        let to: string | undefined;
        if (a.type === 'Literal' && typeof a.value === 'boolean') to = String(!a.value);
        else if (a.type === 'Literal' && typeof a.value === 'number') to = a.value === 0 ? '1' : '0';
        else if (a.type === 'UnaryExpression' && a.operator === '-' && a.argument.type === 'Literal') to = src.slice(a.argument.start, a.argument.end);
        else if (a.type === 'Literal' && typeof a.value === 'string') to = a.value === '' ? undefined : "''";
        else if (a.type === 'ArrayExpression') to = a.elements.length ? '[]' : undefined;
        else if ((a.type === 'BinaryExpression' || a.type === 'LogicalExpression') && a.left.type !== 'PrivateIdentifier') to = src.slice(a.left.start, a.left.end);
        else if (a.type !== 'Literal') to = 'null';
        if (to) add('return-value', a.start, a.end, to);
        break;
      }
      case 'ExpressionStatement':
      case 'BreakStatement':
      case 'ContinueStatement':
      case 'ThrowStatement': {
        if (parent?.type !== 'BlockStatement' && parent?.type !== 'SwitchCase') break;
        if (n.type === 'ExpressionStatement' && 'directive' in n) break;
        const from = lineStart(src, n.start);
        const eol = src.indexOf('\n', n.end);
        const to = eol < 0 ? src.length : eol + 1;
        if (/\S/.test(src.slice(from, n.start)) || !/^\s*(\/\/.*)?$/.test(src.slice(n.end, eol < 0 ? src.length : eol))) break;
        add('remove-statement', from, to, '');
        break;
      }
      case 'CallExpression':
      case 'NewExpression': {
        const callee = src.slice(n.callee.start, n.callee.end);
        if (n.type === 'CallExpression' && n.callee.type === 'MemberExpression' && !n.callee.computed) {
          const p = n.callee.property;
          const to = p.type === 'Identifier' ? METHODS.get(p.name) : undefined;
          if (to) add('method-swap', p.start, p.end, to);
        }
        const [a, b] = n.arguments;
        if (!a || !b || a.type === 'SpreadElement' || b.type === 'SpreadElement' || COMMUTATIVE.test(callee)) break;
        const ta = src.slice(a.start, a.end);
        const tb = src.slice(b.start, b.end);
        if (ta === tb || src.slice(a.start, b.end).includes('\n')) break;
        add('swap-arguments', a.start, b.end, tb + src.slice(a.end, b.start) + ta);
        break;
      }
    }
  });
  return out;
}

/**
 * Every mutant of one file, in source order (then operator order); duplicates (the same mutated
 * text from two operators) keep the first. Throws when the file does not parse.
 */
export function enumerateMutants(file: string, source: string): Mutant[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') starts.push(i + 1);
  const position = (at: number) => {
    let lo = 0;
    while (lo + 1 < starts.length && starts[lo + 1]! <= at) lo++;
    return { line: lo + 1, column: at - starts[lo]! + 1 };
  };
  const seen = new Set<string>();
  const out: Mutant[] = [];
  const sorted = sites(source).sort((x, y) => x.start - y.start || OPERATORS.indexOf(x.operator) - OPERATORS.indexOf(y.operator));
  for (const s of sorted) {
    const text = source.slice(0, s.start) + s.mutated + source.slice(s.end);
    if (seen.has(text) || text === source) continue;
    seen.add(text);
    out.push({ id: `${file}@${s.start}:${s.operator}`, operator: s.operator, file, start: s.start, end: s.end, original: source.slice(s.start, s.end), mutated: s.mutated, ...position(s.start) });
  }
  return out;
}

/** Mutants of every file that `pick` selects (by default: .js files under src/). */
export function enumerateLibrary(files: FileMap, pick = (p: string) => /^src\/.*\.[cm]?js$/.test(p)): Mutant[] {
  return Object.keys(files).sort().filter(pick).flatMap((p) => enumerateMutants(p, files[p]!));
}

/** True when two mutants touch overlapping text of the same file (they cannot both apply). */
export const overlaps = (a: Mutant, b: Mutant) => a.file === b.file && a.start < b.end && b.start < a.end;

/** The files with every mutant applied (non-overlapping; applied from the end of each file back). */
export function applyMutants(files: FileMap, mutants: readonly Mutant[]): FileMap {
  const out: FileMap = { ...files };
  const byEnd = [...mutants].sort((a, b) => (a.file === b.file ? b.start - a.start : a.file < b.file ? -1 : 1));
  for (let i = 0; i < byEnd.length; i++) {
    const m = byEnd[i]!;
    if (i > 0 && overlaps(m, byEnd[i - 1]!)) throw new Error(`mutants ${m.id} and ${byEnd[i - 1]!.id} overlap`);
    const text = out[m.file];
    if (text === undefined || text.slice(m.start, m.end) !== m.original) throw new Error(`mutant ${m.id} does not match ${m.file}`);
    out[m.file] = text.slice(0, m.start) + m.mutated + text.slice(m.end);
  }
  return out;
}

/**
 * The order candidates are tried in: each operator's mutants shuffled by `rng`, then dealt out
 * round-robin over the operators, so every operator is represented before any is exhausted.
 */
export function candidateOrder(mutants: readonly Mutant[], rng: Rng): Mutant[] {
  const groups = OPERATORS.map((op) => rng.shuffle(mutants.filter((m) => m.operator === op))).filter((g) => g.length > 0);
  const out: Mutant[] = [];
  for (let i = 0; out.length < mutants.length; i++) for (const g of groups) if (i < g.length) out.push(g[i]!);
  return out;
}
