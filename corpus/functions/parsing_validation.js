// parsing_validation: small hand-written parsers, format validators and checksum helpers.

export function isAsciiDigitString(text) {
  if (text.length === 0) {
    return false;
  }
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) {
      return false;
    }
  }
  return true;
}

export function parseUnsignedDecimal(text) {
  if (text.length === 0) {
    return null;
  }
  let value = 0;
  for (const ch of text) {
    const digit = ch.charCodeAt(0) - 48;
    if (digit < 0 || digit > 9) {
      return null;
    }
    value = value * 10 + digit;
  }
  return value;
}

export function parseSignedDecimal(text) {
  const hasSign = text[0] === '-' || text[0] === '+';
  const sign = text[0] === '-' ? -1 : 1;
  let i = hasSign ? 1 : 0;
  if (i >= text.length) {
    return null;
  }
  let value = 0;
  while (i < text.length) {
    const digit = '0123456789'.indexOf(text[i]);
    if (digit === -1) {
      return null;
    }
    value = value * 10 + digit;
    i++;
  }
  return sign * value;
}

export function parseIntegerInBase(text, base) {
  if (base < 2 || base > 36 || text.length === 0) {
    return null;
  }
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  let value = 0;
  for (const ch of text.toLowerCase()) {
    const digit = alphabet.indexOf(ch);
    if (digit === -1 || digit >= base) {
      return null;
    }
    value = value * base + digit;
  }
  return value;
}

export function parseHexLiteral(text) {
  let body = text;
  if (body.startsWith('0x') || body.startsWith('0X')) {
    body = body.slice(2);
  }
  if (body.length === 0 || body.length > 8) {
    return null;
  }
  let value = 0;
  for (const ch of body.toLowerCase()) {
    const isDigit = ch >= '0' && ch <= '9';
    const isLetter = ch >= 'a' && ch <= 'f';
    if (!isDigit && !isLetter) {
      return null;
    }
    value = value * 16 + (isDigit ? ch.charCodeAt(0) - 48 : ch.charCodeAt(0) - 87);
  }
  return value;
}

export function parseBinaryLiteral(text) {
  const body = text.startsWith('0b') ? text.slice(2) : text;
  if (body.length === 0) {
    return null;
  }
  let value = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '0' && body[i] !== '1') {
      return null;
    }
    value = value * 2 + (body[i] === '1' ? 1 : 0);
  }
  return value;
}

export function isEvenHexByteString(text) {
  if (text.length === 0 || text.length % 2 !== 0) {
    return false;
  }
  return text.split('').every((ch) => '0123456789abcdefABCDEF'.includes(ch));
}

export function bracketSequenceValid(text) {
  const pairs = { ')': '(', ']': '[', '}': '{' };
  const stack = [];
  for (const ch of text) {
    if (ch === '(' || ch === '[' || ch === '{') {
      stack.push(ch);
    } else if (pairs[ch] !== undefined) {
      if (stack.length === 0 || stack[stack.length - 1] !== pairs[ch]) {
        return false;
      }
      stack.pop();
    }
  }
  return stack.length === 0;
}

export function firstUnbalancedIndex(text) {
  const openIndexes = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') {
      openIndexes.push(i);
    } else if (text[i] === ')') {
      if (openIndexes.length === 0) {
        return i;
      }
      openIndexes.pop();
    }
  }
  return openIndexes.length > 0 ? openIndexes[0] : -1;
}

export function minParensToBalance(text) {
  let open = 0;
  let added = 0;
  for (const ch of text) {
    if (ch === '(') {
      open++;
    } else if (ch === ')') {
      if (open > 0) {
        open--;
      } else {
        added++;
      }
    }
  }
  return open + added;
}

export function romanNumeralToInt(text) {
  const values = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const current = values[text[i]];
    if (current === undefined) {
      return null;
    }
    const next = i + 1 < text.length ? values[text[i + 1]] ?? 0 : 0;
    total += current < next ? -current : current;
  }
  return total;
}

export function intToRomanNumeral(value) {
  if (value < 1 || value > 3999) {
    throw new RangeError('value out of range');
  }
  const numbers = [1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1];
  const symbols = ['M', 'CM', 'D', 'CD', 'C', 'XC', 'L', 'XL', 'X', 'IX', 'V', 'IV', 'I'];
  let remaining = value;
  let result = '';
  for (let i = 0; i < numbers.length; i++) {
    while (remaining >= numbers[i]) {
      result += symbols[i];
      remaining -= numbers[i];
    }
  }
  return result;
}

export function ipv4ToInteger(text) {
  const parts = text.split('.');
  if (parts.length !== 4) {
    return null;
  }
  let result = 0;
  for (const part of parts) {
    if (part.length === 0 || part.length > 3 || !/^[0-9]+$/.test(part)) {
      return null;
    }
    const octet = Number(part);
    if (octet > 255 || (part.length > 1 && part[0] === '0')) {
      return null;
    }
    result = result * 256 + octet;
  }
  return result;
}

export function isPrivateIpv4(text) {
  const octets = text.split('.').map(Number);
  if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255)) {
    return false;
  }
  const [a, b] = octets;
  if (a === 10) {
    return true;
  }
  if (a === 172 && b >= 16 && b <= 31) {
    return true;
  }
  return a === 192 && b === 168;
}

export function compareDottedVersions(left, right) {
  const a = left.split('.').map(Number);
  const b = right.split('.').map(Number);
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

export function parseSemverParts(text) {
  const core = text.startsWith('v') ? text.slice(1) : text;
  const parts = core.split('.');
  if (parts.length !== 3) {
    return null;
  }
  const numbers = [];
  for (const part of parts) {
    if (part === '' || !/^[0-9]+$/.test(part) || (part.length > 1 && part[0] === '0')) {
      return null;
    }
    numbers.push(Number(part));
  }
  return { major: numbers[0], minor: numbers[1], patch: numbers[2] };
}

export function versionAtLeast(version, minimum) {
  const have = version.split('.').map((p) => parseInt(p, 10) || 0);
  const need = minimum.split('.').map((p) => parseInt(p, 10) || 0);
  for (let i = 0; i < need.length; i++) {
    const current = i < have.length ? have[i] : 0;
    if (current > need[i]) {
      return true;
    }
    if (current < need[i]) {
      return false;
    }
  }
  return true;
}

export function latestVersionOf(versions) {
  let best = null;
  for (const version of versions) {
    if (best === null) {
      best = version;
      continue;
    }
    const a = version.split('.').map(Number);
    const b = best.split('.').map(Number);
    let i = 0;
    while (i < 3 && a[i] === b[i]) {
      i++;
    }
    if (i < 3 && a[i] > b[i]) {
      best = version;
    }
  }
  return best;
}

export function parseQueryPairs(text) {
  const query = text.startsWith('?') ? text.slice(1) : text;
  const result = {};
  for (const piece of query.split('&')) {
    if (piece.length === 0) {
      continue;
    }
    const eq = piece.indexOf('=');
    const key = eq === -1 ? piece : piece.slice(0, eq);
    result[key] = eq === -1 ? '' : piece.slice(eq + 1);
  }
  return result;
}

export function parseKeyValueList(text, separator) {
  const result = {};
  const entries = text.split(separator);
  for (let i = 0; i < entries.length; i++) {
    const eq = entries[i].indexOf('=');
    if (eq <= 0) {
      continue;
    }
    const key = entries[i].slice(0, eq).trim();
    result[key] = entries[i].slice(eq + 1).trim();
  }
  return result;
}

export function parseHeaderLine(line) {
  const colon = line.indexOf(':');
  if (colon < 1) {
    return null;
  }
  const name = line.slice(0, colon).trim().toLowerCase();
  if (name.length === 0 || name.includes(' ')) {
    return null;
  }
  return { name, value: line.slice(colon + 1).trim() };
}

export function parseEnvLine(line) {
  const trimmed = line.trim();
  if (trimmed.length === 0 || trimmed[0] === '#') {
    return null;
  }
  const eq = trimmed.indexOf('=');
  if (eq < 1) {
    return null;
  }
  let value = trimmed.slice(eq + 1).trim();
  if (value.length >= 2 && value[0] === '"' && value[value.length - 1] === '"') {
    value = value.slice(1, -1);
  }
  return [trimmed.slice(0, eq).trim(), value];
}

export function compressRuns(text) {
  let result = '';
  let i = 0;
  while (i < text.length) {
    let j = i + 1;
    while (j < text.length && text[j] === text[i]) {
      j++;
    }
    const count = j - i;
    result += count > 1 ? text[i] + count : text[i];
    i = j;
  }
  return result;
}

export function expandRuns(text) {
  let result = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    let j = i + 1;
    while (j < text.length && text[j] >= '0' && text[j] <= '9') {
      j++;
    }
    const count = j > i + 1 ? Number(text.slice(i + 1, j)) : 1;
    result += ch.repeat(count);
    i = j;
  }
  return result;
}

export function runLengthPairs(values) {
  const pairs = [];
  for (const value of values) {
    const last = pairs[pairs.length - 1];
    if (last !== undefined && last[0] === value) {
      last[1] += 1;
    } else {
      pairs.push([value, 1]);
    }
  }
  return pairs;
}

export function tokenizeArithmetic(text) {
  const tokens = [];
  let i = 0;
  while (i < text.length) {
    let j = i;
    while (j < text.length && text[j] >= '0' && text[j] <= '9') {
      j++;
    }
    if (j > i) {
      tokens.push(Number(text.slice(i, j)));
      i = j;
      continue;
    }
    if ('+-*/()'.includes(text[i])) {
      tokens.push(text[i]);
    }
    i++;
  }
  return tokens;
}

export function evaluatePostfix(tokens) {
  const stack = [];
  for (const token of tokens) {
    if (typeof token === 'number') {
      stack.push(token);
      continue;
    }
    if (stack.length < 2) {
      return null;
    }
    const b = stack.pop();
    const a = stack.pop();
    if (token === '+' || token === '-') {
      stack.push(token === '+' ? a + b : a - b);
    } else {
      stack.push(token === '*' ? a * b : Math.trunc(a / b));
    }
  }
  return stack.length === 1 ? stack[0] : null;
}

export function evaluateSumOfProducts(text) {
  let total = 0;
  for (const term of text.split('+')) {
    let product = 1;
    for (const factor of term.split('*')) {
      const value = Number(factor.trim());
      if (factor.trim() === '' || Number.isNaN(value)) {
        return null;
      }
      product *= value;
    }
    total += product;
  }
  return total;
}

export function luhnCheckDigit(payload) {
  let sum = 0;
  let double = true;
  for (let i = payload.length - 1; i >= 0; i--) {
    let digit = Number(payload[i]);
    if (double) {
      digit *= 2;
      if (digit > 9) {
        digit -= 9;
      }
    }
    sum += digit;
    double = !double;
  }
  return (10 - (sum % 10)) % 10;
}

export function isbn13Valid(code) {
  const digits = code.replace(/-/g, '');
  if (digits.length !== 13 || !/^[0-9]+$/.test(digits)) {
    return false;
  }
  let sum = 0;
  for (let i = 0; i < 13; i++) {
    const weight = i % 2 === 0 ? 1 : 3;
    sum += Number(digits[i]) * weight;
  }
  return sum % 10 === 0;
}

export function isbn10CheckChar(nineDigits) {
  if (nineDigits.length !== 9) {
    return null;
  }
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    sum += Number(nineDigits[i]) * (10 - i);
  }
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

export function gtinValid(code) {
  if (![8, 12, 13, 14].includes(code.length) || !/^[0-9]+$/.test(code)) {
    return false;
  }
  let sum = 0;
  for (let i = 0; i < code.length - 1; i++) {
    const fromRight = code.length - 2 - i;
    sum += Number(code[i]) * (fromRight % 2 === 0 ? 3 : 1);
  }
  const expected = (10 - (sum % 10)) % 10;
  return expected === Number(code[code.length - 1]);
}

export function mod11CheckDigit(digits) {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 7 ? 2 : weight + 1;
  }
  const remainder = 11 - (sum % 11);
  if (remainder === 11) {
    return 0;
  }
  return remainder === 10 ? null : remainder;
}

export function mod97Remainder(digits) {
  let remainder = 0;
  for (const ch of digits) {
    remainder = (remainder * 10 + Number(ch)) % 97;
  }
  return remainder;
}

export function passwordStrengthScore(password) {
  let score = 0;
  if (password.length >= 8) {
    score++;
  }
  if (password.length >= 12) {
    score++;
  }
  if (/[a-z]/.test(password) && /[A-Z]/.test(password)) {
    score++;
  }
  if (/[0-9]/.test(password)) {
    score++;
  }
  if (/[^A-Za-z0-9]/.test(password)) {
    score++;
  }
  return score;
}

export function passwordRuleFailures(password) {
  const failures = [];
  if (password.length < 8) {
    failures.push('length');
  }
  if (!/[A-Z]/.test(password)) {
    failures.push('upper');
  }
  if (!/[0-9]/.test(password)) {
    failures.push('digit');
  }
  if (password.trim() !== password) {
    failures.push('whitespace');
  }
  return failures;
}

export function passwordMeetsPolicy(password, policy) {
  let digits = 0;
  let uppers = 0;
  for (const ch of password) {
    if (ch >= '0' && ch <= '9') {
      digits++;
    } else if (ch >= 'A' && ch <= 'Z') {
      uppers++;
    }
  }
  return (
    password.length >= (policy.minLength ?? 0) &&
    digits >= (policy.minDigits ?? 0) &&
    uppers >= (policy.minUpper ?? 0)
  );
}

export function hasLongCharRun(text, maxRun) {
  let run = 1;
  for (let i = 1; i < text.length; i++) {
    run = text[i] === text[i - 1] ? run + 1 : 1;
    if (run > maxRun) {
      return true;
    }
  }
  return text.length > 0 && maxRun < 1;
}

export function isSequentialPin(pin) {
  if (pin.length < 3) {
    return false;
  }
  const step = pin.charCodeAt(1) - pin.charCodeAt(0);
  if (step !== 1 && step !== -1) {
    return false;
  }
  for (let i = 2; i < pin.length; i++) {
    if (pin.charCodeAt(i) - pin.charCodeAt(i - 1) !== step) {
      return false;
    }
  }
  return true;
}

export function isWellFormedEmail(text) {
  const at = text.indexOf('@');
  if (at < 1 || at !== text.lastIndexOf('@') || at > 64) {
    return false;
  }
  const domain = text.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  if (dot < 1 || dot > domain.length - 3) {
    return false;
  }
  return !text.includes('..') && text[0] !== '.' && text[at - 1] !== '.';
}

export function emailDomainOf(text) {
  const parts = text.trim().split('@');
  if (parts.length !== 2 || parts[0].length === 0) {
    return null;
  }
  const domain = parts[1].toLowerCase();
  return domain.includes('.') && !domain.endsWith('.') ? domain : null;
}

export function isValidCssClassName(text) {
  if (text.length === 0) {
    return false;
  }
  const first = text[0];
  const startsOk = /[A-Za-z_]/.test(first) || (first === '-' && text.length > 1 && !/[0-9]/.test(text[1]));
  if (!startsOk) {
    return false;
  }
  return /^[A-Za-z0-9_-]*$/.test(text.slice(1));
}

export function isSnakeCaseName(text) {
  if (text.length === 0 || text[0] === '_' || text[text.length - 1] === '_') {
    return false;
  }
  if (text[0] >= '0' && text[0] <= '9') {
    return false;
  }
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '_';
    if (!ok || (ch === '_' && text[i - 1] === '_')) {
      return false;
    }
  }
  return true;
}

export function isIsoDateString(text) {
  if (text.length !== 10 || text[4] !== '-' || text[7] !== '-') {
    return false;
  }
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1) {
    return false;
  }
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= lengths[month - 1];
}

export function isValid24HourTime(text) {
  const parts = text.split(':');
  if (parts.length < 2 || parts.length > 3) {
    return false;
  }
  const limits = [23, 59, 59];
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].length !== 2 || !/^[0-9]{2}$/.test(parts[i])) {
      return false;
    }
    if (Number(parts[i]) > limits[i]) {
      return false;
    }
  }
  return true;
}

export function parsePercentText(text) {
  const trimmed = text.trim();
  if (!trimmed.endsWith('%') || trimmed.length < 2) {
    return null;
  }
  const value = Number(trimmed.slice(0, -1));
  if (Number.isNaN(value) || value < 0 || value > 100) {
    return null;
  }
  return value / 100;
}

export function parseMoneyToCents(text) {
  let cleaned = text.trim().replace(/,/g, '');
  const negative = cleaned.startsWith('-');
  if (negative) {
    cleaned = cleaned.slice(1);
  }
  if (cleaned.startsWith('$')) {
    cleaned = cleaned.slice(1);
  }
  const [whole, fraction = ''] = cleaned.split('.');
  if (whole === '' || !/^[0-9]+$/.test(whole) || !/^[0-9]{0,2}$/.test(fraction)) {
    return null;
  }
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return negative ? -cents : cents;
}

export function parseByteSize(text) {
  const match = /^([0-9]+)\s*([KMG]?B)$/i.exec(text.trim());
  if (match === null) {
    return null;
  }
  const units = ['B', 'KB', 'MB', 'GB'];
  const power = units.indexOf(match[2].toUpperCase());
  let bytes = Number(match[1]);
  for (let i = 0; i < power; i++) {
    bytes *= 1024;
  }
  return bytes;
}

export function parseCompactDuration(text) {
  const factors = { h: 3600, m: 60, s: 1 };
  let total = 0;
  let digits = '';
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') {
      digits += ch;
    } else if (factors[ch] !== undefined && digits.length > 0) {
      total += Number(digits) * factors[ch];
      digits = '';
    } else {
      return null;
    }
  }
  return digits.length === 0 ? total : null;
}

export function parseNumberCsv(text) {
  const result = [];
  for (const raw of text.split(',')) {
    const cell = raw.trim();
    if (cell === '') {
      continue;
    }
    const value = Number(cell);
    if (Number.isNaN(value)) {
      return null;
    }
    result.push(value);
  }
  return result;
}

export function parseHexRgb(text) {
  let hex = text.startsWith('#') ? text.slice(1) : text;
  if (hex.length === 3) {
    hex = hex[0] + hex[0] + hex[1] + hex[1] + hex[2] + hex[2];
  }
  if (hex.length !== 6 || !/^[0-9a-fA-F]+$/.test(hex)) {
    return null;
  }
  const channels = [];
  for (let i = 0; i < 6; i += 2) {
    channels.push(parseInt(hex.slice(i, i + 2), 16));
  }
  return channels;
}

export function isValidMacAddress(text) {
  const separator = text.includes('-') ? '-' : ':';
  const groups = text.split(separator);
  if (groups.length !== 6) {
    return false;
  }
  return groups.every((group) => group.length === 2 && /^[0-9A-Fa-f]+$/.test(group));
}

export function isValidPortText(text) {
  if (text.length === 0 || text.length > 5) {
    return false;
  }
  if (!/^[0-9]+$/.test(text) || (text[0] === '0' && text.length > 1)) {
    return false;
  }
  const port = Number(text);
  return port >= 1 && port <= 65535;
}

export function isValidPhoneDigits(text) {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch >= '0' && ch <= '9') {
      digits++;
    } else if (ch === '+' && i === 0) {
      continue;
    } else if (ch !== ' ' && ch !== '-' && ch !== '(' && ch !== ')') {
      return false;
    }
  }
  return digits >= 10 && digits <= 12;
}

export function parsePageRanges(text) {
  const pages = [];
  for (const part of text.split(',')) {
    const bounds = part.trim().split('-').map(Number);
    if (bounds.some((b) => !Number.isInteger(b) || b < 1)) {
      return null;
    }
    const start = bounds[0];
    const end = bounds.length > 1 ? bounds[1] : start;
    if (end < start || bounds.length > 2) {
      return null;
    }
    for (let p = start; p <= end; p++) {
      pages.push(p);
    }
  }
  return pages;
}

export function quotesBalanced(text) {
  let inside = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
    } else if (text[i] === '"') {
      inside = !inside;
    }
  }
  return !inside;
}

export function parseFractionText(text) {
  const parts = text.split('/');
  if (parts.length !== 2) {
    return null;
  }
  const num = parseInt(parts[0], 10);
  const den = parseInt(parts[1], 10);
  if (Number.isNaN(num) || Number.isNaN(den) || den === 0) {
    return null;
  }
  let a = Math.abs(num);
  let b = Math.abs(den);
  while (b !== 0) {
    [a, b] = [b, a % b];
  }
  const sign = den < 0 ? -1 : 1;
  return { num: (sign * num) / a, den: (sign * den) / a };
}

export function parseDecimalByHand(text) {
  const dot = text.indexOf('.');
  const whole = dot === -1 ? text : text.slice(0, dot);
  const fraction = dot === -1 ? '' : text.slice(dot + 1);
  if (whole.length + fraction.length === 0 || !/^[0-9]*$/.test(whole + fraction)) {
    return null;
  }
  let value = 0;
  for (const ch of whole) {
    value = value * 10 + (ch.charCodeAt(0) - 48);
  }
  let scale = 1;
  for (const ch of fraction) {
    scale /= 10;
    value += (ch.charCodeAt(0) - 48) * scale;
  }
  return Math.round(value * 1000) / 1000;
}

export function isValidUuidText(text) {
  const groups = text.split('-');
  const lengths = [8, 4, 4, 4, 12];
  if (groups.length !== lengths.length) {
    return false;
  }
  for (let i = 0; i < groups.length; i++) {
    if (groups[i].length !== lengths[i] || !/^[0-9a-fA-F]+$/.test(groups[i])) {
      return false;
    }
  }
  return true;
}

export function isVersionInRange(version, low, high) {
  const toNumber = version.split('.').map(Number);
  const lower = low.split('.').map(Number);
  const upper = high.split('.').map(Number);
  let aboveLow = 0;
  let belowHigh = 0;
  for (let i = 0; i < 3; i++) {
    if (aboveLow === 0 && toNumber[i] !== lower[i]) {
      aboveLow = toNumber[i] > lower[i] ? 1 : -1;
    }
    if (belowHigh === 0 && toNumber[i] !== upper[i]) {
      belowHigh = toNumber[i] < upper[i] ? 1 : -1;
    }
  }
  return aboveLow >= 0 && belowHigh === 1;
}

export function numberToHexDigits(value, minWidth) {
  if (value < 0 || !Number.isInteger(value)) {
    throw new RangeError('expected a non-negative integer');
  }
  const digits = '0123456789abcdef';
  let result = '';
  let rest = value;
  do {
    result = digits[rest % 16] + result;
    rest = Math.floor(rest / 16);
  } while (rest > 0);
  return result.padStart(minWidth, '0');
}

export function addBinaryStrings(a, b) {
  let i = a.length - 1;
  let j = b.length - 1;
  let carry = 0;
  let result = '';
  while (i >= 0 || j >= 0 || carry > 0) {
    const sum = (i >= 0 ? Number(a[i]) : 0) + (j >= 0 ? Number(b[j]) : 0) + carry;
    result = (sum % 2) + result;
    carry = sum >= 2 ? 1 : 0;
    i--;
    j--;
  }
  return result === '' ? '0' : result;
}

export function octalToPermissionString(mode) {
  if (!/^[0-7]{3}$/.test(mode)) {
    return null;
  }
  let result = '';
  for (const ch of mode) {
    const bits = Number(ch);
    result += (bits & 4) !== 0 ? 'r' : '-';
    result += (bits & 2) !== 0 ? 'w' : '-';
    result += (bits & 1) !== 0 ? 'x' : '-';
  }
  return result;
}

export function permissionStringToOctal(text) {
  if (text.length !== 9) {
    return null;
  }
  let result = '';
  for (let group = 0; group < 3; group++) {
    let value = 0;
    for (let k = 0; k < 3; k++) {
      const ch = text[group * 3 + k];
      if (ch !== '-') {
        value += 4 >> k;
      }
    }
    result += value;
  }
  return result;
}

export function isValidHostname(text) {
  if (text.length === 0 || text.length > 253) {
    return false;
  }
  const labels = text.split('.');
  for (const label of labels) {
    if (label.length < 1 || label.length > 63) {
      return false;
    }
    if (label[0] === '-' || label[label.length - 1] === '-' || !/^[a-zA-Z0-9-]+$/.test(label)) {
      return false;
    }
  }
  return labels.length >= 2;
}

export function splitCommandLine(text) {
  const args = [];
  let current = null;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') {
      quoted = !quoted;
      current = current ?? '';
    } else if (ch === ' ' && !quoted) {
      if (current !== null) {
        args.push(current);
      }
      current = null;
    } else {
      current = (current ?? '') + ch;
    }
  }
  return current === null ? args : [...args, current];
}

export function unescapeBackslashes(text) {
  const map = { n: '\n', t: '\t', '\\': '\\', '"': '"' };
  let result = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && i + 1 < text.length) {
      const next = text[i + 1];
      result += map[next] ?? next;
      i++;
    } else {
      result += text[i];
    }
  }
  return result;
}

export function parseCssLength(text) {
  const units = ['px', 'rem', 'em', '%'];
  for (const unit of units) {
    if (text.endsWith(unit) && text.length > unit.length) {
      const value = Number(text.slice(0, text.length - unit.length));
      return Number.isNaN(value) ? null : { value, unit };
    }
  }
  return text === '0' ? { value: 0, unit: 'px' } : null;
}

export function stripLeadingZeros(text) {
  let start = 0;
  while (start < text.length - 1 && text[start] === '0') {
    start++;
  }
  return text.slice(start);
}

export function parseMarkdownHeading(line) {
  let level = 0;
  while (level < line.length && line[level] === '#') {
    level++;
  }
  if (level === 0 || level > 6 || line[level] !== ' ') {
    return null;
  }
  const title = line.slice(level + 1).trim();
  return title.length > 0 ? { level, title } : null;
}

export function isValidBase64Text(text) {
  if (text.length % 4 !== 0) {
    return false;
  }
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const body = text.slice(0, text.length - padding);
  for (const ch of body) {
    const ok = /[A-Za-z0-9]/.test(ch) || ch === '+' || ch === '/';
    if (!ok) {
      return false;
    }
  }
  return true;
}

export function parseQualityList(text) {
  const items = [];
  for (const entry of text.split(',')) {
    const [name, ...params] = entry.trim().split(';');
    let quality = 1;
    for (const param of params) {
      if (param.trim().startsWith('q=')) {
        quality = Number(param.trim().slice(2));
      }
    }
    if (name !== '' && quality > 0) {
      items.push({ name, quality });
    }
  }
  items.sort((a, b) => b.quality - a.quality);
  return items.map((item) => item.name);
}

export function parseHumanCount(text) {
  const suffixes = { k: 1000, m: 1000000, b: 1000000000 };
  const last = text[text.length - 1]?.toLowerCase();
  const factor = suffixes[last] ?? 1;
  const body = factor === 1 ? text : text.slice(0, -1);
  const value = Number(body);
  if (body.length === 0 || Number.isNaN(value) || value < 0) {
    return null;
  }
  return Math.round(value * factor);
}

export function cardExpiryValid(text, currentMonth, currentYear) {
  const match = /^([0-9]{2})\/([0-9]{2})$/.exec(text);
  if (match === null) {
    return false;
  }
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  if (month < 1 || month > 12) {
    return false;
  }
  return year > currentYear || (year === currentYear && month >= currentMonth);
}

export function parseTemperatureText(text) {
  const unit = text[text.length - 1];
  const value = Number(text.slice(0, -1));
  if (text.length < 2 || Number.isNaN(value)) {
    return null;
  }
  if (unit === 'C') {
    return value;
  }
  if (unit === 'F') {
    return Math.round(((value - 32) * 5) / 9 * 10) / 10;
  }
  return unit === 'K' ? Math.round((value - 273.15) * 10) / 10 : null;
}

export function normalizeVersionText(text) {
  const core = text.trim().replace(/^v/i, '');
  const parts = core.split('.');
  if (parts.length > 3 || parts.some((p) => !/^[0-9]+$/.test(p))) {
    return null;
  }
  while (parts.length < 3) {
    parts.push('0');
  }
  return parts.map((p) => String(Number(p))).join('.');
}

export const EXAMPLES = {
  isAsciiDigitString: [['0123'], [''], ['9'], ['12a'], ['/'], [':'], ['4 5'], ['00']],
  parseUnsignedDecimal: [['123'], [''], ['0'], ['9'], ['10'], ['1a'], ['/'], [':0']],
  parseSignedDecimal: [['42'], ['-17'], ['+8'], ['-'], [''], ['1-2'], ['0'], ['-09']],
  parseIntegerInBase: [['ff', 16], ['101', 2], ['12', 2], ['z', 36], ['10', 37], ['1', 1], ['', 10], ['777', 8], ['a', 10]],
  parseHexLiteral: [['0xff'], ['0X10'], ['A'], ['0x'], ['g1'], ['123456789'], ['12345678'], ['f9']],
  parseBinaryLiteral: [['0b101'], ['1'], ['0'], ['0b'], ['102'], ['1111'], ['0b0110']],
  isEvenHexByteString: [['0aFF'], [''], ['abc'], ['zz'], ['09'], ['0g'], ['ABCDEF12']],
  bracketSequenceValid: [['([]{})'], ['([)]'], [''], ['(('], ['())'], ['a{b[c]}'], [']'], ['{[()()]}']],
  firstUnbalancedIndex: [['(())'], [')('], ['(()'], [''], ['())('], ['a(b(c)'], ['((()))x)']],
  minParensToBalance: [['()'], ['))(('], [''], ['((('], ['())'], ['(a)(b'], [')']],
  romanNumeralToInt: [['III'], ['IV'], ['IX'], ['MCMXCIV'], [''], ['XLII'], ['VI'], ['ABC'], ['IA']],
  intToRomanNumeral: [[1], [4], [9], [14], [40], [1994], [3999], [0]],
  ipv4ToInteger: [['0.0.0.0'], ['1.2.3.4'], ['255.255.255.255'], ['256.0.0.1'], ['1.2.3'], ['01.2.3.4'], ['1..3.4'], ['10.0.0.1']],
  isPrivateIpv4: [['10.1.2.3'], ['172.16.0.1'], ['172.31.255.1'], ['172.15.0.1'], ['172.32.0.1'], ['192.168.1.1'], ['192.169.1.1'], ['8.8.8.8'], ['10.0.0.256']],
  compareDottedVersions: [['1.2.3', '1.2.3'], ['1.2', '1.2.0'], ['1.10', '1.9'], ['1.0.0', '1.0.1'], ['2', '1.9.9'], ['0.1', '0.1.1']],
  parseSemverParts: [['1.2.3'], ['v0.10.0'], ['1.2'], ['1.02.3'], ['1.2.x'], ['0.0.0'], ['1..3'], ['1.2.3.4']],
  versionAtLeast: [['1.2.3', '1.2.3'], ['1.2.4', '1.2.3'], ['1.2.2', '1.2.3'], ['2.0', '1.9.9'], ['1.2', '1.2.1'], ['1.10.0', '1.9'], ['0.9', '1']],
  latestVersionOf: [[['1.2.3', '1.10.0', '1.9.9']], [[]], [['0.0.1']], [['2.0.0', '2.0.0']], [['1.0.0', '1.0.1', '0.9.9']], [['3.1.0', '3.0.9', '3.1.1']]],
  parseQueryPairs: [['?a=1&b=2'], [''], ['flag'], ['x=&y=3'], ['?a=1&&b=='], ['k=v=w']],
  parseKeyValueList: [['a=1;b=2', ';'], ['', ';'], [' x = 5 ,y=', ','], ['=3;k=v', ';'], ['noequals;z=9', ';']],
  parseHeaderLine: [['Content-Type: text/html'], [':x'], ['Host:a.com'], ['No Colon'], ['Bad Name: v'], ['X-A:  b:c ']],
  parseEnvLine: [['KEY=value'], ['# comment'], [''], ['=x'], ['A="quoted"'], ['B="'], [' C = 1 '], ['NOEQ']],
  compressRuns: [['aaab'], [''], ['abc'], ['aabbbbbbbbbbc'], ['z'], ['aa']],
  expandRuns: [['a3b'], [''], ['x12'], ['ab2c'], ['a1'], ['q']],
  runLengthPairs: [[[1, 1, 2, 3, 3, 3]], [[]], [['a']], [[0, 0]], [[1, 2, 1]]],
  tokenizeArithmetic: [['12+3'], [''], ['(1 + 22) * 3'], ['7'], ['10/2-x'], ['9']],
  evaluatePostfix: [[[2, 3, '+']], [[5, 1, 2, '+', 4, '*', '+', 3, '-']], [[7, 2, '/']], [[-7, 2, '/']], [[1, '+']], [[]], [[1, 2]], [[6, 3, '-']]],
  evaluateSumOfProducts: [['2*3+4'], ['1+1'], ['5'], ['2*3*4+1*0'], ['2+'], ['a*2'], ['0*9+0']],
  luhnCheckDigit: [['7992739871'], [''], ['0'], ['5'], ['9'], ['12345'], ['4']],
  isbn13Valid: [['9780306406157'], ['978-0-306-40615-7'], ['9780306406158'], ['978030640615'], ['978030640615X'], ['0000000000000']],
  isbn10CheckChar: [['030640615'], ['123456789'], ['00000000'], ['000000000'], ['000000001'], ['000000010']],
  gtinValid: [['96385074'], ['036000291452'], ['4006381333931'], ['4006381333932'], ['00012345600012'], ['1234567'], ['036000291453']],
  mod11CheckDigit: [['0'], ['1'], ['5'], ['12'], ['123456'], ['7777777'], ['11']],
  mod97Remainder: [['0'], ['97'], ['96'], ['98'], ['123456789'], ['']],
  passwordStrengthScore: [['abc'], ['abcdefgh'], ['abcdefghijkl'], ['Abcdefg1!'], ['abcdefghijk'], ['A1!'], ['']],
  passwordRuleFailures: [['Secret123'], ['short'], ['Abcdefg1'], [' Abcdefg1'], ['abcdefgh'], ['ABCDEFG']],
  passwordMeetsPolicy: [['Ab12', { minLength: 4, minDigits: 2, minUpper: 1 }], ['Ab1', { minLength: 4 }], ['abcd', { minUpper: 1 }], ['AB12', { minDigits: 3 }], ['', {}], ['AZ09', { minLength: 4, minDigits: 2, minUpper: 2 }]],
  hasLongCharRun: [['aab', 2], ['aaab', 2], ['', 1], ['abc', 1], ['aa', 1], ['a', 0], ['abbb', 3]],
  isSequentialPin: [['1234'], ['4321'], ['12'], ['123'], ['1235'], ['2468'], ['1111'], ['9876']],
  isWellFormedEmail: [['a@b.co'], ['@b.co'], ['a@b@c.co'], ['a@b.c'], ['a..b@c.co'], ['.a@b.co'], ['a.@b.co'], ['ab@c.com'], ['a@.co']],
  emailDomainOf: [['Ana@Example.COM'], ['@x.com'], ['a@b'], ['a@b.'], ['a@@b.c'], [' x@y.org ']],
  isValidCssClassName: [['btn'], ['_x'], ['-a'], ['-1'], ['-'], ['1a'], ['a$b'], ['a-b_9'], ['']],
  isSnakeCaseName: [['snake_case'], ['_x'], ['x_'], ['a__b'], ['1abc'], ['abc1'], ['Abc'], [''], ['a']],
  isIsoDateString: [['2024-02-29'], ['2023-02-29'], ['2023-04-31'], ['2023-12-31'], ['2023-13-01'], ['2023-01-00'], ['1900-02-29'], ['2000-02-29'], ['2023/01/01']],
  isValid24HourTime: [['00:00'], ['23:59'], ['24:00'], ['12:60'], ['12:30:59'], ['12:30:60'], ['1:30'], ['12'], ['1:2:3:4']],
  parsePercentText: [['45%'], ['0%'], ['100%'], ['101%'], ['%'], ['-1%'], ['12'], [' 5% ']],
  parseMoneyToCents: [['$1,234.50'], ['0.5'], ['-$3'], ['12.345'], ['$'], ['7.05'], ['abc'], ['10']],
  parseByteSize: [['10B'], ['1KB'], ['2 mb'], ['1GB'], ['5TB'], ['KB'], ['0KB']],
  parseCompactDuration: [['1h30m15s'], ['45m'], [''], ['10'], ['h'], ['2h5s'], ['1d']],
  parseNumberCsv: [['1,2,3'], [''], ['4, ,5'], ['1,x'], ['-1.5'], ['0']],
  parseHexRgb: [['#ff8800'], ['f80'], ['#000'], ['#12345'], ['#gg0000'], ['ffffff']],
  isValidMacAddress: [['aa:bb:cc:dd:ee:ff'], ['AA-BB-CC-DD-EE-FF'], ['aa:bb:cc:dd:ee'], ['aa:bb:cc:dd:ee:f'], ['aa:bb:cc:dd:ee:fg'], ['00:11:22:33:44:55:66']],
  isValidPortText: [['1'], ['0'], ['65535'], ['65536'], ['080'], ['443'], [''], ['123456'], ['8a']],
  isValidPhoneDigits: [['+1 (555) 123-4567'], ['555-1234'], ['123456789'], ['1234567890'], ['123456789012'], ['1234567890123'], ['12+34567890'], ['555.123.4567']],
  parsePageRanges: [['1-3,5'], ['2'], ['3-1'], ['0-2'], ['4-4'], ['1-2-3'], ['a'], ['7, 9-10']],
  quotesBalanced: [['"a"'], ['"a'], [''], ['\\"'], ['"a\\"b"'], ['x"y"z"'], ['""""']],
  parseFractionText: [['3/4'], ['6/8'], ['1/0'], ['2/-4'], ['0/5'], ['a/2'], ['1/2/3'], ['-9/3']],
  parseDecimalByHand: [['12.34'], ['7'], ['.5'], ['0.125'], ['.'], ['1.2.3'], ['-1'], ['10.0']],
  isValidUuidText: [['123e4567-e89b-12d3-a456-426614174000'], ['123e4567-e89b-12d3-a456-42661417400'], ['123e4567e89b-12d3-a456-426614174000'], ['123e4567-e89b-12d3-a456-42661417400g'], ['00000000-0000-0000-0000-000000000000']],
  isVersionInRange: [['1.2.3', '1.0.0', '2.0.0'], ['1.0.0', '1.0.0', '2.0.0'], ['2.0.0', '1.0.0', '2.0.0'], ['0.9.9', '1.0.0', '2.0.0'], ['1.9.9', '1.0.0', '2.0.0'], ['2.0.1', '1.0.0', '2.0.0']],
  numberToHexDigits: [[255, 2], [0, 1], [16, 4], [15, 0], [4096, 2], [-1, 2]],
  addBinaryStrings: [['11', '1'], ['0', '0'], ['', ''], ['1010', '1011'], ['1', '111'], ['10', '']],
  octalToPermissionString: [['755'], ['644'], ['000'], ['777'], ['800'], ['75'], ['421']],
  permissionStringToOctal: [['rwxr-xr-x'], ['rw-r--r--'], ['---------'], ['rwxrwxrwx'], ['rwx'], ['r---w---x']],
  isValidHostname: [['example.com'], ['localhost'], ['a-b.c'], ['-a.com'], ['a-.com'], ['a..com'], ['x_y.com'], [''], ['1.2']],
  splitCommandLine: [['ls -la'], ['  a   b  '], ['echo "hello world"'], [''], ['""'], ['a "b c" d']],
  unescapeBackslashes: [['a\\nb'], ['\\\\'], ['x\\'], ['\\t\\"'], [''], ['\\q']],
  parseCssLength: [['12px'], ['1.5em'], ['2rem'], ['50%'], ['px'], ['0'], ['abcpx'], ['10']],
  stripLeadingZeros: [['007'], ['0'], ['000'], [''], ['100'], ['0010']],
  parseMarkdownHeading: [['# Title'], ['###### Six'], ['####### Seven'], ['#NoSpace'], ['Plain'], ['## '], ['##  Two ']],
  isValidBase64Text: [['aGVsbG8='], ['YQ=='], ['abc'], [''], ['ab$d'], ['a+/9'], ['a=bc'], ['====']],
  parseQualityList: [['en;q=0.8,fr,de;q=0.9'], [''], ['en'], ['x;q=0,y'], ['a;q=0.5,b;q=0.5']],
  parseHumanCount: [['1.5k'], ['2M'], ['10'], ['k'], [''], ['-3'], ['1b'], ['abc']],
  cardExpiryValid: [['05/24', 5, 2024], ['04/24', 5, 2024], ['01/25', 12, 2024], ['13/25', 1, 2024], ['00/25', 1, 2024], ['5/24', 1, 2024], ['12/23', 1, 2024]],
  parseTemperatureText: [['20C'], ['212F'], ['32F'], ['273.15K'], ['10X'], ['C'], ['-40F'], ['abcC']],
  normalizeVersionText: [['v1.2'], ['1'], ['1.02.3'], ['1.2.3.4'], ['V0.0.1'], ['1.x'], [' 2.10 ']],
};
