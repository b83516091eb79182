// grids: matrices, grids, points, shapes and intervals.

export function transposeMatrix(m) {
  if (m.length === 0) {
    return [];
  }
  const out = [];
  for (let c = 0; c < m[0].length; c++) {
    const row = [];
    for (let r = 0; r < m.length; r++) {
      row.push(m[r][c]);
    }
    out.push(row);
  }
  return out;
}

export function diagonalSum(m) {
  let sum = 0;
  for (let i = 0; i < m.length; i++) {
    sum += m[i][i];
  }
  return sum;
}

export function antiDiagonalSum(m) {
  let sum = 0;
  const n = m.length;
  for (let i = 0; i < n; i++) {
    sum += m[i][n - 1 - i];
  }
  return sum;
}

export function rowSums(m) {
  const out = [];
  for (const row of m) {
    let s = 0;
    for (const v of row) {
      s += v;
    }
    out.push(s);
  }
  return out;
}

export function columnMax(m, col) {
  let best = -Infinity;
  for (let r = 0; r < m.length; r++) {
    if (m[r][col] > best) {
      best = m[r][col];
    }
  }
  return best;
}

export function rotateClockwise(m) {
  const n = m.length;
  const out = [];
  for (let c = 0; c < n; c++) {
    const row = [];
    for (let r = n - 1; r >= 0; r--) {
      row.push(m[r][c]);
    }
    out.push(row);
  }
  return out;
}

export function countNeighbours(grid, r, c) {
  let n = 0;
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      const rr = r + dr;
      const cc = c + dc;
      if ((dr !== 0 || dc !== 0) && rr >= 0 && rr < grid.length && cc >= 0 && cc < grid[0].length && grid[rr][cc] === 1) {
        n++;
      }
    }
  }
  return n;
}

export function countFilled(grid) {
  let n = 0;
  for (let r = 0; r < grid.length; r++) {
    for (let c = 0; c < grid[r].length; c++) {
      if (grid[r][c] === '#') {
        n++;
      }
    }
  }
  return n;
}

export function chebyshevDistance(x1, y1, x2, y2) {
  return Math.max(Math.abs(x1 - x2), Math.abs(y1 - y2));
}

export function pointInCircle(x, y, cx, cy, radius) {
  const dx = x - cx;
  const dy = y - cy;
  return dx * dx + dy * dy <= radius * radius;
}

export function rectangleArea(x1, y1, x2, y2) {
  const w = Math.abs(x2 - x1);
  const h = Math.abs(y2 - y1);
  return w * h;
}

export function rectanglesOverlap(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

export function intervalsOverlap(a, b) {
  return a[0] <= b[1] && b[0] <= a[1];
}

export function mergeIntervals(intervals) {
  const sorted = intervals.slice().sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const iv of sorted) {
    const last = out[out.length - 1];
    if (last && iv[0] <= last[1]) {
      last[1] = Math.max(last[1], iv[1]);
    } else {
      out.push([iv[0], iv[1]]);
    }
  }
  return out;
}

export function boundingBox(points) {
  if (points.length === 0) {
    return null;
  }
  let minX = points[0][0];
  let maxX = points[0][0];
  let minY = points[0][1];
  let maxY = points[0][1];
  for (const [x, y] of points) {
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  return [minX, minY, maxX, maxY];
}

export function perimeterOfPolygon(points) {
  let total = 0;
  for (let i = 0; i < points.length; i++) {
    const [x1, y1] = points[i];
    const [x2, y2] = points[(i + 1) % points.length];
    total += Math.abs(x2 - x1) + Math.abs(y2 - y1);
  }
  return total;
}

export function walkGrid(moves) {
  let x = 0;
  let y = 0;
  for (const m of moves) {
    if (m === 'U') {
      y++;
    } else if (m === 'D') {
      y--;
    } else if (m === 'R') {
      x++;
    } else if (m === 'L') {
      x--;
    }
  }
  return [x, y];
}

export function spiralOrder(m) {
  const out = [];
  let top = 0;
  let bottom = m.length - 1;
  let left = 0;
  let right = m.length > 0 ? m[0].length - 1 : -1;
  while (top <= bottom && left <= right) {
    for (let c = left; c <= right; c++) out.push(m[top][c]);
    for (let r = top + 1; r <= bottom; r++) out.push(m[r][right]);
    if (top < bottom) for (let c = right - 1; c >= left; c--) out.push(m[bottom][c]);
    if (left < right) for (let r = bottom - 1; r > top; r--) out.push(m[r][left]);
    top++;
    bottom--;
    left++;
    right--;
  }
  return out;
}

export function identityMatrix(n) {
  const out = [];
  for (let r = 0; r < n; r++) {
    const row = [];
    for (let c = 0; c < n; c++) {
      row.push(r === c ? 1 : 0);
    }
    out.push(row);
  }
  return out;
}

export function matrixMultiply(a, b) {
  const out = [];
  for (let i = 0; i < a.length; i++) {
    const row = [];
    for (let j = 0; j < b[0].length; j++) {
      let s = 0;
      for (let k = 0; k < b.length; k++) {
        s += a[i][k] * b[k][j];
      }
      row.push(s);
    }
    out.push(row);
  }
  return out;
}

export function isSquareGrid(grid) {
  for (const row of grid) {
    if (row.length !== grid.length) {
      return false;
    }
  }
  return true;
}

export function cellIndex(row, col, width) {
  if (col < 0 || col >= width || row < 0) {
    return -1;
  }
  return row * width + col;
}

export function indexToCell(index, width) {
  return [Math.floor(index / width), index % width];
}

export function slope(x1, y1, x2, y2) {
  if (x2 === x1) {
    return null;
  }
  return (y2 - y1) / (x2 - x1);
}

export function midpoint(x1, y1, x2, y2) {
  return [(x1 + x2) / 2, (y1 + y2) / 2];
}

export function quadrantOf(x, y) {
  if (x === 0 || y === 0) {
    return 0;
  }
  if (x > 0) {
    return y > 0 ? 1 : 4;
  }
  return y > 0 ? 2 : 3;
}

export function squareDistance(a, b) {
  const dx = a[0] - b[0];
  const dy = a[1] - b[1];
  return dx * dx + dy * dy;
}

export function closestPointIndex(points, target) {
  let best = -1;
  let bestD = Infinity;
  for (let i = 0; i < points.length; i++) {
    const dx = points[i][0] - target[0];
    const dy = points[i][1] - target[1];
    const d = dx * dx + dy * dy;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

export function rowWithMostOnes(grid) {
  let best = -1;
  let bestCount = 0;
  for (let r = 0; r < grid.length; r++) {
    let n = 0;
    for (const v of grid[r]) {
      n += v;
    }
    if (n > bestCount) {
      bestCount = n;
      best = r;
    }
  }
  return best;
}

export function triangleArea(a, b, c) {
  const area = (a[0] * (b[1] - c[1]) + b[0] * (c[1] - a[1]) + c[0] * (a[1] - b[1])) / 2;
  return Math.abs(area);
}

export function clampToGrid(x, y, width, height) {
  const cx = x < 0 ? 0 : x >= width ? width - 1 : x;
  const cy = y < 0 ? 0 : y >= height ? height - 1 : y;
  return [cx, cy];
}

export function pathLength(points) {
  let total = 0;
  for (let i = 1; i < points.length; i++) {
    total += Math.abs(points[i][0] - points[i - 1][0]) + Math.abs(points[i][1] - points[i - 1][1]);
  }
  return total;
}

export function coveredLength(intervals) {
  const sorted = intervals.slice().sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [s, e] of sorted) {
    if (s > end) {
      total += e - s;
      end = e;
    } else if (e > end) {
      total += e - end;
      end = e;
    }
  }
  return total;
}

export function gridToString(grid) {
  const rows = [];
  for (const row of grid) {
    let line = '';
    for (const v of row) {
      line += v ? '#' : '.';
    }
    rows.push(line);
  }
  return rows.join('/');
}

export function symmetricMatrix(m) {
  for (let i = 0; i < m.length; i++) {
    for (let j = i + 1; j < m.length; j++) {
      if (m[i][j] !== m[j][i]) {
        return false;
      }
    }
  }
  return true;
}

export function bishopCanReach(x1, y1, x2, y2) {
  if (x1 === x2 && y1 === y2) {
    return false;
  }
  return Math.abs(x1 - x2) === Math.abs(y1 - y2);
}

export function knightMoves(x, y) {
  const steps = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
  let n = 0;
  for (const [dx, dy] of steps) {
    const nx = x + dx;
    const ny = y + dy;
    if (nx >= 0 && nx < 8 && ny >= 0 && ny < 8) {
      n++;
    }
  }
  return n;
}

export const EXAMPLES = {
  transposeMatrix: [[[[1, 2], [3, 4]]], [[]], [[[1, 2, 3]]], [[[1], [2]]]],
  diagonalSum: [[[[1, 2], [3, 4]]], [[]], [[[5]]], [[[1, 0, 0], [0, 2, 0], [0, 0, 3]]]],
  antiDiagonalSum: [[[[1, 2], [3, 4]]], [[]], [[[7]]], [[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]],
  rowSums: [[[[1, 2], [3, 4]]], [[]], [[[]]], [[[-1, 1, 5]]]],
  columnMax: [[[[1, 9], [3, 4]], 1], [[[1, 9], [3, 4]], 0], [[], 0], [[[-5], [-2]], 0]],
  rotateClockwise: [[[[1, 2], [3, 4]]], [[]], [[[1]]], [[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]],
  countNeighbours: [[[[1, 1, 0], [0, 1, 0], [0, 0, 1]], 1, 1], [[[1, 1], [1, 1]], 0, 0], [[[0]], 0, 0], [[[1, 0, 1], [0, 0, 0], [1, 0, 1]], 1, 1], [[[1, 1, 1], [1, 1, 1]], 1, 2]],
  countFilled: [[['#.#', '..#']], [[]], [['...']], [['##', '##']]],
  chebyshevDistance: [[0, 0, 3, 4], [1, 1, 1, 1], [-2, 3, 2, -3], [5, 0, 0, 0]],
  pointInCircle: [[0, 0, 0, 0, 1], [1, 0, 0, 0, 1], [1, 1, 0, 0, 1], [3, 4, 0, 0, 5], [3, 4, 0, 0, 4]],
  rectangleArea: [[0, 0, 2, 3], [2, 3, 0, 0], [1, 1, 1, 5], [-1, -1, 1, 1]],
  rectanglesOverlap: [[{ x: 0, y: 0, w: 2, h: 2 }, { x: 1, y: 1, w: 2, h: 2 }], [{ x: 0, y: 0, w: 2, h: 2 }, { x: 2, y: 0, w: 2, h: 2 }], [{ x: 0, y: 0, w: 1, h: 1 }, { x: 5, y: 5, w: 1, h: 1 }], [{ x: 0, y: 0, w: 4, h: 4 }, { x: 1, y: 1, w: 1, h: 1 }], [{ x: 0, y: 0, w: 2, h: 2 }, { x: 0, y: 2, w: 2, h: 2 }]],
  intervalsOverlap: [[[1, 3], [2, 4]], [[1, 2], [3, 4]], [[1, 2], [2, 3]], [[5, 9], [6, 7]], [[3, 4], [1, 2]]],
  mergeIntervals: [[[[1, 3], [2, 6], [8, 10]]], [[]], [[[1, 4], [4, 5]]], [[[5, 6], [1, 2]]], [[[1, 10], [2, 3]]]],
  boundingBox: [[[[1, 2], [3, 0], [-1, 5]]], [[]], [[[4, 4]]], [[[0, 0], [0, 3]]]],
  perimeterOfPolygon: [[[[0, 0], [2, 0], [2, 2], [0, 2]]], [[[0, 0]]], [[[0, 0], [3, 0]]], [[[1, 1], [4, 1], [4, 5]]]],
  walkGrid: [[['U', 'U', 'R']], [[]], [['L', 'D', 'D']], [['U', 'D', 'R', 'L']], [['X', 'R']]],
  spiralOrder: [[[[1, 2], [3, 4]]], [[]], [[[1, 2, 3], [4, 5, 6], [7, 8, 9]]], [[[1, 2, 3]]], [[[1], [2], [3]]]],
  identityMatrix: [[0], [1], [2], [3]],
  matrixMultiply: [[[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[[1, 0], [0, 1]], [[9, 8], [7, 6]]], [[[2]], [[3]]], [[[1, 2, 3]], [[1], [2], [3]]]],
  isSquareGrid: [[[[1, 2], [3, 4]]], [[]], [[[1, 2]]], [[[1], [2, 3]]], [[[1]]]],
  cellIndex: [[0, 0, 4], [1, 2, 4], [2, 4, 4], [0, -1, 4], [-1, 0, 3], [3, 3, 4]],
  indexToCell: [[0, 4], [5, 4], [3, 4], [8, 4], [7, 1]],
  slope: [[0, 0, 2, 4], [1, 1, 1, 5], [0, 3, 3, 0], [-1, -1, 1, 1]],
  midpoint: [[0, 0, 2, 4], [1, 1, 1, 1], [-2, 3, 2, -3], [5, 0, 1, 8]],
  quadrantOf: [[1, 1], [-1, 1], [-1, -1], [1, -1], [0, 5], [3, 0]],
  squareDistance: [[[0, 0], [3, 4]], [[1, 1], [1, 1]], [[-1, 2], [2, -2]], [[5, 0], [0, 1]]],
  closestPointIndex: [[[[0, 0], [5, 5], [1, 1]], [2, 2]], [[], [0, 0]], [[[3, 3]], [0, 0]], [[[1, 0], [0, 1]], [0, 0]]],
  rowWithMostOnes: [[[[0, 1], [1, 1], [1, 0]]], [[]], [[[0, 0]]], [[[1, 0, 1], [1, 1, 0]]]],
  triangleArea: [[[0, 0], [4, 0], [0, 3]], [[0, 0], [1, 1], [2, 2]], [[1, 1], [3, 1], [2, 4]], [[0, 0], [0, 2], [-2, 0]]],
  clampToGrid: [[2, 3, 5, 5], [-1, 7, 5, 5], [5, 5, 5, 5], [0, 0, 1, 1], [4, -2, 5, 5]],
  pathLength: [[[[0, 0], [3, 0], [3, 4]]], [[]], [[[1, 1]]], [[[0, 0], [-2, 2], [0, 0]]]],
  coveredLength: [[[[1, 3], [2, 5]]], [[]], [[[1, 2], [3, 4]]], [[[0, 10], [2, 3]]], [[[5, 6], [1, 2], [1, 3]]]],
  gridToString: [[[[1, 0], [0, 1]]], [[]], [[[0, 0, 1]]], [[[1], [1]]]],
  symmetricMatrix: [[[[1, 2], [2, 1]]], [[[1, 2], [3, 1]]], [[]], [[[1, 0, 3], [0, 1, 0], [3, 0, 1]]], [[[1, 0, 3], [0, 1, 0], [4, 0, 1]]]],
  bishopCanReach: [[0, 0, 3, 3], [0, 0, 0, 0], [2, 3, 4, 1], [1, 1, 1, 2], [7, 0, 0, 7]],
  knightMoves: [[0, 0], [3, 3], [7, 7], [0, 3], [1, 1], [6, 7]],
};
