// Parse and stringify INI files.
// Top-level keys live at the root; [section] headers create nested objects.

function parseValue(raw) {
  const text = raw.trim();
  if (text.length >= 2) {
    const first = text[0];
    const last = text[text.length - 1];
    if ((first === '"' || first === "'") && first === last) {
      return text.slice(1, -1).replace(/\\n/g, '\n').replace(/\\(["'\\])/g, '$1');
    }
  }
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 'yes' || lower === 'on') {
    return true;
  }
  if (lower === 'false' || lower === 'no' || lower === 'off') {
    return false;
  }
  if (/^-?\d+(\.\d+)?$/.test(text)) {
    return Number(text);
  }
  return text;
}

function stripInlineComment(text) {
  let quote = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote !== null) {
      if (ch === quote) {
        quote = null;
      }
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if ((ch === ';' || ch === '#') && (i === 0 || text[i - 1] === ' ')) {
      return text.slice(0, i);
    }
  }
  return text;
}

export function parse(text) {
  const result = {};
  let target = result;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line[0] === ';' || line[0] === '#') {
      continue;
    }
    if (line[0] === '[') {
      const close = line.indexOf(']');
      const name = close === -1 ? '' : line.slice(1, close).trim();
      if (name === '') {
        throw new SyntaxError('Invalid section header on line ' + (i + 1));
      }
      if (result[name] === undefined) {
        result[name] = {};
      }
      target = result[name];
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) {
      throw new SyntaxError('Expected key=value on line ' + (i + 1));
    }
    const key = line.slice(0, eq).trim();
    target[key] = parseValue(stripInlineComment(line.slice(eq + 1)));
  }
  return result;
}

function formatValue(value) {
  if (typeof value === 'boolean' || typeof value === 'number') {
    return String(value);
  }
  const text = String(value);
  const needsQuotes =
    text === '' ||
    text !== text.trim() ||
    /[;#"\n]/.test(text) ||
    parseValue(text) !== text;
  if (!needsQuotes) {
    return text;
  }
  return '"' + text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') + '"';
}

export function stringify(data) {
  const lines = [];
  const sections = [];
  for (const key of Object.keys(data)) {
    const value = data[key];
    if (value !== null && typeof value === 'object') {
      sections.push(key);
    } else {
      lines.push(key + ' = ' + formatValue(value));
    }
  }
  for (const name of sections) {
    if (lines.length > 0) {
      lines.push('');
    }
    lines.push('[' + name + ']');
    const section = data[name];
    for (const key of Object.keys(section)) {
      lines.push(key + ' = ' + formatValue(section[key]));
    }
  }
  return lines.length === 0 ? '' : lines.join('\n') + '\n';
}
