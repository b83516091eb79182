import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { round, kindOf, convert, parseQuantity, convertText, unitsOf } from '../src/units.js';

describe('units', () => {
  describe('round', () => {
    it('rounds to the given number of decimals', () => {
      assert.equal(round(1.23456, 2), 1.23);
      assert.equal(round(1.235, 1), 1.2);
      assert.equal(round(2.5, 0), 3);
      assert.equal(round(1.005), 1);
      assert.equal(round(3.14159), 3.14);
    });

    it('rounds negative numbers symmetrically', () => {
      assert.equal(round(-2.5, 0), -3);
      assert.equal(round(-1.26, 1), -1.3);
      assert.equal(round(-0.004, 2), -0);
    });

    it('rejects invalid decimal counts', () => {
      assert.throws(() => round(1, -1), RangeError);
      assert.throws(() => round(1, 1.5), /non-negative integer/);
      assert.equal(round(7.7, 0), 8);
    });
  });

  describe('kindOf and unitsOf', () => {
    it('classifies units', () => {
      assert.equal(kindOf('km'), 'length');
      assert.equal(kindOf('lb'), 'mass');
      assert.equal(kindOf('F'), 'temperature');
      assert.equal(kindOf('parsec'), null);
      assert.equal(kindOf('toString'), null);
    });

    it('lists units for each kind', () => {
      assert.deepEqual(unitsOf('temperature'), ['C', 'F', 'K']);
      assert.equal(unitsOf('length').length, 8);
      assert.ok(unitsOf('mass').includes('oz'));
      assert.throws(() => unitsOf('time'), /Unknown kind/);
    });
  });

  describe('length', () => {
    it('converts metric lengths', () => {
      assert.equal(convert(1, 'km', 'm'), 1000);
      assert.equal(convert(250, 'cm', 'm'), 2.5);
      assert.equal(convert(5, 'mm', 'cm', 2), 0.5);
    });

    it('converts imperial lengths', () => {
      assert.equal(convert(1, 'mi', 'km', 3), 1.609);
      assert.equal(convert(12, 'in', 'ft', 4), 1);
      assert.equal(convert(3, 'ft', 'yd', 4), 1);
      assert.equal(convert(100, 'm', 'ft', 2), 328.08);
    });

    it('allows zero but rejects negative lengths', () => {
      assert.equal(convert(0, 'm', 'in'), 0);
      assert.throws(() => convert(-1, 'm', 'cm'), /Negative length/);
    });
  });

  describe('mass', () => {
    it('converts between metric and imperial masses', () => {
      assert.equal(convert(1, 'kg', 'g'), 1000);
      assert.equal(convert(1, 'lb', 'kg', 4), 0.4536);
      assert.equal(convert(16, 'oz', 'lb', 6), 1);
      assert.equal(convert(2500, 'kg', 't'), 2.5);
      assert.equal(convert(1500, 'mg', 'g'), 1.5);
    });

    it('rejects negative masses', () => {
      assert.throws(() => convert(-0.5, 'kg', 'lb'), /Negative mass/);
    });
  });

  describe('temperature', () => {
    it('converts between Celsius, Fahrenheit and Kelvin', () => {
      assert.equal(convert(100, 'C', 'F'), 212);
      assert.equal(convert(32, 'F', 'C', 2), 0);
      assert.equal(convert(0, 'C', 'K'), 273.15);
      assert.equal(convert(-40, 'C', 'F', 2), -40);
      assert.equal(convert(300, 'K', 'C', 2), 26.85);
      assert.equal(convert(98.6, 'F', 'C', 1), 37);
    });

    it('allows negative temperatures down to absolute zero', () => {
      assert.equal(convert(-273.15, 'C', 'K'), 0);
      assert.equal(convert(0, 'K', 'F', 2), -459.67);
      assert.throws(() => convert(-274, 'C', 'K'), /absolute zero/);
      assert.throws(() => convert(-1, 'K', 'C'), RangeError);
    });
  });

  describe('validation', () => {
    it('rejects unknown units and mixed kinds', () => {
      assert.throws(() => convert(1, 'm', 'kg'), /Cannot convert length to mass/);
      assert.throws(() => convert(1, 'furlong', 'm'), /Unknown unit: furlong/);
      assert.throws(() => convert(1, 'm', 'league'), /Unknown unit: league/);
    });

    it('rejects non numeric values', () => {
      assert.throws(() => convert('5', 'm', 'cm'), TypeError);
      assert.throws(() => convert(NaN, 'm', 'cm'), TypeError);
      assert.throws(() => convert(Infinity, 'm', 'cm'), /finite/);
    });
  });

  describe('text quantities', () => {
    it('parses quantities with optional spaces', () => {
      assert.deepEqual(parseQuantity('12.5 km'), { value: 12.5, unit: 'km' });
      assert.deepEqual(parseQuantity('-40C'), { value: -40, unit: 'C' });
      assert.throws(() => parseQuantity('km 12'), SyntaxError);
      assert.throws(() => parseQuantity('3 parsecs'), /Unknown unit/);
    });

    it('converts text quantities with rounding', () => {
      assert.equal(convertText('5 mi', 'km'), '8.05 km');
      assert.equal(convertText('20 C', 'F', 0), '68 F');
      assert.equal(convertText('1 lb', 'g', 1), '453.6 g');
    });
  });
});
