export const UNITS = [
  ['w', 604800, 'week'],
  ['d', 86400, 'day'],
  ['h', 3600, 'hour'],
  ['m', 60, 'minute'],
  ['s', 1, 'second'],
];

function unitSeconds(letter) {
  for (let i = 0; i < UNITS.length; i++) {
    if (UNITS[i][0] === letter) {
      return UNITS[i][1];
    }
  }
  return 0;
}

export function parseDuration(text) {
  if (typeof text !== 'string') {
    throw new TypeError('parseDuration expects a string');
  }
  let str = text.trim().toLowerCase();
  let sign = 1;
  if (str.startsWith('-')) {
    sign = -1;
    str = str.slice(1);
  }
  if (str.length === 0) {
    throw new SyntaxError('empty duration');
  }
  let total = 0;
  let number = '';
  let lastUnit = Infinity;
  for (let i = 0; i < str.length; i++) {
    const ch = str[i];
    if ((ch >= '0' && ch <= '9') || ch === '.') {
      number += ch;
      continue;
    }
    if (ch === ' ') {
      continue;
    }
    const size = unitSeconds(ch);
    if (size === 0) {
      throw new SyntaxError('unknown unit: ' + ch);
    }
    if (number.length === 0 || number === '.') {
      throw new SyntaxError('missing number before ' + ch);
    }
    if (size >= lastUnit) {
      throw new SyntaxError('units must be in decreasing order');
    }
    total += parseFloat(number) * size;
    lastUnit = size;
    number = '';
  }
  if (number.length > 0) {
    throw new SyntaxError('trailing number without unit');
  }
  return sign * Math.round(total);
}

export function splitSeconds(seconds) {
  let rest = Math.abs(Math.trunc(seconds));
  const parts = [];
  for (let i = 0; i < UNITS.length; i++) {
    const size = UNITS[i][1];
    const count = Math.floor(rest / size);
    rest -= count * size;
    parts.push(count);
  }
  return parts;
}

export function formatDuration(seconds) {
  if (!Number.isFinite(seconds)) {
    throw new RangeError('seconds must be finite');
  }
  if (Math.trunc(seconds) === 0) {
    return '0s';
  }
  const parts = splitSeconds(seconds);
  let out = seconds < 0 ? '-' : '';
  for (let i = 0; i < UNITS.length; i++) {
    if (parts[i] > 0) {
      out += parts[i] + UNITS[i][0];
    }
  }
  return out;
}

export function humanize(seconds, largest = 2) {
  if (largest < 1) {
    throw new RangeError('largest must be at least 1');
  }
  const parts = splitSeconds(seconds);
  const words = [];
  for (let i = 0; i < UNITS.length && words.length < largest; i++) {
    const count = parts[i];
    if (count > 0) {
      words.push(count + ' ' + UNITS[i][2] + (count === 1 ? '' : 's'));
    }
  }
  if (words.length === 0) {
    return '0 seconds';
  }
  let text;
  if (words.length === 1) {
    text = words[0];
  } else {
    text = words.slice(0, -1).join(', ') + ' and ' + words[words.length - 1];
  }
  return seconds < 0 ? text + ' ago' : text;
}
