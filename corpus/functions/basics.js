// basics: everyday helpers on numbers, arrays and strings.

export function clampNumber(value, low, high) {
  if (value < low) {
    return low;
  }
  if (value > high) {
    return high;
  }
  return value;
}

export function sumEvenNumbers(numbers) {
  let total = 0;
  for (let i = 0; i < numbers.length; i++) {
    if (numbers[i] % 2 === 0) {
      total += numbers[i];
    }
  }
  return total;
}

export function countGreaterThan(values, limit) {
  let count = 0;
  for (const v of values) {
    if (v > limit) {
      count++;
    }
  }
  return count;
}

export function indexOfFirstAtLeast(values, target) {
  for (let i = 0; i < values.length; i++) {
    if (values[i] >= target) {
      return i;
    }
  }
  return -1;
}

export function largestValue(values) {
  if (values.length === 0) {
    return null;
  }
  let best = values[0];
  for (let i = 1; i < values.length; i++) {
    if (values[i] > best) {
      best = values[i];
    }
  }
  return best;
}

export function smallestIndex(values) {
  let at = -1;
  for (let i = 0; i < values.length; i++) {
    if (at === -1 || values[i] < values[at]) {
      at = i;
    }
  }
  return at;
}

export function averageOf(values) {
  if (values.length === 0) {
    return 0;
  }
  let sum = 0;
  for (const v of values) {
    sum += v;
  }
  return sum / values.length;
}

export function factorialOf(n) {
  if (n < 0) {
    throw new RangeError('n must not be negative');
  }
  let result = 1;
  for (let i = 2; i <= n; i++) {
    result *= i;
  }
  return result;
}

export function isPrimeNumber(n) {
  if (n < 2) {
    return false;
  }
  for (let d = 2; d * d <= n; d++) {
    if (n % d === 0) {
      return false;
    }
  }
  return true;
}

export function greatestCommonDivisor(a, b) {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

export function digitSum(n) {
  let rest = Math.abs(n);
  let sum = 0;
  while (rest > 0) {
    sum += rest % 10;
    rest = Math.floor(rest / 10);
  }
  return sum;
}

export function reverseDigits(n) {
  let rest = Math.abs(n);
  let out = 0;
  while (rest > 0) {
    out = out * 10 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return n < 0 ? -out : out;
}

export function fibonacciAt(n) {
  if (n <= 1) {
    return n;
  }
  let a = 0;
  let b = 1;
  for (let i = 2; i <= n; i++) {
    const next = a + b;
    a = b;
    b = next;
  }
  return b;
}

export function powerOf(base, exponent) {
  let result = 1;
  for (let i = 0; i < exponent; i++) {
    result *= base;
  }
  return result;
}

export function isLeapYear(year) {
  if (year % 400 === 0) {
    return true;
  }
  if (year % 100 === 0) {
    return false;
  }
  return year % 4 === 0;
}

export function daysInMonth(month, year) {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  if (month === 4 || month === 6 || month === 9 || month === 11) {
    return 30;
  }
  return 31;
}

export function countVowels(text) {
  let count = 0;
  for (const ch of text.toLowerCase()) {
    if ('aeiou'.indexOf(ch) >= 0) {
      count++;
    }
  }
  return count;
}

export function isPalindromeWord(word) {
  let i = 0;
  let j = word.length - 1;
  while (i < j) {
    if (word[i] !== word[j]) {
      return false;
    }
    i++;
    j--;
  }
  return true;
}

export function capitalizeFirst(text) {
  if (text.length === 0) {
    return text;
  }
  return text[0].toUpperCase() + text.slice(1);
}

export function truncateText(text, limit) {
  if (text.length <= limit) {
    return text;
  }
  return text.slice(0, limit - 3) + '...';
}

export function repeatString(text, times) {
  let out = '';
  for (let i = 0; i < times; i++) {
    out += text;
  }
  return out;
}

export function padLeft(text, width, fill) {
  let out = String(text);
  while (out.length < width) {
    out = fill + out;
  }
  return out;
}

export function countWords(text) {
  let count = 0;
  let inWord = false;
  for (const ch of text) {
    if (ch === ' ') {
      inWord = false;
    } else if (!inWord) {
      inWord = true;
      count++;
    }
  }
  return count;
}

export function longestWordLength(text) {
  let best = 0;
  for (const word of text.split(' ')) {
    if (word.length > best) {
      best = word.length;
    }
  }
  return best;
}

export function runningTotals(values) {
  const out = [];
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i];
    out.push(sum);
  }
  return out;
}

export function pairwiseDifferences(values) {
  const out = [];
  for (let i = 1; i < values.length; i++) {
    out.push(values[i] - values[i - 1]);
  }
  return out;
}

export function chunkArray(values, size) {
  const out = [];
  for (let i = 0; i < values.length; i += size) {
    out.push(values.slice(i, i + size));
  }
  return out;
}

export function rotateLeft(values, steps) {
  if (values.length === 0) {
    return [];
  }
  const k = steps % values.length;
  return values.slice(k).concat(values.slice(0, k));
}

export function removeDuplicates(values) {
  const out = [];
  for (const v of values) {
    if (out.indexOf(v) === -1) {
      out.push(v);
    }
  }
  return out;
}

export function takeWhileBelow(values, limit) {
  const out = [];
  for (const v of values) {
    if (v >= limit) {
      break;
    }
    out.push(v);
  }
  return out;
}

export function countRuns(values) {
  if (values.length === 0) {
    return 0;
  }
  let runs = 1;
  for (let i = 1; i < values.length; i++) {
    if (values[i] !== values[i - 1]) {
      runs++;
    }
  }
  return runs;
}

export function binarySearchIndex(sorted, target) {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (sorted[mid] === target) {
      return mid;
    }
    if (sorted[mid] < target) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

export function isSortedAscending(values) {
  for (let i = 1; i < values.length; i++) {
    if (values[i] < values[i - 1]) {
      return false;
    }
  }
  return true;
}

export function insertionSorted(values) {
  const out = values.slice();
  for (let i = 1; i < out.length; i++) {
    const item = out[i];
    let j = i - 1;
    while (j >= 0 && out[j] > item) {
      out[j + 1] = out[j];
      j--;
    }
    out[j + 1] = item;
  }
  return out;
}

export function mergeSortedLists(a, b) {
  const out = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] <= b[j]) {
      out.push(a[i++]);
    } else {
      out.push(b[j++]);
    }
  }
  return out.concat(a.slice(i), b.slice(j));
}

export function manhattanDistance(x1, y1, x2, y2) {
  return Math.abs(x1 - x2) + Math.abs(y1 - y2);
}

export function pointInRectangle(x, y, left, top, width, height) {
  return x >= left && x < left + width && y >= top && y < top + height;
}

export function triangleKind(a, b, c) {
  if (a + b <= c || a + c <= b || b + c <= a) {
    return 'invalid';
  }
  if (a === b && b === c) {
    return 'equilateral';
  }
  if (a === b || b === c || a === c) {
    return 'isosceles';
  }
  return 'scalene';
}

export function percentOf(part, whole) {
  if (whole === 0) {
    return 0;
  }
  return Math.round((part / whole) * 100);
}

export function roundToStep(value, step) {
  return Math.round(value / step) * step;
}

export function minutesToClock(minutes) {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return (h < 10 ? '0' : '') + h + ':' + (m < 10 ? '0' : '') + m;
}

export function clockToMinutes(clock) {
  const parts = clock.split(':');
  const hours = Number(parts[0]);
  const minutes = Number(parts[1]);
  if (hours > 23 || minutes > 59) {
    throw new RangeError('not a time of day');
  }
  return hours * 60 + minutes;
}

export function celsiusToFahrenheit(celsius) {
  return Math.round((celsius * 9) / 5 + 32);
}

export function discountedPrice(price, percent) {
  if (percent <= 0) {
    return price;
  }
  if (percent >= 100) {
    return 0;
  }
  return Math.round(price * (100 - percent)) / 100;
}

export function shippingCost(weight) {
  if (weight <= 1) {
    return 5;
  }
  if (weight <= 5) {
    return 5 + (weight - 1) * 2;
  }
  return 13 + (weight - 5) * 1;
}

export function letterGrade(score) {
  if (score >= 90) {
    return 'A';
  }
  if (score >= 80) {
    return 'B';
  }
  if (score >= 70) {
    return 'C';
  }
  return 'F';
}

export function isValidPin(pin) {
  if (pin.length !== 4 && pin.length !== 6) {
    return false;
  }
  for (const ch of pin) {
    if (ch < '0' || ch > '9') {
      return false;
    }
  }
  return true;
}

export function balancedParens(text) {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(') {
      depth++;
    } else if (ch === ')') {
      depth--;
      if (depth < 0) {
        return false;
      }
    }
  }
  return depth === 0;
}

export function countInRange(values, low, high) {
  let count = 0;
  for (const v of values) {
    if (v >= low && v <= high) {
      count++;
    }
  }
  return count;
}

export function secondLargest(values) {
  let first = -Infinity;
  let second = -Infinity;
  for (const v of values) {
    if (v > first) {
      second = first;
      first = v;
    } else if (v > second && v < first) {
      second = v;
    }
  }
  return second === -Infinity ? null : second;
}

export function frequencyOf(values, target) {
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    if (values[i] === target) {
      n++;
    }
  }
  return n;
}

export function productOfList(values) {
  let product = 1;
  for (const v of values) {
    product *= v;
  }
  return product;
}

export function rangeList(start, end, step) {
  const out = [];
  for (let v = start; v < end; v += step) {
    out.push(v);
  }
  return out;
}

export function collatzSteps(n) {
  let steps = 0;
  while (n !== 1) {
    n = n % 2 === 0 ? n / 2 : 3 * n + 1;
    steps++;
  }
  return steps;
}

export const EXAMPLES = {
  clampNumber: [[5, 0, 10], [-3, 0, 10], [12, 0, 10], [0, 0, 10], [10, 0, 10]],
  sumEvenNumbers: [[[1, 2, 3, 4]], [[]], [[7]], [[2, 2, -4]], [[10, 11, 12, 13]]],
  countGreaterThan: [[[1, 5, 9], 4], [[], 0], [[3, 3, 3], 3], [[4, 5], 4], [[-1, 0, 1], -1]],
  indexOfFirstAtLeast: [[[1, 3, 5], 3], [[1, 3, 5], 6], [[], 1], [[7], 7], [[2, 4, 4], 4], [[9, 1], 0]],
  largestValue: [[[3, 9, 2]], [[]], [[-5, -2, -9]], [[4]], [[1, 2, 3]], [[7, 7, 1]]],
  smallestIndex: [[[3, 1, 2]], [[]], [[5]], [[2, 2, 1, 1]], [[-1, 4, -3]], [[0, 1]]],
  averageOf: [[[1, 2, 3]], [[]], [[10]], [[2, 4]], [[-3, 3, 6]]],
  factorialOf: [[0], [1], [4], [6], [-1], [2]],
  isPrimeNumber: [[1], [2], [9], [13], [25], [0], [29]],
  greatestCommonDivisor: [[12, 18], [7, 5], [0, 9], [-24, 36], [10, 10], [21, 14]],
  digitSum: [[123], [0], [-45], [9], [1001]],
  reverseDigits: [[123], [0], [-45], [1200], [7]],
  fibonacciAt: [[0], [1], [2], [7], [10]],
  powerOf: [[2, 3], [5, 0], [3, 1], [-2, 3], [10, 2]],
  isLeapYear: [[2000], [1900], [2024], [2023], [2400], [2100]],
  daysInMonth: [[2, 2024], [2, 2023], [4, 2023], [1, 2023], [2, 1900], [2, 2000], [11, 2022], [12, 2022]],
  countVowels: [['hello'], [''], ['AEIOU'], ['rhythm'], ['Banana']],
  isPalindromeWord: [['level'], ['ab'], [''], ['a'], ['abca'], ['noon']],
  capitalizeFirst: [['hello'], [''], ['a'], ['Hello'], ['1st']],
  truncateText: [['hello world', 8], ['short', 10], ['exactly', 7], ['abcdef', 5], ['', 3]],
  repeatString: [['ab', 3], ['x', 0], ['', 4], ['-', 1]],
  padLeft: [['7', 3, '0'], ['123', 3, '0'], ['', 2, '*'], [42, 5, ' '], ['abcd', 2, '.']],
  countWords: [['hello world'], [''], ['  spaced   out  '], ['one'], ['a b c']],
  longestWordLength: [['the quick brown'], [''], ['a bb ccc'], ['same size'], ['x']],
  runningTotals: [[[1, 2, 3]], [[]], [[5]], [[-1, 1, -1]], [[2, 0, 2]]],
  pairwiseDifferences: [[[1, 4, 9]], [[]], [[3]], [[5, 5, 2]], [[0, -2, 2]]],
  chunkArray: [[[1, 2, 3, 4, 5], 2], [[], 3], [[1, 2, 3], 3], [[1, 2], 1], [[1, 2, 3, 4], 4]],
  rotateLeft: [[[1, 2, 3, 4], 1], [[1, 2, 3], 0], [[], 2], [[1, 2, 3], 4], [[5, 6], 2]],
  removeDuplicates: [[[1, 2, 1, 3, 2]], [[]], [[4, 4, 4]], [[1, 2, 3]], [[0, 1, 0]]],
  takeWhileBelow: [[[1, 2, 5, 1], 3], [[], 3], [[4, 1], 3], [[1, 2], 3], [[3, 1], 3]],
  countRuns: [[[1, 1, 2, 2, 1]], [[]], [[5]], [[1, 2, 3]], [[7, 7, 7]]],
  binarySearchIndex: [[[1, 3, 5, 7], 5], [[1, 3, 5, 7], 1], [[1, 3, 5, 7], 7], [[1, 3, 5, 7], 4], [[], 1], [[2], 2]],
  isSortedAscending: [[[1, 2, 2, 3]], [[]], [[3, 1]], [[5]], [[1, 3, 2]]],
  insertionSorted: [[[3, 1, 2]], [[]], [[1]], [[2, 2, 1]], [[5, -1, 3, 0]]],
  mergeSortedLists: [[[1, 4], [2, 3]], [[], [1]], [[1, 2], []], [[1, 1], [1]], [[5], [1, 9]]],
  manhattanDistance: [[0, 0, 3, 4], [1, 1, 1, 1], [-2, 3, 2, -3], [5, 0, 0, 0]],
  pointInRectangle: [[1, 1, 0, 0, 4, 4], [4, 1, 0, 0, 4, 4], [0, 0, 0, 0, 4, 4], [2, 4, 0, 0, 4, 4], [-1, 2, 0, 0, 4, 4], [3, 3, 0, 0, 4, 4]],
  triangleKind: [[3, 4, 5], [2, 2, 2], [2, 2, 3], [1, 2, 3], [5, 1, 1], [3, 5, 3]],
  percentOf: [[1, 4], [0, 10], [5, 0], [3, 3], [2, 3]],
  roundToStep: [[7, 5], [12, 5], [0, 3], [14, 4], [-6, 4]],
  minutesToClock: [[0], [59], [60], [605], [1439]],
  clockToMinutes: [['00:00'], ['01:30'], ['23:59'], ['24:00'], ['12:60'], ['10:05']],
  celsiusToFahrenheit: [[0], [100], [-40], [37], [21]],
  discountedPrice: [[200, 10], [50, 0], [80, 100], [99, 50], [40, 120], [10, -5]],
  shippingCost: [[0.5], [1], [3], [5], [8]],
  letterGrade: [[95], [90], [85], [80], [70], [69]],
  isValidPin: [['1234'], ['123456'], ['12a4'], ['123'], [''], ['98765']],
  balancedParens: [['(())'], [''], ['(()'], [')('], ['()()'], ['a(b)c']],
  countInRange: [[[1, 5, 9, 10], 5, 10], [[], 0, 1], [[3, 3], 3, 3], [[0, 11], 1, 10], [[-2, 2], -2, 0]],
  secondLargest: [[[3, 9, 5]], [[1]], [[]], [[4, 4, 2]], [[2, 8, 8, 6]], [[-1, -5]]],
  frequencyOf: [[[1, 2, 1, 1], 1], [[], 3], [['a', 'b'], 'b'], [[0, 0], 1]],
  productOfList: [[[2, 3, 4]], [[]], [[5]], [[2, 0, 3]], [[-1, 2]]],
  rangeList: [[0, 5, 1], [0, 10, 3], [5, 5, 1], [2, 9, 2], [-2, 2, 2]],
  collatzSteps: [[1], [2], [3], [6], [7]],
};
