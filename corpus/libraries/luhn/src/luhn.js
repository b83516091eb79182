export function digitsOnly(input) {
  const str = String(input);
  let out = '';
  for (let i = 0; i < str.length; i++) {
    const ch = str[i];
    if (ch >= '0' && ch <= '9') {
      out += ch;
    } else if (ch !== ' ' && ch !== '-') {
      throw new SyntaxError('unexpected character: ' + ch);
    }
  }
  return out;
}

export function luhnSum(digits) {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d = d * 2;
      if (d > 9) {
        d -= 9;
      }
    }
    sum += d;
    double = !double;
  }
  return sum;
}

export function isValid(input) {
  let digits;
  try {
    digits = digitsOnly(input);
  } catch (e) {
    return false;
  }
  if (digits.length < 2) {
    return false;
  }
  return luhnSum(digits) % 10 === 0;
}

export function checkDigit(partial) {
  const digits = digitsOnly(partial);
  const sum = luhnSum(digits + '0');
  return (10 - (sum % 10)) % 10;
}

export function appendCheckDigit(partial) {
  const digits = digitsOnly(partial);
  return digits + checkDigit(digits);
}

function prefixBetween(digits, length, low, high) {
  if (digits.length < length) {
    return false;
  }
  const prefix = Number(digits.slice(0, length));
  return prefix >= low && prefix <= high;
}

export function cardType(input) {
  const digits = digitsOnly(input);
  if (digits.startsWith('34') || digits.startsWith('37')) {
    return 'amex';
  }
  if (digits.startsWith('4')) {
    return 'visa';
  }
  if (prefixBetween(digits, 2, 51, 55) || prefixBetween(digits, 4, 2221, 2720)) {
    return 'mastercard';
  }
  if (digits.startsWith('6011') || digits.startsWith('65') || prefixBetween(digits, 3, 644, 649)) {
    return 'discover';
  }
  return 'unknown';
}

export function formatCard(input) {
  const digits = digitsOnly(input);
  const groups = cardType(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts = [];
  let pos = 0;
  for (let g = 0; g < groups.length && pos < digits.length; g++) {
    parts.push(digits.slice(pos, pos + groups[g]));
    pos += groups[g];
  }
  if (pos < digits.length) {
    parts.push(digits.slice(pos));
  }
  return parts.join(' ');
}

export function maskCard(input, visible = 4) {
  const digits = digitsOnly(input);
  if (visible >= digits.length) {
    return digits;
  }
  const hidden = digits.length - visible;
  return '*'.repeat(hidden) + digits.slice(hidden);
}
