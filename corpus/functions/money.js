// money: prices, payments, currency and accounting in cents.

export function toCents(amount) {
  return Math.round(amount * 100);
}

export function formatCents(cents) {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const rest = abs % 100;
  return sign + '$' + whole + '.' + (rest < 10 ? '0' : '') + rest;
}

export function addTax(cents, ratePercent) {
  return cents + Math.round((cents * ratePercent) / 100);
}

export function tipAmount(billCents, percent) {
  if (percent < 0) {
    return 0;
  }
  return Math.round((billCents * percent) / 100);
}

export function splitEvenly(cents, people) {
  const base = Math.floor(cents / people);
  const extra = cents % people;
  const out = [];
  for (let i = 0; i < people; i++) {
    out.push(i < extra ? base + 1 : base);
  }
  return out;
}

export function bulkDiscount(quantity, unitCents) {
  let rate = 0;
  if (quantity >= 100) {
    rate = 20;
  } else if (quantity >= 10) {
    rate = 10;
  }
  return Math.round((quantity * unitCents * (100 - rate)) / 100);
}

export function couponValid(coupon, today, cartCents) {
  if (today > coupon.expires) {
    return false;
  }
  return cartCents >= coupon.minimum;
}

export function loyaltyPoints(cents) {
  const dollars = Math.floor(cents / 100);
  let points = dollars;
  if (dollars >= 50) {
    points += 10;
  }
  return points;
}

export function monthlyPayment(principalCents, months) {
  if (months <= 0) {
    return 0;
  }
  return Math.ceil(principalCents / months);
}

export function remainingBalance(principal, payments) {
  let left = principal;
  for (const p of payments) {
    left -= p;
  }
  return left < 0 ? 0 : left;
}

export function convertCurrency(cents, rate) {
  return Math.round(cents * rate);
}

export function cheapestOption(prices) {
  let best = -1;
  for (let i = 0; i < prices.length; i++) {
    if (prices[i] >= 0 && (best === -1 || prices[i] < prices[best])) {
      best = i;
    }
  }
  return best;
}

export function priceAfterMarkdowns(cents, steps) {
  let price = cents;
  for (let i = 0; i < steps; i++) {
    price = Math.floor((price * 90) / 100);
  }
  return price;
}

export function invoiceTotal(lines) {
  let total = 0;
  for (const line of lines) {
    const amount = line.qty * line.cents;
    total += line.taxable ? amount + Math.round(amount / 10) : amount;
  }
  return total;
}

export function canAfford(balance, prices) {
  let spent = 0;
  for (const p of prices) {
    spent += p;
  }
  return spent <= balance;
}

export function itemsAffordable(budget, prices) {
  const sorted = prices.slice().sort((a, b) => a - b);
  let count = 0;
  let left = budget;
  for (const p of sorted) {
    if (p > left) {
      break;
    }
    left -= p;
    count++;
  }
  return count;
}

export function salaryAfterRaise(salary, years, percent) {
  let s = salary;
  for (let y = 0; y < years; y++) {
    s = Math.round((s * (100 + percent)) / 100);
  }
  return s;
}

export function overtimePay(hours, rate) {
  if (hours <= 40) {
    return hours * rate;
  }
  return 40 * rate + (hours - 40) * rate * 1.5;
}

export function depreciate(value, years, percent) {
  let v = value;
  for (let i = 0; i < years; i++) {
    v -= Math.floor((v * percent) / 100);
  }
  return v;
}

export function profitMargin(revenue, cost) {
  if (revenue <= 0) {
    return 0;
  }
  return Math.round(((revenue - cost) / revenue) * 100);
}

export function breakEvenUnits(fixed, price, unitCost) {
  const margin = price - unitCost;
  if (margin <= 0) {
    return -1;
  }
  return Math.ceil(fixed / margin);
}

export function roundToNickel(cents) {
  return Math.round(cents / 5) * 5;
}

export function changeNotes(cents) {
  const notes = [2000, 1000, 500, 100];
  const out = {};
  let left = cents;
  for (const n of notes) {
    const count = Math.floor(left / n);
    if (count > 0) {
      out[n] = count;
      left -= count * n;
    }
  }
  return out;
}

export function averageOrderValue(orders) {
  if (orders.length === 0) {
    return 0;
  }
  let total = 0;
  for (const o of orders) {
    total += o.cents;
  }
  return Math.round(total / orders.length);
}

export function largestOrder(orders) {
  let best = null;
  for (const o of orders) {
    if (best === null || o.cents > best.cents) {
      best = o;
    }
  }
  return best === null ? null : best.id;
}

export function refundAmount(paid, daysSincePurchase) {
  if (daysSincePurchase <= 14) {
    return paid;
  }
  if (daysSincePurchase <= 30) {
    return Math.floor(paid / 2);
  }
  return 0;
}

export function subscriptionCost(months, monthly, yearly) {
  const years = Math.floor(months / 12);
  const rest = months % 12;
  return years * yearly + Math.min(rest * monthly, yearly);
}

export function expenseByCategory(expenses) {
  const out = {};
  for (const e of expenses) {
    out[e.category] = (out[e.category] || 0) + e.cents;
  }
  return out;
}

export function savingsGoalMonths(goal, monthly, start) {
  if (monthly <= 0) {
    return start >= goal ? 0 : -1;
  }
  let months = 0;
  let saved = start;
  while (saved < goal) {
    saved += monthly;
    months++;
  }
  return months;
}

export function taxBracketRate(income) {
  if (income < 10000) {
    return 0;
  }
  if (income < 50000) {
    return 15;
  }
  if (income < 100000) {
    return 25;
  }
  return 35;
}

export function ledgerBalanceAt(entries, day) {
  let balance = 0;
  for (const e of entries) {
    if (e.day <= day) {
      balance += e.cents;
    }
  }
  return balance;
}

export const EXAMPLES = {
  toCents: [[1.23], [0], [10], [-0.5], [19.999]],
  formatCents: [[123], [5], [0], [-250], [100000]],
  addTax: [[1000, 10], [999, 8], [0, 20], [50, 0]],
  tipAmount: [[1000, 15], [999, 20], [500, 0], [800, -5]],
  splitEvenly: [[10, 3], [9, 3], [1, 2], [0, 1], [7, 4]],
  bulkDiscount: [[1, 100], [9, 100], [10, 100], [99, 10], [100, 10], [150, 3]],
  couponValid: [[{ expires: 10, minimum: 500 }, 5, 600], [{ expires: 10, minimum: 500 }, 11, 600], [{ expires: 10, minimum: 500 }, 10, 500], [{ expires: 10, minimum: 500 }, 9, 499]],
  loyaltyPoints: [[0], [199], [4999], [5000], [12345]],
  monthlyPayment: [[1200, 12], [1000, 3], [500, 0], [0, 5], [7, 2]],
  remainingBalance: [[1000, [100, 200]], [500, []], [100, [150]], [300, [100, 200]]],
  convertCurrency: [[100, 1.1], [0, 2], [333, 0.5], [250, 1]],
  cheapestOption: [[[300, 100, 200]], [[]], [[-1, 50]], [[20, 20]], [[-5]]],
  priceAfterMarkdowns: [[1000, 1], [1000, 2], [999, 0], [55, 3]],
  invoiceTotal: [[[{ qty: 2, cents: 500, taxable: true }]], [[]], [[{ qty: 1, cents: 333, taxable: false }, { qty: 3, cents: 10, taxable: true }]], [[{ qty: 0, cents: 100, taxable: true }]]],
  canAfford: [[100, [30, 70]], [100, [50, 51]], [0, []], [10, [11]]],
  itemsAffordable: [[100, [60, 30, 20]], [0, [1]], [50, []], [10, [5, 5, 5]], [9, [10]]],
  salaryAfterRaise: [[1000, 1, 10], [1000, 2, 10], [500, 0, 5], [999, 3, 3]],
  overtimePay: [[40, 10], [45, 10], [0, 20], [41, 2], [39, 3]],
  depreciate: [[1000, 1, 10], [1000, 3, 10], [500, 0, 20], [99, 2, 50]],
  profitMargin: [[100, 60], [0, 10], [200, 250], [80, 80], [-5, 1]],
  breakEvenUnits: [[1000, 15, 5], [1000, 5, 5], [999, 10, 1], [0, 3, 1], [50, 2, 3]],
  roundToNickel: [[12], [13], [0], [17], [5]],
  changeNotes: [[3600], [0], [99], [2000], [1700]],
  averageOrderValue: [[[{ cents: 100 }, { cents: 201 }]], [[]], [[{ cents: 5 }]], [[{ cents: 1 }, { cents: 2 }, { cents: 2 }]]],
  largestOrder: [[[{ id: 'a', cents: 5 }, { id: 'b', cents: 9 }]], [[]], [[{ id: 'c', cents: 1 }]], [[{ id: 'd', cents: 3 }, { id: 'e', cents: 3 }]]],
  refundAmount: [[1000, 0], [1000, 14], [1000, 15], [1001, 30], [1000, 31]],
  subscriptionCost: [[12, 10, 100], [13, 10, 100], [11, 10, 100], [0, 10, 100], [25, 5, 50]],
  expenseByCategory: [[[{ category: 'food', cents: 5 }, { category: 'rent', cents: 9 }, { category: 'food', cents: 1 }]], [[]], [[{ category: 'x', cents: 0 }]], [[{ category: 'a', cents: 2 }, { category: 'a', cents: 3 }]]],
  savingsGoalMonths: [[1000, 100, 0], [1000, 300, 100], [500, 0, 600], [500, 0, 100], [0, 50, 0], [100, 100, 1]],
  taxBracketRate: [[0], [9999], [10000], [49999], [50000], [100000]],
  ledgerBalanceAt: [[[{ day: 1, cents: 100 }, { day: 3, cents: -40 }], 2], [[], 5], [[{ day: 5, cents: 10 }], 5], [[{ day: 1, cents: 10 }, { day: 2, cents: 20 }], 2], [[{ day: 9, cents: 1 }], 0]],
};
