// lists: array and collection helpers.

export function sumOfSquares(values) {
  let sum = 0;
  for (const v of values) {
    sum += v * v;
  }
  return sum;
}

export function countNegatives(values) {
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    if (values[i] < 0) {
      n++;
    }
  }
  return n;
}

export function lastIndexOfValue(values, target) {
  for (let i = values.length - 1; i >= 0; i--) {
    if (values[i] === target) {
      return i;
    }
  }
  return -1;
}

export function maxGap(values) {
  let best = 0;
  for (let i = 1; i < values.length; i++) {
    const gap = Math.abs(values[i] - values[i - 1]);
    if (gap > best) {
      best = gap;
    }
  }
  return best;
}

export function windowSums(values, size) {
  const out = [];
  for (let i = 0; i + size <= values.length; i++) {
    let sum = 0;
    for (let j = i; j < i + size; j++) {
      sum += values[j];
    }
    out.push(sum);
  }
  return out;
}

export function interleave(a, b) {
  const out = [];
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (i < a.length) {
      out.push(a[i]);
    }
    if (i < b.length) {
      out.push(b[i]);
    }
  }
  return out;
}

export function flattenOnce(lists) {
  const out = [];
  for (const item of lists) {
    if (Array.isArray(item)) {
      for (const x of item) {
        out.push(x);
      }
    } else {
      out.push(item);
    }
  }
  return out;
}

export function dropFirst(values, n) {
  if (n <= 0) {
    return values.slice();
  }
  return values.slice(n);
}

export function takeLast(values, n) {
  if (n <= 0) {
    return [];
  }
  return values.slice(Math.max(0, values.length - n));
}

export function longestIncreasingRun(values) {
  if (values.length === 0) {
    return 0;
  }
  let best = 1;
  let run = 1;
  for (let i = 1; i < values.length; i++) {
    run = values[i] > values[i - 1] ? run + 1 : 1;
    if (run > best) {
      best = run;
    }
  }
  return best;
}

export function majorityValue(values) {
  const counts = {};
  for (const v of values) {
    counts[v] = (counts[v] || 0) + 1;
    if (counts[v] * 2 > values.length) {
      return v;
    }
  }
  return null;
}

export function kthSmallest(values, k) {
  if (k < 1 || k > values.length) {
    return null;
  }
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[k - 1];
}

export function findPeakIndex(values) {
  for (let i = 0; i < values.length; i++) {
    const left = i === 0 || values[i] > values[i - 1];
    const right = i === values.length - 1 || values[i] > values[i + 1];
    if (left && right) {
      return i;
    }
  }
  return -1;
}

export function pairWithSum(sorted, target) {
  let i = 0;
  let j = sorted.length - 1;
  while (i < j) {
    const s = sorted[i] + sorted[j];
    if (s === target) {
      return [sorted[i], sorted[j]];
    }
    if (s < target) {
      i++;
    } else {
      j--;
    }
  }
  return null;
}

export function lowerBound(sorted, target) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (sorted[mid] < target) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

export function selectionSorted(values) {
  const out = values.slice();
  for (let i = 0; i < out.length; i++) {
    let min = i;
    for (let j = i + 1; j < out.length; j++) {
      if (out[j] < out[min]) {
        min = j;
      }
    }
    const t = out[i];
    out[i] = out[min];
    out[min] = t;
  }
  return out;
}

export function countInversions(values) {
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    for (let j = i + 1; j < values.length; j++) {
      if (values[i] > values[j]) {
        n++;
      }
    }
  }
  return n;
}

export function partitionAround(values, pivot) {
  const low = [];
  const high = [];
  for (const v of values) {
    if (v < pivot) {
      low.push(v);
    } else {
      high.push(v);
    }
  }
  return low.concat(high);
}

export function zipPairs(a, b) {
  const out = [];
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    out.push([a[i], b[i]]);
  }
  return out;
}

export function medianOf(values) {
  if (values.length === 0) {
    return null;
  }
  const s = values.slice().sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function modeOf(values) {
  let best = null;
  let bestCount = 0;
  const counts = {};
  for (const v of values) {
    counts[v] = (counts[v] || 0) + 1;
    if (counts[v] > bestCount) {
      best = v;
      bestCount = counts[v];
    }
  }
  return best;
}

export function valueRange(values) {
  if (values.length === 0) {
    return 0;
  }
  let lo = values[0];
  let hi = values[0];
  for (const v of values) {
    if (v < lo) {
      lo = v;
    }
    if (v > hi) {
      hi = v;
    }
  }
  return hi - lo;
}

export function variance(values) {
  if (values.length < 2) {
    return 0;
  }
  let mean = 0;
  for (const v of values) {
    mean += v;
  }
  mean /= values.length;
  let sq = 0;
  for (const v of values) {
    sq += (v - mean) * (v - mean);
  }
  return sq / (values.length - 1);
}

export function histogram(values, bucketSize) {
  const out = {};
  for (const v of values) {
    const b = Math.floor(v / bucketSize) * bucketSize;
    out[b] = (out[b] || 0) + 1;
  }
  return out;
}

export function countBy(words) {
  const out = {};
  for (const w of words) {
    const key = w.length;
    out[key] = (out[key] || 0) + 1;
  }
  return out;
}

export function topValues(values, k) {
  const s = values.slice().sort((a, b) => b - a);
  return s.slice(0, k);
}

export function invertObject(obj) {
  const out = {};
  for (const key of Object.keys(obj)) {
    out[obj[key]] = key;
  }
  return out;
}

export function pickKeys(obj, keys) {
  const out = {};
  for (const k of keys) {
    if (k in obj) {
      out[k] = obj[k];
    }
  }
  return out;
}

export function omitKeys(obj, keys) {
  const out = {};
  for (const k of Object.keys(obj)) {
    if (keys.indexOf(k) === -1) {
      out[k] = obj[k];
    }
  }
  return out;
}

export function runningMax(values) {
  const out = [];
  let best = -Infinity;
  for (const v of values) {
    if (v > best) {
      best = v;
    }
    out.push(best);
  }
  return out;
}

export function totalPrice(items) {
  let total = 0;
  for (const item of items) {
    total += item.price * item.qty;
  }
  return Math.round(total * 100) / 100;
}

export function inStockNames(items) {
  const out = [];
  for (const item of items) {
    if (item.stock > 0) {
      out.push(item.name);
    }
  }
  return out;
}

export function averageScore(students) {
  if (students.length === 0) {
    return 0;
  }
  let sum = 0;
  for (const s of students) {
    sum += s.score;
  }
  return Math.round((sum / students.length) * 10) / 10;
}

export function rankOf(scores, score) {
  let rank = 1;
  for (const s of scores) {
    if (s > score) {
      rank++;
    }
  }
  return rank;
}

export function budgetLeft(budget, expenses) {
  let left = budget;
  for (const e of expenses) {
    left -= e;
    if (left < 0) {
      return 0;
    }
  }
  return left;
}

export function groupByParity(values) {
  const even = [];
  const odd = [];
  for (const v of values) {
    if (v % 2 === 0) {
      even.push(v);
    } else {
      odd.push(v);
    }
  }
  return { even, odd };
}

export function missingNumber(values, n) {
  let expected = (n * (n + 1)) / 2;
  for (const v of values) {
    expected -= v;
  }
  return expected;
}

export function rotateRight(values, steps) {
  const n = values.length;
  if (n === 0) {
    return [];
  }
  const k = steps % n;
  return values.slice(n - k).concat(values.slice(0, n - k));
}

export function compactFalsy(values) {
  const out = [];
  for (const v of values) {
    if (v) {
      out.push(v);
    }
  }
  return out;
}

export function arraysEqual(a, b) {
  if (a.length !== b.length) {
    return false;
  }
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      return false;
    }
  }
  return true;
}

export function everyOther(values) {
  const out = [];
  for (let i = 0; i < values.length; i += 2) {
    out.push(values[i]);
  }
  return out;
}

export function fillRange(values, from, to, fill) {
  const out = values.slice();
  for (let i = from; i < to && i < out.length; i++) {
    out[i] = fill;
  }
  return out;
}

export const EXAMPLES = {
  sumOfSquares: [[[1, 2, 3]], [[]], [[-2]], [[0, 5]]],
  countNegatives: [[[-1, 2, -3]], [[]], [[0, 0]], [[-5]], [[4, -0.5, 1]]],
  lastIndexOfValue: [[[1, 2, 1], 1], [[], 1], [[3], 3], [[4, 5], 6], [[7, 7, 7], 7]],
  maxGap: [[[1, 5, 2]], [[]], [[3]], [[10, 10]], [[-3, 4, 0]]],
  windowSums: [[[1, 2, 3, 4], 2], [[1, 2], 3], [[5], 1], [[1, 1, 1], 3], [[], 1]],
  interleave: [[[1, 2], ['a', 'b']], [[1], ['a', 'b', 'c']], [[], [1]], [[1, 2, 3], []]],
  flattenOnce: [[[[1, 2], 3, [4]]], [[]], [[[]]], [[1, [2, [3]]]]],
  dropFirst: [[[1, 2, 3], 1], [[1, 2], 0], [[1], 5], [[1, 2, 3], -1]],
  takeLast: [[[1, 2, 3], 2], [[1, 2], 0], [[1], 5], [[], 1]],
  longestIncreasingRun: [[[1, 2, 0, 3, 4, 5]], [[]], [[5]], [[3, 2, 1]], [[1, 1, 2]]],
  majorityValue: [[[1, 2, 1]], [[1, 2]], [[]], [[3, 3, 3, 1]], [[1, 2, 2, 1]]],
  kthSmallest: [[[5, 1, 3], 1], [[5, 1, 3], 3], [[5, 1, 3], 0], [[5, 1, 3], 4], [[2, 2, 1], 2]],
  findPeakIndex: [[[1, 3, 2]], [[3, 2, 1]], [[1, 2, 3]], [[]], [[2, 2]], [[5]]],
  pairWithSum: [[[1, 2, 4, 7], 6], [[1, 2, 3], 7], [[], 1], [[2, 3], 5], [[1, 3, 5], 8]],
  lowerBound: [[[1, 3, 5], 3], [[1, 3, 5], 4], [[1, 3, 5], 0], [[1, 3, 5], 9], [[], 1], [[2, 2, 2], 2]],
  selectionSorted: [[[3, 1, 2]], [[]], [[1]], [[2, 1, 2]], [[9, -1, 4, 0]]],
  countInversions: [[[2, 1]], [[1, 2, 3]], [[3, 2, 1]], [[]], [[1, 3, 2, 2]]],
  partitionAround: [[[3, 1, 4, 1, 5], 3], [[], 1], [[1, 2], 0], [[5, 5], 5]],
  zipPairs: [[[1, 2], ['a', 'b']], [[1, 2, 3], ['a']], [[], [1]], [[1], [2, 3]]],
  medianOf: [[[3, 1, 2]], [[4, 1, 3, 2]], [[]], [[7]], [[5, 5, 1, 1]]],
  modeOf: [[[1, 2, 2, 3]], [[]], [[4]], [[1, 1, 2, 2]], [[5, 3, 5, 3, 3]]],
  valueRange: [[[3, 9, 1]], [[]], [[5]], [[-2, 2]], [[4, 4]]],
  variance: [[[1, 2, 3, 4]], [[5]], [[]], [[2, 2, 2]], [[0, 10]]],
  histogram: [[[1, 5, 12, 14], 10], [[], 5], [[0, 4, 5], 5], [[-1, 1], 2]],
  countBy: [[['a', 'bb', 'cc', 'ddd']], [[]], [['x']], [['', 'ab']]],
  topValues: [[[5, 1, 9, 3], 2], [[], 2], [[1, 2], 5], [[4, 4, 1], 1]],
  invertObject: [[{ a: 'x', b: 'y' }], [{}], [{ one: 1, two: 2 }], [{ a: 'x', b: 'x' }]],
  pickKeys: [[{ a: 1, b: 2, c: 3 }, ['a', 'c']], [{ a: 1 }, ['b']], [{}, []], [{ a: 0, b: null }, ['a', 'b']]],
  omitKeys: [[{ a: 1, b: 2, c: 3 }, ['b']], [{ a: 1 }, []], [{}, ['a']], [{ a: 1, b: 2 }, ['a', 'b']]],
  runningMax: [[[1, 3, 2, 5]], [[]], [[-2, -5]], [[4, 4]]],
  totalPrice: [[[{ price: 2.5, qty: 2 }, { price: 1, qty: 3 }]], [[]], [[{ price: 0.1, qty: 3 }]], [[{ price: 9.99, qty: 0 }]]],
  inStockNames: [[[{ name: 'a', stock: 1 }, { name: 'b', stock: 0 }]], [[]], [[{ name: 'c', stock: -1 }]], [[{ name: 'd', stock: 5 }, { name: 'e', stock: 2 }]]],
  averageScore: [[[{ score: 80 }, { score: 91 }]], [[]], [[{ score: 7 }]], [[{ score: 1 }, { score: 2 }, { score: 2 }]]],
  rankOf: [[[90, 80, 70], 80], [[90, 80, 70], 95], [[], 5], [[5, 5, 5], 5], [[1, 2, 3], 0]],
  budgetLeft: [[100, [30, 20]], [100, [120]], [50, []], [10, [10]], [10, [5, 6, 1]]],
  groupByParity: [[[1, 2, 3, 4]], [[]], [[0]], [[-1, -2]]],
  missingNumber: [[[1, 2, 4], 4], [[2, 3], 3], [[], 1], [[1, 2, 3], 4], [[5, 4, 2, 1], 5]],
  rotateRight: [[[1, 2, 3, 4], 1], [[1, 2, 3], 0], [[], 2], [[1, 2, 3], 5], [[5, 6], 2]],
  compactFalsy: [[[0, 1, '', 'a', null, 2]], [[]], [[false, 0]], [[3]]],
  arraysEqual: [[[1, 2], [1, 2]], [[1, 2], [2, 1]], [[], []], [[1], [1, 2]], [[0, 0], [0, 1]]],
  everyOther: [[[1, 2, 3, 4, 5]], [[]], [[9]], [[1, 2]]],
  fillRange: [[[1, 2, 3, 4], 1, 3, 0], [[1, 2], 0, 5, 9], [[1, 2, 3], 2, 2, 7], [[], 0, 1, 1], [[5, 6, 7], 0, 1, 8]],
};
