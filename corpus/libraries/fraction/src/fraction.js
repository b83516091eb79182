export function gcd(a, b) {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y !== 0) {
    const t = x % y;
    x = y;
    y = t;
  }
  return x;
}

export function lcm(a, b) {
  if (a === 0 || b === 0) {
    return 0;
  }
  return Math.abs(a / gcd(a, b) * b);
}

export class Fraction {
  constructor(numerator, denominator = 1) {
    if (!Number.isInteger(numerator) || !Number.isInteger(denominator)) {
      throw new TypeError('numerator and denominator must be integers');
    }
    if (denominator === 0) {
      throw new RangeError('denominator must not be zero');
    }
    let n = numerator;
    let d = denominator;
    if (d < 0) {
      n = -n;
      d = -d;
    }
    const g = gcd(n, d);
    this.num = n / g;
    this.den = d / g;
  }

  static parse(text) {
    const parts = String(text).trim().split('/');
    if (parts.length > 2 || parts[0] === '') {
      throw new SyntaxError('invalid fraction: ' + text);
    }
    const n = Number(parts[0]);
    const d = parts.length === 2 ? Number(parts[1]) : 1;
    if (!Number.isInteger(n) || !Number.isInteger(d) || (parts.length === 2 && parts[1].trim() === '')) {
      throw new SyntaxError('invalid fraction: ' + text);
    }
    return new Fraction(n, d);
  }

  add(other) {
    return new Fraction(this.num * other.den + other.num * this.den, this.den * other.den);
  }

  sub(other) {
    return new Fraction(this.num * other.den - other.num * this.den, this.den * other.den);
  }

  mul(other) {
    return new Fraction(this.num * other.num, this.den * other.den);
  }

  div(other) {
    if (other.num === 0) {
      throw new RangeError('division by zero');
    }
    return new Fraction(this.num * other.den, this.den * other.num);
  }

  neg() {
    return new Fraction(-this.num, this.den);
  }

  reciprocal() {
    if (this.num === 0) {
      throw new RangeError('zero has no reciprocal');
    }
    return new Fraction(this.den, this.num);
  }

  pow(exponent) {
    if (!Number.isInteger(exponent)) {
      throw new TypeError('exponent must be an integer');
    }
    let base = exponent < 0 ? this.reciprocal() : this;
    let result = new Fraction(1);
    for (let i = 0; i < Math.abs(exponent); i++) {
      result = result.mul(base);
    }
    return result;
  }

  compare(other) {
    const left = this.num * other.den;
    const right = other.num * this.den;
    if (left < right) {
      return -1;
    }
    if (left > right) {
      return 1;
    }
    return 0;
  }

  equals(other) {
    return this.num === other.num && this.den === other.den;
  }

  toNumber() {
    return this.num / this.den;
  }

  toString() {
    if (this.den === 1) {
      return String(this.num);
    }
    return this.num + '/' + this.den;
  }

  toMixedString() {
    const whole = Math.trunc(this.num / this.den);
    const rest = Math.abs(this.num % this.den);
    if (rest === 0) {
      return String(whole);
    }
    if (whole === 0) {
      return this.toString();
    }
    return whole + ' ' + rest + '/' + this.den;
  }
}

export function sum(fractions) {
  let total = new Fraction(0);
  for (let i = 0; i < fractions.length; i++) {
    total = total.add(fractions[i]);
  }
  return total;
}
