// checks: validators, small parsers and encoders.

export function isEvenLength(text) {
  return text.length % 2 === 0;
}

export function hasDuplicates(values) {
  for (let i = 0; i < values.length; i++) {
    for (let j = i + 1; j < values.length; j++) {
      if (values[i] === values[j]) {
        return true;
      }
    }
  }
  return false;
}

export function isValidHexColor(text) {
  if (text.length !== 7 || text[0] !== '#') {
    return false;
  }
  for (let i = 1; i < 7; i++) {
    const ch = text[i].toLowerCase();
    if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) {
      return false;
    }
  }
  return true;
}

export function isbn10Valid(code) {
  if (code.length !== 10) {
    return false;
  }
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const ch = code[i];
    const v = ch === 'X' && i === 9 ? 10 : Number(ch);
    if (Number.isNaN(v)) {
      return false;
    }
    sum += v * (10 - i);
  }
  return sum % 11 === 0;
}

export function parseBool(text) {
  const t = text.trim().toLowerCase();
  if (t === 'true' || t === 'yes' || t === '1') {
    return true;
  }
  if (t === 'false' || t === 'no' || t === '0') {
    return false;
  }
  return null;
}

export function parseRange(text) {
  const parts = text.split('-');
  if (parts.length !== 2) {
    return null;
  }
  const a = Number(parts[0]);
  const b = Number(parts[1]);
  if (Number.isNaN(a) || Number.isNaN(b) || a > b) {
    return null;
  }
  return [a, b];
}

export function expandRange(text) {
  const [a, b] = text.split('..').map(Number);
  const out = [];
  for (let i = a; i <= b; i++) {
    out.push(i);
  }
  return out;
}

export function runLengthDecode(text) {
  let out = '';
  let count = 0;
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') {
      count = count * 10 + Number(ch);
    } else {
      out += ch.repeat(count === 0 ? 1 : count);
      count = 0;
    }
  }
  return out;
}

export function tokenizeSum(expr) {
  const out = [];
  let num = '';
  for (const ch of expr) {
    if (ch >= '0' && ch <= '9') {
      num += ch;
    } else if (ch === '+' || ch === '-') {
      if (num.length > 0) {
        out.push(Number(num));
      }
      out.push(ch);
      num = '';
    }
  }
  if (num.length > 0) {
    out.push(Number(num));
  }
  return out;
}

export function evaluateSum(expr) {
  let total = 0;
  let sign = 1;
  let num = 0;
  for (const ch of expr + '+') {
    if (ch >= '0' && ch <= '9') {
      num = num * 10 + Number(ch);
    } else if (ch === '+' || ch === '-') {
      total += sign * num;
      num = 0;
      sign = ch === '+' ? 1 : -1;
    }
  }
  return total;
}

export function queryParam(query, name) {
  const text = query.startsWith('?') ? query.slice(1) : query;
  for (const pair of text.split('&')) {
    const at = pair.indexOf('=');
    const key = at < 0 ? pair : pair.slice(0, at);
    if (key === name) {
      return at < 0 ? '' : pair.slice(at + 1);
    }
  }
  return null;
}

export function isValidUsername(name) {
  if (name.length < 3 || name.length > 12) {
    return false;
  }
  for (const ch of name) {
    const ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '_';
    if (!ok) {
      return false;
    }
  }
  return name[0] !== '_';
}

export function simpleEmailValid(email) {
  const at = email.indexOf('@');
  if (at <= 0 || at !== email.lastIndexOf('@')) {
    return false;
  }
  const dot = email.lastIndexOf('.');
  return dot > at + 1 && dot < email.length - 1;
}

export function parseTimeOfDay(text) {
  const m = text.match(/^(\d{1,2}):(\d{2})$/);
  if (!m) {
    return null;
  }
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 23 || min > 59) {
    return null;
  }
  return h * 60 + min;
}

export function dateIsValid(year, month, day) {
  if (month < 1 || month > 12 || day < 1) {
    return false;
  }
  const lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  let max = lengths[month - 1];
  if (month === 2 && ((year % 4 === 0 && year % 100 !== 0) || year % 400 === 0)) {
    max = 29;
  }
  return day <= max;
}

export function bracketsMatch(text) {
  const stack = [];
  const pairs = { ')': '(', ']': '[', '}': '{' };
  for (const ch of text) {
    if (ch === '(' || ch === '[' || ch === '{') {
      stack.push(ch);
    } else if (ch in pairs) {
      if (stack.length === 0 || stack.pop() !== pairs[ch]) {
        return false;
      }
    }
  }
  return stack.length === 0;
}

export function encodeBinaryPadded(n, width) {
  let out = '';
  for (let i = width - 1; i >= 0; i--) {
    out += (n >> i) & 1 ? '1' : '0';
  }
  return out;
}

export function countSetBits(n) {
  let count = 0;
  while (n > 0) {
    count += n & 1;
    n = n >> 1;
  }
  return count;
}

export function checksumMod256(bytes) {
  let sum = 0;
  for (const b of bytes) {
    sum = (sum + b) % 256;
  }
  return sum;
}

export function parityBit(bits) {
  let ones = 0;
  for (const b of bits) {
    if (b === 1) {
      ones++;
    }
  }
  return ones % 2 === 0 ? 0 : 1;
}

export function semverGreater(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if (x[i] > y[i]) {
      return true;
    }
    if (x[i] < y[i]) {
      return false;
    }
  }
  return false;
}

export function wordFrequency(text, word) {
  let count = 0;
  for (const w of text.toLowerCase().split(' ')) {
    if (w === word) {
      count++;
    }
  }
  return count;
}

export function isNumericString(text) {
  if (text.length === 0) {
    return false;
  }
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '.') {
      dots++;
    } else if (ch === '-' && i === 0) {
      continue;
    } else if (ch < '0' || ch > '9') {
      return false;
    }
  }
  return dots <= 1 && text !== '-' && text !== '.';
}

export function parseDurationMinutes(text) {
  let total = 0;
  let num = 0;
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') {
      num = num * 10 + Number(ch);
    } else if (ch === 'h') {
      total += num * 60;
      num = 0;
    } else if (ch === 'm') {
      total += num;
      num = 0;
    }
  }
  return total;
}

export function isPangram(text) {
  const seen = new Set();
  for (const ch of text.toLowerCase()) {
    if (ch >= 'a' && ch <= 'z') {
      seen.add(ch);
    }
  }
  return seen.size === 26;
}

export function longestDigitRun(text) {
  let best = 0;
  let run = 0;
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') {
      run++;
      if (run > best) {
        best = run;
      }
    } else {
      run = 0;
    }
  }
  return best;
}

export function normalizeSpaces(text) {
  let out = '';
  let space = false;
  for (const ch of text.trim()) {
    if (ch === ' ') {
      space = true;
    } else {
      out += (space ? ' ' : '') + ch;
      space = false;
    }
  }
  return out;
}

export function creditCardBrand(number) {
  if (number.startsWith('4')) {
    return 'visa';
  }
  const two = Number(number.slice(0, 2));
  if (two >= 51 && two <= 55) {
    return 'mastercard';
  }
  if (two === 34 || two === 37) {
    return 'amex';
  }
  return 'unknown';
}

export function maxNestingParens(text) {
  let depth = 0;
  let best = 0;
  for (const ch of text) {
    if (ch === '(') {
      depth++;
      if (depth > best) {
        best = depth;
      }
    } else if (ch === ')' && depth > 0) {
      depth--;
    }
  }
  return best;
}

export function parseCoordinates(text) {
  const parts = text.split(',');
  if (parts.length !== 2) {
    return null;
  }
  const lat = Number(parts[0]);
  const lon = Number(parts[1]);
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) {
    return null;
  }
  return { lat, lon };
}

export function zipCodeValid(code) {
  if (code.length !== 5 && code.length !== 10) {
    return false;
  }
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (i === 5) {
      if (ch !== '-') {
        return false;
      }
    } else if (ch < '0' || ch > '9') {
      return false;
    }
  }
  return true;
}

export function rotateString(text, k) {
  if (text.length === 0) {
    return text;
  }
  const n = k % text.length;
  return text.slice(n) + text.slice(0, n);
}

export function firstUniqueChar(text) {
  for (let i = 0; i < text.length; i++) {
    if (text.indexOf(text[i]) === text.lastIndexOf(text[i])) {
      return i;
    }
  }
  return -1;
}

export const EXAMPLES = {
  isEvenLength: [['ab'], [''], ['abc'], ['abcd']],
  hasDuplicates: [[[1, 2, 3]], [[1, 2, 1]], [[]], [[4, 4]], [['a', 'b', 'a']]],
  isValidHexColor: [['#a1b2c3'], ['#A1B2C3'], ['a1b2c3'], ['#a1b2g3'], ['#fff'], ['#000000'], ['#/00000']],
  isbn10Valid: [['0306406152'], ['0306406153'], ['123456789X'], ['12345'], ['0A06406152']],
  parseBool: [['true'], [' YES '], ['0'], ['no'], ['maybe'], ['1']],
  parseRange: [['1-5'], ['5-1'], ['3-3'], ['a-2'], ['1-2-3'], ['10-20']],
  expandRange: [['1..3'], ['5..5'], ['3..1'], ['0..2']],
  runLengthDecode: [['3a2b'], [''], ['abc'], ['12x'], ['1a1b']],
  tokenizeSum: [['1+2'], ['12-3+4'], [''], ['7'], ['1 + 2']],
  evaluateSum: [['1+2'], ['12-3+4'], ['5'], ['10-20'], ['']],
  queryParam: [['?a=1&b=2', 'b'], ['a=1', 'a'], ['?a=1', 'c'], ['flag&x=9', 'flag'], ['', 'a']],
  isValidUsername: [['ada_1'], ['ab'], ['_hidden'], ['UPPER'], ['thisiswaytoolong'], ['abc'], ['name12345678']],
  simpleEmailValid: [['a@b.co'], ['@b.co'], ['a@b'], ['a@@b.co'], ['a@.co'], ['a@b.'], ['ab.c@d.ef']],
  parseTimeOfDay: [['09:30'], ['9:05'], ['24:00'], ['12:60'], ['abc'], ['23:59']],
  dateIsValid: [[2024, 2, 29], [2023, 2, 29], [2023, 4, 31], [2023, 12, 31], [2023, 13, 1], [2023, 1, 0], [1900, 2, 29], [2000, 2, 29]],
  bracketsMatch: [['([]{})'], ['([)]'], [''], ['(('], ['a(b)c]'], ['{[()]}']],
  encodeBinaryPadded: [[5, 4], [0, 3], [7, 3], [8, 3], [1, 1]],
  countSetBits: [[0], [1], [7], [8], [255], [10]],
  checksumMod256: [[[1, 2, 3]], [[]], [[255, 1]], [[200, 100, 50]]],
  parityBit: [[[1, 0, 1]], [[]], [[1]], [[1, 1, 1]], [[0, 0]]],
  semverGreater: [['1.2.3', '1.2.2'], ['1.2.3', '1.2.3'], ['2.0.0', '1.9.9'], ['1.0.0', '1.0.1'], ['0.10.0', '0.9.0']],
  wordFrequency: [['the cat the dog', 'the'], ['', 'a'], ['The THE the', 'the'], ['cat', 'dog']],
  isNumericString: [['123'], ['-4.5'], [''], ['1.2.3'], ['-'], ['12a'], ['.'], ['0']],
  parseDurationMinutes: [['1h30m'], ['45m'], ['2h'], [''], ['10h5m']],
  isPangram: [['the quick brown fox jumps over the lazy dog'], ['hello'], [''], ['abcdefghijklmnopqrstuvwxyz']],
  longestDigitRun: [['ab123c45'], [''], ['abc'], ['9'], ['1a22b333']],
  normalizeSpaces: [['  a   b  '], [''], ['one'], ['x y'], ['a  b   c']],
  creditCardBrand: [['4111'], ['5105'], ['3400'], ['3700'], ['6011'], ['5600'], ['5000']],
  maxNestingParens: [['(())'], [''], ['()()'], ['((a)(b))'], [')(']],
  parseCoordinates: [['10,20'], ['91,0'], ['0,-181'], ['1,2,3'], ['-90,180'], ['45.5,-73.6']],
  zipCodeValid: [['12345'], ['12345-6789'], ['1234'], ['12345_6789'], ['1234a'], ['123456789']],
  rotateString: [['abcdef', 2], ['abc', 0], ['', 3], ['abc', 4], ['ab', 2]],
  firstUniqueChar: [['leetcode'], ['aabb'], [''], ['abcabd'], ['z']],
};
