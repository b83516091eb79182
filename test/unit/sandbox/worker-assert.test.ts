// The worker sandbox's node:assert and util.inspect against Node's own, in the same process: every
// case's error name, code, message, generatedMessage and operator must match, so a failing test reads
// the same in the worker sandbox as under Node (the parity test checks the bundled tasks end to end).
import nodeLegacy from 'node:assert';
import nodeStrict from 'node:assert/strict';
import util from 'node:util';
import { describe, expect, it } from 'vitest';
import { createAssert } from '../../../src/sandbox/worker/assert.ts';
import { format } from '../../../src/sandbox/worker/format.ts';
import { ASSERT_OPTIONS, inspect } from '../../../src/sandbox/worker/inspect.ts';

const ours = createAssert();
class Foo {
  x = 1;
}
class Bar {
  constructor() {
    (this as any).x = 1;
    (this as any).y = [1, 2];
  }
}
class MyErr extends Error {}
const circA: any = { n: 1 };
circA.self = circA;
const circB: any = { n: 1 };
circB.self = circB;
const circC: any = { n: 2 };
circC.self = circC;

const cases: [string, (a: any, l: any) => unknown][] = [
  ['eq', (a) => a.equal(1, 2)], ['eq str', (a) => a.equal('abc', 'abd')], ['eq mixed', (a) => a.equal('a', 1)], ['null undef', (a) => a.equal(null, undefined)],
  ['nan', (a) => a.equal(NaN, 0)], ['nan ok', (a) => a.equal(NaN, NaN)], ['-0', (a) => a.equal(-0, 0)], ['bigint', (a) => a.equal(1n, 2n)],
  ['long str', (a) => a.equal('a long string that is long', 'a long string that is longer')], ['nl str', (a) => a.equal('line1\nline2', 'line1\nline3')],
  ['arr ref', (a) => a.equal([1], [1])], ['obj ref', (a) => a.equal({ a: 1 }, { a: 1 })], ['float', (a) => a.equal(0.1 + 0.2, 0.3)],
  ['ne', (a) => a.notEqual(1, 1)], ['ne str', (a) => a.notEqual('a', 'a')], ['ne obj', (a) => { const o = { x: 1 }; a.notEqual(o, o); }],
  ['de arr', (a) => a.deepEqual([1, 2, 3], [1, 2, 4])], ['de nested', (a) => a.deepEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] })],
  ['de empty', (a) => a.deepEqual([], [1])], ['de obj empty', (a) => a.deepEqual({}, { a: 1 })], ['de map', (a) => a.deepEqual(new Map([[1, 2]]), new Map([[1, 3]]))],
  ['de set', (a) => a.deepEqual(new Set([1]), new Set([2]))], ['de class', (a) => a.deepEqual(new Foo(), { x: 1 })], ['de arr str', (a) => a.deepEqual([1, 2], '1,2')],
  ['de prim', (a) => a.deepEqual(1, 2)], ['de prim str', (a) => a.deepEqual('ab', 'ac')], ['de 2d', (a) => a.deepEqual([[1, 2], [3, 4]], [[1, 2], [3, 5]])],
  ['de 30', (a) => a.deepEqual(Array.from({ length: 30 }, (_, i) => i), Array.from({ length: 30 }, (_, i) => (i === 15 ? -1 : i)))],
  ['de deep', (a) => a.deepEqual({ name: 'x', items: [{ id: 1, tags: ['a'] }] }, { name: 'x', items: [{ id: 1, tags: ['b'] }] })],
  ['de pass', (a) => a.deepEqual([1, 2, 3], [1, 2, 3], 'never')], ['eq msg', (a) => a.equal(1, 2, 'custom message')],
  ['ok false', (a) => a.ok(false, 'ok custom')], ['ok none', (a) => a.ok()], ['throws none', (a) => a.throws(() => {})],
  ['throws cls none', (a) => a.throws(() => {}, RangeError)], ['throws re none', (a) => a.throws(() => {}, /boom/)],
  ['throws re', (a) => a.throws(() => { throw new Error('bang'); }, /boom/)], ['throws cls', (a) => a.throws(() => { throw new TypeError('bang'); }, RangeError)],
  ['throws obj', (a) => a.throws(() => { throw new Error('bang'); }, { message: 'boom' })], ['throws str re', (a) => a.throws(() => { throw 'str'; }, /boom/)],
  ['match', (a) => a.match('abc', /x/)], ['match num', (a) => a.match(5, /x/)], ['dnm', (a) => a.doesNotMatch('abc', /b/)], ['nde', (a) => a.notDeepEqual([1], [1])],
  ['fail', (a) => a.fail()], ['fail msg', (a) => a.fail('failed here')], ['dnt', (a) => a.doesNotThrow(() => { throw new Error('oops'); })],
  ['de undef key', (a) => a.deepEqual({ a: undefined }, {})], ['de holes', (a) => a.deepEqual([1, , 3], [1, undefined, 3])], ['de date', (a) => a.deepEqual(new Date(0), new Date(1))],
  ['de re', (a) => a.deepEqual(/a/g, /a/i)], ['de 7keys', (a) => a.deepEqual({ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 }, { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 8 })],
  ['eq same struct', (a) => a.equal({ a: 1, b: 'two', c: [3] }, { a: 1, b: 'two', c: [3] })], ['de strs', (a) => a.deepEqual(['x', 'y'], ['x', 'z'])],
  ['de -0', (a) => a.deepEqual([1.5, -0], [1.5, 0])], ['de quote', (a) => a.deepEqual({ s: "it's" }, { s: 'its' })],
  ['msg cm', (a) => a.equal('a long string that is long', 'a long string that is longer', 'cm')], ['msg cm deep', (a) => a.deepEqual([1, 2], [1, 3], 'cm deep')],
  ['msg same', (a) => a.equal({ a: 1 }, { a: 1 }, 'cm same')], ['msg not', (a) => a.notEqual(1, 1, 'cm not')], ['msg err', (a) => a.equal(1, 2, new TypeError('err msg'))],
  ['no args', (a) => a.equal()], ['throws 5', (a) => a.throws(5)], ['match nonre', (a) => a.match('x', 'notregex')], ['throw prim obj', (a) => a.throws(() => { throw 5; }, { message: 'x' })],
  ['throws {}', (a) => a.throws(() => { throw new Error('x'); }, {})], ['ambiguous', (a) => a.throws(() => { throw new Error('x'); }, 'x')],
  ['throws re key', (a) => a.throws(() => { throw new Error('abc'); }, { message: /z/, name: 'Error' })], ['throws errobj', (a) => a.throws(() => { throw new Error('abc'); }, new Error('abd'))],
  ['throws plain cls', (a) => a.throws(() => { throw 'plain'; }, TypeError)], ['throws ok sub', (a) => a.throws(() => { throw new RangeError('r'); }, Error, 'unused')],
  ['dnt msg', (a) => a.doesNotThrow(() => { throw new Error('oops'); }, 'why')], ['de arr7', (a) => a.deepEqual({ a: [1, 2, 3, 4, 5, 6, 7] }, { a: [1, 2, 3, 4, 5, 6, 8] })],
  ['de long str', (a) => a.deepEqual('a'.repeat(50), 'a'.repeat(49) + 'b')], ['eq nl', (a) => a.equal('abc\ndef', 'abc\ndeg')],
  ['de extra', (a) => a.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])],
  ['de deep2', (a) => a.deepEqual({ x: 1, y: { z: [1, { w: 2 }] } }, { x: 1, y: { z: [1, { w: 3 }] } })],
  ['de 80', (a) => a.deepEqual(Array.from({ length: 80 }, (_, i) => i), Array.from({ length: 80 }, (_, i) => -i))],
  ['throws fn', (a) => a.throws(() => { throw new Error('bang'); }, (e: unknown) => false)], ['throws msg', (a) => a.throws(() => {}, 'my message')],
  ['throws cls miss', (a) => a.throws(() => {}, TypeError, 'the msg')], ['iferr', (a) => a.ifError(new Error('iferr'))],
  ['de sets objs', (a) => a.deepEqual(new Set([{ a: 1 }, 2]), new Set([2, { a: 1 }]))], ['de maps objs', (a) => a.deepEqual(new Map([[{ k: 1 }, 'v']]), new Map([[{ k: 1 }, 'v']]))],
  ['de nullproto', (a) => a.deepEqual(Object.create(null), {})], ['de err', (a) => a.deepEqual(new Error('a'), new Error('b'))],
  ['de nested long', (a) => a.deepEqual({ list: [1, 2, 3, 4, 5, 6, 7, 8] }, { list: [1, 2, 3, 4, 5, 6, 7, 9] })],
  ['de circ eq', (a) => a.deepEqual(circA, circB)], ['de circ ne', (a) => a.deepEqual(circA, circC)], ['de typed', (a) => a.deepEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))],
  ['de sym', (a) => a.deepEqual({ [Symbol.for('s')]: 1 }, { [Symbol.for('s')]: 2 })], ['de nan', (a) => a.deepEqual([NaN], [NaN])],
  ['de set prim', (a) => a.deepEqual(new Set(['a', 'b', 'c']), new Set(['a', 'b', 'd']))], ['de map nested', (a) => a.deepEqual(new Map([['a', [1, 2]]]), new Map([['a', [1, 3]]]))],
  ['de obj order', (a) => a.deepEqual({ b: 1, a: 2 }, { a: 2, b: 1 })], ['de bool', (a) => a.deepEqual(true, 1)], ['eq undef null', (a) => a.equal(undefined, null)],
  ['de arrays of objs', (a) => a.deepEqual([{ from: 'a', to: 'b', w: 1 }, { from: 'b', to: 'c', w: 2 }], [{ from: 'a', to: 'b', w: 1 }, { from: 'b', to: 'c', w: 3 }])],
  ['de str arr', (a) => a.deepEqual(['The quick brown fox', 'jumps over', 'the lazy dog'], ['The quick brown', 'fox jumps over', 'the lazy dog'])],
  ['legacy eq', (_a, l) => l.equal(1, 2)], ['legacy deq', (_a, l) => l.deepEqual([1], [2])], ['legacy pass', (_a, l) => { l.equal(1, '1'); l.deepEqual({ a: 1 }, { a: '1' }); }],
  ['legacy ndeq', (_a, l) => l.notDeepEqual({ a: 1 }, { a: '1' })], ['legacy ne', (_a, l) => l.notEqual(1, '1')],
];

const outcome = (f: () => unknown) => {
  try {
    f();
    return 'no throw';
  } catch (e: any) {
    return { name: e?.name, code: e?.code, message: e?.message, generatedMessage: e?.generatedMessage, operator: e?.operator };
  }
};

describe('worker sandbox assert', () => {
  it.each(cases)('%s: same error as node:assert', (_name, f) => {
    expect(outcome(() => f(ours.strict, ours.legacy))).toEqual(outcome(() => f(nodeStrict, nodeLegacy)));
  });

  it('rejects and doesNotReject as node:assert', async () => {
    const asyncCases: ((a: any) => Promise<unknown>)[] = [
      (a) => a.rejects(async () => {}, /x/),
      (a) => a.rejects(Promise.reject(new Error('x')), /x/),
      (a) => a.rejects(async () => { throw new TypeError('t'); }, RangeError),
      (a) => a.doesNotReject(async () => { throw new Error('q'); }),
    ];
    const settle = (p: Promise<unknown>) => p.then(() => 'no throw', (e: any) => ({ name: e?.name, message: e?.message, operator: e?.operator }));
    for (const f of asyncCases) expect(await settle(f(ours.strict))).toEqual(await settle(f(nodeStrict)));
  });

  it('has the same exports as node:assert and node:assert/strict', () => {
    const shape = (o: object) => Object.keys(o).filter((k) => k !== 'CallTracker').sort();
    expect(shape(ours.strict)).toEqual(expect.arrayContaining(shape(nodeStrict).filter((k) => !['partialDeepStrictEqual'].includes(k))));
    expect(ours.strict.equal).toBe(ours.strict.strictEqual);
    expect(ours.legacy.strict).toBe(ours.strict);
  });
});

describe('worker sandbox inspect', () => {
  const sparse: any = [1, , 3];
  sparse.extra = 'e';
  const circ: any = { a: 1 };
  circ.self = circ;
  const values: unknown[] = [
    1, -0, 'str', "it's", 'both \'"', 'line\nbreak', 'x'.repeat(200) + '\n' + 'y'.repeat(50), 12n, Symbol('s'), undefined, null, true, NaN,
    [1, 2, 3], [], {}, { a: 1, b: 'two', c: [3, { d: 4 }] }, new Bar(), Object.create(null), Object.assign(Object.create(null), { q: 1 }),
    new Map<unknown, unknown>([[1, { a: 1 }], ['k', [1, 2]]]), new Set([3, 1, 'a']), new Date(0), new Date(NaN), /re+/gi, new Error('boom'), new MyErr('mine'),
    function named() {}, () => {}, class A {}, class B extends Foo {}, async function af() {}, circ, sparse, new Uint8Array([1, 2, 3]),
    { 'a-b': 1, [Symbol('sym')]: 2, _ok: 3 }, { get g() { return 5; }, set s(v: any) {} }, new Number(3), new String('ab'),
    Array.from({ length: 30 }, (_, i) => i * 7), Array.from({ length: 120 }, (_, i) => i), ['apple', 'banana', 'cherry', 'date', 'elderberry', 'fig', 'grape', 'honeydew'],
    { a: { b: { c: { d: { e: 1 } } } } }, [[1, [2, [3, [4, [5]]]]]], { long: 'z'.repeat(100), other: 'w'.repeat(40) },
    { items: [{ id: 1, tags: ['a', 'b'] }, { id: 2, tags: [] }], total: 2, name: 'list' }, new Map(), new Set(), [undefined, null],
    Object.assign([1, 2], { k: 'v' }), { 'key with space': 1, 3: 'num', '01': 'x' }, [ 'a\tb', '\u0001', '\\' ],
    { nested: new Map([['a', new Set([1, 2])]]) }, [1.5, 2.25, -3, 1e21, 1e-7],
  ];
  
  it('prints values as util.inspect does (console defaults and assert options)', () => {
    for (const v of values) {
      expect(inspect(v)).toBe(util.inspect(v));
      expect(inspect(v, ASSERT_OPTIONS)).toBe(util.inspect(v, { compact: false, customInspect: false, depth: 1000, maxArrayLength: Infinity, sorted: true, getters: true }));
    }
  });

  it('formats console arguments as util.format does', () => {
    for (const args of [['a %s b %d', 'x', 42], ['%o', { a: 1 }], ['%j', { a: [1] }], [{ a: 1 }, 'str', 3], ['100%', 'x'], ['%i %f %%', '42.5', '1.5'], ['%c styled', 'color: red'], ['no args'], [new Map([[1, 2]]), new Set([1])]]) {
      expect(format(...args)).toBe(util.format(...args));
    }
  });
});
