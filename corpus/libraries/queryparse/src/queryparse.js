// Parse and build URL query strings.
// Repeated keys and keys ending in "[]" become arrays.

function decode(text) {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch (err) {
    return spaced;
  }
}

function encode(text) {
  return encodeURIComponent(text).replace(/%20/g, '+');
}

export function parse(query) {
  const result = {};
  if (typeof query !== 'string') {
    return result;
  }
  let text = query;
  if (text.startsWith('?')) {
    text = text.slice(1);
  }
  const hashIndex = text.indexOf('#');
  if (hashIndex !== -1) {
    text = text.slice(0, hashIndex);
  }
  if (text.length === 0) {
    return result;
  }
  for (const part of text.split('&')) {
    if (part === '') {
      continue;
    }
    const eq = part.indexOf('=');
    let key = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? null : decode(part.slice(eq + 1));
    key = decode(key);
    let forceArray = false;
    if (key.endsWith('[]')) {
      key = key.slice(0, -2);
      forceArray = true;
    }
    if (key === '') {
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(result, key)) {
      const existing = result[key];
      if (Array.isArray(existing)) {
        existing.push(value);
      } else {
        result[key] = [existing, value];
      }
    } else {
      result[key] = forceArray ? [value] : value;
    }
  }
  return result;
}

function pair(key, value) {
  if (value === null) {
    return encode(key);
  }
  return encode(key) + '=' + encode(String(value));
}

export function stringify(params, options = {}) {
  const arrayFormat = options.arrayFormat || 'repeat';
  const keys = Object.keys(params);
  if (options.sort === true) {
    keys.sort();
  }
  const parts = [];
  for (const key of keys) {
    const value = params[key];
    if (value === undefined) {
      continue;
    }
    if (Array.isArray(value)) {
      const name = arrayFormat === 'brackets' ? key + '[]' : key;
      for (const item of value) {
        if (item !== undefined) {
          parts.push(pair(name, item));
        }
      }
    } else {
      parts.push(pair(key, value));
    }
  }
  return parts.join('&');
}

export function getParam(query, key, fallback = null) {
  const parsed = parse(query);
  if (!Object.prototype.hasOwnProperty.call(parsed, key)) {
    return fallback;
  }
  const value = parsed[key];
  return Array.isArray(value) ? value[0] : value;
}
