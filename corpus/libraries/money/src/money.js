// Money amounts stored as integer cents.

export function parseMoney(text) {
  const input = String(text).trim();
  const match = /^(-)?\$?(\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d{1,2}))?$/.exec(input);
  if (match === null) {
    throw new SyntaxError('Invalid money amount: ' + text);
  }
  const negative = match[1] === '-';
  const dollars = Number(match[2].replace(/,/g, ''));
  let fraction = match[3] || '0';
  if (fraction.length === 1) {
    fraction += '0';
  }
  const cents = dollars * 100 + Number(fraction);
  return negative ? -cents : cents;
}

function groupThousands(digits, separator) {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    const fromEnd = digits.length - i;
    if (i > 0 && fromEnd % 3 === 0) {
      out += separator;
    }
    out += digits[i];
  }
  return out;
}

export function formatMoney(cents, options = {}) {
  if (!Number.isInteger(cents)) {
    throw new TypeError('Cents must be an integer');
  }
  const symbol = options.symbol === undefined ? '$' : options.symbol;
  const separator = options.separator === undefined ? ',' : options.separator;
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100);
  const remainder = abs % 100;
  const text = groupThousands(String(dollars), separator) + '.' + (remainder < 10 ? '0' : '') + remainder;
  return (cents < 0 ? '-' : '') + symbol + text;
}

export function add(a, b) {
  return a + b;
}

export function subtract(a, b) {
  return a - b;
}

export function multiply(cents, factor) {
  return Math.round(cents * factor);
}

// Split into `parts` amounts that differ by at most one cent and sum to the
// original. Earlier parts receive the extra cents.
export function split(cents, parts) {
  if (!Number.isInteger(parts) || parts <= 0) {
    throw new RangeError('Parts must be a positive integer');
  }
  const sign = cents < 0 ? -1 : 1;
  const abs = Math.abs(cents);
  const base = Math.floor(abs / parts);
  const extra = abs % parts;
  const out = [];
  for (let i = 0; i < parts; i++) {
    const amount = i < extra ? base + 1 : base;
    out.push(sign * amount);
  }
  return out;
}

// Distribute cents according to integer weights, largest remainders first.
export function allocate(cents, weights) {
  let total = 0;
  for (const w of weights) {
    if (w < 0) {
      throw new RangeError('Weights must not be negative');
    }
    total += w;
  }
  if (weights.length === 0 || total === 0) {
    throw new RangeError('Weights must sum to more than zero');
  }
  const out = [];
  let given = 0;
  for (const w of weights) {
    const share = Math.floor((cents * w) / total);
    out.push(share);
    given += share;
  }
  let left = cents - given;
  for (let i = 0; left > 0; i = (i + 1) % out.length) {
    if (weights[i] > 0) {
      out[i] += 1;
      left -= 1;
    }
  }
  return out;
}

export function percentage(cents, percent) {
  return Math.round((cents * percent) / 100);
}

export function addTax(cents, ratePercent) {
  return cents + percentage(cents, ratePercent);
}
