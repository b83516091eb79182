export function splitWords(text) {
  const words = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (current.length > 0) {
        words.push(current);
        current = '';
      }
    } else {
      current += ch;
    }
  }
  if (current.length > 0) {
    words.push(current);
  }
  return words;
}

export function breakWord(word, width) {
  if (width < 1) {
    throw new RangeError('width must be at least 1');
  }
  const chunks = [];
  for (let i = 0; i < word.length; i += width) {
    chunks.push(word.slice(i, i + width));
  }
  return chunks;
}

function wrapParagraph(paragraph, available, cut) {
  const words = splitWords(paragraph);
  const lines = [];
  let line = '';
  for (let i = 0; i < words.length; i++) {
    let pieces = [words[i]];
    if (cut && words[i].length > available) {
      pieces = breakWord(words[i], available);
    }
    for (let j = 0; j < pieces.length; j++) {
      const piece = pieces[j];
      if (line.length === 0) {
        line = piece;
      } else if (line.length + 1 + piece.length <= available) {
        line += ' ' + piece;
      } else {
        lines.push(line);
        line = piece;
      }
    }
  }
  lines.push(line);
  return lines;
}

export function wrap(text, width, options = {}) {
  if (typeof text !== 'string') {
    throw new TypeError('wrap expects a string');
  }
  if (!Number.isInteger(width) || width < 1) {
    throw new RangeError('width must be a positive integer');
  }
  const indent = options.indent || '';
  const cut = options.cut === true;
  const newline = options.newline || '\n';
  const available = width - indent.length;
  if (available < 1) {
    throw new RangeError('indent is wider than width');
  }
  const paragraphs = text.split('\n');
  const out = [];
  for (let p = 0; p < paragraphs.length; p++) {
    const lines = wrapParagraph(paragraphs[p], available, cut);
    for (let k = 0; k < lines.length; k++) {
      out.push(lines[k].length > 0 ? indent + lines[k] : '');
    }
  }
  return out.join(newline);
}

export function indentText(text, prefix, skipEmpty = true) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    if (skipEmpty && lines[i].trim().length === 0) {
      out.push(lines[i]);
    } else {
      out.push(prefix + lines[i]);
    }
  }
  return out.join('\n');
}

export function dedent(text) {
  const lines = text.split('\n');
  let minIndent = Infinity;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim().length === 0) {
      continue;
    }
    let count = 0;
    while (line[count] === ' ') {
      count++;
    }
    if (count < minIndent) {
      minIndent = count;
    }
  }
  if (minIndent === Infinity) {
    return text;
  }
  return lines.map((line) => line.slice(minIndent)).join('\n');
}

export function longestLine(text) {
  const lines = text.split('\n');
  let max = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].length > max) {
      max = lines[i].length;
    }
  }
  return max;
}
