import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration, formatDuration, splitSeconds, humanize, UNITS } from '../src/duration.js';

describe('duration', () => {
  describe('parseDuration', () => {
    it('parses single units', () => {
      assert.equal(parseDuration('45s'), 45);
      assert.equal(parseDuration('2m'), 120);
      assert.equal(parseDuration('1h'), 3600);
      assert.equal(parseDuration('1d'), 86400);
      assert.equal(parseDuration('1w'), 604800);
      assert.equal(parseDuration('0s'), 0);
    });

    it('parses combined units', () => {
      assert.equal(parseDuration('1h30m'), 5400);
      assert.equal(parseDuration('1d2h3m4s'), 93784);
      assert.equal(parseDuration('2w1s'), 1209601);
    });

    it('accepts spaces, case and fractions', () => {
      assert.equal(parseDuration(' 1H 30M '), 5400);
      assert.equal(parseDuration('1.5h'), 5400);
      assert.equal(parseDuration('.5m'), 30);
      assert.equal(parseDuration('0.4s'), 0);
      assert.equal(parseDuration('0.6s'), 1);
    });

    it('supports negative durations', () => {
      assert.equal(parseDuration('-90s'), -90);
      assert.equal(parseDuration('-1m1s'), -61);
    });

    it('rejects malformed input', () => {
      assert.throws(() => parseDuration(''), /empty/);
      assert.throws(() => parseDuration('-'), /empty/);
      assert.throws(() => parseDuration('10'), /trailing number/);
      assert.throws(() => parseDuration('1h30'), /trailing number/);
      assert.throws(() => parseDuration('1h5'), /trailing number/);
      assert.throws(() => parseDuration('7'), /trailing number/);
      assert.throws(() => parseDuration('5y'), /unknown unit: y/);
      assert.throws(() => parseDuration('h'), /missing number/);
      assert.throws(() => parseDuration('.h'), /missing number/);
      assert.throws(() => parseDuration(90), TypeError);
    });

    it('requires units in decreasing order without repeats', () => {
      assert.throws(() => parseDuration('30m1h'), /decreasing order/);
      assert.throws(() => parseDuration('1m1m'), /decreasing order/);
      assert.equal(parseDuration('1m1s'), 61);
    });
  });

  describe('splitSeconds and formatDuration', () => {
    it('splitSeconds breaks seconds into unit counts', () => {
      assert.equal(UNITS.length, 5);
      assert.deepEqual(splitSeconds(93784), [0, 1, 2, 3, 4]);
      assert.deepEqual(splitSeconds(604800), [1, 0, 0, 0, 0]);
      assert.deepEqual(splitSeconds(59), [0, 0, 0, 0, 59]);
      assert.deepEqual(splitSeconds(60), [0, 0, 0, 1, 0]);
      assert.deepEqual(splitSeconds(-61), [0, 0, 0, 1, 1]);
      assert.deepEqual(splitSeconds(0), [0, 0, 0, 0, 0]);
    });

    it('formats compact strings', () => {
      assert.equal(formatDuration(5400), '1h30m');
      assert.equal(formatDuration(93784), '1d2h3m4s');
      assert.equal(formatDuration(1), '1s');
      assert.equal(formatDuration(3600), '1h');
      assert.equal(formatDuration(1209601), '2w1s');
    });

    it('formats zero and negative values', () => {
      assert.equal(formatDuration(0), '0s');
      assert.equal(formatDuration(0.7), '0s');
      assert.equal(formatDuration(-61), '-1m1s');
      assert.throws(() => formatDuration(Infinity), RangeError);
      assert.throws(() => formatDuration(NaN), /finite/);
    });

    it('round-trips parse and format', () => {
      const samples = ['1s', '59s', '1m', '1h1s', '3d4h', '1w6d23h59m59s'];
      for (const s of samples) {
        assert.equal(formatDuration(parseDuration(s)), s);
      }
    });
  });

  describe('humanize', () => {
    it('uses singular and plural words', () => {
      assert.equal(humanize(1), '1 second');
      assert.equal(humanize(2), '2 seconds');
      assert.equal(humanize(60), '1 minute');
      assert.equal(humanize(7200), '2 hours');
    });

    it('limits output to the largest units', () => {
      assert.equal(humanize(93784), '1 day and 2 hours');
      assert.equal(humanize(93784, 3), '1 day, 2 hours and 3 minutes');
      assert.equal(humanize(93784, 1), '1 day');
      assert.equal(humanize(93784, 10), '1 day, 2 hours, 3 minutes and 4 seconds');
      assert.equal(humanize(86404), '1 day and 4 seconds');
      assert.equal(humanize(604800), '1 week');
      assert.equal(humanize(1209600 + 3600), '2 weeks and 1 hour');
    });

    it('handles zero, past and invalid limits', () => {
      assert.equal(humanize(0), '0 seconds');
      assert.equal(humanize(-90), '1 minute and 30 seconds ago');
      assert.throws(() => humanize(10, 0), RangeError);
    });
  });
});
