// RFC 6901 JSON Pointer: parse, compile, get, set, has, remove.

export class PointerError extends Error {
  constructor(message) {
    super(message);
    this.name = 'PointerError';
  }
}

export function unescapeToken(token) {
  if (/~[^01]|~$/.test(token)) {
    throw new PointerError('Invalid escape in token: ' + token);
  }
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function escapeToken(token) {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function parse(pointer) {
  if (typeof pointer !== 'string') {
    throw new PointerError('Pointer must be a string');
  }
  if (pointer === '') {
    return [];
  }
  if (pointer[0] !== '/') {
    throw new PointerError('Pointer must start with "/": ' + pointer);
  }
  return pointer.slice(1).split('/').map(unescapeToken);
}

export function compile(tokens) {
  let out = '';
  for (const token of tokens) {
    out += '/' + escapeToken(token);
  }
  return out;
}

function arrayIndex(arr, token, allowEnd) {
  if (token === '-' && allowEnd) {
    return arr.length;
  }
  if (!/^(0|[1-9][0-9]*)$/.test(token)) {
    throw new PointerError('Invalid array index: ' + token);
  }
  const index = Number(token);
  const max = allowEnd ? arr.length : arr.length - 1;
  if (index > max) {
    throw new PointerError('Array index out of bounds: ' + token);
  }
  return index;
}

function isContainer(value) {
  return value !== null && typeof value === 'object';
}

export function get(doc, pointer) {
  const tokens = parse(pointer);
  let current = doc;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      current = current[arrayIndex(current, token, false)];
    } else if (isContainer(current) && Object.prototype.hasOwnProperty.call(current, token)) {
      current = current[token];
    } else {
      throw new PointerError('Path not found: ' + pointer);
    }
  }
  return current;
}

export function has(doc, pointer) {
  try {
    get(doc, pointer);
    return true;
  } catch (err) {
    if (err instanceof PointerError) {
      return false;
    }
    throw err;
  }
}

export function set(doc, pointer, value) {
  const tokens = parse(pointer);
  if (tokens.length === 0) {
    return value;
  }
  const parent = get(doc, compile(tokens.slice(0, -1)));
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const index = arrayIndex(parent, last, true);
    parent[index] = value;
  } else if (isContainer(parent)) {
    parent[last] = value;
  } else {
    throw new PointerError('Cannot set a property on a primitive: ' + pointer);
  }
  return doc;
}

export function remove(doc, pointer) {
  const tokens = parse(pointer);
  if (tokens.length === 0) {
    throw new PointerError('Cannot remove the document root');
  }
  const parent = get(doc, compile(tokens.slice(0, -1)));
  const last = tokens[tokens.length - 1];
  let removed;
  if (Array.isArray(parent)) {
    const index = arrayIndex(parent, last, false);
    removed = parent.splice(index, 1)[0];
  } else if (isContainer(parent) && Object.prototype.hasOwnProperty.call(parent, last)) {
    removed = parent[last];
    delete parent[last];
  } else {
    throw new PointerError('Path not found: ' + pointer);
  }
  return removed;
}
