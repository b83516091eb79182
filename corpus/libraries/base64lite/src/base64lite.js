const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function encodeBytes(bytes, urlSafe = false) {
  for (let i = 0; i < bytes.length; i++) {
    if (!Number.isInteger(bytes[i]) || bytes[i] < 0 || bytes[i] > 255) {
      throw new RangeError('byte out of range at ' + i);
    }
  }
  const alphabet = urlSafe ? URL_SAFE : STANDARD;
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    // missing trailing bytes read as undefined, which bitwise operators treat as 0
    const triple = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += alphabet[(triple >> 18) & 63];
    out += alphabet[(triple >> 12) & 63];
    const remaining = bytes.length - i;
    if (remaining > 1) {
      out += alphabet[(triple >> 6) & 63];
    } else if (!urlSafe) {
      out += '=';
    }
    if (remaining > 2) {
      out += alphabet[triple & 63];
    } else if (!urlSafe) {
      out += '=';
    }
  }
  return out;
}

export function decodeBytes(text) {
  let clean = text.replace(/\s+/g, '');
  while (clean.endsWith('=')) {
    clean = clean.slice(0, -1);
  }
  if (clean.length % 4 === 1) {
    throw new SyntaxError('invalid base64 length');
  }
  const bytes = [];
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < clean.length; i++) {
    const ch = clean[i];
    let value = STANDARD.indexOf(ch);
    if (ch === '-') {
      value = 62;
    } else if (ch === '_') {
      value = 63;
    }
    if (value < 0) {
      throw new SyntaxError('invalid base64 character: ' + ch);
    }
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 255);
    }
  }
  return bytes;
}

export function utf8Encode(str) {
  const bytes = [];
  for (let i = 0; i < str.length; i++) {
    let code = str.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const low = str.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (code < 0x80) {
      bytes.push(code);
    } else if (code < 0x800) {
      bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    } else if (code < 0x10000) {
      bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    } else {
      bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    }
  }
  return bytes;
}

export function utf8Decode(bytes) {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    let code;
    let extra;
    if (b < 0x80) {
      code = b;
      extra = 0;
    } else if (b >= 0xc2 && b < 0xe0) {
      code = b & 31;
      extra = 1;
    } else if (b >= 0xe0 && b < 0xf0) {
      code = b & 15;
      extra = 2;
    } else if (b >= 0xf0 && b < 0xf8) {
      code = b & 7;
      extra = 3;
    } else {
      throw new SyntaxError('invalid utf-8 lead byte at ' + i);
    }
    if (i + extra >= bytes.length) {
      throw new SyntaxError('truncated utf-8 sequence');
    }
    for (let k = 1; k <= extra; k++) {
      const cont = bytes[i + k];
      if ((cont & 0xc0) !== 0x80) {
        throw new SyntaxError('invalid continuation byte at ' + (i + k));
      }
      code = (code << 6) | (cont & 63);
    }
    out += String.fromCodePoint(code);
    i += extra + 1;
  }
  return out;
}

export function encode(str, urlSafe = false) {
  return encodeBytes(utf8Encode(str), urlSafe);
}

export function decode(text) {
  return utf8Decode(decodeBytes(text));
}
