// Issue text from a failing test: node:assert's messages parsed, the failing call found in the test
// source (or named by a probe run), and every voice mentions function, input, actual and expected,
// with no line numbers and no file paths.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/random.ts';
import { failureFacts, instrumentTests, parseMessage, PROBE_MARK, readProbes, writeIssue } from '../../../src/tasks/issue-text.ts';
import { parseModule } from '../../../src/tasks/mutate.ts';

const TEST = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toRoman, Counter } from '../src/roman.js';

const big = (n) => n * 1000;

describe('roman', () => {
  const unused = 1;
  it('converts thousands', () => {
    assert.equal(toRoman(big(2)), 'MM');
  });
  describe('toRoman', () => {
    it('uses subtractive notation', () => {
      assert.equal(toRoman(9), 'IX');
      assert.equal(toRoman(4), 'IV');
    });
    it('rejects values outside the range', () => {
      assert.throws(() => toRoman(0), RangeError);
      assert.throws(() => toRoman(4000), RangeError);
    });
  });
  it('counts', () => {
    const c = new Counter();
    c.add(2);
    assert.equal(c.total(), 2);
    assert.deepEqual(c.items(), [2, 3]);
  });
});
`;
const FILES = { 'test/roman.test.js': TEST };

describe('parseMessage', () => {
  it('reads node:assert messages', () => {
    expect(parseMessage("Expected values to be strictly equal:\n\n'IIII' !== 'IV'\n")).toEqual({ kind: 'values', actual: "'IIII'", expected: "'IV'" });
    expect(parseMessage("Expected values to be strictly equal:\n+ actual - expected\n\n+ 'MMMCMXCVIII'\n- 'MMMCMXCIX'\n          ^")).toEqual({
      kind: 'values',
      actual: "'MMMCMXCVIII'",
      expected: "'MMMCMXCIX'",
    });
    expect(parseMessage('Expected values to be strictly deep-equal:\n+ actual - expected\n\n  [\n    2,\n+   4\n-   3\n  ]')).toEqual({ kind: 'values', actual: '[\n  2,\n  4\n]', expected: '[\n  2,\n  3\n]' });
    expect(parseMessage('Missing expected exception (RangeError).')).toEqual({ kind: 'no-throw', wanted: 'RangeError' });
    expect(parseMessage("The input did not match the regular expression /empty/. Input:\n\n'Error: abc'\n")).toEqual({ kind: 'wrong-error', wanted: '/empty/', thrown: 'Error: abc' });
    expect(parseMessage('The error is expected to be an instance of "RangeError". Received "TypeError"\n\nError message:\n\nbad')).toEqual({ kind: 'wrong-error', wanted: 'RangeError', thrown: 'TypeError: bad' });
    expect(parseMessage('The expression evaluated to a falsy value:\n\n  assert.ok(x > 1)\n')).toEqual({ kind: 'falsy', wanted: 'assert.ok(x > 1)' });
    expect(parseMessage("Cannot read properties of undefined (reading '0')")).toEqual({ kind: 'error', thrown: "Cannot read properties of undefined (reading '0')" });
  });
});

describe('failureFacts', () => {
  it('finds the assertion whose expected value the message shows', () => {
    const f = failureFacts(FILES, 'roman', { fullName: 'roman > toRoman > uses subtractive notation', message: "Expected values to be strictly equal:\n\n'IIII' !== 'IV'\n" });
    expect(f).toMatchObject({ kind: 'values', subject: 'toRoman(4)', fn: 'toRoman', actual: "'IIII'", expected: "'IV'", certain: true });
    expect(f.snippet).toBe("import { toRoman } from 'roman';\n\nconsole.log(toRoman(4));");
  });

  it('keeps setup (and earlier calls, for their side effects) in the reproduction', () => {
    const f = failureFacts(FILES, 'roman', { fullName: 'roman > counts', message: 'Expected values to be strictly deep-equal:\n+ actual - expected\n\n  [\n    2,\n-   3\n  ]' });
    expect(f).toMatchObject({ subject: 'c.items()', fn: 'items', certain: true });
    expect(f.snippet).toBe("import { Counter } from 'roman';\n\nconst c = new Counter();\nc.add(2);\nc.total();\nconsole.log(c.items());");
  });

  it('brings in the helpers and data the test uses from outside its body', () => {
    const f = failureFacts(FILES, 'roman', { fullName: 'roman > converts thousands', message: "Expected values to be strictly equal:\n\n'M' !== 'MM'\n" });
    expect(f.snippet).toBe("import { toRoman } from 'roman';\n\nconst big = (n) => n * 1000;\n\nconsole.log(toRoman(big(2)));");
  });

  it('is uncertain when several assertions fit, until a probe names the one that threw', () => {
    const failure = { fullName: 'roman > toRoman > rejects values outside the range', message: 'Missing expected exception (RangeError).' };
    expect(failureFacts(FILES, 'roman', failure)).toMatchObject({ subject: 'toRoman(0)', certain: false });
    expect(failureFacts(FILES, 'roman', failure, { test: failure.fullName, k: 1 })).toMatchObject({ subject: 'toRoman(4000)', certain: true, wanted: 'RangeError' });
  });

  it('instruments the named tests so the first assertion to throw prints its index', () => {
    const text = instrumentTests(TEST, ['roman > toRoman > rejects values outside the range']);
    expect(() => parseModule(text)).not.toThrow();
    expect(text).toContain('__webswe_probe("roman > toRoman > rejects values outside the range", 1, () => assert.throws(() => toRoman(4000), RangeError))');
    expect(text).toContain("assert.equal(toRoman(9), 'IX');"); // other tests untouched
    const out = `noise\n${PROBE_MARK}{"test":"a > b","k":3,"name":"AssertionError"}\n${PROBE_MARK}{"test":"a > b","k":5}\n`;
    expect(readProbes(out).get('a > b')).toEqual({ test: 'a > b', k: 3, name: 'AssertionError' });
  });
});

describe('writeIssue', () => {
  const one = failureFacts(FILES, 'roman', { fullName: 'roman > toRoman > uses subtractive notation', message: "Expected values to be strictly equal:\n\n'IIII' !== 'IV'\n" });
  const two = failureFacts(FILES, 'roman', { fullName: 'roman > toRoman > rejects values outside the range', message: 'Missing expected exception (RangeError).' }, { test: '', k: 1 });
  const texts = Array.from({ length: 40 }, (_, seed) => writeIssue([one], 'roman', new Rng(seed)));

  it('uses several voices, chosen by the seed', () => {
    expect(new Set(texts).size).toBeGreaterThanOrEqual(4);
    expect(writeIssue([one], 'roman', new Rng(3))).toBe(writeIssue([one], 'roman', new Rng(3)));
  });

  it('names the function, the input, what came back and what was expected, in every voice', () => {
    for (const t of texts) {
      expect(t).toContain('toRoman(4)');
      expect(t).toContain("'IIII'");
      expect(t).toContain("'IV'");
    }
  });

  it('never shows a line number, a file path or the fix', () => {
    const all = [...texts, ...Array.from({ length: 20 }, (_, s) => writeIssue([one, two], 'roman', new Rng(s)))];
    for (const t of all) {
      expect(t).not.toMatch(/\bline \d+|:\d+:\d+|\.js:\d+/i);
      expect(t).not.toMatch(/(src|test)\/|\.\.\/|roman\.js/);
      expect(t).not.toMatch(/mutat|operator|patch/i);
    }
  });

  it('describes both failures of a two-bug task', () => {
    for (let s = 0; s < 10; s++) {
      const t = writeIssue([one, two], 'roman', new Rng(s));
      expect(t).toContain('toRoman(4)');
      expect(t).toContain('toRoman(4000)');
    }
  });
});
