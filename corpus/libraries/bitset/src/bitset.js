// A fixed-size bit set backed by a Uint32Array.

function checkIndex(set, index) {
  if (!Number.isInteger(index) || index < 0 || index >= set.size) {
    throw new RangeError('Index out of range: ' + index);
  }
}

function popcount32(value) {
  let v = value >>> 0;
  let count = 0;
  while (v !== 0) {
    v &= v - 1;
    count++;
  }
  return count;
}

export class BitSet {
  constructor(size) {
    if (!Number.isInteger(size) || size < 0) {
      throw new RangeError('Size must be a non-negative integer');
    }
    this.size = size;
    this.words = new Uint32Array(Math.ceil(size / 32));
  }

  static fromArray(size, indices) {
    const set = new BitSet(size);
    for (const index of indices) {
      set.set(index);
    }
    return set;
  }

  set(index) {
    checkIndex(this, index);
    this.words[index >>> 5] |= 1 << (index & 31);
    return this;
  }

  clear(index) {
    checkIndex(this, index);
    this.words[index >>> 5] &= ~(1 << (index & 31));
    return this;
  }

  toggle(index) {
    checkIndex(this, index);
    this.words[index >>> 5] ^= 1 << (index & 31);
    return this;
  }

  has(index) {
    if (!Number.isInteger(index) || index < 0 || index >= this.size) {
      return false;
    }
    return (this.words[index >>> 5] & (1 << (index & 31))) !== 0;
  }

  count() {
    let total = 0;
    for (let i = 0; i < this.words.length; i++) {
      total += popcount32(this.words[i]);
    }
    return total;
  }

  isEmpty() {
    for (let i = 0; i < this.words.length; i++) {
      if (this.words[i] !== 0) {
        return false;
      }
    }
    return true;
  }

  union(other) {
    const result = new BitSet(Math.max(this.size, other.size));
    for (let i = 0; i < result.words.length; i++) {
      const a = i < this.words.length ? this.words[i] : 0;
      const b = i < other.words.length ? other.words[i] : 0;
      result.words[i] = a | b;
    }
    return result;
  }

  intersect(other) {
    const result = new BitSet(Math.min(this.size, other.size));
    for (let i = 0; i < result.words.length; i++) {
      result.words[i] = this.words[i] & other.words[i];
    }
    return result;
  }

  difference(other) {
    const result = new BitSet(this.size);
    for (let i = 0; i < result.words.length; i++) {
      const b = i < other.words.length ? other.words[i] : 0;
      result.words[i] = this.words[i] & ~b;
    }
    return result;
  }

  toArray() {
    const out = [];
    for (let i = 0; i < this.size; i++) {
      if (this.has(i)) {
        out.push(i);
      }
    }
    return out;
  }

  equals(other) {
    if (this.size !== other.size) {
      return false;
    }
    for (let i = 0; i < this.words.length; i++) {
      if (this.words[i] !== other.words[i]) {
        return false;
      }
    }
    return true;
  }
}
