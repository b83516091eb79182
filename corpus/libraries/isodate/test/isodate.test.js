import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  isLeapYear,
  daysInMonth,
  isValidDate,
  parseDate,
  formatDate,
  dayOfYear,
  toDayNumber,
  fromDayNumber,
  addDays,
  daysBetween,
  dayOfWeek,
} from '../src/isodate.js';

describe('isodate', () => {
  describe('calendar rules', () => {
    it('isLeapYear follows the Gregorian rules', () => {
      assert.equal(isLeapYear(2024), true);
      assert.equal(isLeapYear(2023), false);
      assert.equal(isLeapYear(1900), false);
      assert.equal(isLeapYear(2000), true);
      assert.equal(isLeapYear(2100), false);
      assert.equal(isLeapYear(1600), true);
    });

    it('daysInMonth handles every month and February', () => {
      const expected = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
      for (let m = 1; m <= 12; m++) {
        assert.equal(daysInMonth(2023, m), expected[m - 1]);
      }
      assert.equal(daysInMonth(2024, 2), 29);
      assert.equal(daysInMonth(1900, 2), 28);
    });

    it('daysInMonth rejects invalid months', () => {
      assert.throws(() => daysInMonth(2024, 0), RangeError);
      assert.throws(() => daysInMonth(2024, 13), /month must be/);
    });

    it('isValidDate checks day bounds', () => {
      assert.equal(isValidDate(2024, 2, 29), true);
      assert.equal(isValidDate(2023, 2, 29), false);
      assert.equal(isValidDate(2023, 1, 31), true);
      assert.equal(isValidDate(2023, 4, 31), false);
      assert.equal(isValidDate(2023, 1, 0), false);
      assert.equal(isValidDate(2023, 0, 1), false);
      assert.equal(isValidDate(2023, 13, 1), false);
      assert.equal(isValidDate(2023, 1.5, 1), false);
      assert.equal(isValidDate(2023.5, 1, 1), false);
      assert.equal(isValidDate(2023, 1, 1.5), false);
    });
  });

  describe('parse and format', () => {
    it('parses a plain date', () => {
      assert.deepEqual(parseDate('2024-03-09'), { year: 2024, month: 3, day: 9, hour: 0, minute: 0, second: 0 });
    });

    it('parses a date with time', () => {
      assert.deepEqual(parseDate('1999-12-31T23:59:58Z'), {
        year: 1999,
        month: 12,
        day: 31,
        hour: 23,
        minute: 59,
        second: 58,
      });
    });

    it('rejects malformed strings', () => {
      assert.throws(() => parseDate('2024-3-9'), SyntaxError);
      assert.throws(() => parseDate('2024/03/09'), /dashes/);
      assert.throws(() => parseDate('2024-03/09'), /dashes/);
      assert.throws(() => parseDate('2024-0:-09'), /expected digit at position 6/);
      assert.throws(() => parseDate('2024-03-09T12:00-00Z'), /malformed time/);
      assert.throws(() => parseDate('2024-03-09T12-00:00Z'), /malformed time/);
      assert.throws(() => parseDate('2024-0a-09'), /expected digit at position 6/);
      assert.throws(() => parseDate('2024-03-09 12:00:00Z'), /malformed time/);
      assert.throws(() => parseDate('2024-03-09T12:00:00+'), /malformed time/);
      assert.throws(() => parseDate(20240309), /expected YYYY-MM-DD/);
      assert.throws(() => parseDate('2024-03-09'.split('')), /expected YYYY-MM-DD/);
    });

    it('rejects out-of-range values', () => {
      assert.throws(() => parseDate('2023-02-29'), /invalid calendar date/);
      assert.throws(() => parseDate('2023-13-01'), RangeError);
      assert.throws(() => parseDate('2023-01-01T24:00:00Z'), /time out of range/);
      assert.throws(() => parseDate('2023-01-01T00:60:00Z'), RangeError);
      assert.throws(() => parseDate('2023-01-01T00:00:60Z'), RangeError);
      assert.equal(parseDate('2023-01-01T23:59:59Z').second, 59);
    });

    it('formats with zero padding', () => {
      assert.equal(formatDate({ year: 2024, month: 3, day: 9 }), '2024-03-09');
      assert.equal(formatDate({ year: 5, month: 12, day: 25 }), '0005-12-25');
      assert.equal(formatDate({ year: 2024, month: 1, day: 2, hour: 3, minute: 4, second: 5 }, true), '2024-01-02T03:04:05Z');
      assert.equal(formatDate({ year: 2024, month: 1, day: 2 }, true), '2024-01-02T00:00:00Z');
    });

    it('round-trips parse and format', () => {
      const s = '2020-02-29T08:07:06Z';
      assert.equal(formatDate(parseDate(s), true), s);
      assert.equal(formatDate(parseDate('0001-01-01')), '0001-01-01');
    });
  });

  describe('day arithmetic', () => {
    it('dayOfYear counts from January first', () => {
      assert.equal(dayOfYear(2023, 1, 1), 1);
      assert.equal(dayOfYear(2023, 3, 1), 60);
      assert.equal(dayOfYear(2024, 3, 1), 61);
      assert.equal(dayOfYear(2023, 12, 31), 365);
      assert.equal(dayOfYear(2024, 12, 31), 366);
    });

    it('toDayNumber counts days since the epoch', () => {
      assert.equal(toDayNumber(1970, 1, 1), 0);
      assert.equal(toDayNumber(1970, 1, 2), 1);
      assert.equal(toDayNumber(1971, 1, 1), 365);
      assert.equal(toDayNumber(1973, 1, 1), 1096);
      assert.equal(toDayNumber(1969, 12, 31), -1);
      assert.equal(toDayNumber(1968, 1, 1), -731);
      assert.equal(toDayNumber(2000, 1, 1), 10957);
    });

    it('fromDayNumber inverts toDayNumber', () => {
      assert.deepEqual(fromDayNumber(0), { year: 1970, month: 1, day: 1 });
      assert.deepEqual(fromDayNumber(-1), { year: 1969, month: 12, day: 31 });
      assert.deepEqual(fromDayNumber(365), { year: 1971, month: 1, day: 1 });
      assert.deepEqual(fromDayNumber(10957), { year: 2000, month: 1, day: 1 });
      assert.deepEqual(fromDayNumber(1095), { year: 1972, month: 12, day: 31 });
      assert.deepEqual(fromDayNumber(1096), { year: 1973, month: 1, day: 1 });
      for (let n = -800; n <= 800; n += 37) {
        const d = fromDayNumber(n);
        assert.equal(toDayNumber(d.year, d.month, d.day), n);
      }
    });

    it('addDays crosses month and year boundaries', () => {
      assert.equal(addDays('2024-01-31', 1), '2024-02-01');
      assert.equal(addDays('2024-02-28', 1), '2024-02-29');
      assert.equal(addDays('2023-02-28', 1), '2023-03-01');
      assert.equal(addDays('2023-12-31', 1), '2024-01-01');
      assert.equal(addDays('2024-01-01', -1), '2023-12-31');
      assert.equal(addDays('2024-05-05', 0), '2024-05-05');
      assert.equal(addDays('2024-01-01', 366), '2025-01-01');
    });

    it('daysBetween is signed', () => {
      assert.equal(daysBetween('2024-01-01', '2024-03-01'), 60);
      assert.equal(daysBetween('2024-03-01', '2024-01-01'), -60);
      assert.equal(daysBetween('2023-06-15', '2023-06-15'), 0);
      assert.equal(daysBetween('1969-12-31', '1970-01-01'), 1);
    });

    it('dayOfWeek returns the ISO weekday', () => {
      assert.equal(dayOfWeek('1970-01-01'), 4);
      assert.equal(dayOfWeek('2024-01-01'), 1);
      assert.equal(dayOfWeek('2024-03-10'), 7);
      assert.equal(dayOfWeek('2024-03-09'), 6);
      assert.equal(dayOfWeek('1969-12-28'), 7);
      assert.equal(dayOfWeek('2000-02-29'), 2);
    });
  });
});
