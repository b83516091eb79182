// Mutation operators on small sources: each gives the exact token (or line) change and a gold patch that
// touches one line; sites that must not mutate don't; combining and ordering are deterministic.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/random.ts';
import { applyDiff, makeDiff } from '../../../src/sandbox/patch.ts';
import { applyMutants, candidateOrder, enumerateLibrary, enumerateMutants, OPERATORS, overlaps, type Mutant, type Operator } from '../../../src/tasks/mutate.ts';

const F = 'src/lib.js';
const mutate = (src: string, m: Mutant) => src.slice(0, m.start) + m.mutated + src.slice(m.end);
/** The mutated texts one operator gives for `src`. */
const texts = (src: string, op: Operator) => enumerateMutants(F, src).filter((m) => m.operator === op).map((m) => mutate(src, m));

describe('operators', () => {
  const cases: [Operator, string, string[]][] = [
    ['arithmetic', 'export const f = (a, b) => a + b * 2 % 3;\n', ['export const f = (a, b) => a - b * 2 % 3;\n', 'export const f = (a, b) => a + b / 2 % 3;\n', 'export const f = (a, b) => a + b * 2 * 3;\n']],
    ['arithmetic', 'export function f(x) {\n  x += 1;\n  x++;\n  return x;\n}\n', ['export function f(x) {\n  x -= 1;\n  x++;\n  return x;\n}\n', 'export function f(x) {\n  x += 1;\n  x--;\n  return x;\n}\n']],
    ['comparison', 'export const f = (a, b) => a < b || a === b;\n', ['export const f = (a, b) => a >= b || a === b;\n', 'export const f = (a, b) => a < b || a !== b;\n']],
    ['boundary', 'export const f = (a, b) => a > (b);\n', ['export const f = (a, b) => a >= (b);\n']],
    ['logical', 'export const f = (a, b) => a && (b ?? 0);\n', ['export const f = (a, b) => a || (b ?? 0);\n', 'export const f = (a, b) => a && (b && 0);\n']],
    ['negate-condition', 'export function f(a) {\n  if (a > 1) return 1;\n  while (!a) a++;\n  return a ? 2 : 3;\n}\n', [
      'export function f(a) {\n  if (!(a > 1)) return 1;\n  while (!a) a++;\n  return a ? 2 : 3;\n}\n',
      'export function f(a) {\n  if (a > 1) return 1;\n  while (a) a++;\n  return a ? 2 : 3;\n}\n',
      'export function f(a) {\n  if (a > 1) return 1;\n  while (!a) a++;\n  return !a ? 2 : 3;\n}\n',
    ]],
    ['off-by-one', 'export const f = () => [0, 3, 4];\n', ['export const f = () => [1, 3, 4];\n', 'export const f = () => [0, 2, 4];\n', 'export const f = () => [0, 3, 5];\n']],
    ['string', "export const f = (s) => s.split(',').join(\"\");\n", ["export const f = (s) => s.split('').join(\"\");\n"]],
    ['return-value', 'export function f(a) {\n  if (a) return true;\n  if (a < 0) return -1;\n  return a + 1;\n}\n', [
      'export function f(a) {\n  if (a) return false;\n  if (a < 0) return -1;\n  return a + 1;\n}\n',
      'export function f(a) {\n  if (a) return true;\n  if (a < 0) return 1;\n  return a + 1;\n}\n',
      'export function f(a) {\n  if (a) return true;\n  if (a < 0) return -1;\n  return a;\n}\n',
    ]],
    ['remove-statement', 'export function f(xs) {\n  const out = [];\n  for (const x of xs) {\n    if (x < 0) continue;\n    out.push(x); // keep\n  }\n  return out;\n}\n', [
      'export function f(xs) {\n  const out = [];\n  for (const x of xs) {\n    if (x < 0) continue;\n  }\n  return out;\n}\n',
    ]],
    ['swap-arguments', 'export const f = (s) => s.slice(1, 3) + Math.max(1, 2);\n', ['export const f = (s) => s.slice(3, 1) + Math.max(1, 2);\n']],
    ['method-swap', 'export const f = (s) => Math.floor(s.trimStart().length);\n', ['export const f = (s) => Math.ceil(s.trimStart().length);\n', 'export const f = (s) => Math.floor(s.trimEnd().length);\n']],
  ];
  it('covers every operator', () => expect(new Set(cases.map((c) => c[0]))).toEqual(new Set(OPERATORS)));
  for (const [op, src, want] of cases) {
    it(`${op}: ${JSON.stringify(src.split('\n')[0])}…`, () => expect(texts(src, op)).toEqual(want));
  }

  it('changes only the token: the gold patch removes and adds exactly one line', () => {
    const src = readFileSync(fileURLToPath(new URL('../../../corpus/libraries/roman/src/roman.js', import.meta.url)), 'utf8');
    const all = enumerateMutants('src/roman.js', src);
    expect(all.length).toBeGreaterThan(50);
    for (const m of all) {
      const diff = makeDiff({ [F]: mutate(src, m) }, { [F]: src });
      const changed = diff.split('\n').filter((l) => /^[-+](?![-+])/.test(l));
      const removedOnly = m.operator === 'remove-statement';
      expect(changed.filter((l) => l.startsWith('-')).length, m.id).toBe(removedOnly ? 0 : m.original.split('\n').length);
      expect(changed.filter((l) => l.startsWith('+')).length, m.id).toBe(m.original.split('\n').length - (removedOnly ? 1 : 0) || 1);
      expect(applyDiff({ [F]: mutate(src, m) }, diff).files[F]).toBe(src);
      expect(src.split('\n')[m.line - 1]!.slice(m.column - 1)).toMatch(removedOnly ? /\S/ : new RegExp(`^${m.original.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').split('\n')[0]}`));
    }
  });
});

describe('sites that stay', () => {
  it('leaves imports, property keys, directives, throw messages and for-loop updates alone', () => {
    const src = "'use strict';\nimport { g } from './g.js';\nexport function f(n) {\n  const o = { 'k': 'v' };\n  for (let i = 0; i < n; i++) g(o);\n  if (n < 0) throw new Error('negative: ' + n);\n}\n";
    const ms = enumerateMutants(F, src);
    expect(ms.filter((m) => m.operator === 'string').map((m) => m.original)).toEqual(["'v'"]);
    expect(ms.filter((m) => m.original === '++')).toEqual([]);
  });

  it('keeps one mutant per distinct mutated text, and reports 1-based line and column', () => {
    const src = 'export function f() {\n  return 0;\n}\n';
    const ms = enumerateMutants(F, src);
    expect(ms.map((m) => [m.operator, m.original, m.mutated, m.line, m.column])).toEqual([['off-by-one', '0', '1', 2, 10]]);
  });
});

describe('combining and ordering', () => {
  const src = 'export const f = (a, b) => a < b ? a + 1 : b - 1;\n';
  const ms = enumerateMutants(F, src);

  it('applies two disjoint mutants together and refuses overlapping ones', () => {
    const a = ms.find((m) => m.operator === 'boundary')!;
    const b = ms.find((m) => m.operator === 'arithmetic')!;
    expect(applyMutants({ [F]: src }, [b, a])[F]).toBe('export const f = (a, b) => a <= b ? a - 1 : b - 1;\n');
    const neg = ms.find((m) => m.operator === 'negate-condition')!;
    expect(overlaps(neg, a)).toBe(true);
    expect(() => applyMutants({ [F]: src }, [neg, a])).toThrow(/overlap/);
  });

  it('orders candidates the same way for the same seed, differently for another, every operator early', () => {
    const lib = { 'src/roman.js': readFileSync(fileURLToPath(new URL('../../../corpus/libraries/roman/src/roman.js', import.meta.url)), 'utf8'), 'test/x.test.js': '' };
    const all = enumerateLibrary(lib);
    expect(all.every((m) => m.file === 'src/roman.js')).toBe(true);
    const ids = (seed: number) => candidateOrder(all, new Rng(seed)).map((m) => m.id);
    expect(ids(7)).toEqual(ids(7));
    expect(ids(7)).not.toEqual(ids(8));
    expect(new Set(ids(7))).toEqual(new Set(all.map((m) => m.id)));
    const ops = new Set(all.map((m) => m.operator));
    expect(new Set(candidateOrder(all, new Rng(7)).slice(0, ops.size).map((m) => m.operator))).toEqual(ops);
  });
});
