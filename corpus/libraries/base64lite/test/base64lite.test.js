import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeBytes, decodeBytes, utf8Encode, utf8Decode, encode, decode } from '../src/base64lite.js';

describe('base64lite', () => {
  describe('encodeBytes', () => {
    it('encodes an empty array to an empty string', () => {
      assert.equal(encodeBytes([]), '');
    });

    it('encodes full groups of three bytes without padding', () => {
      assert.equal(encodeBytes([77, 97, 110]), 'TWFu');
      assert.equal(encodeBytes([0, 0, 0]), 'AAAA');
      assert.equal(encodeBytes([255, 255, 255]), '////');
    });

    it('pads partial groups', () => {
      assert.equal(encodeBytes([77]), 'TQ==');
      assert.equal(encodeBytes([77, 97]), 'TWE=');
      assert.equal(encodeBytes([77, 97, 110, 77]), 'TWFuTQ==');
    });

    it('uses the url-safe alphabet without padding', () => {
      assert.equal(encodeBytes([251, 255], false), '+/8=');
      assert.equal(encodeBytes([251, 255], true), '-_8');
      assert.equal(encodeBytes([77], true), 'TQ');
      assert.equal(encodeBytes([62 << 2], true), '-A');
    });

    it('rejects bytes outside 0..255', () => {
      assert.throws(() => encodeBytes([256]), RangeError);
      assert.throws(() => encodeBytes([1, -1]), /out of range/);
      assert.throws(() => encodeBytes([1, 2, 300]), /out of range at 2/);
      assert.throws(() => encodeBytes([1, 2, 3, 256]), RangeError);
      assert.throws(() => encodeBytes([1.5]), RangeError);
      assert.equal(encodeBytes([255, 0, 255]), '/wD/');
    });
  });

  describe('decodeBytes', () => {
    it('decodes padded input', () => {
      assert.deepEqual(decodeBytes('TWFu'), [77, 97, 110]);
      assert.deepEqual(decodeBytes('TQ=='), [77]);
      assert.deepEqual(decodeBytes('TWE='), [77, 97]);
      assert.deepEqual(decodeBytes(''), []);
    });

    it('decodes url-safe input without padding', () => {
      assert.deepEqual(decodeBytes('-_8'), [251, 255]);
      assert.deepEqual(decodeBytes('TQ'), [77]);
      assert.deepEqual(decodeBytes('AAAA'), [0, 0, 0]);
      assert.deepEqual(decodeBytes('AP8'), [0, 255]);
      assert.deepEqual(decodeBytes('_-A'), [255, 224]);
    });

    it('ignores whitespace', () => {
      assert.deepEqual(decodeBytes('TW Fu\nTQ=='), [77, 97, 110, 77]);
    });

    it('rejects invalid characters and lengths', () => {
      assert.throws(() => decodeBytes('TW*u'), /invalid base64 character/);
      assert.throws(() => decodeBytes('TWFuT'), /invalid base64 length/);
      assert.throws(() => decodeBytes('A'), SyntaxError);
    });

    it('round-trips all byte values', () => {
      const bytes = [];
      for (let i = 0; i < 256; i++) {
        bytes.push(i);
      }
      assert.deepEqual(decodeBytes(encodeBytes(bytes)), bytes);
      assert.deepEqual(decodeBytes(encodeBytes(bytes, true)), bytes);
      assert.deepEqual(decodeBytes(encodeBytes(bytes.slice(0, 5))), [0, 1, 2, 3, 4]);
    });
  });

  describe('utf8', () => {
    it('encodes ASCII as single bytes', () => {
      assert.deepEqual(utf8Encode('Az~'), [65, 122, 126]);
      assert.deepEqual(utf8Encode(''), []);
      assert.deepEqual(utf8Encode('\u007f'), [127]);
    });

    it('encodes multi-byte characters', () => {
      assert.deepEqual(utf8Encode('\u0080'), [0xc2, 0x80]);
      assert.deepEqual(utf8Encode('é'), [0xc3, 0xa9]);
      assert.deepEqual(utf8Encode('\u07ff'), [0xdf, 0xbf]);
      assert.deepEqual(utf8Encode('\u0800'), [0xe0, 0xa0, 0x80]);
      assert.deepEqual(utf8Encode('€'), [0xe2, 0x82, 0xac]);
      assert.deepEqual(utf8Encode('😀'), [0xf0, 0x9f, 0x98, 0x80]);
      assert.deepEqual(utf8Encode('\u0fff'), [0xe0, 0xbf, 0xbf]);
      assert.deepEqual(utf8Encode('\uffff'), [0xef, 0xbf, 0xbf]);
    });

    it('combines surrogate pairs at the range boundaries', () => {
      assert.deepEqual(utf8Encode('\ud800\udc00'), [0xf0, 0x90, 0x80, 0x80]);
      assert.deepEqual(utf8Encode('\udbff\udfff'), [0xf4, 0x8f, 0xbf, 0xbf]);
      assert.deepEqual(utf8Encode('\ud83d\ude01'), [0xf0, 0x9f, 0x98, 0x81]);
    });

    it('encodes lone surrogates as three bytes', () => {
      assert.deepEqual(utf8Encode('\ud800'), [0xed, 0xa0, 0x80]);
      assert.deepEqual(utf8Encode('\ud7ff'), [0xed, 0x9f, 0xbf]);
      assert.deepEqual(utf8Encode('\udbffA'), [0xed, 0xaf, 0xbf, 0x41]);
      assert.deepEqual(utf8Encode('\ud800\ue000'), [0xed, 0xa0, 0x80, 0xee, 0x80, 0x80]);
      assert.deepEqual(utf8Encode('\ud800\udbff'), [0xed, 0xa0, 0x80, 0xed, 0xaf, 0xbf]);
      assert.deepEqual(utf8Encode('\udc00'), [0xed, 0xb0, 0x80]);
      assert.deepEqual(utf8Encode('A\udc00'), [0x41, 0xed, 0xb0, 0x80]);
      assert.deepEqual(utf8Encode('\ue000\udc00'), [0xee, 0x80, 0x80, 0xed, 0xb0, 0x80]);
    });

    it('decodes multi-byte characters', () => {
      assert.equal(utf8Decode([0xc3, 0xa9]), 'é');
      assert.equal(utf8Decode([0xe2, 0x82, 0xac]), '€');
      assert.equal(utf8Decode([0xf0, 0x9f, 0x98, 0x80]), '😀');
      assert.equal(utf8Decode([104, 105]), 'hi');
      assert.equal(utf8Decode([0xc2, 0x80]), '\u0080');
      assert.equal(utf8Decode([0xdf, 0xbf]), '\u07ff');
      assert.equal(utf8Decode([0xe0, 0xa0, 0x80]), '\u0800');
      assert.equal(utf8Decode([0xef, 0xbf, 0xbf]), '\uffff');
      assert.equal(utf8Decode([0xf4, 0x8f, 0xbf, 0xbf]), '\udbff\udfff');
      assert.equal(utf8Decode([0xf1, 0x80, 0x80, 0x80]), '\u{40000}');
    });

    it('rejects malformed utf-8', () => {
      assert.throws(() => utf8Decode([0xc3]), /truncated/);
      assert.throws(() => utf8Decode([0xe2, 0x82]), /truncated/);
      assert.throws(() => utf8Decode([0x80]), /lead byte/);
      assert.throws(() => utf8Decode([0xff]), /lead byte/);
      assert.throws(() => utf8Decode([0xf8, 0x80, 0x80, 0x80]), /lead byte at 0/);
      assert.throws(() => utf8Decode([0xc1, 0x80]), /lead byte/);
      assert.throws(() => utf8Decode([0xc0, 0x80]), /lead byte at 0/);
      assert.throws(() => utf8Decode([0x41, 0xe2, 0x82, 0x41]), /continuation byte at 3/);
      assert.throws(() => utf8Decode([0xc3, 0x41]), /continuation/);
    });
  });

  describe('string helpers', () => {
    it('encode and decode text', () => {
      assert.equal(encode('hello'), 'aGVsbG8=');
      assert.equal(encode('hello', true), 'aGVsbG8');
      assert.equal(decode('aGVsbG8='), 'hello');
      assert.equal(encode('é'), 'w6k=');
    });

    it('round-trips unicode text', () => {
      const text = 'Grüße, 世界! 😀';
      assert.equal(decode(encode(text)), text);
      assert.equal(decode(encode(text, true)), text);
    });
  });
});
