// Ranges are inclusive integer pairs [start, end] with start <= end.

function checkRange(r) {
  if (!Array.isArray(r) || r.length !== 2 || !Number.isInteger(r[0]) || !Number.isInteger(r[1])) {
    throw new TypeError('range must be a pair of integers');
  }
  if (r[0] > r[1]) {
    throw new RangeError('range start must not exceed end');
  }
}

export function normalize(ranges) {
  for (let i = 0; i < ranges.length; i++) {
    checkRange(ranges[i]);
  }
  const sorted = ranges.map((r) => [r[0], r[1]]).sort((a, b) => a[0] - b[0]);
  const out = [];
  for (let i = 0; i < sorted.length; i++) {
    const current = sorted[i];
    const last = out[out.length - 1];
    if (last !== undefined && current[0] <= last[1] + 1) {
      last[1] = Math.max(last[1], current[1]);
    } else {
      out.push(current);
    }
  }
  return out;
}

export function union(a, b) {
  return normalize(a.concat(b));
}

export function intersect(a, b) {
  const x = normalize(a);
  const y = normalize(b);
  const out = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const start = Math.max(x[i][0], y[j][0]);
    const end = Math.min(x[i][1], y[j][1]);
    if (start <= end) {
      out.push([start, end]);
    }
    if (x[i][1] < y[j][1]) {
      i++;
    } else {
      j++;
    }
  }
  return out;
}

export function subtract(a, b) {
  const x = normalize(a);
  const y = normalize(b);
  const out = [];
  for (let i = 0; i < x.length; i++) {
    let start = x[i][0];
    const end = x[i][1];
    for (let j = 0; j < y.length && start <= end; j++) {
      const [cutStart, cutEnd] = y[j];
      if (cutEnd < start || cutStart > end) {
        continue;
      }
      if (cutStart > start) {
        out.push([start, cutStart - 1]);
      }
      start = cutEnd + 1;
    }
    if (start <= end) {
      out.push([start, end]);
    }
  }
  return out;
}

export function contains(ranges, value) {
  for (let i = 0; i < ranges.length; i++) {
    if (value >= ranges[i][0] && value <= ranges[i][1]) {
      return true;
    }
  }
  return false;
}

export function size(ranges) {
  const merged = normalize(ranges);
  let total = 0;
  for (let i = 0; i < merged.length; i++) {
    total += merged[i][1] - merged[i][0] + 1;
  }
  return total;
}

export function parse(text) {
  const trimmed = text.trim();
  if (trimmed === '') {
    return [];
  }
  const ranges = [];
  const parts = trimmed.split(',');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i].trim();
    const match = /^(-?\d+)(?:\.\.(-?\d+))?$/.exec(part);
    if (match === null) {
      throw new SyntaxError('invalid range: ' + part);
    }
    const start = Number(match[1]);
    const end = match[2] === undefined ? start : Number(match[2]);
    ranges.push([start, end]);
  }
  return normalize(ranges);
}

export function format(ranges) {
  const parts = [];
  const merged = normalize(ranges);
  for (let i = 0; i < merged.length; i++) {
    const [start, end] = merged[i];
    parts.push(start === end ? String(start) : start + '..' + end);
  }
  return parts.join(',');
}
