function checkDelimiter(delimiter) {
  if (typeof delimiter !== 'string' || delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
    throw new TypeError('delimiter must be a single character other than quote or newline');
  }
}

export function parse(text, options = {}) {
  const delimiter = options.delimiter || ',';
  checkDelimiter(delimiter);
  const rows = [];
  let row = [];
  let field = '';
  let inQuotes = false;
  let i = 0;
  if (text.length === 0) {
    return rows;
  }
  while (i < text.length) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
        i++;
        const next = text[i];
        if (next !== undefined && next !== delimiter && next !== '\n' && next !== '\r') {
          throw new SyntaxError('unexpected character after closing quote at ' + i);
        }
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field.length === 0) {
      inQuotes = true;
      i++;
    } else if (ch === delimiter) {
      row.push(field);
      field = '';
      i++;
    } else if (ch === '\n' || ch === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += ch;
      i++;
    }
  }
  if (inQuotes) {
    throw new SyntaxError('unterminated quoted field');
  }
  const last = text[text.length - 1];
  if (last !== '\n' && last !== '\r') {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

export function parseObjects(text, options = {}) {
  const rows = parse(text, options);
  const header = rows[0];
  const out = [];
  for (let r = 1; r < rows.length; r++) {
    if (rows[r].length !== header.length) {
      throw new RangeError('row ' + r + ' has ' + rows[r].length + ' fields, expected ' + header.length);
    }
    const obj = {};
    for (let c = 0; c < header.length; c++) {
      obj[header[c]] = rows[r][c];
    }
    out.push(obj);
  }
  return out;
}

export function quoteField(value, delimiter = ',') {
  const str = value === null || value === undefined ? '' : String(value);
  let needsQuotes = false;
  for (let i = 0; i < str.length; i++) {
    const ch = str[i];
    if (ch === delimiter || ch === '"' || ch === '\n' || ch === '\r') {
      needsQuotes = true;
      break;
    }
  }
  if (!needsQuotes) {
    return str;
  }
  return '"' + str.split('"').join('""') + '"';
}

export function stringify(rows, options = {}) {
  const delimiter = options.delimiter || ',';
  const newline = options.newline || '\n';
  checkDelimiter(delimiter);
  const lines = [];
  for (let r = 0; r < rows.length; r++) {
    const cells = [];
    for (let c = 0; c < rows[r].length; c++) {
      cells.push(quoteField(rows[r][c], delimiter));
    }
    lines.push(cells.join(delimiter));
  }
  return lines.join(newline);
}
