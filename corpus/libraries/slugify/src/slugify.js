const CHAR_MAP = {
  à: 'a', á: 'a', â: 'a', ä: 'a', å: 'a', ã: 'a',
  ç: 'c',
  è: 'e', é: 'e', ê: 'e', ë: 'e',
  ì: 'i', í: 'i', î: 'i', ï: 'i',
  ñ: 'n',
  ò: 'o', ó: 'o', ô: 'o', ö: 'o', õ: 'o', ø: 'o',
  ù: 'u', ú: 'u', û: 'u', ü: 'u',
  ý: 'y', ÿ: 'y',
  ß: 'ss', æ: 'ae', œ: 'oe',
  '&': 'and',
};

export function transliterate(text) {
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const mapped = CHAR_MAP[lower];
    if (mapped === undefined) {
      out += ch;
    } else if (ch !== lower) {
      out += mapped.charAt(0).toUpperCase() + mapped.slice(1);
    } else {
      out += mapped;
    }
  }
  return out;
}

function isAlnum(ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}

export function truncateSlug(slug, maxLength, separator = '-') {
  if (maxLength <= 0 || slug.length <= maxLength) {
    return slug;
  }
  let cut = slug.slice(0, maxLength);
  if (separator.length === 0) {
    return cut;
  }
  if (slug.charAt(maxLength) !== separator) {
    const lastSep = cut.lastIndexOf(separator);
    if (lastSep > 0) {
      cut = cut.slice(0, lastSep);
    }
  }
  while (cut.endsWith(separator)) {
    cut = cut.slice(0, cut.length - 1);
  }
  return cut;
}

export function slugify(text, options = {}) {
  if (typeof text !== 'string') {
    throw new TypeError('slugify expects a string');
  }
  const separator = options.separator === undefined ? '-' : options.separator;
  const lowercase = options.lowercase !== false;
  const maxLength = options.maxLength || 0;
  if (separator.length > 1) {
    throw new RangeError('separator must be at most one character');
  }

  const source = transliterate(text);
  let slug = '';
  let pendingSeparator = false;
  for (const ch of source) {
    const lower = ch.toLowerCase();
    if (isAlnum(lower)) {
      if (pendingSeparator) {
        slug += separator;
      }
      pendingSeparator = false;
      slug += lowercase ? lower : ch;
    } else if (ch !== "'") {
      pendingSeparator = slug.length > 0;
    }
  }
  return truncateSlug(slug, maxLength, separator);
}

export function isSlug(text, separator = '-') {
  if (typeof text !== 'string') {
    return false;
  }
  const parts = text.split(separator);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.length === 0) {
      return false;
    }
    for (const ch of part) {
      if (!isAlnum(ch)) {
        return false;
      }
    }
  }
  return true;
}

export function uniqueSlug(text, existing, options = {}) {
  const base = slugify(text, options);
  const separator = options.separator === undefined ? '-' : options.separator;
  if (!existing.includes(base)) {
    return base;
  }
  let counter = 2;
  while (existing.includes(base + separator + counter)) {
    counter++;
  }
  return base + separator + counter;
}
