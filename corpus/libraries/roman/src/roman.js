const NUMERALS = [
  [1000, 'M'],
  [900, 'CM'],
  [500, 'D'],
  [400, 'CD'],
  [100, 'C'],
  [90, 'XC'],
  [50, 'L'],
  [40, 'XL'],
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];

const VALUES = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };

export const MIN_VALUE = 1;
export const MAX_VALUE = 3999;

export function toRoman(num) {
  if (!Number.isInteger(num)) {
    throw new TypeError('toRoman expects an integer');
  }
  if (num < MIN_VALUE || num > MAX_VALUE) {
    throw new RangeError('value out of range: ' + num);
  }
  let rest = num;
  let out = '';
  for (let i = 0; i < NUMERALS.length; i++) {
    const value = NUMERALS[i][0];
    const symbol = NUMERALS[i][1];
    while (rest >= value) {
      out += symbol;
      rest -= value;
    }
  }
  return out;
}

export function fromRoman(str) {
  if (typeof str !== 'string') {
    throw new TypeError('fromRoman expects a string');
  }
  const s = str.trim().toUpperCase();
  if (s.length === 0) {
    throw new SyntaxError('empty numeral');
  }
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const current = VALUES[s[i]];
    if (current === undefined) {
      throw new SyntaxError('invalid character: ' + s[i]);
    }
    const next = VALUES[s[i + 1]];
    if (next !== undefined && current < next) {
      total -= current;
    } else {
      total += current;
    }
  }
  if (total < MIN_VALUE || total > MAX_VALUE || toRoman(total) !== s) {
    throw new SyntaxError('non-canonical numeral: ' + str);
  }
  return total;
}

export function isRoman(str) {
  if (typeof str !== 'string') {
    return false;
  }
  try {
    fromRoman(str);
    return true;
  } catch (e) {
    return false;
  }
}

export function romanRange(start, end) {
  if (start > end) {
    throw new RangeError('start must not exceed end');
  }
  const result = [];
  for (let n = start; n <= end; n++) {
    result.push(toRoman(n));
  }
  return result;
}

export function addRoman(a, b) {
  return toRoman(fromRoman(a) + fromRoman(b));
}

export function compareRoman(a, b) {
  const x = fromRoman(a);
  const y = fromRoman(b);
  if (x < y) {
    return -1;
  }
  if (x > y) {
    return 1;
  }
  return 0;
}
