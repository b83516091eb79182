// records: plain objects, inventories, schedules and small state machines.

export function countByKey(items, key) {
  const out = {};
  for (const item of items) {
    const k = item[key];
    out[k] = (out[k] || 0) + 1;
  }
  return out;
}

export function sumField(items, field) {
  let total = 0;
  for (const item of items) {
    if (typeof item[field] === 'number') {
      total += item[field];
    }
  }
  return total;
}

export function oldestPerson(people) {
  let best = null;
  for (const p of people) {
    if (best === null || p.age > best.age) {
      best = p;
    }
  }
  return best === null ? null : best.name;
}

export function adultsOnly(people) {
  const out = [];
  for (const p of people) {
    if (p.age >= 18) {
      out.push(p.name);
    }
  }
  return out;
}

export function restockList(items, minimum) {
  const out = [];
  for (const item of items) {
    if (item.stock < minimum) {
      out.push({ name: item.name, order: minimum - item.stock });
    }
  }
  return out;
}

export function applyDiscounts(prices, threshold, percent) {
  const out = [];
  for (const p of prices) {
    out.push(p >= threshold ? Math.round(p * (100 - percent)) / 100 : p);
  }
  return out;
}

export function cartTotal(cart, coupon) {
  let total = 0;
  for (const line of cart) {
    total += line.price * line.qty;
  }
  if (coupon && total >= coupon.minimum) {
    total -= coupon.amount;
  }
  return Math.max(0, Math.round(total * 100) / 100);
}

export function mergeCounts(a, b) {
  const out = { ...a };
  for (const key of Object.keys(b)) {
    out[key] = (out[key] || 0) + b[key];
  }
  return out;
}

export function deepGet(obj, path) {
  let cur = obj;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(key in cur)) {
      return undefined;
    }
    cur = cur[key];
  }
  return cur;
}

export function renameKey(obj, from, to) {
  const out = {};
  for (const key of Object.keys(obj)) {
    out[key === from ? to : key] = obj[key];
  }
  return out;
}

export function nextLightColor(color) {
  if (color === 'green') {
    return 'yellow';
  }
  if (color === 'yellow') {
    return 'red';
  }
  return 'green';
}

export function vendingChange(price, paid) {
  if (paid < price) {
    return -1;
  }
  return paid - price;
}

export function elevatorFloor(start, moves, top) {
  let floor = start;
  for (const m of moves) {
    floor += m;
    if (floor < 0) {
      floor = 0;
    }
    if (floor > top) {
      floor = top;
    }
  }
  return floor;
}

export function meetingsOverlap(meetings) {
  const sorted = meetings.slice().sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].start < sorted[i - 1].end) {
      return true;
    }
  }
  return false;
}

export function freeMinutes(meetings, dayLength) {
  let busy = 0;
  for (const m of meetings) {
    busy += m.end - m.start;
  }
  return Math.max(0, dayLength - busy);
}

export function gradeCounts(scores) {
  const out = { pass: 0, fail: 0 };
  for (const s of scores) {
    if (s >= 50) {
      out.pass++;
    } else {
      out.fail++;
    }
  }
  return out;
}

export function leaderboard(players) {
  const sorted = players.slice().sort((a, b) => b.points - a.points || a.name.localeCompare(b.name));
  const out = [];
  for (let i = 0; i < sorted.length && i < 3; i++) {
    out.push(sorted[i].name);
  }
  return out;
}

export function bankBalance(transactions) {
  let balance = 0;
  for (const t of transactions) {
    if (t.type === 'deposit') {
      balance += t.amount;
    } else if (t.type === 'withdraw' && t.amount <= balance) {
      balance -= t.amount;
    }
  }
  return balance;
}

export function parkingFee(minutes) {
  if (minutes <= 30) {
    return 0;
  }
  const hours = Math.ceil((minutes - 30) / 60);
  return Math.min(20, hours * 3);
}

export function libraryFine(daysLate) {
  if (daysLate <= 0) {
    return 0;
  }
  if (daysLate <= 7) {
    return daysLate * 10;
  }
  return 70 + (daysLate - 7) * 20;
}

export function queuePosition(queue, name) {
  for (let i = 0; i < queue.length; i++) {
    if (queue[i] === name) {
      return i + 1;
    }
  }
  return 0;
}

export function stackAfter(operations) {
  const stack = [];
  for (const op of operations) {
    if (op === 'pop') {
      stack.pop();
    } else {
      stack.push(op);
    }
  }
  return stack;
}

export function tallyVotes(votes) {
  const counts = {};
  let winner = null;
  for (const v of votes) {
    counts[v] = (counts[v] || 0) + 1;
    if (winner === null || counts[v] > counts[winner]) {
      winner = v;
    }
  }
  return winner;
}

export function taskProgress(tasks) {
  if (tasks.length === 0) {
    return 0;
  }
  let done = 0;
  for (const t of tasks) {
    if (t.done) {
      done++;
    }
  }
  return Math.round((done / tasks.length) * 100);
}

export function overdueTasks(tasks, today) {
  const out = [];
  for (const t of tasks) {
    if (!t.done && t.due < today) {
      out.push(t.title);
    }
  }
  return out;
}

export function seatsLeft(capacity, bookings) {
  let taken = 0;
  for (const b of bookings) {
    taken += b.seats;
  }
  return capacity - taken < 0 ? 0 : capacity - taken;
}

export function shoppingListDiff(have, need) {
  const out = [];
  for (const item of need) {
    if (have.indexOf(item) === -1) {
      out.push(item);
    }
  }
  return out;
}

export function rateLimitOk(timestamps, now, windowSize, limit) {
  let recent = 0;
  for (const t of timestamps) {
    if (now - t < windowSize) {
      recent++;
    }
  }
  return recent < limit;
}

export function retryDelays(attempts, base) {
  const out = [];
  let delay = base;
  for (let i = 0; i < attempts; i++) {
    out.push(delay);
    delay *= 2;
  }
  return out;
}

export function versionBump(version, part) {
  const [major, minor, patch] = version.split('.').map(Number);
  if (part === 'major') {
    return major + 1 + '.0.0';
  }
  if (part === 'minor') {
    return major + '.' + (minor + 1) + '.0';
  }
  return major + '.' + minor + '.' + (patch + 1);
}

export function temperatureAlerts(readings, high) {
  let streak = 0;
  let alerts = 0;
  for (const r of readings) {
    streak = r > high ? streak + 1 : 0;
    if (streak === 3) {
      alerts++;
    }
  }
  return alerts;
}

export function scoreBowlingFrames(rolls) {
  let total = 0;
  for (let i = 0; i + 1 < rolls.length; i += 2) {
    const frame = rolls[i] + rolls[i + 1];
    total += frame;
    if (frame === 10 && i + 2 < rolls.length) {
      total += rolls[i + 2];
    }
  }
  return total;
}

export function ticketPrice(age, student) {
  if (age < 5) {
    return 0;
  }
  if (age < 18 || student) {
    return 6;
  }
  if (age >= 65) {
    return 5;
  }
  return 10;
}

export function roomAvailable(bookings, day) {
  for (const b of bookings) {
    if (day >= b.from && day < b.to) {
      return false;
    }
  }
  return true;
}

export function stockValue(items) {
  let total = 0;
  for (const item of items) {
    if (item.stock > 0) {
      total += item.stock * item.cost;
    }
  }
  return total;
}

export function longestStreak(days) {
  let best = 0;
  let run = 0;
  for (const d of days) {
    run = d ? run + 1 : 0;
    if (run > best) {
      best = run;
    }
  }
  return best;
}

export function chargeBattery(level, minutes, ratePerMinute) {
  const next = level + minutes * ratePerMinute;
  return next > 100 ? 100 : next;
}

export function playlistLength(songs, limit) {
  let total = 0;
  let count = 0;
  for (const s of songs) {
    if (total + s > limit) {
      break;
    }
    total += s;
    count++;
  }
  return count;
}

export function elapsedDays(startDay, endDay) {
  if (endDay < startDay) {
    return 0;
  }
  return endDay - startDay + 1;
}

export const EXAMPLES = {
  countByKey: [[[{ t: 'a' }, { t: 'b' }, { t: 'a' }], 't'], [[], 'x'], [[{ k: 1 }], 'k'], [[{ c: 'x' }, { d: 'y' }], 'c']],
  sumField: [[[{ n: 2 }, { n: 3 }], 'n'], [[], 'n'], [[{ n: '4' }, { n: 1 }], 'n'], [[{ m: 5 }], 'n']],
  oldestPerson: [[[{ name: 'a', age: 30 }, { name: 'b', age: 40 }]], [[]], [[{ name: 'c', age: 5 }]], [[{ name: 'd', age: 9 }, { name: 'e', age: 9 }]]],
  adultsOnly: [[[{ name: 'a', age: 17 }, { name: 'b', age: 18 }, { name: 'c', age: 40 }]], [[]], [[{ name: 'd', age: 3 }]], [[{ name: 'e', age: 19 }, { name: 'f', age: 18 }]]],
  restockList: [[[{ name: 'a', stock: 2 }, { name: 'b', stock: 9 }], 5], [[], 3], [[{ name: 'c', stock: 5 }], 5], [[{ name: 'd', stock: 0 }], 1]],
  applyDiscounts: [[[100, 20, 50], 50, 10], [[], 10, 50], [[49.99, 50], 50, 20], [[200], 0, 0]],
  cartTotal: [[[{ price: 10, qty: 2 }], null], [[{ price: 10, qty: 2 }], { minimum: 20, amount: 5 }], [[{ price: 10, qty: 1 }], { minimum: 20, amount: 5 }], [[], null], [[{ price: 3, qty: 1 }], { minimum: 1, amount: 5 }]],
  mergeCounts: [[{ a: 1 }, { a: 2, b: 1 }], [{}, {}], [{ x: 5 }, {}], [{}, { y: 3 }]],
  deepGet: [[{ a: { b: 1 } }, 'a.b'], [{ a: { b: 1 } }, 'a.c'], [{ a: null }, 'a.b'], [{ x: 5 }, 'x'], [{ a: { b: { c: 3 } } }, 'a.b.c']],
  renameKey: [[{ a: 1, b: 2 }, 'a', 'z'], [{ a: 1 }, 'q', 'z'], [{}, 'a', 'b'], [{ a: 1, b: 2 }, 'b', 'a']],
  nextLightColor: [['green'], ['yellow'], ['red'], ['blue']],
  vendingChange: [[150, 200], [150, 150], [150, 100], [0, 5]],
  elevatorFloor: [[0, [2, 3], 10], [5, [-10], 10], [9, [5], 10], [3, [], 10], [4, [1, -2, 3], 5]],
  meetingsOverlap: [[[{ start: 1, end: 3 }, { start: 2, end: 4 }]], [[{ start: 1, end: 2 }, { start: 2, end: 3 }]], [[]], [[{ start: 5, end: 6 }, { start: 1, end: 2 }]], [[{ start: 4, end: 9 }, { start: 1, end: 5 }]]],
  freeMinutes: [[[{ start: 0, end: 60 }], 480], [[], 480], [[{ start: 0, end: 500 }], 480], [[{ start: 10, end: 20 }, { start: 30, end: 45 }], 100]],
  gradeCounts: [[[50, 49, 80]], [[]], [[100]], [[0, 10]]],
  leaderboard: [[[{ name: 'a', points: 5 }, { name: 'b', points: 9 }, { name: 'c', points: 7 }, { name: 'd', points: 1 }]], [[]], [[{ name: 'x', points: 1 }]], [[{ name: 'b', points: 3 }, { name: 'a', points: 3 }]]],
  bankBalance: [[[{ type: 'deposit', amount: 50 }, { type: 'withdraw', amount: 20 }]], [[]], [[{ type: 'withdraw', amount: 5 }]], [[{ type: 'deposit', amount: 10 }, { type: 'withdraw', amount: 10 }]], [[{ type: 'deposit', amount: 10 }, { type: 'withdraw', amount: 11 }]]],
  parkingFee: [[10], [30], [31], [90], [91], [600]],
  libraryFine: [[0], [-2], [1], [7], [8], [10]],
  queuePosition: [[['a', 'b', 'c'], 'b'], [['a'], 'a'], [[], 'x'], [['a', 'b'], 'z'], [['x', 'y', 'z'], 'z']],
  stackAfter: [[['a', 'b', 'pop', 'c']], [[]], [['pop']], [['x', 'pop', 'pop', 'y']]],
  tallyVotes: [[['a', 'b', 'a']], [[]], [['x']], [['a', 'b', 'b', 'a', 'c']]],
  taskProgress: [[[{ done: true }, { done: false }]], [[]], [[{ done: true }]], [[{ done: false }, { done: false }, { done: true }]]],
  overdueTasks: [[[{ title: 'a', done: false, due: 3 }, { title: 'b', done: true, due: 1 }, { title: 'c', done: false, due: 9 }], 5], [[], 1], [[{ title: 'd', done: false, due: 5 }], 5], [[{ title: 'e', done: false, due: 4 }], 5]],
  seatsLeft: [[10, [{ seats: 3 }, { seats: 2 }]], [5, []], [4, [{ seats: 6 }]], [8, [{ seats: 8 }]]],
  shoppingListDiff: [[['milk'], ['milk', 'eggs']], [[], ['a']], [['a', 'b'], []], [['x'], ['y', 'x', 'z']]],
  rateLimitOk: [[[1, 2, 3], 4, 10, 3], [[1, 2, 3], 20, 10, 3], [[], 5, 10, 1], [[10, 15], 20, 10, 2], [[5], 15, 10, 1]],
  retryDelays: [[3, 100], [0, 100], [1, 5], [4, 1]],
  versionBump: [['1.2.3', 'patch'], ['1.2.3', 'minor'], ['1.2.3', 'major'], ['0.0.9', 'patch'], ['2.9.1', 'minor']],
  temperatureAlerts: [[[31, 32, 33, 34], 30], [[], 30], [[31, 32, 20, 31, 32, 33], 30], [[30, 30, 30], 30], [[40, 41, 42, 10, 40, 41, 42], 35]],
  scoreBowlingFrames: [[[3, 4, 5, 2]], [[5, 5, 3, 0]], [[]], [[10, 0, 4, 4]], [[1, 1, 1]]],
  ticketPrice: [[4, false], [5, false], [17, false], [30, true], [30, false], [65, false], [70, true]],
  roomAvailable: [[[{ from: 1, to: 3 }], 2], [[{ from: 1, to: 3 }], 3], [[], 5], [[{ from: 1, to: 3 }, { from: 5, to: 6 }], 4], [[{ from: 2, to: 4 }], 1]],
  stockValue: [[[{ stock: 2, cost: 3 }, { stock: 0, cost: 9 }]], [[]], [[{ stock: -1, cost: 5 }]], [[{ stock: 4, cost: 2.5 }]]],
  longestStreak: [[[true, true, false, true]], [[]], [[false, false]], [[true, true, true]]],
  chargeBattery: [[50, 10, 2], [90, 10, 2], [0, 0, 5], [100, 1, 1], [20, 30, 2.5]],
  playlistLength: [[[3, 4, 5], 8], [[], 10], [[10], 9], [[2, 2, 2], 6], [[5, 1], 5]],
  elapsedDays: [[1, 1], [1, 10], [5, 3], [0, 6]],
};
