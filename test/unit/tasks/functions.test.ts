// The function corpus (levels 0 and 1): parsing a corpus file and its shape errors, the oracle (results
// as literals, throws, time limits), mutation scores, the level-0/1 task builder (tests from the oracle,
// FAIL_TO_PASS/PASS_TO_PASS, issue text, split by function) and the tasks validated in the node sandbox.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { callFacts, functionIssue, functionSplit, level0Tasks, level1Tasks, FUNCTION_WORLD_DEFAULTS } from '../../../src/tasks/build-functions.ts';
import { checkFunction, runOracle } from '../../../src/tasks/functions-oracle.node.ts';
import { parseCorpusFile, testFileText, type CheckedFunction } from '../../../src/tasks/functions.ts';
import { Rng } from '../../../src/random.ts';
import { createNodeSandbox } from '../../../src/sandbox/node.node.ts';
import { parseTaskFile, formatTaskLine } from '../../../src/tasks/schema.ts';
import { validateTasks } from '../../../src/tasks/validate.ts';

const SAMPLE = readFileSync('test/fixtures/functions/sample.js', 'utf8');

describe('corpus files', () => {
  it('parses exported functions with their examples, line counts and positions', () => {
    const f = parseCorpusFile('sample', SAMPLE);
    expect(f.errors).toEqual([]);
    expect(f.functions.map((x) => x.name)).toEqual(['clampValue', 'sumOfEvens', 'countAbove', 'firstIndexAtLeast', 'safeRatio']);
    expect(f.functions[0]).toMatchObject({ family: 'sample', params: ['value', 'low', 'high'], lines: 9, line: 3, examplesSource: '[[5, 0, 10], [-3, 0, 10], [12, 0, 10], [0, 0, 10], [10, 0, 10]]' });
    expect(f.functions[0]!.source.startsWith('function clampValue(')).toBe(true);
  });
  it('names each shape problem and the fix', () => {
    const long = `export function tooLong(x) {\n${'  x++;\n'.repeat(20)}  return x;\n}\n`;
    const f = parseCorpusFile('bad', `const helper = 1;\n${long}export function noExamples(a) {\n  return a + 1;\n}\nexport async function later() {\n  return 1;\n}\nexport const EXAMPLES = { tooLong: [[1]], ghost: [[1]] };\n`);
    expect(f.errors).toEqual([
      'line 1: only exported functions and one `export const EXAMPLES = { … }` may appear at the top level (found VariableDeclaration)',
      'later: async and generator functions are not supported (write a plain function)',
      'tooLong: 23 lines; a level-0 function has at most 20',
      'noExamples: no EXAMPLES.noExamples entry (its tests are made from it)',
      'EXAMPLES.ghost: no exported function of that name',
    ]);
    expect(parseCorpusFile('x', 'export function (').errors[0]).toMatch(/^x.js does not parse: /);
    expect(parseCorpusFile('x', 'export function a() { return 1; }\n').errors[0]).toBe('no `export const EXAMPLES = { name: [[args], …], … }` object');
  });
});

describe('the oracle', () => {
  it('writes results as literals (arrays, objects, -0, NaN, undefined) and records throws', () => {
    const src = 'function f(x) {\n  if (x === 0) throw new TypeError("zero");\n  return x === 1 ? [1, { a: -0, "b c": NaN }] : x === 2 ? undefined : "s\'q";\n}';
    const r = runOracle('f', src, '[[1], [2], [3], [0]]');
    expect(r.errors).toEqual([]);
    expect(r.cases.map((c) => c.outcome)).toEqual([
      { kind: 'value', source: '[1, { a: -0, "b c": NaN }]' },
      { kind: 'value', source: 'undefined' },
      { kind: 'value', source: '"s\'q"' },
      { kind: 'throws', name: 'TypeError', message: 'zero' },
    ]);
    expect(r.cases[0]!.args).toEqual(['1']);
  });
  it('stops a call that runs too long, and copies the arguments so a function cannot change its examples', () => {
    expect(runOracle('f', 'function f(n) { while (n) {} return 1; }', '[[0], [1]]', 250).cases.map((c) => c.outcome.kind)).toEqual(['value', 'timeout']);
    const r = runOracle('f', 'function f(xs) { xs.push(9); return xs.length; }', '[[[1]], [[1]]]');
    expect(r.cases.map((c) => c.outcome)).toEqual([{ kind: 'value', source: '2' }, { kind: 'value', source: '2' }]);
  });
  it('refuses results it cannot write and functions that are not standalone or pure', () => {
    expect(runOracle('f', 'function f() { return new Map(); }', '[[]]').errors[0]).toMatch(/f\(\): the result a Map cannot be written as a literal/);
    const fn = (src: string, ex = '[[1], [2], [3], [4]]') => checkFunction({ name: 'f', family: 't', source: src, params: ['x'], lines: 3, examplesSource: ex, line: 1 }).errors;
    expect(fn('function f(x) {\n  return helper(x);\n}')).toContain('f(1): throws ReferenceError: helper is not defined (a corpus function may use only its parameters, its locals and the language\'s globals)');
    expect(fn('function f(x) {\n  return Math.random() + x;\n}')[0]).toMatch(/uses `Math.random`; a corpus function is pure/);
    expect(fn('function f(x) {\n  return x;\n}', '[[1], [1], [2], [3]]')).toContain('f: two examples have the same call; make each example different');
    expect(fn('function f(x) {\n  return x;\n}', '[[1]]')).toContain('f: 1 examples; give between 4 and 12');
  });
  it('counts the level-0 mutants the examples kill', () => {
    const f = parseCorpusFile('sample', SAMPLE).functions[0]!;
    const r = checkFunction(f);
    expect(r.errors).toEqual([]);
    expect(r.mutants).toBe(6);
    // value < low → <=, value > high → >=: equivalent on these examples (the limit itself comes back either way).
    expect(r.killed.map((k) => `${k.mutant.line}:${k.mutant.original}→${k.mutant.mutated}`)).toEqual(['2:value < low→!(value < low)', '2:<→>=', '5:value > high→!(value > high)', '5:>→<=']);
    expect(r.killed[1]!.cases.map((c) => c.outcome)).toContainEqual({ kind: 'value', source: '0' });
  });
});

const checked = (): CheckedFunction[] =>
  parseCorpusFile('sample', SAMPLE).functions.map((fn) => {
    const r = checkFunction(fn);
    return { fn, cases: r.cases, killed: r.killed };
  });

describe('level 0 and level 1 tasks', () => {
  const o = { ...FUNCTION_WORLD_DEFAULTS, testFraction: 0.4, valFraction: 0.2 };
  it('level 0: the function alone, its tests from the oracle, F2P exactly the calls the bug changes', () => {
    const tasks = level0Tasks(checked(), o);
    const t = tasks.find((x) => x.instance_id === 'clampValue__4')!;
    expect(Object.keys(t.files)).toEqual(['package.json', 'src/clampValue.js', 'test/clampValue.test.js']);
    expect(t.files['src/clampValue.js']).toContain('  if (value <= high) {');
    expect(t.FAIL_TO_PASS).toEqual(['clampValue(5, 0, 10)', 'clampValue(12, 0, 10)', 'clampValue(0, 0, 10)']);
    expect(t.PASS_TO_PASS).toEqual(['clampValue(-3, 0, 10)', 'clampValue(10, 0, 10)']);
    expect(t.problem_statement).toMatch(/`clampValue\(5, 0, 10\)` returns 10|clampValue\(5, 0, 10\)/);
    expect(t.patch).toContain('-  if (value <= high) {\n+  if (value > high) {');
    expect(t).toMatchObject({ level: 0, difficulty: 'easy', test_files: ['test/clampValue.test.js'], mutation: { operator: 'comparison', function: 'clampValue', location: { file: 'src/clampValue.js', line: 5 } } });
    // Same input, same tasks (and the .jsonl lines parse back).
    expect(level0Tasks(checked(), o).map(formatTaskLine)).toEqual(tasks.map(formatTaskLine));
    const back = parseTaskFile(tasks.map(formatTaskLine).join('\n'), 'x');
    expect(back.errors).toEqual([]);
    expect(back.tasks).toHaveLength(tasks.length);
  });
  it('a bug that breaks every test is not a task', () => {
    const tasks = level0Tasks(checked(), o);
    for (const t of tasks) expect(t.PASS_TO_PASS.length).toBeGreaterThan(0);
  });
  it('splits by function: every task of a function is in its split, whatever the level', () => {
    const tasks = [...level0Tasks(checked(), o), ...level1Tasks(checked(), o)];
    for (const t of tasks) {
      const fns = [...new Set(Object.values(t.files).join('\n').match(/export function (\w+)/g)!.map((m) => m.slice(16)))];
      for (const fn of fns) expect(functionSplit(fn, o), `${t.instance_id}: ${fn}`).toBe(t.split);
    }
    expect(new Set(tasks.map((t) => t.split)).size).toBeGreaterThan(1);
    // The split of a name does not depend on the rest of the corpus.
    expect(functionSplit('clampValue', o)).toBe(functionSplit('clampValue', { ...o }));
  });
  it('level 1: a module of functions of one split, tests of all of them, the bug in one', () => {
    const tasks = level1Tasks(checked(), { ...o, testFraction: 0, valFraction: 0, moduleSize: 3 });
    const modules = new Set(tasks.map((t) => t.repo));
    // Five functions of one split: one module of 3 would leave 2; 5 - 3 = 2, so modules of 3 and 2.
    expect([...modules].sort()).toEqual(['sample-1', 'sample-2']);
    const t = tasks[0]!;
    expect(Object.keys(t.files)).toEqual(['package.json', 'src/sample.js', 'test/sample.test.js']);
    expect(t.level).toBe(1);
    expect(t.FAIL_TO_PASS.length + t.PASS_TO_PASS.length).toBe(t.files['test/sample.test.js']!.match(/^test\(/gm)!.length);
  });
  it('level 1 hard tier: two bugs in two functions of a module, each breaking tests of its own, both in the issue', () => {
    const tasks = level1Tasks(checked(), { ...o, testFraction: 0, valFraction: 0, moduleSize: 3 });
    const hard = tasks.filter((t) => t.difficulty === 'hard');
    const easy = tasks.filter((t) => t.difficulty === 'easy');
    expect(hard.length).toBeGreaterThan(0);
    expect(hard.length).toBeLessThanOrEqual(Math.ceil(easy.length / 3) + 2);
    for (const t of hard) {
      const parts = (t.mutation as unknown as { parts: { function: string }[] }).parts;
      expect(parts).toHaveLength(2);
      expect(parts[0]!.function).not.toBe(parts[1]!.function);
      expect(t.problem_statement.split('\n\n')).toHaveLength(2);
      for (const p of parts) expect(t.FAIL_TO_PASS.some((n) => n.startsWith(`${p.function}(`))).toBe(true);
    }
    expect(new Set(hard.map((t) => t.files['src/sample.js'])).size).toBe(hard.length);
  });
  it('the issue names the call, what it did and what it should do', () => {
    const rng = new Rng(3);
    const texts = new Set(Array.from({ length: 12 }, () => functionIssue('f(1)', { kind: 'value', source: '2' }, { kind: 'throws', name: 'TypeError', message: 'x' }, 3, rng)));
    expect([...texts].sort()).toEqual([
      'Bug: `f(1)` throws TypeError instead of returning 2. 2 other tests fail too.',
      'Calling `f(1)` throws TypeError; it should return 2. 2 other tests fail too.',
      '`f(1)` throws TypeError, but it should return 2. 2 other tests fail too.',
    ]);
  });
  it("voices 'reports': a user's report of the same failing call (five voices, a snippet that reproduces it), the same tasks otherwise", () => {
    const calls = level0Tasks(checked(), o);
    const reports = level0Tasks(checked(), { ...o, voices: 'reports' });
    expect(reports.map((t) => t.instance_id)).toEqual(calls.map((t) => t.instance_id));
    const strip = (t: (typeof calls)[number]) => formatTaskLine({ ...t, problem_statement: '', created_by: '' });
    expect(reports.map(strip)).toEqual(calls.map(strip));
    const t = reports.find((x) => x.instance_id === 'clampValue__4')!;
    expect(t.problem_statement).toContain("import { clampValue } from 'clampValue';\n\nconsole.log(clampValue(5, 0, 10));");
    expect(t.problem_statement).toMatch(/`clampValue\(5, 0, 10\)` gives me `10` but I expected `5`|\*\*Expected:\*\* `5`/);
    expect(t.created_by).toBe('webswe tasks build --level 0 --seed 1 --voices reports');
    // Never the file or a line number.
    for (const r of reports) expect(r.problem_statement).not.toMatch(/src\/|\bline \d/i);
    // More than one voice over the set, and a two-bug task reports both calls.
    const openers = new Set(reports.map((r) => r.problem_statement.split(/\s/)[0]));
    expect(openers.size).toBeGreaterThanOrEqual(3);
    const hard = level1Tasks(checked(), { ...o, testFraction: 0, valFraction: 0, voices: 'reports' }).filter((x) => x.difficulty === 'hard');
    for (const h of hard) for (const p of (h.mutation as unknown as { parts: { function: string }[] }).parts) expect(h.problem_statement).toContain(`${p.function}(`);
  });
  it('the facts of a failing call: values, an error where a value was due, no error, the wrong error; none for a call that never returns', () => {
    const c = { call: 'f(1)', fn: 'f', title: 'f(1)' };
    const v = (source: string) => ({ kind: 'value' as const, source });
    const e = (name: string, message = '') => ({ kind: 'throws' as const, name, message });
    expect(callFacts({ ...c, expected: v('2'), actual: v('3') }, 'r')).toMatchObject({ kind: 'values', expected: '2', actual: '3', subject: 'f(1)', fn: 'f', snippet: "import { f } from 'r';\n\nconsole.log(f(1));" });
    expect(callFacts({ ...c, expected: v('2'), actual: e('TypeError', 'x is null') }, 'r')).toMatchObject({ kind: 'error', thrown: 'TypeError: x is null' });
    expect(callFacts({ ...c, expected: e('RangeError'), actual: v('2') }, 'r')).toMatchObject({ kind: 'no-throw', wanted: 'RangeError', snippet: "import { f } from 'r';\n\nf(1);" });
    expect(callFacts({ ...c, expected: e('RangeError'), actual: e('TypeError') }, 'r')).toMatchObject({ kind: 'wrong-error', wanted: 'RangeError', thrown: 'TypeError' });
    expect(callFacts({ ...c, expected: v('2'), actual: { kind: 'timeout' } }, 'r')).toBeNull();
  });
  it('the tasks pass the validator in the node sandbox (base fails F2P, the gold patch passes all)', async () => {
    const l1 = level1Tasks(checked(), o);
    const tasks = [...level0Tasks(checked(), o).filter((_, i) => i % 3 === 0), ...l1.slice(0, 3), ...l1.filter((t) => t.difficulty === 'hard').slice(0, 3)];
    const verdicts = await validateTasks(tasks, createNodeSandbox, { concurrency: 2, timeoutMs: 5000 });
    expect(verdicts.filter((v) => !v.valid)).toEqual([]);
  }, 120_000);
  it('test files assert each call with deepEqual or throws', () => {
    const text = testFileText('../src/f.js', [{ name: 'f', cases: [{ args: ['1'], outcome: { kind: 'value', source: '[1]' } }, { args: ['1'], outcome: { kind: 'throws', name: 'RangeError', message: '' } }] }]);
    expect(text).toBe(
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { f } from '../src/f.js';\n\n" +
        'test("f(1)", () => {\n  assert.deepEqual(f(1), [1]);\n});\n\ntest("f(1) #2", () => {\n  assert.throws(() => f(1), { name: "RangeError" });\n});\n',
    );
  });
});
