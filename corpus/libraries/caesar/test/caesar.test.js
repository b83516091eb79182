import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  shiftChar,
  isLetter,
  caesarEncrypt,
  caesarDecrypt,
  rot13,
  vigenereEncrypt,
  vigenereDecrypt,
  letterCounts,
  guessShift,
} from '../src/caesar.js';

describe('caesar', () => {
  describe('shiftChar', () => {
    it('shifts upper and lower case letters', () => {
      assert.equal(shiftChar('A', 1), 'B');
      assert.equal(shiftChar('a', 3), 'd');
      assert.equal(shiftChar('M', 0), 'M');
    });

    it('wraps around the alphabet in both directions', () => {
      assert.equal(shiftChar('Z', 1), 'A');
      assert.equal(shiftChar('z', 2), 'b');
      assert.equal(shiftChar('a', -1), 'z');
      assert.equal(shiftChar('A', -27), 'Z');
      assert.equal(shiftChar('c', 52), 'c');
    });

    it('leaves non-letters untouched', () => {
      assert.equal(shiftChar('5', 3), '5');
      assert.equal(shiftChar(' ', 3), ' ');
      assert.equal(shiftChar('@', 1), '@');
      assert.equal(shiftChar('[', 1), '[');
      assert.equal(shiftChar('`', 1), '`');
      assert.equal(shiftChar('{', 1), '{');
    });
  });

  describe('isLetter', () => {
    it('accepts ASCII letters only', () => {
      assert.equal(isLetter('a'), true);
      assert.equal(isLetter('z'), true);
      assert.equal(isLetter('A'), true);
      assert.equal(isLetter('Z'), true);
      assert.equal(isLetter('@'), false);
      assert.equal(isLetter('['), false);
      assert.equal(isLetter('`'), false);
      assert.equal(isLetter('{'), false);
      assert.equal(isLetter('7'), false);
    });
  });

  describe('caesar cipher', () => {
    it('encrypts with a shift', () => {
      assert.equal(caesarEncrypt('Hello, World!', 3), 'Khoor, Zruog!');
      assert.equal(caesarEncrypt('xyz', 3), 'abc');
    });

    it('decrypts back to the plaintext', () => {
      assert.equal(caesarDecrypt('Khoor, Zruog!', 3), 'Hello, World!');
      assert.equal(caesarDecrypt(caesarEncrypt('Round Trip', 11), 11), 'Round Trip');
    });

    it('handles empty text and rejects bad shifts', () => {
      assert.equal(caesarEncrypt('', 5), '');
      assert.throws(() => caesarEncrypt('abc', 1.5), TypeError);
      assert.throws(() => caesarEncrypt('abc', '2'), /integer/);
    });

    it('rot13 is its own inverse', () => {
      assert.equal(rot13('Hello'), 'Uryyb');
      assert.equal(rot13('Uryyb'), 'Hello');
      assert.equal(rot13('NOPQ abc'), 'ABCD nop');
    });
  });

  describe('vigenere', () => {
    it('encrypts the classic example', () => {
      assert.equal(vigenereEncrypt('ATTACKATDAWN', 'LEMON'), 'LXFOPVEFRNHR');
    });

    it('decrypts the classic example', () => {
      assert.equal(vigenereDecrypt('LXFOPVEFRNHR', 'LEMON'), 'ATTACKATDAWN');
    });

    it('skips non-letters without consuming the key', () => {
      assert.equal(vigenereEncrypt('attack at dawn!', 'lemon'), 'lxfopv ef rnhr!');
      assert.equal(vigenereDecrypt('lxfopv ef rnhr!', 'LeMoN'), 'attack at dawn!');
    });

    it('key letter a means no shift', () => {
      assert.equal(vigenereEncrypt('Hello', 'a'), 'Hello');
      assert.equal(vigenereEncrypt('abc', 'b'), 'bcd');
      assert.equal(vigenereEncrypt('zzz', 'ab'), 'zaz');
    });

    it('rejects empty or non-alphabetic keys', () => {
      assert.throws(() => vigenereEncrypt('abc', ''), /empty/);
      assert.throws(() => vigenereEncrypt('abc', 'k3y'), /only letters/);
      assert.throws(() => vigenereDecrypt('abc', 'a b'), SyntaxError);
      assert.throws(() => vigenereEncrypt('abc', 'a['), /only letters/);
      assert.throws(() => vigenereEncrypt('abc', '@'), /only letters/);
    });
  });

  describe('analysis', () => {
    it('letterCounts counts letters case-insensitively', () => {
      const counts = letterCounts('aAb z!');
      assert.equal(counts.length, 26);
      assert.equal(counts[0], 2);
      assert.equal(counts[1], 1);
      assert.equal(counts[25], 1);
      assert.equal(counts[2], 0);
      assert.equal(letterCounts('[@`{').length, 26);
      assert.deepEqual(letterCounts('[@`{'), new Array(26).fill(0));
    });

    it('guessShift recovers the shift from typical text', () => {
      const plain = 'meet me here between the trees where the deer sleep';
      assert.equal(guessShift(plain), 0);
      assert.equal(guessShift(caesarEncrypt(plain, 7)), 7);
      assert.equal(guessShift(caesarEncrypt(plain, 25)), 25);
    });

    it('guessShift picks the first letter on ties', () => {
      assert.equal(guessShift('ab'), 22);
      assert.equal(guessShift(''), 22);
      assert.equal(guessShift('bbb a'), 23);
      assert.equal(guessShift('zz y'), 21);
    });
  });
});
