import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseHex,
  parseRgb,
  parseColor,
  toHex,
  rgbToHsl,
  hslToRgb,
  lighten,
  darken,
  luminance,
  contrastRatio,
} from '../src/hexcolor.js';

describe('hexcolor', () => {
  describe('parsing', () => {
    it('parses six digit hex with or without a hash', () => {
      assert.deepEqual(parseHex('#ff8000'), { r: 255, g: 128, b: 0 });
      assert.deepEqual(parseHex('0A0b0C'), { r: 10, g: 11, b: 12 });
    });

    it('expands three digit hex', () => {
      assert.deepEqual(parseHex('#f80'), { r: 255, g: 136, b: 0 });
      assert.deepEqual(parseHex('abc'), { r: 170, g: 187, b: 204 });
    });

    it('rejects malformed hex', () => {
      assert.throws(() => parseHex('#ff80'), /Invalid hex/);
      assert.throws(() => parseHex('#gg0000'), /Invalid hex/);
      assert.throws(() => parseHex(''), Error);
      assert.throws(() => parseHex('#1234567'), Error);
    });

    it('parses rgb notation and checks channel range', () => {
      assert.deepEqual(parseRgb('rgb(0, 128,255)'), { r: 0, g: 128, b: 255 });
      assert.deepEqual(parseRgb(' RGB( 1 ,2 , 3 ) '), { r: 1, g: 2, b: 3 });
      assert.throws(() => parseRgb('rgb(256, 0, 0)'), /out of range/);
      assert.throws(() => parseRgb('rgb(1, 2)'), /Invalid rgb/);
    });

    it('parseColor dispatches on the format', () => {
      assert.deepEqual(parseColor('rgb(1,2,3)'), { r: 1, g: 2, b: 3 });
      assert.deepEqual(parseColor('#010203'), { r: 1, g: 2, b: 3 });
    });
  });

  describe('toHex', () => {
    it('pads single digit channels and uses lowercase', () => {
      assert.equal(toHex({ r: 0, g: 15, b: 16 }), '#000f10');
      assert.equal(toHex({ r: 255, g: 171, b: 205 }), '#ffabcd');
    });

    it('rounds and clamps channels', () => {
      assert.equal(toHex({ r: -5, g: 300, b: 127.6 }), '#00ff80');
    });
  });

  describe('hsl conversion', () => {
    it('converts primary and grey colors to hsl', () => {
      assert.deepEqual(rgbToHsl({ r: 255, g: 0, b: 0 }), { h: 0, s: 100, l: 50 });
      assert.deepEqual(rgbToHsl({ r: 0, g: 255, b: 0 }), { h: 120, s: 100, l: 50 });
      assert.deepEqual(rgbToHsl({ r: 0, g: 0, b: 255 }), { h: 240, s: 100, l: 50 });
      assert.deepEqual(rgbToHsl({ r: 128, g: 128, b: 128 }), { h: 0, s: 0, l: 50 });
    });

    it('handles hues that wrap and light colors', () => {
      assert.deepEqual(rgbToHsl({ r: 255, g: 0, b: 128 }), { h: 330, s: 100, l: 50 });
      assert.deepEqual(rgbToHsl({ r: 255, g: 204, b: 204 }), { h: 0, s: 100, l: 90 });
      assert.deepEqual(rgbToHsl({ r: 51, g: 102, b: 153 }), { h: 210, s: 50, l: 40 });
      assert.deepEqual(rgbToHsl({ r: 51, g: 153, b: 102 }), { h: 150, s: 50, l: 40 });
      assert.deepEqual(rgbToHsl({ r: 153, g: 204, b: 51 }), { h: 80, s: 60, l: 50 });
    });

    it('converts hsl back to rgb', () => {
      assert.deepEqual(hslToRgb({ h: 0, s: 100, l: 50 }), { r: 255, g: 0, b: 0 });
      assert.deepEqual(hslToRgb({ h: 210, s: 50, l: 40 }), { r: 51, g: 102, b: 153 });
      assert.deepEqual(hslToRgb({ h: 60, s: 100, l: 50 }), { r: 255, g: 255, b: 0 });
      assert.deepEqual(hslToRgb({ h: 180, s: 100, l: 20 }), { r: 0, g: 102, b: 102 });
      assert.deepEqual(hslToRgb({ h: 300, s: 100, l: 75 }), { r: 255, g: 128, b: 255 });
    });

    it('interpolates channels for hues between the primaries', () => {
      assert.deepEqual(hslToRgb({ h: 30, s: 100, l: 40 }), { r: 204, g: 102, b: 0 });
      assert.deepEqual(hslToRgb({ h: 15, s: 100, l: 40 }), { r: 204, g: 51, b: 0 });
      assert.deepEqual(hslToRgb({ h: 200, s: 100, l: 40 }), { r: 0, g: 136, b: 204 });
      assert.deepEqual(hslToRgb({ h: 55, s: 100, l: 40 }), { r: 204, g: 187, b: 0 });
      assert.deepEqual(hslToRgb({ h: 66, s: 100, l: 40 }), { r: 184, g: 204, b: 0 });
    });

    it('interpolates correctly when saturation is partial', () => {
      assert.deepEqual(hslToRgb({ h: 30, s: 50, l: 40 }), { r: 153, g: 102, b: 51 });
      assert.deepEqual(hslToRgb({ h: 210, s: 50, l: 60 }), { r: 102, g: 153, b: 204 });
    });

    it('clamps saturation and lightness to 100', () => {
      assert.deepEqual(hslToRgb({ h: 0, s: 150, l: 40 }), { r: 204, g: 0, b: 0 });
      assert.deepEqual(hslToRgb({ h: 0, s: 100, l: 140 }), { r: 255, g: 255, b: 255 });
      assert.deepEqual(hslToRgb({ h: 0, s: -20, l: 40 }), { r: 102, g: 102, b: 102 });
    });

    it('normalizes hue and handles zero saturation', () => {
      assert.deepEqual(hslToRgb({ h: -120, s: 100, l: 50 }), { r: 0, g: 0, b: 255 });
      assert.deepEqual(hslToRgb({ h: 480, s: 100, l: 50 }), { r: 0, g: 255, b: 0 });
      assert.deepEqual(hslToRgb({ h: 200, s: 0, l: 20 }), { r: 51, g: 51, b: 51 });
      assert.deepEqual(hslToRgb({ h: 0, s: 0, l: 80 }), { r: 204, g: 204, b: 204 });
      assert.deepEqual(hslToRgb({ h: 0, s: 0, l: 100 }), { r: 255, g: 255, b: 255 });
    });
  });

  describe('lighten and darken', () => {
    it('changes lightness by the given amount', () => {
      assert.equal(lighten('#336699', 20), '#6699cc');
      assert.equal(darken('#ff0000', 20), '#990000');
      assert.equal(darken('#00ff00', 30), '#006600');
    });

    it('clamps at white and black', () => {
      assert.equal(lighten('#808080', 80), '#ffffff');
      assert.equal(darken('rgb(200, 10, 10)', 100), '#000000');
      assert.equal(lighten('#ff0000', 0), '#ff0000');
    });
  });

  describe('contrast', () => {
    it('computes relative luminance', () => {
      assert.equal(luminance({ r: 0, g: 0, b: 0 }), 0);
      assert.equal(luminance({ r: 255, g: 255, b: 255 }), 1);
      assert.equal(Math.round(luminance({ r: 255, g: 0, b: 0 }) * 10000), 2126);
      assert.equal(Math.round(luminance({ r: 10, g: 10, b: 10 }) * 100000), 304);
    });

    it('computes contrast ratios independent of order', () => {
      assert.equal(contrastRatio('#000', '#fff'), 21);
      assert.equal(contrastRatio('#fff', '#000'), 21);
      assert.equal(contrastRatio('#777', '#777'), 1);
      assert.equal(contrastRatio('#777777', '#ffffff'), 4.48);
      assert.equal(contrastRatio('rgb(0, 0, 255)', '#ffffff'), 8.59);
    });
  });
});
