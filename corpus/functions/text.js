// text: small string and parsing helpers.

export function countChar(text, target) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === target) {
      n++;
    }
  }
  return n;
}

export function reverseWords(sentence) {
  const words = sentence.split(' ');
  const out = [];
  for (let i = words.length - 1; i >= 0; i--) {
    out.push(words[i]);
  }
  return out.join(' ');
}

export function titleCase(sentence) {
  const words = sentence.split(' ');
  for (let i = 0; i < words.length; i++) {
    if (words[i].length > 0) {
      words[i] = words[i][0].toUpperCase() + words[i].slice(1).toLowerCase();
    }
  }
  return words.join(' ');
}

export function isAllDigits(text) {
  if (text.length === 0) {
    return false;
  }
  for (const ch of text) {
    if (ch < '0' || ch > '9') {
      return false;
    }
  }
  return true;
}

export function parseDigits(text) {
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) {
      return null;
    }
    value = value * 10 + d;
  }
  return value;
}

export function caesarShift(text, shift) {
  let out = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code >= 97 && code <= 122) {
      out += String.fromCharCode(((code - 97 + shift) % 26) + 97);
    } else {
      out += ch;
    }
  }
  return out;
}

export function runLengthEncode(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    let j = i;
    while (j < text.length && text[j] === text[i]) {
      j++;
    }
    out += (j - i) + text[i];
    i = j;
  }
  return out;
}

export function initials(fullName) {
  let out = '';
  for (const part of fullName.split(' ')) {
    if (part.length > 0) {
      out += part[0].toUpperCase();
    }
  }
  return out;
}

export function centerText(text, width) {
  if (text.length >= width) {
    return text;
  }
  const left = Math.floor((width - text.length) / 2);
  const right = width - text.length - left;
  return ' '.repeat(left) + text + ' '.repeat(right);
}

export function compareVersions(a, b) {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < 3; i++) {
    const x = Number(pa[i] || 0);
    const y = Number(pb[i] || 0);
    if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

export function isValidIdentifier(name) {
  if (name.length === 0) {
    return false;
  }
  for (let i = 0; i < name.length; i++) {
    const ch = name[i];
    const letter = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch === '_';
    const digit = ch >= '0' && ch <= '9';
    if (!letter && !(digit && i > 0)) {
      return false;
    }
  }
  return true;
}

export function hexDigitValue(ch) {
  const code = ch.toLowerCase().charCodeAt(0);
  if (code >= 48 && code <= 57) {
    return code - 48;
  }
  if (code >= 97 && code <= 102) {
    return code - 87;
  }
  return -1;
}

export function parseKeyValue(line) {
  const at = line.indexOf('=');
  if (at <= 0) {
    return null;
  }
  const key = line.slice(0, at).trim();
  const value = line.slice(at + 1).trim();
  return { key, value };
}

export function luhnValid(digits) {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = Number(digits[i]);
    if (double) {
      d *= 2;
      if (d > 9) {
        d -= 9;
      }
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

export function countUppercase(text) {
  let n = 0;
  for (const ch of text) {
    if (ch >= 'A' && ch <= 'Z') {
      n++;
    }
  }
  return n;
}

export function firstRepeatedChar(text) {
  for (let i = 1; i < text.length; i++) {
    if (text.indexOf(text[i]) < i) {
      return text[i];
    }
  }
  return null;
}

export function maskCardNumber(number) {
  if (number.length <= 4) {
    return number;
  }
  return '*'.repeat(number.length - 4) + number.slice(-4);
}

export function wordWrapCount(text, width) {
  let lines = 1;
  let used = 0;
  for (const word of text.split(' ')) {
    if (used > 0 && used + 1 + word.length > width) {
      lines++;
      used = word.length;
    } else {
      used += (used > 0 ? 1 : 0) + word.length;
    }
  }
  return lines;
}

export function commonPrefixLength(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) {
    n++;
  }
  return n;
}

export function hammingDistance(a, b) {
  if (a.length !== b.length) {
    return -1;
  }
  let d = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      d++;
    }
  }
  return d;
}

export function snakeToCamel(name) {
  let out = '';
  let upper = false;
  for (const ch of name) {
    if (ch === '_') {
      upper = out.length > 0;
    } else {
      out += upper ? ch.toUpperCase() : ch;
      upper = false;
    }
  }
  return out;
}

export function romanToNumber(roman) {
  const values = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
  let total = 0;
  for (let i = 0; i < roman.length; i++) {
    const v = values[roman[i]];
    const next = values[roman[i + 1]] || 0;
    total += v < next ? -v : v;
  }
  return total;
}

export function numberToBinary(n) {
  if (n === 0) {
    return '0';
  }
  let out = '';
  while (n > 0) {
    out = (n % 2) + out;
    n = Math.floor(n / 2);
  }
  return out;
}

export function binaryToNumber(bits) {
  let value = 0;
  for (const b of bits) {
    value = value * 2 + (b === '1' ? 1 : 0);
  }
  return value;
}

export function isStrongPassword(password) {
  if (password.length < 8) {
    return false;
  }
  let digits = 0;
  let letters = 0;
  for (const ch of password) {
    if (ch >= '0' && ch <= '9') {
      digits++;
    } else if (ch.toLowerCase() !== ch.toUpperCase()) {
      letters++;
    }
  }
  return digits >= 2 && letters >= 2;
}

export function splitCsvLine(line) {
  const out = [];
  let field = '';
  for (const ch of line) {
    if (ch === ',') {
      out.push(field.trim());
      field = '';
    } else {
      field += ch;
    }
  }
  out.push(field.trim());
  return out;
}

export function ipv4Valid(address) {
  const parts = address.split('.');
  if (parts.length !== 4) {
    return false;
  }
  for (const p of parts) {
    const n = Number(p);
    if (p.length === 0 || p.length > 3 || !(n >= 0 && n <= 255)) {
      return false;
    }
  }
  return true;
}

export function vowelRatio(word) {
  if (word.length === 0) {
    return 0;
  }
  let vowels = 0;
  for (const ch of word) {
    if ('aeiou'.includes(ch)) {
      vowels++;
    }
  }
  return Math.round((vowels / word.length) * 100) / 100;
}

export function leftTrimChars(text, ch) {
  let i = 0;
  while (i < text.length && text[i] === ch) {
    i++;
  }
  return text.slice(i);
}

export function lastWord(sentence) {
  const words = sentence.trim().split(' ');
  if (words.length === 0 || words[0] === '') {
    return '';
  }
  return words[words.length - 1];
}

export function countSubstring(text, part) {
  if (part.length === 0) {
    return 0;
  }
  let count = 0;
  let at = text.indexOf(part);
  while (at !== -1) {
    count++;
    at = text.indexOf(part, at + part.length);
  }
  return count;
}

export function alternatingCase(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    out += i % 2 === 0 ? text[i].toUpperCase() : text[i].toLowerCase();
  }
  return out;
}

export function durationLabel(seconds) {
  if (seconds < 60) {
    return seconds + 's';
  }
  if (seconds < 3600) {
    return Math.floor(seconds / 60) + 'm';
  }
  return Math.floor(seconds / 3600) + 'h';
}

export function pluralize(count, word) {
  if (count === 1) {
    return count + ' ' + word;
  }
  return count + ' ' + word + 's';
}

export function digitsOnly(text) {
  let out = '';
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') {
      out += ch;
    }
  }
  return out;
}

export function bracketDepth(text) {
  let depth = 0;
  let max = 0;
  for (const ch of text) {
    if (ch === '[') {
      depth++;
      max = Math.max(max, depth);
    } else if (ch === ']') {
      depth--;
    }
  }
  return max;
}

export function isAnagramPair(a, b) {
  if (a.length !== b.length) {
    return false;
  }
  const counts = {};
  for (const ch of a) {
    counts[ch] = (counts[ch] || 0) + 1;
  }
  for (const ch of b) {
    if (!counts[ch]) {
      return false;
    }
    counts[ch]--;
  }
  return true;
}

export function padNumber(n, width) {
  let text = String(Math.abs(n));
  while (text.length < width) {
    text = '0' + text;
  }
  return n < 0 ? '-' + text : text;
}

export function slugify(title) {
  let out = '';
  for (const ch of title.toLowerCase()) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
      out += ch;
    } else if (out.length > 0 && out[out.length - 1] !== '-') {
      out += '-';
    }
  }
  return out.endsWith('-') ? out.slice(0, -1) : out;
}

export const EXAMPLES = {
  countChar: [['banana', 'a'], ['', 'a'], ['xyz', 'a'], ['aaa', 'a'], ['Aa', 'a']],
  reverseWords: [['one two three'], ['single'], [''], ['a b'], ['x  y']],
  titleCase: [['hello world'], [''], ['HELLO'], ['a b c'], ['mIxEd case']],
  isAllDigits: [['123'], [''], ['12a'], ['0'], ['9 1'], ['/0']],
  parseDigits: [['123'], [''], ['007'], ['12x'], ['9'], [':']],
  caesarShift: [['abc', 1], ['xyz', 3], ['hello world', 0], ['a-b', 2], ['zz', 26]],
  runLengthEncode: [['aaabcc'], [''], ['a'], ['abc'], ['zzzz']],
  initials: [['ada lovelace'], [''], ['grace'], ['alan  turing'], ['x y z']],
  centerText: [['ab', 6], ['abc', 6], ['hello', 3], ['', 2], ['x', 4]],
  compareVersions: [['1.2.3', '1.2.3'], ['1.2', '1.10'], ['2.0.0', '1.9.9'], ['1.0.1', '1.0'], ['0.0.1', '0.1']],
  isValidIdentifier: [['name'], ['_x1'], ['1abc'], [''], ['a-b'], ['Z9'], ['a b']],
  hexDigitValue: [['0'], ['9'], ['a'], ['F'], ['g'], ['/']],
  parseKeyValue: [['a=1'], ['=1'], ['name = Ada '], ['noequals'], ['k=']],
  luhnValid: [['79927398713'], ['79927398710'], ['0'], ['18'], ['059']],
  countUppercase: [['Hello World'], [''], ['ABC'], ['abc'], ['Z@a']],
  firstRepeatedChar: [['abca'], ['abc'], [''], ['aa'], ['abcdb']],
  maskCardNumber: [['1234567812345678'], ['1234'], ['12345'], ['']],
  wordWrapCount: [['the quick brown fox', 10], ['short', 10], ['a b c d', 3], ['', 5], ['word wrap', 9]],
  commonPrefixLength: [['flower', 'flow'], ['', 'abc'], ['abc', 'abc'], ['dog', 'cat'], ['ab', 'abc']],
  hammingDistance: [['karolin', 'kathrin'], ['', ''], ['abc', 'abd'], ['a', 'ab'], ['same', 'same']],
  snakeToCamel: [['hello_world'], ['_private'], ['a_b_c'], ['plain'], ['x__y']],
  romanToNumber: [['III'], ['IV'], ['IX'], ['MCMXCIV'], ['LVIII'], ['']],
  numberToBinary: [[0], [1], [2], [5], [10], [255]],
  binaryToNumber: [['0'], ['1'], ['101'], ['1111'], [''], ['100000']],
  isStrongPassword: [['abc12345'], ['abcdefgh'], ['12345678'], ['ab12'], ['a1b2c3d4'], ['xy99abcd']],
  splitCsvLine: [['a,b,c'], [''], ['one'], [' x , y '], ['a,,b']],
  ipv4Valid: [['192.168.0.1'], ['256.1.1.1'], ['1.2.3'], ['0.0.0.0'], ['1..2.3'], ['10.0.0.255'], ['1.2.3.1000']],
  vowelRatio: [['hello'], [''], ['aei'], ['xyz'], ['banana']],
  leftTrimChars: [['xxabc', 'x'], ['abc', 'x'], ['', 'x'], ['xxx', 'x'], ['xaxb', 'x']],
  lastWord: [['hello world'], [''], ['single'], ['  trailing space  '], ['a b c']],
  countSubstring: [['banana', 'an'], ['aaaa', 'aa'], ['abc', ''], ['abc', 'd'], ['abab', 'ab']],
  alternatingCase: [['hello'], [''], ['AB'], ['a'], ['xYz']],
  durationLabel: [[0], [59], [60], [3599], [3600], [7300]],
  pluralize: [[1, 'cat'], [0, 'dog'], [2, 'tree'], [-1, 'unit']],
  digitsOnly: [['a1b2c3'], [''], ['abc'], ['0x9'], ['42']],
  bracketDepth: [['[[]]'], [''], ['[][]'], ['[[[]]][]'], ['a[b]c']],
  isAnagramPair: [['listen', 'silent'], ['abc', 'abd'], ['', ''], ['aab', 'abb'], ['ab', 'abc']],
  padNumber: [[7, 3], [-7, 3], [1234, 2], [0, 1], [42, 4]],
  slugify: [['Hello World'], [''], ['  Trim me  '], ['A--B'], ['Node.js 20!']],
};
