const PATTERN = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

export function parse(text) {
  const match = PATTERN.exec(String(text).trim());
  if (match === null) {
    throw new SyntaxError('invalid version: ' + text);
  }
  const prerelease = [];
  if (match[4] !== undefined) {
    const ids = match[4].split('.');
    for (let i = 0; i < ids.length; i++) {
      if (ids[i] === '') {
        throw new SyntaxError('empty prerelease identifier in ' + text);
      }
      prerelease.push(/^\d+$/.test(ids[i]) ? Number(ids[i]) : ids[i]);
    }
  }
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), prerelease };
}

export function format(v) {
  let out = v.major + '.' + v.minor + '.' + v.patch;
  if (v.prerelease.length > 0) {
    out += '-' + v.prerelease.join('.');
  }
  return out;
}

function compareIdentifiers(a, b) {
  const aNum = typeof a === 'number';
  const bNum = typeof b === 'number';
  if (aNum && !bNum) {
    return -1;
  }
  if (bNum && !aNum) {
    return 1;
  }
  if (a < b) {
    return -1;
  }
  return a > b ? 1 : 0;
}

export function compare(a, b) {
  const x = typeof a === 'string' ? parse(a) : a;
  const y = typeof b === 'string' ? parse(b) : b;
  const fields = ['major', 'minor', 'patch'];
  for (let i = 0; i < fields.length; i++) {
    const diff = x[fields[i]] - y[fields[i]];
    if (diff !== 0) {
      return diff < 0 ? -1 : 1;
    }
  }
  const xp = x.prerelease;
  const yp = y.prerelease;
  // a version without prerelease ranks higher than one with
  if (xp.length === 0 && yp.length === 0) {
    return 0;
  }
  if (xp.length === 0) {
    return 1;
  }
  if (yp.length === 0) {
    return -1;
  }
  for (let i = 0; i < xp.length && i < yp.length; i++) {
    const c = compareIdentifiers(xp[i], yp[i]);
    if (c !== 0) {
      return c;
    }
  }
  return xp.length === yp.length ? 0 : xp.length < yp.length ? -1 : 1;
}

export function increment(version, part) {
  const v = parse(version);
  if (part === 'major') {
    return format({ major: v.major + 1, minor: 0, patch: 0, prerelease: [] });
  }
  if (part === 'minor') {
    return format({ major: v.major, minor: v.minor + 1, patch: 0, prerelease: [] });
  }
  if (part === 'patch') {
    return format({ major: v.major, minor: v.minor, patch: v.patch + 1, prerelease: [] });
  }
  throw new RangeError('unknown part: ' + part);
}

function expand(token) {
  if (token.startsWith('^')) {
    const v = parse(token.slice(1));
    let upper;
    if (v.major > 0) {
      upper = (v.major + 1) + '.0.0';
    } else if (v.minor > 0) {
      upper = '0.' + (v.minor + 1) + '.0';
    } else {
      upper = '0.0.' + (v.patch + 1);
    }
    return [['>=', format(v)], ['<', upper]];
  }
  if (token.startsWith('~')) {
    const v = parse(token.slice(1));
    return [['>=', format(v)], ['<', v.major + '.' + (v.minor + 1) + '.0']];
  }
  const match = /^(>=|<=|>|<|=)?(.+)$/.exec(token);
  return [[match[1] || '=', format(parse(match[2]))]];
}

const OPERATORS = {
  '>=': (c) => c >= 0,
  '<=': (c) => c <= 0,
  '>': (c) => c > 0,
  '<': (c) => c < 0,
  '=': (c) => c === 0,
};

export function satisfies(version, range) {
  const alternatives = range.split('||');
  for (let i = 0; i < alternatives.length; i++) {
    const tokens = alternatives[i].trim().split(/\s+/);
    if (tokens.length === 1 && (tokens[0] === '' || tokens[0] === '*')) {
      return true;
    }
    let ok = true;
    for (let j = 0; j < tokens.length && ok; j++) {
      const comparators = expand(tokens[j]);
      for (let k = 0; k < comparators.length; k++) {
        if (!OPERATORS[comparators[k][0]](compare(version, comparators[k][1]))) {
          ok = false;
        }
      }
    }
    if (ok) {
      return true;
    }
  }
  return false;
}

export function maxSatisfying(versions, range) {
  let best = null;
  for (let i = 0; i < versions.length; i++) {
    if (satisfies(versions[i], range) && (best === null || compare(versions[i], best) > 0)) {
      best = versions[i];
    }
  }
  return best;
}
