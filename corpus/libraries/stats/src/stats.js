function requireValues(values) {
  if (!Array.isArray(values) || values.length === 0) {
    throw new RangeError('expected a non-empty array of numbers');
  }
}

function sorted(values) {
  return values.slice().sort((a, b) => a - b);
}

export function sum(values) {
  let total = 0;
  for (let i = 0; i < values.length; i++) {
    total += values[i];
  }
  return total;
}

export function mean(values) {
  requireValues(values);
  return sum(values) / values.length;
}

export function median(values) {
  requireValues(values);
  const s = sorted(values);
  const mid = Math.floor(s.length / 2);
  if (s.length % 2 === 0) {
    return (s[mid - 1] + s[mid]) / 2;
  }
  return s[mid];
}

export function frequencies(values) {
  const counts = new Map();
  for (let i = 0; i < values.length; i++) {
    counts.set(values[i], (counts.get(values[i]) || 0) + 1);
  }
  const pairs = [];
  for (const [value, count] of counts) {
    pairs.push([value, count]);
  }
  return pairs.sort((a, b) => a[0] - b[0]);
}

export function mode(values) {
  requireValues(values);
  const pairs = frequencies(values);
  let best = 0;
  for (let i = 0; i < pairs.length; i++) {
    if (pairs[i][1] > best) {
      best = pairs[i][1];
    }
  }
  const modes = [];
  for (let i = 0; i < pairs.length; i++) {
    if (pairs[i][1] === best) {
      modes.push(pairs[i][0]);
    }
  }
  return modes;
}

export function variance(values, sample = false) {
  requireValues(values);
  if (sample && values.length < 2) {
    throw new RangeError('sample variance needs at least two values');
  }
  const m = mean(values);
  let squares = 0;
  for (let i = 0; i < values.length; i++) {
    const diff = values[i] - m;
    squares += diff * diff;
  }
  return squares / (sample ? values.length - 1 : values.length);
}

export function stdDev(values, sample = false) {
  return Math.sqrt(variance(values, sample));
}

export function percentile(values, p) {
  requireValues(values);
  if (p < 0 || p > 100) {
    throw new RangeError('percentile must be between 0 and 100');
  }
  const s = sorted(values);
  const rank = (p / 100) * (s.length - 1);
  const lower = Math.floor(rank);
  const upper = Math.ceil(rank);
  const weight = rank - lower;
  return s[lower] + (s[upper] - s[lower]) * weight;
}

export function minMax(values) {
  requireValues(values);
  let min = values[0];
  let max = values[0];
  for (let i = 1; i < values.length; i++) {
    if (values[i] < min) {
      min = values[i];
    }
    if (values[i] > max) {
      max = values[i];
    }
  }
  return { min, max };
}

export function range(values) {
  const { min, max } = minMax(values);
  return max - min;
}

export function clamp(value, min, max) {
  if (min > max) {
    throw new RangeError('min must not exceed max');
  }
  if (value < min) {
    return min;
  }
  if (value > max) {
    return max;
  }
  return value;
}

export function normalize(values) {
  const { min, max } = minMax(values);
  const span = max - min;
  return values.map((v) => (span === 0 ? 0 : (v - min) / span));
}
