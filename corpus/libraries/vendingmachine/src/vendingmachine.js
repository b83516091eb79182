// A vending machine working in cents.
// States: idle (no credit) and ready (credit inserted).

export const COINS = [200, 100, 25, 10, 5];

export class VendingError extends Error {
  constructor(message) {
    super(message);
    this.name = 'VendingError';
  }
}

// Greedy change using the coins available in `bank` ({ coin: count }).
export function makeChange(amount, bank = null, coins = COINS) {
  if (!Number.isInteger(amount) || amount < 0) {
    throw new RangeError('Amount must be a non-negative integer');
  }
  const result = [];
  let left = amount;
  for (const coin of coins) {
    let available = bank === null ? Infinity : bank[coin] || 0;
    while (left >= coin && available > 0) {
      result.push(coin);
      left -= coin;
      available--;
    }
  }
  if (left !== 0) {
    return null;
  }
  return result;
}

export class VendingMachine {
  constructor(products = {}, bank = {}) {
    this.products = {};
    for (const code of Object.keys(products)) {
      const p = products[code];
      this.products[code] = { name: p.name, price: p.price, stock: p.stock };
    }
    this.bank = {};
    for (const coin of COINS) {
      this.bank[coin] = bank[coin] || 0;
    }
    this.credit = 0;
    this.inserted = [];
    this.state = 'idle';
  }

  insert(coin) {
    if (!COINS.includes(coin)) {
      throw new VendingError('Rejected coin: ' + coin);
    }
    this.credit += coin;
    this.inserted.push(coin);
    this.bank[coin] += 1;
    this.state = 'ready';
    return this.credit;
  }

  refund() {
    const coins = this.inserted.slice();
    for (const coin of coins) {
      this.bank[coin] -= 1;
    }
    this.credit = 0;
    this.inserted = [];
    this.state = 'idle';
    return coins;
  }

  restock(code, count) {
    const product = this.products[code];
    if (product === undefined) {
      throw new VendingError('Unknown product: ' + code);
    }
    if (!Number.isInteger(count) || count <= 0) {
      throw new RangeError('Restock count must be a positive integer');
    }
    product.stock += count;
    return product.stock;
  }

  select(code) {
    const product = this.products[code];
    if (product === undefined) {
      throw new VendingError('Unknown product: ' + code);
    }
    if (product.stock <= 0) {
      throw new VendingError('Sold out: ' + product.name);
    }
    if (this.state === 'idle' || this.credit < product.price) {
      throw new VendingError('Insufficient credit: need ' + (product.price - this.credit) + ' more');
    }
    const changeDue = this.credit - product.price;
    const change = makeChange(changeDue, this.bank);
    if (change === null) {
      throw new VendingError('Cannot make change, use exact amount');
    }
    for (const coin of change) {
      this.bank[coin] -= 1;
    }
    product.stock -= 1;
    this.credit = 0;
    this.inserted = [];
    this.state = 'idle';
    return { product: product.name, change };
  }

  bankTotal() {
    let total = 0;
    for (const coin of COINS) {
      total += coin * this.bank[coin];
    }
    return total;
  }
}
