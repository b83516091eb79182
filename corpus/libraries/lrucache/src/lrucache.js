export class LRUCache {
  constructor(capacity) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError('capacity must be a positive integer');
    }
    this.capacity = capacity;
    this.map = new Map();
    this.head = null; // most recently used
    this.tail = null; // least recently used
    this.evictions = 0;
  }

  get size() {
    return this.map.size;
  }

  unlink(node) {
    if (node.prev !== null) {
      node.prev.next = node.next;
    } else {
      this.head = node.next;
    }
    if (node.next !== null) {
      node.next.prev = node.prev;
    } else {
      this.tail = node.prev;
    }
  }

  pushFront(node) {
    node.next = this.head;
    node.prev = null;
    if (this.head !== null) {
      this.head.prev = node;
    }
    this.head = node;
    if (this.tail === null) {
      this.tail = node;
    }
  }

  has(key) {
    return this.map.has(key);
  }

  get(key) {
    const node = this.map.get(key);
    if (node === undefined) {
      return undefined;
    }
    if (node !== this.head) {
      this.unlink(node);
      this.pushFront(node);
    }
    return node.value;
  }

  peek(key) {
    const node = this.map.get(key);
    return node === undefined ? undefined : node.value;
  }

  set(key, value) {
    const existing = this.map.get(key);
    if (existing !== undefined) {
      existing.value = value;
      this.unlink(existing);
      this.pushFront(existing);
      return null;
    }
    let evicted = null;
    if (this.map.size >= this.capacity) {
      const lru = this.tail;
      this.unlink(lru);
      this.map.delete(lru.key);
      this.evictions++;
      evicted = [lru.key, lru.value];
    }
    const node = { key, value, prev: null, next: null };
    this.pushFront(node);
    this.map.set(key, node);
    return evicted;
  }

  delete(key) {
    const node = this.map.get(key);
    if (node === undefined) {
      return false;
    }
    this.unlink(node);
    this.map.delete(key);
    return true;
  }

  clear() {
    this.map.clear();
    this.head = null;
    this.tail = null;
  }

  keys() {
    const out = [];
    for (let node = this.head; node !== null; node = node.next) {
      out.push(node.key);
    }
    return out;
  }

  keysOldestFirst() {
    const out = [];
    for (let node = this.tail; node !== null; node = node.prev) {
      out.push(node.key);
    }
    return out;
  }

  resize(capacity) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError('capacity must be a positive integer');
    }
    this.capacity = capacity;
    while (this.map.size > capacity) {
      const lru = this.tail;
      this.unlink(lru);
      this.map.delete(lru.key);
      this.evictions++;
    }
  }
}
