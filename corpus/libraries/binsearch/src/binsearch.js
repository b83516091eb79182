// Binary search helpers over arrays sorted in ascending order.

function defaultCompare(a, b) {
  if (a < b) {
    return -1;
  }
  if (a > b) {
    return 1;
  }
  return 0;
}

export function binarySearch(arr, target, compare = defaultCompare) {
  let lo = 0;
  let hi = arr.length - 1;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const cmp = compare(arr[mid], target);
    if (cmp === 0) {
      return mid;
    }
    if (cmp < 0) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

// First index whose value is >= target (arr.length if none).
export function lowerBound(arr, target, compare = defaultCompare) {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(arr[mid], target) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// First index whose value is > target (arr.length if none).
export function upperBound(arr, target, compare = defaultCompare) {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(arr[mid], target) <= 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

export function countOccurrences(arr, target, compare = defaultCompare) {
  return upperBound(arr, target, compare) - lowerBound(arr, target, compare);
}

export function insertionIndex(arr, value, compare = defaultCompare) {
  return upperBound(arr, value, compare);
}

export function insertSorted(arr, value, compare = defaultCompare) {
  const index = insertionIndex(arr, value, compare);
  arr.splice(index, 0, value);
  return index;
}

// Search an ascending array of distinct values that was rotated.
export function searchRotated(arr, target) {
  let lo = 0;
  let hi = arr.length - 1;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (arr[mid] === target) {
      return mid;
    }
    if (arr[lo] <= arr[mid]) {
      if (target >= arr[lo] && target < arr[mid]) {
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    } else if (target > arr[mid] && target <= arr[hi]) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

// Index of the smallest element in a rotated ascending array.
export function findRotationPoint(arr) {
  if (arr.length === 0) {
    return -1;
  }
  let lo = 0;
  let hi = arr.length - 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (arr[mid] > arr[hi]) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}
