// sequences: searching, sorting, counting and scanning sequences.

export function bubbleSorted(values) {
  const out = values.slice();
  for (let i = 0; i < out.length; i++) {
    for (let j = 0; j < out.length - 1 - i; j++) {
      if (out[j] > out[j + 1]) {
        const t = out[j];
        out[j] = out[j + 1];
        out[j + 1] = t;
      }
    }
  }
  return out;
}

export function upperBound(sorted, target) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (sorted[mid] <= target) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

export function countOccurrencesSorted(sorted, target) {
  let first = -1;
  let last = -1;
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i] === target) {
      if (first === -1) {
        first = i;
      }
      last = i;
    }
  }
  return first === -1 ? 0 : last - first + 1;
}

export function isStrictlyIncreasing(values) {
  for (let i = 1; i < values.length; i++) {
    if (values[i] <= values[i - 1]) {
      return false;
    }
  }
  return true;
}

export function isPermutation(values) {
  const seen = new Array(values.length).fill(false);
  for (const v of values) {
    if (v < 1 || v > values.length || seen[v - 1]) {
      return false;
    }
    seen[v - 1] = true;
  }
  return true;
}

export function maxSubarraySum(values) {
  if (values.length === 0) {
    return 0;
  }
  let best = values[0];
  let cur = values[0];
  for (let i = 1; i < values.length; i++) {
    cur = Math.max(values[i], cur + values[i]);
    best = Math.max(best, cur);
  }
  return best;
}

export function twoLargestSum(values) {
  if (values.length < 2) {
    return null;
  }
  let a = -Infinity;
  let b = -Infinity;
  for (const v of values) {
    if (v >= a) {
      b = a;
      a = v;
    } else if (v > b) {
      b = v;
    }
  }
  return a + b;
}

export function stableDedupeSorted(sorted) {
  const out = [];
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) {
      out.push(sorted[i]);
    }
  }
  return out;
}

export function cumulativeProduct(values) {
  const out = [];
  let p = 1;
  for (const v of values) {
    p *= v;
    out.push(p);
  }
  return out;
}

export function indexOfMaxRun(values) {
  let best = 0;
  let bestAt = -1;
  let run = 0;
  for (let i = 0; i < values.length; i++) {
    run = i > 0 && values[i] === values[i - 1] ? run + 1 : 1;
    if (run > best) {
      best = run;
      bestAt = i - run + 1;
    }
  }
  return bestAt;
}

export function firstMissingPositive(values) {
  const seen = new Set(values);
  let n = 1;
  while (seen.has(n)) {
    n++;
  }
  return n;
}

export function countPairsWithDiff(values, diff) {
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    for (let j = i + 1; j < values.length; j++) {
      if (Math.abs(values[i] - values[j]) === diff) {
        count++;
      }
    }
  }
  return count;
}

export function nextGreater(values) {
  const out = [];
  for (let i = 0; i < values.length; i++) {
    let found = -1;
    for (let j = i + 1; j < values.length; j++) {
      if (values[j] > values[i]) {
        found = values[j];
        break;
      }
    }
    out.push(found);
  }
  return out;
}

export function equilibriumIndex(values) {
  let total = 0;
  for (const v of values) {
    total += v;
  }
  let left = 0;
  for (let i = 0; i < values.length; i++) {
    if (left === total - left - values[i]) {
      return i;
    }
    left += values[i];
  }
  return -1;
}

export function minStepsToSort(values) {
  const sorted = values.slice().sort((a, b) => a - b);
  let wrong = 0;
  for (let i = 0; i < values.length; i++) {
    if (values[i] !== sorted[i]) {
      wrong++;
    }
  }
  return wrong;
}

export function sumBetweenIndices(values, from, to) {
  let sum = 0;
  for (let i = Math.max(0, from); i <= to && i < values.length; i++) {
    sum += values[i];
  }
  return sum;
}

export function closestValue(sorted, target) {
  if (sorted.length === 0) {
    return null;
  }
  let best = sorted[0];
  for (const v of sorted) {
    if (Math.abs(v - target) < Math.abs(best - target)) {
      best = v;
    }
  }
  return best;
}

export function splitAtFirstZero(values) {
  const at = values.indexOf(0);
  if (at === -1) {
    return [values.slice(), []];
  }
  return [values.slice(0, at), values.slice(at + 1)];
}

export function reverseInPlaceCopy(values) {
  const out = values.slice();
  let i = 0;
  let j = out.length - 1;
  while (i < j) {
    const t = out[i];
    out[i] = out[j];
    out[j] = t;
    i++;
    j--;
  }
  return out;
}

export function alternatingSum(values) {
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += i % 2 === 0 ? values[i] : -values[i];
  }
  return sum;
}

export function longestPlateau(values) {
  let best = values.length > 0 ? 1 : 0;
  let run = 1;
  for (let i = 1; i < values.length; i++) {
    run = values[i] === values[i - 1] ? run + 1 : 1;
    best = Math.max(best, run);
  }
  return best;
}

export function countLocalMinima(values) {
  let n = 0;
  for (let i = 1; i < values.length - 1; i++) {
    if (values[i] < values[i - 1] && values[i] < values[i + 1]) {
      n++;
    }
  }
  return n;
}

export function trimmedMean(values, cut) {
  const s = values.slice().sort((a, b) => a - b);
  const kept = s.slice(cut, s.length - cut);
  if (kept.length === 0) {
    return null;
  }
  let sum = 0;
  for (const v of kept) {
    sum += v;
  }
  return sum / kept.length;
}

export function movingAverage(values, size) {
  const out = [];
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i];
    if (i >= size) {
      sum -= values[i - size];
    }
    if (i >= size - 1) {
      out.push(sum / size);
    }
  }
  return out;
}

export function prefixMatches(words, prefix) {
  let n = 0;
  for (const w of words) {
    if (w.slice(0, prefix.length) === prefix) {
      n++;
    }
  }
  return n;
}

export function insertSorted(sorted, value) {
  const out = [];
  let placed = false;
  for (const v of sorted) {
    if (!placed && value <= v) {
      out.push(value);
      placed = true;
    }
    out.push(v);
  }
  if (!placed) {
    out.push(value);
  }
  return out;
}

export function countDistinct(values) {
  const seen = [];
  for (const v of values) {
    if (!seen.includes(v)) {
      seen.push(v);
    }
  }
  return seen.length;
}

export function gapsBetween(sorted) {
  const out = [];
  for (let i = 1; i < sorted.length; i++) {
    for (let v = sorted[i - 1] + 1; v < sorted[i]; v++) {
      out.push(v);
    }
  }
  return out;
}

export function evensThenOdds(values) {
  const evens = [];
  const odds = [];
  for (const v of values) {
    if (v % 2 === 0) {
      evens.push(v);
    } else {
      odds.push(v);
    }
  }
  return evens.concat(odds);
}

export function lastNonZero(values) {
  for (let i = values.length - 1; i >= 0; i--) {
    if (values[i] !== 0) {
      return values[i];
    }
  }
  return null;
}

export function sumOfMultiples(limit, a, b) {
  let sum = 0;
  for (let n = 1; n < limit; n++) {
    if (n % a === 0 || n % b === 0) {
      sum += n;
    }
  }
  return sum;
}

export function dailyChanges(prices) {
  let ups = 0;
  let downs = 0;
  for (let i = 1; i < prices.length; i++) {
    if (prices[i] > prices[i - 1]) {
      ups++;
    } else if (prices[i] < prices[i - 1]) {
      downs++;
    }
  }
  return [ups, downs];
}

export function bestTradeProfit(prices) {
  let minPrice = Infinity;
  let best = 0;
  for (const p of prices) {
    if (p < minPrice) {
      minPrice = p;
    } else if (p - minPrice > best) {
      best = p - minPrice;
    }
  }
  return best;
}

export function josephusSurvivor(n, k) {
  let pos = 0;
  for (let i = 2; i <= n; i++) {
    pos = (pos + k) % i;
  }
  return pos + 1;
}

export function pascalRow(n) {
  let row = [1];
  for (let i = 0; i < n; i++) {
    const next = [1];
    for (let j = 1; j < row.length; j++) {
      next.push(row[j - 1] + row[j]);
    }
    next.push(1);
    row = next;
  }
  return row;
}

export const EXAMPLES = {
  bubbleSorted: [[[3, 1, 2]], [[]], [[1]], [[2, 2, 1]], [[5, -1, 4, 0]]],
  upperBound: [[[1, 3, 5], 3], [[1, 3, 5], 4], [[1, 3, 5], 0], [[1, 3, 5], 9], [[], 1], [[2, 2, 2], 2]],
  countOccurrencesSorted: [[[1, 2, 2, 3], 2], [[1, 2, 3], 4], [[], 1], [[5, 5, 5], 5], [[1, 1, 2], 1]],
  isStrictlyIncreasing: [[[1, 2, 3]], [[1, 1, 2]], [[]], [[5]], [[3, 2]]],
  isPermutation: [[[2, 1, 3]], [[1, 1]], [[]], [[0, 1]], [[1, 3]], [[1]]],
  maxSubarraySum: [[[-2, 1, -3, 4, -1, 2, 1, -5, 4]], [[]], [[-3, -1]], [[5]], [[1, 2, 3]]],
  twoLargestSum: [[[3, 9, 5]], [[1]], [[4, 4]], [[-1, -5, -2]], [[2, 8, 8, 6]]],
  stableDedupeSorted: [[[1, 1, 2, 3, 3]], [[]], [[4]], [[5, 5, 5]], [[1, 2]]],
  cumulativeProduct: [[[1, 2, 3]], [[]], [[5]], [[2, 0, 3]], [[-1, 2]]],
  indexOfMaxRun: [[[1, 2, 2, 3]], [[]], [[5]], [[1, 1, 2, 2, 2]], [[3, 4, 5]]],
  firstMissingPositive: [[[1, 2, 3]], [[]], [[2, 3]], [[-1, 0]], [[1, 3, 4]]],
  countPairsWithDiff: [[[1, 5, 3, 4, 2], 2], [[], 1], [[1, 1], 0], [[1, 2, 3], 5], [[1, 3], 2]],
  nextGreater: [[[2, 1, 3]], [[]], [[5, 4]], [[1, 1, 2]], [[3]]],
  equilibriumIndex: [[[1, 3, 5, 2, 2]], [[]], [[1, 2, 3]], [[0]], [[2, 0, 2]]],
  minStepsToSort: [[[3, 1, 2]], [[]], [[1, 2]], [[2, 1]], [[1, 3, 2, 4]]],
  sumBetweenIndices: [[[1, 2, 3, 4], 1, 2], [[1, 2, 3], 0, 5], [[1, 2], -1, 0], [[], 0, 1], [[5, 6, 7], 2, 2]],
  closestValue: [[[1, 4, 9], 5], [[], 1], [[2], 100], [[1, 3], 2], [[-5, 5], -4]],
  splitAtFirstZero: [[[1, 0, 2]], [[1, 2]], [[0]], [[]], [[3, 0, 0, 4]]],
  reverseInPlaceCopy: [[[1, 2, 3]], [[]], [[1]], [[1, 2]]],
  alternatingSum: [[[1, 2, 3]], [[]], [[5]], [[1, 1, 1, 1]], [[-2, 3]]],
  longestPlateau: [[[1, 2, 2, 2, 3]], [[]], [[7]], [[1, 2, 3]], [[4, 4, 1, 1, 1]]],
  countLocalMinima: [[[3, 1, 3, 0, 2]], [[]], [[1, 2]], [[2, 1, 1, 2]], [[5, 4, 5]]],
  trimmedMean: [[[1, 2, 3, 100], 1], [[1, 2], 1], [[5], 0], [[1, 2, 3, 4, 5], 2], [[4, 4, 8], 0]],
  movingAverage: [[[1, 2, 3, 4], 2], [[1, 2], 3], [[5], 1], [[2, 4, 6], 3], [[], 2]],
  prefixMatches: [[['apple', 'apricot', 'banana'], 'ap'], [[], 'a'], [['x'], ''], [['ab', 'a'], 'ab']],
  insertSorted: [[[1, 3, 5], 4], [[], 1], [[1, 2], 0], [[1, 2], 9], [[2, 2], 2]],
  countDistinct: [[[1, 2, 1]], [[]], [[5, 5]], [['a', 'b', 'c']]],
  gapsBetween: [[[1, 4, 5, 7]], [[]], [[3]], [[1, 2]], [[0, 3]]],
  evensThenOdds: [[[1, 2, 3, 4]], [[]], [[1, 3]], [[0, -1, -2]]],
  lastNonZero: [[[1, 2, 0]], [[0, 0]], [[]], [[5]], [[0, 3, 0, 0]]],
  sumOfMultiples: [[10, 3, 5], [1, 3, 5], [16, 3, 5], [7, 2, 7], [20, 4, 6]],
  dailyChanges: [[[1, 2, 2, 1]], [[]], [[5]], [[1, 2, 3]], [[3, 2, 1, 1]]],
  bestTradeProfit: [[[7, 1, 5, 3, 6, 4]], [[7, 6, 4]], [[]], [[1, 2]], [[2, 4, 1, 7]]],
  josephusSurvivor: [[1, 3], [5, 2], [7, 3], [2, 1], [6, 5]],
  pascalRow: [[0], [1], [2], [4], [5]],
};
