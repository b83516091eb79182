import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  digitsOnly,
  luhnSum,
  isValid,
  checkDigit,
  appendCheckDigit,
  cardType,
  formatCard,
  maskCard,
} from '../src/luhn.js';

describe('luhn', () => {
  describe('digitsOnly', () => {
    it('strips spaces and dashes', () => {
      assert.equal(digitsOnly('4111 1111-1111 1111'), '4111111111111111');
      assert.equal(digitsOnly(''), '');
      assert.equal(digitsOnly(1234), '1234');
    });

    it('rejects other characters', () => {
      assert.throws(() => digitsOnly('12a4'), /unexpected character: a/);
      assert.throws(() => digitsOnly('1.2'), SyntaxError);
    });
  });

  describe('checksum', () => {
    it('luhnSum doubles every second digit from the right', () => {
      assert.equal(luhnSum('0'), 0);
      assert.equal(luhnSum('18'), 10);
      assert.equal(luhnSum('59'), 10);
      assert.equal(luhnSum('91'), 10);
      assert.equal(luhnSum('79927398713'), 70);
    });

    it('accepts valid numbers', () => {
      assert.equal(isValid('79927398713'), true);
      assert.equal(isValid('4111 1111 1111 1111'), true);
      assert.equal(isValid('378282246310005'), true);
      assert.equal(isValid('00'), true);
    });

    it('rejects invalid numbers', () => {
      assert.equal(isValid('79927398710'), false);
      assert.equal(isValid('4111 1111 1111 1112'), false);
      assert.equal(isValid('1234567812345678'), false);
    });

    it('rejects too-short and malformed input', () => {
      assert.equal(isValid(''), false);
      assert.equal(isValid('0'), false);
      assert.equal(isValid('4111x1111'), false);
    });

    it('computes the check digit', () => {
      assert.equal(checkDigit('7992739871'), 3);
      assert.equal(checkDigit('411111111111111'), 1);
      assert.equal(checkDigit('0'), 0);
      assert.equal(checkDigit('1'), 8);
      assert.equal(checkDigit('5'), 9);
    });

    it('appendCheckDigit produces valid numbers', () => {
      assert.equal(appendCheckDigit('7992739871'), '79927398713');
      for (let n = 100; n < 140; n++) {
        assert.equal(isValid(appendCheckDigit(String(n))), true);
      }
    });
  });

  describe('cardType', () => {
    it('detects visa and amex', () => {
      assert.equal(cardType('4111111111111111'), 'visa');
      assert.equal(cardType('340000000000009'), 'amex');
      assert.equal(cardType('378282246310005'), 'amex');
      assert.equal(cardType('3500'), 'unknown');
    });

    it('detects mastercard ranges inclusively', () => {
      assert.equal(cardType('5105105105105100'), 'mastercard');
      assert.equal(cardType('5500000000000004'), 'mastercard');
      assert.equal(cardType('5000000000000000'), 'unknown');
      assert.equal(cardType('5600000000000000'), 'unknown');
      assert.equal(cardType('2221000000000009'), 'mastercard');
      assert.equal(cardType('2720990000000000'), 'mastercard');
      assert.equal(cardType('2220990000000000'), 'unknown');
      assert.equal(cardType('2721000000000000'), 'unknown');
      assert.equal(cardType('51'), 'mastercard');
      assert.equal(cardType('5'), 'unknown');
      assert.equal(cardType('2221'), 'mastercard');
      assert.equal(cardType('222'), 'unknown');
    });

    it('detects discover prefixes', () => {
      assert.equal(cardType('6011111111111117'), 'discover');
      assert.equal(cardType('6500000000000000'), 'discover');
      assert.equal(cardType('6440000000000000'), 'discover');
      assert.equal(cardType('6490000000000000'), 'discover');
      assert.equal(cardType('6430000000000000'), 'unknown');
      assert.equal(cardType('64'), 'unknown');
      assert.equal(cardType('644'), 'discover');
      assert.equal(cardType('601'), 'unknown');
    });
  });

  describe('formatting', () => {
    it('groups digits in fours', () => {
      assert.equal(formatCard('4111111111111111'), '4111 1111 1111 1111');
      assert.equal(formatCard('411111'), '4111 11');
      assert.equal(formatCard(''), '');
      assert.equal(formatCard('4111111111111111222'), '4111 1111 1111 1111 222');
      assert.equal(formatCard('41111111111111112222'), '4111 1111 1111 1111 222 2');
    });

    it('uses 4-6-5 grouping for amex', () => {
      assert.equal(formatCard('378282246310005'), '3782 822463 10005');
      assert.equal(formatCard('3782822463100051'), '3782 822463 10005 1');
    });

    it('masks all but the last digits', () => {
      assert.equal(maskCard('4111111111111111'), '************1111');
      assert.equal(maskCard('4111 1111', 2), '******11');
      assert.equal(maskCard('1234', 4), '1234');
      assert.equal(maskCard('123', 4), '123');
      assert.equal(maskCard('12345', 0), '*****');
    });
  });
});
