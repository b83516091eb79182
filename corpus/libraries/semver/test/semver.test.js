import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, format, compare, increment, satisfies, maxSatisfying } from '../src/semver.js';

describe('semver', () => {
  describe('parse and format', () => {
    it('parses plain versions', () => {
      assert.deepEqual(parse('1.2.3'), { major: 1, minor: 2, patch: 3, prerelease: [] });
      assert.deepEqual(parse('v0.0.0'), { major: 0, minor: 0, patch: 0, prerelease: [] });
      assert.deepEqual(parse(' 10.20.30 '), { major: 10, minor: 20, patch: 30, prerelease: [] });
    });

    it('parses prerelease identifiers', () => {
      assert.deepEqual(parse('1.0.0-alpha.1').prerelease, ['alpha', 1]);
      assert.deepEqual(parse('1.0.0-rc-2').prerelease, ['rc-2']);
      assert.deepEqual(parse('1.0.0-0.3.7').prerelease, [0, 3, 7]);
    });

    it('rejects invalid versions', () => {
      assert.throws(() => parse('1.2'), /invalid version/);
      assert.throws(() => parse('1.2.3.4'), SyntaxError);
      assert.throws(() => parse('a.b.c'), SyntaxError);
      assert.throws(() => parse('1.2.3-'), SyntaxError);
      assert.throws(() => parse('1.2.3-alpha..1'), /empty prerelease/);
    });

    it('formats versions', () => {
      assert.equal(format(parse('v1.2.3')), '1.2.3');
      assert.equal(format(parse('1.0.0-beta.2')), '1.0.0-beta.2');
      assert.equal(format(parse('1.0.0-beta')), '1.0.0-beta');
      assert.equal(format({ major: 0, minor: 1, patch: 0, prerelease: [] }), '0.1.0');
    });
  });

  describe('compare', () => {
    it('orders by major, minor, then patch', () => {
      assert.equal(compare('1.0.0', '2.0.0'), -1);
      assert.equal(compare('2.0.0', '1.9.9'), 1);
      assert.equal(compare('1.2.0', '1.10.0'), -1);
      assert.equal(compare('1.2.4', '1.2.3'), 1);
      assert.equal(compare('1.2.3', 'v1.2.3'), 0);
    });

    it('ranks releases above prereleases', () => {
      assert.equal(compare('1.0.0-alpha', '1.0.0'), -1);
      assert.equal(compare('1.0.0', '1.0.0-rc.1'), 1);
      assert.equal(compare('1.0.1-alpha', '1.0.0'), 1);
    });

    it('follows the prerelease precedence rules', () => {
      const ordered = [
        '1.0.0-alpha',
        '1.0.0-alpha.1',
        '1.0.0-alpha.beta',
        '1.0.0-beta',
        '1.0.0-beta.2',
        '1.0.0-beta.11',
        '1.0.0-rc.1',
        '1.0.0',
      ];
      for (let i = 0; i < ordered.length - 1; i++) {
        assert.equal(compare(ordered[i], ordered[i + 1]), -1);
        assert.equal(compare(ordered[i + 1], ordered[i]), 1);
      }
      assert.equal(compare('1.0.0-beta.2', '1.0.0-beta.2'), 0);
    });

    it('accepts parsed objects', () => {
      assert.equal(compare(parse('1.2.3'), '1.2.4'), -1);
      assert.equal(compare(parse('3.0.0'), parse('3.0.0')), 0);
    });
  });

  describe('increment', () => {
    it('bumps each part and resets lower parts', () => {
      assert.equal(increment('1.2.3', 'major'), '2.0.0');
      assert.equal(increment('1.2.3', 'minor'), '1.3.0');
      assert.equal(increment('1.2.3', 'patch'), '1.2.4');
      assert.equal(increment('1.2.3-beta', 'patch'), '1.2.4');
      assert.throws(() => increment('1.2.3', 'build'), RangeError);
    });
  });

  describe('satisfies', () => {
    it('matches exact versions and comparison operators', () => {
      assert.equal(satisfies('1.2.3', '1.2.3'), true);
      assert.equal(satisfies('1.2.3', '=1.2.3'), true);
      assert.equal(satisfies('1.2.4', '1.2.3'), false);
      assert.equal(satisfies('1.2.3', '>=1.2.3'), true);
      assert.equal(satisfies('1.2.2', '>=1.2.3'), false);
      assert.equal(satisfies('1.2.3', '>1.2.3'), false);
      assert.equal(satisfies('1.2.4', '>1.2.3'), true);
      assert.equal(satisfies('1.2.3', '<1.2.3'), false);
      assert.equal(satisfies('1.2.2', '<1.2.3'), true);
      assert.equal(satisfies('1.2.3', '<=1.2.3'), true);
      assert.equal(satisfies('1.2.4', '<=1.2.3'), false);
    });

    it('caret allows changes that keep the left-most non-zero part', () => {
      assert.equal(satisfies('1.9.9', '^1.2.3'), true);
      assert.equal(satisfies('1.2.3', '^1.2.3'), true);
      assert.equal(satisfies('1.2.2', '^1.2.3'), false);
      assert.equal(satisfies('2.0.0', '^1.2.3'), false);
      assert.equal(satisfies('0.2.9', '^0.2.3'), true);
      assert.equal(satisfies('0.3.0', '^0.2.3'), false);
      assert.equal(satisfies('0.1.5', '^0.1.2'), true);
      assert.equal(satisfies('0.2.0', '^0.1.2'), false);
      assert.equal(satisfies('0.0.3', '^0.0.3'), true);
      assert.equal(satisfies('0.0.4', '^0.0.3'), false);
    });

    it('tilde allows patch-level changes', () => {
      assert.equal(satisfies('1.2.9', '~1.2.3'), true);
      assert.equal(satisfies('1.3.0', '~1.2.3'), false);
      assert.equal(satisfies('1.2.2', '~1.2.3'), false);
      assert.equal(satisfies('0.1.5', '~0.1.0'), true);
    });

    it('combines comparators with spaces and alternatives with ||', () => {
      assert.equal(satisfies('1.5.0', '>=1.0.0 <2.0.0'), true);
      assert.equal(satisfies('2.0.0', '>=1.0.0 <2.0.0'), false);
      assert.equal(satisfies('0.9.0', '>=1.0.0 <2.0.0'), false);
      assert.equal(satisfies('3.1.0', '^1.0.0 || ^3.0.0'), true);
      assert.equal(satisfies('2.1.0', '^1.0.0 || ^3.0.0'), false);
      assert.equal(satisfies('1.0.0', '^1.0.0 || ^3.0.0'), true);
    });

    it('treats empty and star ranges as any version', () => {
      assert.equal(satisfies('9.9.9', '*'), true);
      assert.equal(satisfies('0.0.1', ''), true);
      assert.throws(() => satisfies('1.0.0', '>=abc'), SyntaxError);
    });

    it('maxSatisfying picks the highest matching version', () => {
      const versions = ['1.0.0', '1.4.2', '1.10.0', '2.0.0', '0.9.9'];
      assert.equal(maxSatisfying(versions, '^1.0.0'), '1.10.0');
      assert.equal(maxSatisfying(versions, '<1.0.0'), '0.9.9');
      assert.equal(maxSatisfying(versions, '>=2.0.0'), '2.0.0');
      assert.equal(maxSatisfying(versions, '^3.0.0'), null);
      assert.equal(maxSatisfying([], '*'), null);
      assert.equal(maxSatisfying(['2.0.0', '1.0.0'], '*'), '2.0.0');
      assert.equal(maxSatisfying(['1.0.0', 'v1.0.0'], '^1.0.0'), '1.0.0');
    });
  });
});
