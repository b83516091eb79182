// Unit conversion for length, mass and temperature.

const LENGTH = {
  mm: 0.001,
  cm: 0.01,
  m: 1,
  km: 1000,
  in: 0.0254,
  ft: 0.3048,
  yd: 0.9144,
  mi: 1609.344,
};

const MASS = {
  mg: 0.001,
  g: 1,
  kg: 1000,
  t: 1000000,
  oz: 28.349523125,
  lb: 453.59237,
};

const TEMPERATURE = ['C', 'F', 'K'];

export function round(value, decimals = 2) {
  if (!Number.isInteger(decimals) || decimals < 0) {
    throw new RangeError('Decimals must be a non-negative integer');
  }
  const factor = Math.pow(10, decimals);
  const rounded = Math.round(Math.abs(value) * factor) / factor;
  return value < 0 ? -rounded : rounded;
}

export function kindOf(unit) {
  if (Object.prototype.hasOwnProperty.call(LENGTH, unit)) {
    return 'length';
  }
  if (Object.prototype.hasOwnProperty.call(MASS, unit)) {
    return 'mass';
  }
  if (TEMPERATURE.includes(unit)) {
    return 'temperature';
  }
  return null;
}

function toKelvin(value, unit) {
  if (unit === 'C') {
    return value + 273.15;
  }
  if (unit === 'F') {
    return ((value - 32) * 5) / 9 + 273.15;
  }
  return value;
}

function fromKelvin(kelvin, unit) {
  if (unit === 'C') {
    return kelvin - 273.15;
  }
  if (unit === 'F') {
    return ((kelvin - 273.15) * 9) / 5 + 32;
  }
  return kelvin;
}

export function convert(value, from, to, decimals) {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new TypeError('Value must be a finite number');
  }
  const kind = kindOf(from);
  if (kind === null) {
    throw new Error('Unknown unit: ' + from);
  }
  if (kindOf(to) === null) {
    throw new Error('Unknown unit: ' + to);
  }
  if (kindOf(to) !== kind) {
    throw new Error('Cannot convert ' + kind + ' to ' + kindOf(to));
  }
  let result;
  if (kind === 'temperature') {
    const kelvin = toKelvin(value, from);
    if (kelvin < 0) {
      throw new RangeError('Temperature below absolute zero');
    }
    result = fromKelvin(kelvin, to);
  } else {
    if (value < 0) {
      throw new RangeError('Negative ' + kind + ' is not allowed');
    }
    const table = kind === 'length' ? LENGTH : MASS;
    result = (value * table[from]) / table[to];
  }
  return decimals === undefined ? result : round(result, decimals);
}

export function parseQuantity(text) {
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*([a-zA-Z]+)\s*$/.exec(String(text));
  if (match === null) {
    throw new SyntaxError('Cannot parse quantity: ' + text);
  }
  const unit = match[2];
  if (kindOf(unit) === null) {
    throw new Error('Unknown unit: ' + unit);
  }
  return { value: Number(match[1]), unit };
}

export function convertText(text, to, decimals = 2) {
  const quantity = parseQuantity(text);
  return convert(quantity.value, quantity.unit, to, decimals) + ' ' + to;
}

export function unitsOf(kind) {
  if (kind === 'length') {
    return Object.keys(LENGTH);
  }
  if (kind === 'mass') {
    return Object.keys(MASS);
  }
  if (kind === 'temperature') {
    return TEMPERATURE.slice();
  }
  throw new Error('Unknown kind: ' + kind);
}
