// games: scores, dice, cards, boards and simple simulations.

export function diceTotal(rolls) {
  let total = 0;
  for (const r of rolls) {
    if (r >= 1 && r <= 6) {
      total += r;
    }
  }
  return total;
}

export function isYahtzee(dice) {
  if (dice.length !== 5) {
    return false;
  }
  for (let i = 1; i < dice.length; i++) {
    if (dice[i] !== dice[0]) {
      return false;
    }
  }
  return true;
}

export function countPairs(dice) {
  const counts = {};
  for (const d of dice) {
    counts[d] = (counts[d] || 0) + 1;
  }
  let pairs = 0;
  for (const k of Object.keys(counts)) {
    pairs += Math.floor(counts[k] / 2);
  }
  return pairs;
}

export function blackjackValue(cards) {
  let total = 0;
  let aces = 0;
  for (const c of cards) {
    if (c === 1) {
      aces++;
      total += 11;
    } else {
      total += Math.min(c, 10);
    }
  }
  while (total > 21 && aces > 0) {
    total -= 10;
    aces--;
  }
  return total;
}

export function rockPaperScissors(a, b) {
  if (a === b) {
    return 0;
  }
  const beats = { rock: 'scissors', paper: 'rock', scissors: 'paper' };
  return beats[a] === b ? 1 : -1;
}

export function ticTacToeWinner(board) {
  const lines = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
  for (const [a, b, c] of lines) {
    if (board[a] !== '.' && board[a] === board[b] && board[b] === board[c]) {
      return board[a];
    }
  }
  return null;
}

export function snakesAndLadders(position, roll, jumps) {
  let next = position + roll;
  if (next > 100) {
    return position;
  }
  if (jumps[next] !== undefined) {
    next = jumps[next];
  }
  return next;
}

export function tennisScore(points) {
  const names = ['love', '15', '30', '40'];
  if (points < 0) {
    return 'invalid';
  }
  return points < 4 ? names[points] : 'game';
}

export function darts(x, y) {
  const d = Math.sqrt(x * x + y * y);
  if (d <= 1) {
    return 10;
  }
  if (d <= 5) {
    return 5;
  }
  if (d <= 10) {
    return 1;
  }
  return 0;
}

export function highScoreIndex(scores) {
  let best = -1;
  for (let i = 0; i < scores.length; i++) {
    if (best === -1 || scores[i] > scores[best]) {
      best = i;
    }
  }
  return best;
}

export function lifeStep(cells) {
  const out = [];
  for (let i = 0; i < cells.length; i++) {
    const left = i > 0 ? cells[i - 1] : 0;
    const right = i < cells.length - 1 ? cells[i + 1] : 0;
    out.push(left + right === 1 ? 1 : 0);
  }
  return out;
}

export function cardRank(card) {
  const face = { J: 11, Q: 12, K: 13, A: 14 };
  const rank = card.slice(0, -1);
  if (face[rank]) {
    return face[rank];
  }
  const n = Number(rank);
  return n >= 2 && n <= 10 ? n : 0;
}

export function isStraight(values) {
  const s = values.slice().sort((a, b) => a - b);
  for (let i = 1; i < s.length; i++) {
    if (s[i] !== s[i - 1] + 1) {
      return false;
    }
  }
  return s.length > 0;
}

export function livesLeft(start, hits, bonus) {
  let lives = start - hits + Math.floor(bonus / 100);
  if (lives > 9) {
    lives = 9;
  }
  return lives < 0 ? 0 : lives;
}

export function levelFromXp(xp) {
  let level = 1;
  let needed = 100;
  while (xp >= needed) {
    xp -= needed;
    level++;
    needed += 50;
  }
  return level;
}

export function robotPosition(commands) {
  let x = 0;
  let y = 0;
  let dir = 0;
  for (const c of commands) {
    if (c === 'L') {
      dir = (dir + 3) % 4;
    } else if (c === 'R') {
      dir = (dir + 1) % 4;
    } else if (c === 'F') {
      x += dir === 1 ? 1 : dir === 3 ? -1 : 0;
      y += dir === 0 ? 1 : dir === 2 ? -1 : 0;
    }
  }
  return [x, y];
}

export function minesAround(board, r, c) {
  let n = 0;
  for (let i = r - 1; i <= r + 1; i++) {
    for (let j = c - 1; j <= c + 1; j++) {
      if (i >= 0 && i < board.length && j >= 0 && j < board[i].length && board[i][j] === '*') {
        n++;
      }
    }
  }
  return board[r][c] === '*' ? n - 1 : n;
}

export function connectedRow(row, player) {
  let run = 0;
  for (const cell of row) {
    run = cell === player ? run + 1 : 0;
    if (run >= 4) {
      return true;
    }
  }
  return false;
}

export function bowlingStrikes(rolls) {
  let strikes = 0;
  for (let i = 0; i < rolls.length; i++) {
    if (rolls[i] === 10) {
      strikes++;
    }
  }
  return strikes;
}

export function turnOrder(players, start) {
  const out = [];
  for (let i = 0; i < players.length; i++) {
    out.push(players[(start + i) % players.length]);
  }
  return out;
}

export function coinFlipsStreak(flips) {
  let best = 0;
  let run = 0;
  let prev = '';
  for (const f of flips) {
    run = f === prev ? run + 1 : 1;
    prev = f;
    if (run > best) {
      best = run;
    }
  }
  return best;
}

export function handTotalWithBonus(cards) {
  let total = 0;
  let hearts = 0;
  for (const c of cards) {
    total += c.value;
    if (c.suit === 'hearts') {
      hearts++;
    }
  }
  return hearts >= 3 ? total + 10 : total;
}

export function golfScoreName(strokes, par) {
  const diff = strokes - par;
  if (diff <= -2) {
    return 'eagle';
  }
  if (diff === -1) {
    return 'birdie';
  }
  if (diff === 0) {
    return 'par';
  }
  return diff === 1 ? 'bogey' : 'over';
}

export function raceWinner(times) {
  let best = null;
  for (const name of Object.keys(times)) {
    if (best === null || times[name] < times[best]) {
      best = name;
    }
  }
  return best;
}

export function spinWheel(position, steps, size) {
  return (position + steps) % size;
}

export function chessSquareColor(file, rank) {
  const f = file.charCodeAt(0) - 96;
  return (f + rank) % 2 === 0 ? 'black' : 'white';
}

export function quizScore(answers, key) {
  let score = 0;
  for (let i = 0; i < key.length; i++) {
    if (answers[i] === key[i]) {
      score += 2;
    } else if (answers[i] !== undefined && answers[i] !== '') {
      score -= 1;
    }
  }
  return Math.max(0, score);
}

export function cellsAlive(grid) {
  let n = 0;
  for (const row of grid) {
    for (const cell of row) {
      if (cell) {
        n++;
      }
    }
  }
  return n;
}

export function teamScores(events) {
  const out = { home: 0, away: 0 };
  for (const e of events) {
    if (e.team in out) {
      out[e.team] += e.points;
    }
  }
  return out;
}

export const EXAMPLES = {
  diceTotal: [[[1, 6, 3]], [[]], [[0, 7, 2]], [[6, 6]], [[1]]],
  isYahtzee: [[[3, 3, 3, 3, 3]], [[3, 3, 3, 3, 2]], [[1, 1, 1, 1]], [[6, 6, 6, 6, 6, 6]], [[2, 3, 3, 3, 3]]],
  countPairs: [[[1, 1, 2, 2, 3]], [[]], [[4, 4, 4, 4]], [[1, 2, 3]], [[5, 5, 5]]],
  blackjackValue: [[[1, 13]], [[1, 1, 9]], [[10, 10, 5]], [[]], [[1, 5, 10]], [[2, 3]]],
  rockPaperScissors: [['rock', 'scissors'], ['rock', 'paper'], ['paper', 'paper'], ['scissors', 'paper'], ['paper', 'scissors']],
  ticTacToeWinner: [[['X', 'X', 'X', '.', 'O', 'O', '.', '.', '.']], [['O', 'X', '.', 'O', 'X', '.', 'O', '.', 'X']], [['.', '.', '.', '.', '.', '.', '.', '.', '.']], [['X', 'O', 'X', 'X', 'O', 'O', 'O', 'X', 'X']], [['X', 'O', 'O', '.', 'X', '.', '.', '.', 'X']]],
  snakesAndLadders: [[1, 3, { 4: 14 }], [10, 2, { 12: 2 }], [98, 5, {}], [97, 3, {}], [0, 6, { 5: 20 }]],
  tennisScore: [[0], [1], [3], [4], [-1], [2]],
  darts: [[0, 0], [1, 0], [3, 4], [6, 8], [10, 1], [0, -5]],
  highScoreIndex: [[[3, 9, 2]], [[]], [[5]], [[4, 4]], [[-1, -5, 0]]],
  lifeStep: [[[0, 1, 0]], [[]], [[1, 1, 1]], [[1, 0, 0, 1]], [[1]]],
  cardRank: [['10H'], ['AS'], ['QD'], ['2C'], ['1C'], ['JH'], ['KS']],
  isStraight: [[[3, 4, 5]], [[5, 3, 4]], [[1, 3]], [[]], [[2, 2, 3]], [[7]]],
  livesLeft: [[3, 1, 0], [3, 5, 0], [3, 0, 250], [8, 0, 300], [0, 0, 99]],
  levelFromXp: [[0], [99], [100], [249], [250], [400]],
  robotPosition: [[['F', 'F']], [[]], [['R', 'F']], [['L', 'F', 'F']], [['R', 'R', 'F']], [['L', 'L', 'L', 'F']]],
  minesAround: [[['*..', '.*.', '...'], 0, 1], [['...', '...'], 1, 1], [['*'], 0, 0], [['**', '**'], 0, 0], [['.*.', '*.*', '.*.'], 1, 1]],
  connectedRow: [[['X', 'X', 'X', 'X', 'O'], 'X'], [['X', 'X', 'O', 'X', 'X'], 'X'], [[], 'O'], [['O', 'O', 'O', 'O'], 'O'], [['O', 'O', 'O'], 'O']],
  bowlingStrikes: [[[10, 3, 4, 10]], [[]], [[9, 1]], [[10, 10, 10]]],
  turnOrder: [[['a', 'b', 'c'], 1], [['a', 'b', 'c'], 0], [[], 2], [['a', 'b'], 3]],
  coinFlipsStreak: [[['H', 'H', 'T', 'H', 'H', 'H']], [[]], [['T']], [['H', 'T', 'H', 'T']]],
  handTotalWithBonus: [[[{ value: 2, suit: 'hearts' }, { value: 3, suit: 'hearts' }, { value: 4, suit: 'hearts' }]], [[]], [[{ value: 5, suit: 'clubs' }, { value: 5, suit: 'hearts' }]], [[{ value: 1, suit: 'hearts' }, { value: 1, suit: 'hearts' }, { value: 1, suit: 'spades' }]]],
  golfScoreName: [[2, 4], [3, 4], [4, 4], [5, 4], [7, 4], [1, 4]],
  raceWinner: [[{ ann: 12.5, bob: 11.9 }], [{}], [{ solo: 3 }], [{ a: 2, b: 2 }]],
  spinWheel: [[0, 5, 8], [7, 1, 8], [3, 16, 8], [2, 0, 5]],
  chessSquareColor: [['a', 1], ['a', 2], ['h', 8], ['d', 5], ['e', 4]],
  quizScore: [[['a', 'b', 'c'], ['a', 'b', 'c']], [['a', 'x'], ['a', 'b']], [[], ['a']], [['x', 'y'], ['a', 'b']], [['a', ''], ['a', 'b']]],
  cellsAlive: [[[[1, 0], [1, 1]]], [[]], [[[0, 0]]], [[[true, false, true]]]],
  teamScores: [[[{ team: 'home', points: 3 }, { team: 'away', points: 2 }]], [[]], [[{ team: 'other', points: 9 }]], [[{ team: 'home', points: 1 }, { team: 'home', points: 6 }]]],
};
