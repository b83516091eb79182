// Simple statistics over plain English text.

function isWordChar(ch) {
  const code = ch.charCodeAt(0);
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    ch === "'" ||
    ch === '-'
  );
}

export function words(text) {
  const out = [];
  let current = '';
  for (const ch of text) {
    if (isWordChar(ch)) {
      current += ch;
    } else if (current.length > 0) {
      out.push(current);
      current = '';
    }
  }
  if (current.length > 0) {
    out.push(current);
  }
  return out;
}

export function wordCount(text) {
  return words(text).length;
}

export function sentenceCount(text) {
  let count = 0;
  let inSentence = false;
  for (const ch of text) {
    if (ch === '.' || ch === '!' || ch === '?') {
      if (inSentence) {
        count++;
        inSentence = false;
      }
    } else if (isWordChar(ch)) {
      inSentence = true;
    }
  }
  if (inSentence) {
    count++;
  }
  return count;
}

export function charFrequency(text, options = {}) {
  const ignoreCase = options.ignoreCase !== false;
  const includeSpaces = options.includeSpaces === true;
  const freq = {};
  for (const raw of text) {
    const ch = ignoreCase ? raw.toLowerCase() : raw;
    if (!includeSpaces && ch.trim() === '') {
      continue;
    }
    freq[ch] = (freq[ch] || 0) + 1;
  }
  return freq;
}

export function mostCommonChar(text) {
  const freq = charFrequency(text);
  let best = null;
  let bestCount = 0;
  for (const ch of Object.keys(freq).sort()) {
    if (freq[ch] > bestCount) {
      best = ch;
      bestCount = freq[ch];
    }
  }
  return best;
}

export function longestWord(text) {
  let best = '';
  for (const word of words(text)) {
    if (word.length > best.length) {
      best = word;
    }
  }
  return best;
}

export function averageWordLength(text) {
  const list = words(text);
  if (list.length === 0) {
    return 0;
  }
  let total = 0;
  for (const word of list) {
    total += word.length;
  }
  return Math.round((total / list.length) * 100) / 100;
}

export function capitalizeWords(text) {
  let out = '';
  let atStart = true;
  for (const ch of text) {
    if (isWordChar(ch) && ch !== "'" && ch !== '-') {
      out += atStart ? ch.toUpperCase() : ch.toLowerCase();
      atStart = false;
    } else {
      out += ch;
      atStart = ch !== "'";
    }
  }
  return out;
}
