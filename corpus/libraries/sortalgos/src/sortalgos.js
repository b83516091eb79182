// Classic sorting algorithms. All functions return new arrays and never
// modify their input.

function defaultCompare(a, b) {
  if (a < b) {
    return -1;
  }
  if (a > b) {
    return 1;
  }
  return 0;
}

export function insertionSort(input, compare = defaultCompare) {
  const arr = input.slice();
  for (let i = 1; i < arr.length; i++) {
    const value = arr[i];
    let j = i - 1;
    while (j >= 0 && compare(arr[j], value) > 0) {
      arr[j + 1] = arr[j];
      j--;
    }
    arr[j + 1] = value;
  }
  return arr;
}

function merge(left, right, compare) {
  const out = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    if (compare(left[i], right[j]) <= 0) {
      out.push(left[i]);
      i++;
    } else {
      out.push(right[j]);
      j++;
    }
  }
  while (i < left.length) {
    out.push(left[i]);
    i++;
  }
  while (j < right.length) {
    out.push(right[j]);
    j++;
  }
  return out;
}

export function mergeSort(input, compare = defaultCompare) {
  if (input.length <= 1) {
    return input.slice();
  }
  const middle = Math.floor(input.length / 2);
  const left = mergeSort(input.slice(0, middle), compare);
  const right = mergeSort(input.slice(middle), compare);
  return merge(left, right, compare);
}

function partition(arr, lo, hi, compare) {
  const pivot = arr[hi];
  let store = lo;
  for (let i = lo; i < hi; i++) {
    if (compare(arr[i], pivot) < 0) {
      const tmp = arr[i];
      arr[i] = arr[store];
      arr[store] = tmp;
      store++;
    }
  }
  arr[hi] = arr[store];
  arr[store] = pivot;
  return store;
}

// k is 1-based: k = 1 returns the smallest element.
export function quickselect(input, k, compare = defaultCompare) {
  if (!Number.isInteger(k) || k < 1 || k > input.length) {
    throw new RangeError('k must be between 1 and ' + input.length);
  }
  const arr = input.slice();
  const target = k - 1;
  let lo = 0;
  let hi = arr.length - 1;
  while (lo < hi) {
    const p = partition(arr, lo, hi, compare);
    if (p === target) {
      return arr[p];
    }
    if (p < target) {
      lo = p + 1;
    } else {
      hi = p - 1;
    }
  }
  return arr[lo];
}

export function median(input) {
  if (input.length === 0) {
    throw new RangeError('Cannot take the median of an empty array');
  }
  const half = Math.floor(input.length / 2);
  if (input.length % 2 === 1) {
    return quickselect(input, half + 1);
  }
  return (quickselect(input, half) + quickselect(input, half + 1)) / 2;
}

export function sortBy(input, key, descending = false) {
  const getKey = typeof key === 'function' ? key : (item) => item[key];
  const decorated = input.map((item, index) => ({ item, index, key: getKey(item) }));
  const ordered = mergeSort(decorated, (a, b) => {
    let cmp = defaultCompare(a.key, b.key);
    if (descending) {
      cmp = -cmp;
    }
    if (cmp !== 0) {
      return cmp;
    }
    return a.index - b.index;
  });
  return ordered.map((entry) => entry.item);
}

export function isSorted(arr, compare = defaultCompare) {
  for (let i = 1; i < arr.length; i++) {
    if (compare(arr[i - 1], arr[i]) > 0) {
      return false;
    }
  }
  return true;
}
