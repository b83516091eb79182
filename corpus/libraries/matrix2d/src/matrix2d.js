export function shape(m) {
  if (!Array.isArray(m) || m.length === 0 || !Array.isArray(m[0])) {
    throw new TypeError('matrix must be a non-empty array of rows');
  }
  const cols = m[0].length;
  for (let i = 1; i < m.length; i++) {
    if (m[i].length !== cols) {
      throw new RangeError('rows must have equal length');
    }
  }
  return [m.length, cols];
}

export function zeros(rows, cols) {
  if (rows < 1 || cols < 1) {
    throw new RangeError('dimensions must be positive');
  }
  const out = [];
  for (let i = 0; i < rows; i++) {
    const row = [];
    for (let j = 0; j < cols; j++) {
      row.push(0);
    }
    out.push(row);
  }
  return out;
}

export function identity(n) {
  const out = zeros(n, n);
  for (let i = 0; i < n; i++) {
    out[i][i] = 1;
  }
  return out;
}

function elementwise(a, b, op) {
  const [ra, ca] = shape(a);
  const [rb, cb] = shape(b);
  if (ra !== rb || ca !== cb) {
    throw new RangeError('matrix dimensions must match');
  }
  const out = zeros(ra, ca);
  for (let i = 0; i < ra; i++) {
    for (let j = 0; j < ca; j++) {
      out[i][j] = op(a[i][j], b[i][j]);
    }
  }
  return out;
}

export function add(a, b) {
  return elementwise(a, b, (x, y) => x + y);
}

export function subtract(a, b) {
  return elementwise(a, b, (x, y) => x - y);
}

export function scale(m, factor) {
  const [rows, cols] = shape(m);
  const out = zeros(rows, cols);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      out[i][j] = m[i][j] * factor;
    }
  }
  return out;
}

export function transpose(m) {
  const [rows, cols] = shape(m);
  const out = zeros(cols, rows);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      out[j][i] = m[i][j];
    }
  }
  return out;
}

export function multiply(a, b) {
  const [ra, ca] = shape(a);
  const [rb, cb] = shape(b);
  if (ca !== rb) {
    throw new RangeError('columns of a must equal rows of b');
  }
  const out = zeros(ra, cb);
  for (let i = 0; i < ra; i++) {
    for (let j = 0; j < cb; j++) {
      let total = 0;
      for (let k = 0; k < ca; k++) {
        total += a[i][k] * b[k][j];
      }
      out[i][j] = total;
    }
  }
  return out;
}

export function minor(m, row, col) {
  const out = [];
  for (let i = 0; i < m.length; i++) {
    if (i === row) {
      continue;
    }
    out.push(m[i].filter((value, j) => j !== col));
  }
  return out;
}

export function determinant(m) {
  const [rows, cols] = shape(m);
  if (rows !== cols) {
    throw new RangeError('determinant requires a square matrix');
  }
  if (rows === 1) {
    return m[0][0];
  }
  if (rows === 2) {
    return m[0][0] * m[1][1] - m[0][1] * m[1][0];
  }
  let det = 0;
  for (let j = 0; j < cols; j++) {
    const sign = j % 2 === 0 ? 1 : -1;
    det += sign * m[0][j] * determinant(minor(m, 0, j));
  }
  return det;
}

export function equals(a, b) {
  const [ra, ca] = shape(a);
  const [rb, cb] = shape(b);
  if (ra !== rb || ca !== cb) {
    return false;
  }
  for (let i = 0; i < ra; i++) {
    for (let j = 0; j < ca; j++) {
      if (a[i][j] !== b[i][j]) {
        return false;
      }
    }
  }
  return true;
}
