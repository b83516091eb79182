import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, parseObjects, quoteField, stringify } from '../src/csvparse.js';

describe('csvparse', () => {
  describe('parse', () => {
    it('parses simple rows', () => {
      assert.deepEqual(parse('a,b,c\n1,2,3'), [['a', 'b', 'c'], ['1', '2', '3']]);
      assert.deepEqual(parse('single'), [['single']]);
    });

    it('handles empty input and empty fields', () => {
      assert.deepEqual(parse(''), []);
      assert.deepEqual(parse(',,'), [['', '', '']]);
      assert.deepEqual(parse('a,,c'), [['a', '', 'c']]);
      assert.deepEqual(parse('a,'), [['a', '']]);
    });

    it('ignores a single trailing newline', () => {
      assert.deepEqual(parse('a,b\n'), [['a', 'b']]);
      assert.deepEqual(parse('a\n\nb'), [['a'], [''], ['b']]);
    });

    it('accepts CRLF and CR line endings', () => {
      assert.deepEqual(parse('a,b\r\nc,d\r\n'), [['a', 'b'], ['c', 'd']]);
      assert.deepEqual(parse('a\rb'), [['a'], ['b']]);
    });

    it('parses quoted fields with delimiters and newlines', () => {
      assert.deepEqual(parse('"a,b",c'), [['a,b', 'c']]);
      assert.deepEqual(parse('"line1\nline2",x'), [['line1\nline2', 'x']]);
      assert.deepEqual(parse('""'), [['']]);
      assert.deepEqual(parse('"",""\n"x"'), [['', ''], ['x']]);
    });

    it('unescapes doubled quotes', () => {
      assert.deepEqual(parse('"say ""hi""",2'), [['say "hi"', '2']]);
      assert.deepEqual(parse('""""'), [['"']]);
    });

    it('keeps quotes inside unquoted fields literally', () => {
      assert.deepEqual(parse('ab"c,d'), [['ab"c', 'd']]);
    });

    it('supports a custom delimiter', () => {
      assert.deepEqual(parse('a;b;"c;d"', { delimiter: ';' }), [['a', 'b', 'c;d']]);
      assert.deepEqual(parse('a\tb,c', { delimiter: '\t' }), [['a', 'b,c']]);
    });

    it('rejects malformed quoting', () => {
      assert.throws(() => parse('"abc'), /unterminated/);
      assert.throws(() => parse('"abc"x,1'), /after closing quote/);
      assert.throws(() => parse('"a""'), SyntaxError);
      assert.deepEqual(parse('"abc"\n'), [['abc']]);
    });

    it('rejects invalid delimiters', () => {
      assert.throws(() => parse('a', { delimiter: '"' }), TypeError);
      assert.throws(() => parse('a', { delimiter: ';;' }), /single character/);
      assert.throws(() => stringify([['a']], { delimiter: '\n' }), TypeError);
    });
  });

  describe('parseObjects', () => {
    it('maps rows to objects using the header', () => {
      assert.deepEqual(parseObjects('name,age\nann,31\nbob,42'), [
        { name: 'ann', age: '31' },
        { name: 'bob', age: '42' },
      ]);
    });

    it('handles header-only and empty input', () => {
      assert.deepEqual(parseObjects('a,b'), []);
      assert.deepEqual(parseObjects(''), []);
    });

    it('rejects rows with the wrong field count', () => {
      assert.throws(() => parseObjects('a,b\n1'), /row 1 has 1 fields, expected 2/);
      assert.throws(() => parseObjects('a,b\n1,2\n1,2,3'), RangeError);
    });
  });

  describe('stringify', () => {
    it('quoteField quotes only when needed', () => {
      assert.equal(quoteField('plain'), 'plain');
      assert.equal(quoteField('a,b'), '"a,b"');
      assert.equal(quoteField('say "hi"'), '"say ""hi"""');
      assert.equal(quoteField('two\nlines'), '"two\nlines"');
      assert.equal(quoteField('cr\rhere'), '"cr\rhere"');
      assert.equal(quoteField('a;b'), 'a;b');
      assert.equal(quoteField('a;b', ';'), '"a;b"');
      assert.equal(quoteField(',a'), '",a"');
      assert.equal(quoteField('"'), '""""');
      assert.equal(quoteField(''), '');
    });

    it('quoteField converts non-strings', () => {
      assert.equal(quoteField(42), '42');
      assert.equal(quoteField(null), '');
      assert.equal(quoteField(undefined), '');
      assert.equal(quoteField(false), 'false');
    });

    it('stringify joins rows and fields', () => {
      assert.equal(stringify([['a', 'b'], ['1', '2']]), 'a,b\n1,2');
      assert.equal(stringify([]), '');
      assert.equal(stringify([['x', 'y']], { delimiter: '|', newline: '\r\n' }), 'x|y');
      assert.equal(stringify([['x'], ['y']], { newline: '\r\n' }), 'x\r\ny');
    });

    it('round-trips tricky data', () => {
      const rows = [
        ['id', 'text'],
        ['1', 'hello, world'],
        ['2', 'quote " inside'],
        ['3', 'multi\nline'],
        ['4', ''],
      ];
      assert.deepEqual(parse(stringify(rows)), rows);
      assert.deepEqual(parse(stringify(rows, { delimiter: ';' }), { delimiter: ';' }), rows);
    });
  });
});
