// words: word games, formatting and text statistics.

export function averageWordLength(text) {
  const words = text.split(' ').filter((w) => w.length > 0);
  if (words.length === 0) {
    return 0;
  }
  let total = 0;
  for (const w of words) {
    total += w.length;
  }
  return Math.round((total / words.length) * 100) / 100;
}

export function longestWord(text) {
  let best = '';
  for (const w of text.split(' ')) {
    if (w.length > best.length) {
      best = w;
    }
  }
  return best;
}

export function shortestWordLength(text) {
  let best = Infinity;
  for (const w of text.split(' ')) {
    if (w.length > 0 && w.length < best) {
      best = w.length;
    }
  }
  return best === Infinity ? 0 : best;
}

export function capitalizeWords(text) {
  let out = '';
  let start = true;
  for (const ch of text) {
    out += start ? ch.toUpperCase() : ch;
    start = ch === ' ';
  }
  return out;
}

export function swapCase(text) {
  let out = '';
  for (const ch of text) {
    const upper = ch.toUpperCase();
    out += ch === upper ? ch.toLowerCase() : upper;
  }
  return out;
}

export function removeVowels(text) {
  let out = '';
  for (const ch of text) {
    if ('aeiouAEIOU'.indexOf(ch) === -1) {
      out += ch;
    }
  }
  return out;
}

export function countConsonants(text) {
  let n = 0;
  for (const ch of text.toLowerCase()) {
    if (ch >= 'a' && ch <= 'z' && 'aeiou'.indexOf(ch) === -1) {
      n++;
    }
  }
  return n;
}

export function scrabbleScore(word) {
  const values = { a: 1, e: 1, i: 1, o: 1, u: 1, d: 2, g: 2, k: 5, z: 10, q: 10 };
  let score = 0;
  for (const ch of word.toLowerCase()) {
    score += values[ch] || 3;
  }
  return score;
}

export function pigLatin(word) {
  const vowels = 'aeiou';
  if (vowels.includes(word[0])) {
    return word + 'way';
  }
  let i = 0;
  while (i < word.length && !vowels.includes(word[i])) {
    i++;
  }
  return word.slice(i) + word.slice(0, i) + 'ay';
}

export function acronym(phrase) {
  let out = '';
  for (const word of phrase.split(' ')) {
    if (word.length > 2) {
      out += word[0].toUpperCase();
    }
  }
  return out;
}

export function wordsLongerThan(text, n) {
  const out = [];
  for (const w of text.split(' ')) {
    if (w.length > n) {
      out.push(w);
    }
  }
  return out;
}

export function charHistogram(text) {
  const out = {};
  for (const ch of text) {
    if (ch !== ' ') {
      out[ch] = (out[ch] || 0) + 1;
    }
  }
  return out;
}

export function mostCommonChar(text) {
  const counts = {};
  let best = '';
  let bestCount = 0;
  for (const ch of text) {
    counts[ch] = (counts[ch] || 0) + 1;
    if (counts[ch] > bestCount) {
      best = ch;
      bestCount = counts[ch];
    }
  }
  return best;
}

export function sentenceCount(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if ((ch === '.' || ch === '!' || ch === '?') && (i === text.length - 1 || text[i + 1] === ' ')) {
      n++;
    }
  }
  return n;
}

export function readingMinutes(wordCount, perMinute) {
  if (wordCount <= 0) {
    return 0;
  }
  return Math.max(1, Math.ceil(wordCount / perMinute));
}

export function ellipsize(text, max) {
  if (max < 4) {
    return text.slice(0, max);
  }
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

export function isRotationOf(a, b) {
  if (a.length !== b.length) {
    return false;
  }
  return (a + a).indexOf(b) !== -1;
}

export function charAtWrapped(text, i) {
  if (text.length === 0) {
    return '';
  }
  return text[((i % text.length) + text.length) % text.length];
}

export function spacedLetters(word) {
  let out = '';
  for (let i = 0; i < word.length; i++) {
    out += word[i];
    if (i < word.length - 1) {
      out += ' ';
    }
  }
  return out;
}

export function doubleLetters(word) {
  let n = 0;
  for (let i = 1; i < word.length; i++) {
    if (word[i] === word[i - 1]) {
      n++;
    }
  }
  return n;
}

export function reverseEachWord(text) {
  const out = [];
  for (const w of text.split(' ')) {
    let r = '';
    for (let i = w.length - 1; i >= 0; i--) {
      r += w[i];
    }
    out.push(r);
  }
  return out.join(' ');
}

export function zigzagCase(text) {
  let out = '';
  let upper = true;
  for (const ch of text) {
    if (ch === ' ') {
      out += ch;
      continue;
    }
    out += upper ? ch.toUpperCase() : ch.toLowerCase();
    upper = !upper;
  }
  return out;
}

export function wordPositions(text, word) {
  const out = [];
  const words = text.split(' ');
  for (let i = 0; i < words.length; i++) {
    if (words[i] === word) {
      out.push(i);
    }
  }
  return out;
}

export function joinWithAnd(items) {
  if (items.length === 0) {
    return '';
  }
  if (items.length === 1) {
    return items[0];
  }
  return items.slice(0, -1).join(', ') + ' and ' + items[items.length - 1];
}

export function ordinalSuffix(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) {
    return n + 'th';
  }
  const last = n % 10;
  if (last === 1) {
    return n + 'st';
  }
  if (last === 2) {
    return n + 'nd';
  }
  return n + (last === 3 ? 'rd' : 'th');
}

export function formatThousands(n) {
  const digits = String(Math.abs(n));
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) {
      out += ',';
    }
    out += digits[i];
  }
  return n < 0 ? '-' + out : out;
}

export function fileExtension(name) {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) {
    return '';
  }
  return name.slice(dot + 1).toLowerCase();
}

export function baseName(path) {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') {
    end--;
  }
  const slash = path.lastIndexOf('/', end - 1);
  return path.slice(slash + 1, end);
}

export function joinPath(a, b) {
  if (a.length === 0) {
    return b;
  }
  if (a.endsWith('/')) {
    return a + b;
  }
  return a + '/' + b;
}

export function countLines(text) {
  if (text.length === 0) {
    return 0;
  }
  let n = 1;
  for (const ch of text) {
    if (ch === '\n') {
      n++;
    }
  }
  return n;
}

export function indentLines(text, spaces) {
  const pad = ' '.repeat(spaces);
  const out = [];
  for (const line of text.split('\n')) {
    out.push(line.length > 0 ? pad + line : line);
  }
  return out.join('\n');
}

export function wrapWords(text, width) {
  const lines = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line.length > 0 && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else {
      line = line.length > 0 ? line + ' ' + w : w;
    }
  }
  if (line.length > 0) {
    lines.push(line);
  }
  return lines;
}

export function stripHtmlTags(html) {
  let out = '';
  let inTag = false;
  for (const ch of html) {
    if (ch === '<') {
      inTag = true;
    } else if (ch === '>') {
      inTag = false;
    } else if (!inTag) {
      out += ch;
    }
  }
  return out;
}

export const EXAMPLES = {
  averageWordLength: [['the cat sat'], [''], ['hello'], ['a bb ccc'], ['  two  words ']],
  longestWord: [['the quick brown'], [''], ['a bb cc'], ['same size'], ['x']],
  shortestWordLength: [['the quick brown'], [''], ['hello'], ['a bb'], ['  xy   z ']],
  capitalizeWords: [['hello world'], [''], ['a'], ['already Big'], ['x  y']],
  swapCase: [['Hello'], [''], ['ABC'], ['a1B2'], ['mIxEd']],
  removeVowels: [['hello'], [''], ['AEIOU xyz'], ['rhythm'], ['Banana']],
  countConsonants: [['hello'], [''], ['aeiou'], ['Rhythm!'], ['b a']],
  scrabbleScore: [['cab'], [''], ['quiz'], ['dog'], ['ZEBRA']],
  pigLatin: [['apple'], ['banana'], ['string'], ['eat'], ['rhythm']],
  acronym: [['portable network graphics'], [''], ['as soon as possible'], ['to be or not'], ['Hyper Text Markup Language']],
  wordsLongerThan: [['the quick brown fox', 3], ['', 1], ['a bb ccc', 2], ['hello', 5], ['hi there', 0]],
  charHistogram: [['aab'], [''], ['a a'], ['xyzx']],
  mostCommonChar: [['banana'], [''], ['abc'], ['aabb'], ['zzza']],
  sentenceCount: [['Hi. Bye!'], [''], ['No end'], ['What? Yes. No!'], ['e.g. this']],
  readingMinutes: [[0, 200], [1, 200], [200, 200], [201, 200], [450, 150]],
  ellipsize: [['hello world', 8], ['short', 10], ['abcdef', 3], ['exact', 5], ['abcdef', 5]],
  isRotationOf: [['abcd', 'cdab'], ['abcd', 'acbd'], ['', ''], ['a', 'aa'], ['aab', 'aba']],
  charAtWrapped: [['abc', 1], ['abc', 3], ['abc', -1], ['', 2], ['xyz', 7]],
  spacedLetters: [['abc'], [''], ['a'], ['hi']],
  doubleLetters: [['balloon'], [''], ['abc'], ['aaa'], ['bookkeeper']],
  reverseEachWord: [['hello world'], [''], ['a bc'], ['one']],
  zigzagCase: [['hello'], [''], ['a b c'], ['ABCD']],
  wordPositions: [['a b a c a', 'a'], ['', 'x'], ['x y', 'z'], ['one', 'one']],
  joinWithAnd: [[['a', 'b', 'c']], [[]], [['solo']], [['x', 'y']]],
  ordinalSuffix: [[1], [2], [3], [4], [11], [12], [13], [21], [22], [23], [111], [101]],
  formatThousands: [[0], [999], [1000], [1234567], [-1234], [100000]],
  fileExtension: [['photo.JPG'], ['archive.tar.gz'], ['.bashrc'], ['noext'], ['trailing.'], ['a.b']],
  baseName: [['a/b/c.txt'], ['file'], ['dir/'], ['/'], ['x/y//']],
  joinPath: [['a', 'b'], ['a/', 'b'], ['', 'b'], ['/root', 'x']],
  countLines: [['a\nb'], [''], ['one'], ['a\n\nb\n']],
  indentLines: [['a\nb', 2], ['', 4], ['x\n\ny', 1], ['z', 0]],
  wrapWords: [['the quick brown fox', 10], ['', 5], ['a b c d', 3], ['longword here', 4]],
  stripHtmlTags: [['<b>bold</b> text'], [''], ['no tags'], ['<a href="x">link</a>'], ['a < b']],
};
