const ALPHABET_SIZE = 26;
const UPPER_A = 65;
const LOWER_A = 97;

function mod(n, m) {
  return ((n % m) + m) % m;
}

export function isLetter(ch) {
  const code = ch.charCodeAt(0);
  return (code >= UPPER_A && code < UPPER_A + ALPHABET_SIZE) || (code >= LOWER_A && code < LOWER_A + ALPHABET_SIZE);
}

export function shiftChar(ch, shift) {
  const code = ch.charCodeAt(0);
  if (code >= UPPER_A && code < UPPER_A + ALPHABET_SIZE) {
    return String.fromCharCode(UPPER_A + mod(code - UPPER_A + shift, ALPHABET_SIZE));
  }
  if (code >= LOWER_A && code < LOWER_A + ALPHABET_SIZE) {
    return String.fromCharCode(LOWER_A + mod(code - LOWER_A + shift, ALPHABET_SIZE));
  }
  return ch;
}

export function caesarEncrypt(text, shift) {
  if (!Number.isInteger(shift)) {
    throw new TypeError('shift must be an integer');
  }
  let out = '';
  for (let i = 0; i < text.length; i++) {
    out += shiftChar(text[i], shift);
  }
  return out;
}

export function caesarDecrypt(text, shift) {
  return caesarEncrypt(text, -shift);
}

export function rot13(text) {
  return caesarEncrypt(text, 13);
}

function keyShifts(key) {
  const shifts = [];
  for (let i = 0; i < key.length; i++) {
    const code = key.toUpperCase().charCodeAt(i);
    if (code < UPPER_A || code >= UPPER_A + ALPHABET_SIZE) {
      throw new SyntaxError('key must contain only letters');
    }
    shifts.push(code - UPPER_A);
  }
  if (shifts.length === 0) {
    throw new SyntaxError('key must not be empty');
  }
  return shifts;
}

function vigenere(text, key, direction) {
  const shifts = keyShifts(key);
  let out = '';
  let k = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const shifted = shiftChar(ch, direction * shifts[k % shifts.length]);
    if (isLetter(ch)) {
      k++;
    }
    out += shifted;
  }
  return out;
}

export function vigenereEncrypt(text, key) {
  return vigenere(text, key, 1);
}

export function vigenereDecrypt(text, key) {
  return vigenere(text, key, -1);
}

export function letterCounts(text) {
  const counts = new Array(ALPHABET_SIZE).fill(0);
  const upper = text.toUpperCase();
  for (let i = 0; i < upper.length; i++) {
    const idx = upper.charCodeAt(i) - UPPER_A;
    if (idx >= 0 && idx < ALPHABET_SIZE) {
      counts[idx]++;
    }
  }
  return counts;
}

export function guessShift(ciphertext) {
  const counts = letterCounts(ciphertext);
  let best = 0;
  for (let i = 1; i < ALPHABET_SIZE; i++) {
    if (counts[i] > counts[best]) {
      best = i;
    }
  }
  // assume the most frequent letter is 'E' (index 4)
  return mod(best - 4, ALPHABET_SIZE);
}
