// numeric: arithmetic, number theory, units and money.

export function leastCommonMultiple(a, b) {
  if (a === 0 || b === 0) {
    return 0;
  }
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y !== 0) {
    const t = x % y;
    x = y;
    y = t;
  }
  return Math.abs(a * b) / x;
}

export function divisorCount(n) {
  let count = 0;
  for (let d = 1; d <= n; d++) {
    if (n % d === 0) {
      count++;
    }
  }
  return count;
}

export function isPerfectNumber(n) {
  if (n < 2) {
    return false;
  }
  let sum = 1;
  for (let d = 2; d * d <= n; d++) {
    if (n % d === 0) {
      sum += d;
      if (d * d !== n) {
        sum += n / d;
      }
    }
  }
  return sum === n;
}

export function integerSqrt(n) {
  if (n < 0) {
    throw new RangeError('negative input');
  }
  let r = 0;
  while ((r + 1) * (r + 1) <= n) {
    r++;
  }
  return r;
}

export function modularPower(base, exp, mod) {
  let result = 1;
  let b = base % mod;
  let e = exp;
  while (e > 0) {
    if (e % 2 === 1) {
      result = (result * b) % mod;
    }
    b = (b * b) % mod;
    e = Math.floor(e / 2);
  }
  return result;
}

export function countDigits(n) {
  let m = Math.abs(n);
  let count = 1;
  while (m >= 10) {
    m = Math.floor(m / 10);
    count++;
  }
  return count;
}

export function isArmstrong(n) {
  const digits = String(n);
  let sum = 0;
  for (const d of digits) {
    sum += Number(d) ** digits.length;
  }
  return sum === n;
}

export function primeFactors(n) {
  const out = [];
  let m = n;
  for (let p = 2; p * p <= m; p++) {
    while (m % p === 0) {
      out.push(p);
      m = m / p;
    }
  }
  if (m > 1) {
    out.push(m);
  }
  return out;
}

export function sumOfRange(from, to) {
  let sum = 0;
  for (let i = from; i <= to; i++) {
    sum += i;
  }
  return sum;
}

export function roundHalfUp(value, places) {
  const f = 10 ** places;
  return Math.floor(value * f + 0.5) / f;
}

export function toBase(n, base) {
  if (n === 0) {
    return '0';
  }
  const digits = '0123456789abcdef';
  let out = '';
  let m = n;
  while (m > 0) {
    out = digits[m % base] + out;
    m = Math.floor(m / base);
  }
  return out;
}

export function signOf(x) {
  if (x > 0) {
    return 1;
  }
  if (x < 0) {
    return -1;
  }
  return 0;
}

export function nearestMultiple(n, m) {
  const below = Math.floor(n / m) * m;
  const above = below + m;
  return n - below < above - n ? below : above;
}

export function triangularNumber(n) {
  return (n * (n + 1)) / 2;
}

export function isPowerOfTwo(n) {
  if (n < 1) {
    return false;
  }
  while (n % 2 === 0) {
    n = n / 2;
  }
  return n === 1;
}

export function compoundInterest(principal, ratePercent, years) {
  let amount = principal;
  for (let y = 0; y < years; y++) {
    amount = amount * (1 + ratePercent / 100);
  }
  return Math.round(amount * 100) / 100;
}

export function taxOwed(income) {
  if (income <= 10000) {
    return 0;
  }
  if (income <= 40000) {
    return Math.round((income - 10000) * 0.2);
  }
  return 6000 + Math.round((income - 40000) * 0.4);
}

export function tieredPrice(quantity) {
  let total = 0;
  for (let i = 1; i <= quantity; i++) {
    if (i <= 10) {
      total += 5;
    } else if (i <= 20) {
      total += 4;
    } else {
      total += 3;
    }
  }
  return total;
}

export function splitBill(total, people) {
  if (people <= 0) {
    throw new RangeError('people must be positive');
  }
  const share = Math.floor((total * 100) / people) / 100;
  return share;
}

export function kilometresToMiles(km) {
  return Math.round(km * 0.621371 * 10) / 10;
}

export function secondsToHms(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h, m, s];
}

export function hmsToSeconds(h, m, s) {
  if (m >= 60 || s >= 60) {
    return -1;
  }
  return h * 3600 + m * 60 + s;
}

export function dayOfYear(month, day, leap) {
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  let total = day;
  for (let i = 0; i < month - 1; i++) {
    total += lengths[i];
  }
  return total;
}

export function weekdayAfter(start, days) {
  return (start + (days % 7) + 7) % 7;
}

export function ageOnDate(birthYear, birthMonth, year, month) {
  let age = year - birthYear;
  if (month < birthMonth) {
    age--;
  }
  return age;
}

export function quarterOf(month) {
  if (month < 1 || month > 12) {
    return 0;
  }
  return Math.floor((month - 1) / 3) + 1;
}

export function hourTo12(hour) {
  if (hour === 0) {
    return '12am';
  }
  if (hour < 12) {
    return hour + 'am';
  }
  if (hour === 12) {
    return '12pm';
  }
  return hour - 12 + 'pm';
}

export function averageSpeed(distances, hours) {
  let d = 0;
  let h = 0;
  for (let i = 0; i < distances.length; i++) {
    d += distances[i];
    h += hours[i];
  }
  return h === 0 ? 0 : Math.round((d / h) * 10) / 10;
}

export function bmiCategory(weight, height) {
  const bmi = weight / (height * height);
  if (bmi < 18.5) {
    return 'under';
  }
  if (bmi < 25) {
    return 'normal';
  }
  return 'over';
}

export function fuelNeeded(distance, perHundred) {
  return Math.ceil((distance * perHundred) / 100);
}

export function changeCoins(amount) {
  const coins = [25, 10, 5, 1];
  const out = [];
  let left = amount;
  for (const c of coins) {
    while (left >= c) {
      out.push(c);
      left -= c;
    }
  }
  return out;
}

export function loanPayments(principal, payment) {
  if (payment <= 0) {
    return -1;
  }
  let months = 0;
  let left = principal;
  while (left > 0) {
    left -= payment;
    months++;
  }
  return months;
}

export function percentChange(before, after) {
  if (before === 0) {
    return null;
  }
  return Math.round(((after - before) / before) * 1000) / 10;
}

export function scaleValue(x, inLow, inHigh, outLow, outHigh) {
  if (inHigh === inLow) {
    return outLow;
  }
  return outLow + ((x - inLow) * (outHigh - outLow)) / (inHigh - inLow);
}

export function wrapIndex(i, length) {
  return ((i % length) + length) % length;
}

export function digitalRoot(n) {
  let m = Math.abs(n);
  while (m >= 10) {
    let s = 0;
    while (m > 0) {
      s += m % 10;
      m = Math.floor(m / 10);
    }
    m = s;
  }
  return m;
}

export function isHappyNumber(n) {
  let steps = 0;
  while (n !== 1 && steps < 20) {
    let s = 0;
    for (const d of String(n)) {
      s += Number(d) * Number(d);
    }
    n = s;
    steps++;
  }
  return n === 1;
}

export function binomial(n, k) {
  if (k < 0 || k > n) {
    return 0;
  }
  let r = 1;
  for (let i = 1; i <= k; i++) {
    r = (r * (n - k + i)) / i;
  }
  return r;
}

export function gcdOfList(values) {
  let g = 0;
  for (const v of values) {
    let a = Math.abs(v);
    let b = g;
    while (b !== 0) {
      const t = a % b;
      a = b;
      b = t;
    }
    g = a;
  }
  return g;
}

export function evenFibonacciSum(limit) {
  let a = 1;
  let b = 2;
  let sum = 0;
  while (b <= limit) {
    if (b % 2 === 0) {
      sum += b;
    }
    const next = a + b;
    a = b;
    b = next;
  }
  return sum;
}

export function averageRounded(a, b, c) {
  return Math.round(((a + b + c) / 3) * 10) / 10;
}

export function clampPercent(value) {
  if (value < 0) {
    return 0;
  }
  return value > 100 ? 100 : value;
}

export function stepsToZero(n) {
  let steps = 0;
  while (n > 0) {
    n = n % 2 === 0 ? n / 2 : n - 1;
    steps++;
  }
  return steps;
}

export const EXAMPLES = {
  leastCommonMultiple: [[4, 6], [0, 5], [7, 3], [-4, 6], [5, 5]],
  divisorCount: [[1], [6], [7], [12], [16]],
  isPerfectNumber: [[6], [28], [12], [1], [496], [8]],
  integerSqrt: [[0], [1], [15], [16], [26], [-1]],
  modularPower: [[2, 10, 1000], [3, 0, 7], [5, 3, 13], [7, 1, 5], [2, 5, 3]],
  countDigits: [[0], [9], [10], [-456], [100000]],
  isArmstrong: [[153], [370], [10], [9], [100]],
  primeFactors: [[12], [1], [13], [100], [49], [30]],
  sumOfRange: [[1, 4], [3, 3], [5, 2], [-2, 2], [0, 10]],
  roundHalfUp: [[1.25, 1], [2.5, 0], [1.234, 2], [-1.5, 0], [3, 2]],
  toBase: [[0, 2], [10, 2], [255, 16], [8, 8], [35, 16]],
  signOf: [[5], [-3], [0], [0.5], [-0.1]],
  nearestMultiple: [[7, 5], [12, 5], [10, 5], [13, 4], [0, 3]],
  triangularNumber: [[0], [1], [4], [10]],
  isPowerOfTwo: [[1], [2], [6], [16], [0], [-4], [1024]],
  compoundInterest: [[100, 10, 2], [100, 0, 5], [50, 5, 0], [200, 50, 1]],
  taxOwed: [[5000], [10000], [20000], [40000], [50000], [10001]],
  tieredPrice: [[0], [5], [10], [11], [20], [25]],
  splitBill: [[100, 4], [10, 3], [0, 2], [7, 0], [99.99, 1]],
  kilometresToMiles: [[0], [10], [42.195], [1], [100]],
  secondsToHms: [[0], [59], [3600], [3661], [86399]],
  hmsToSeconds: [[0, 0, 0], [1, 1, 1], [0, 60, 0], [2, 59, 59], [0, 0, 60]],
  dayOfYear: [[1, 1, false], [3, 1, false], [3, 1, true], [12, 31, false], [2, 28, true], [12, 31, true]],
  weekdayAfter: [[0, 1], [6, 1], [3, 14], [2, -3], [5, 10]],
  ageOnDate: [[2000, 5, 2020, 4], [2000, 5, 2020, 5], [2000, 5, 2020, 6], [1990, 1, 1990, 1], [1985, 12, 2021, 11]],
  quarterOf: [[1], [3], [4], [12], [0], [13], [7]],
  hourTo12: [[0], [1], [11], [12], [13], [23]],
  averageSpeed: [[[100, 50], [2, 1]], [[], []], [[10], [0]], [[30, 30, 40], [1, 1, 2]]],
  bmiCategory: [[50, 1.8], [70, 1.75], [90, 1.7], [60, 1.8], [81, 1.8]],
  fuelNeeded: [[100, 7], [150, 6], [0, 5], [99, 10], [250, 4.5]],
  changeCoins: [[0], [30], [41], [4], [99]],
  loanPayments: [[1000, 300], [900, 300], [100, 0], [0, 50], [1, 1]],
  percentChange: [[100, 110], [50, 25], [0, 5], [80, 80], [3, 4]],
  scaleValue: [[5, 0, 10, 0, 100], [0, 0, 10, 50, 60], [10, 0, 10, 1, 2], [3, 3, 3, 7, 9], [2, 1, 3, 10, 0]],
  wrapIndex: [[5, 3], [-1, 4], [0, 2], [7, 7], [-8, 3]],
  digitalRoot: [[0], [9], [38], [12345], [-77]],
  isHappyNumber: [[1], [7], [4], [19], [2]],
  binomial: [[5, 2], [4, 0], [4, 4], [3, 5], [6, 3], [5, -1]],
  gcdOfList: [[[12, 18, 24]], [[]], [[7]], [[0, 9]], [[-4, 6]]],
  evenFibonacciSum: [[1], [2], [10], [34], [100]],
  averageRounded: [[1, 2, 3], [1, 1, 2], [0, 0, 0], [-3, 3, 1], [10, 20, 25]],
  clampPercent: [[50], [-5], [120], [0], [100]],
  stepsToZero: [[0], [1], [8], [14], [15]],
};
