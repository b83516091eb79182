export function defaultCompare(a, b) {
  if (a < b) {
    return -1;
  }
  if (a > b) {
    return 1;
  }
  return 0;
}

export class PriorityQueue {
  constructor(compare = defaultCompare) {
    if (typeof compare !== 'function') {
      throw new TypeError('comparator must be a function');
    }
    this.compare = compare;
    this.heap = [];
  }

  static from(items, compare = defaultCompare) {
    const queue = new PriorityQueue(compare);
    for (let i = 0; i < items.length; i++) {
      queue.heap.push(items[i]);
    }
    for (let i = Math.floor(queue.heap.length / 2) - 1; i >= 0; i--) {
      queue.siftDown(i);
    }
    return queue;
  }

  get size() {
    return this.heap.length;
  }

  isEmpty() {
    return this.heap.length === 0;
  }

  peek() {
    return this.heap[0];
  }

  push(...items) {
    for (let i = 0; i < items.length; i++) {
      this.heap.push(items[i]);
      this.siftUp(this.heap.length - 1);
    }
    return this.heap.length;
  }

  pop() {
    const heap = this.heap;
    if (heap.length === 0) {
      return undefined;
    }
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0) {
      heap[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  pushPop(item) {
    if (this.heap.length === 0 || this.compare(item, this.heap[0]) <= 0) {
      return item;
    }
    const top = this.heap[0];
    this.heap[0] = item;
    this.siftDown(0);
    return top;
  }

  siftUp(index) {
    const heap = this.heap;
    let i = index;
    while (i > 0) {
      const parent = Math.floor((i - 1) / 2);
      if (this.compare(heap[i], heap[parent]) >= 0) {
        break;
      }
      const tmp = heap[i];
      heap[i] = heap[parent];
      heap[parent] = tmp;
      i = parent;
    }
  }

  siftDown(index) {
    const heap = this.heap;
    const n = heap.length;
    let i = index;
    while (true) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < n && this.compare(heap[left], heap[smallest]) < 0) {
        smallest = left;
      }
      if (right < n && this.compare(heap[right], heap[smallest]) < 0) {
        smallest = right;
      }
      if (smallest === i) {
        return;
      }
      const tmp = heap[i];
      heap[i] = heap[smallest];
      heap[smallest] = tmp;
      i = smallest;
    }
  }

  drain() {
    const out = [];
    while (this.heap.length > 0) {
      out.push(this.pop());
    }
    return out;
  }

  toSortedArray() {
    const copy = new PriorityQueue(this.compare);
    copy.heap = this.heap.slice();
    return copy.drain();
  }

  clear() {
    this.heap = [];
  }
}

export function topK(items, k, compare = defaultCompare) {
  if (k <= 0) {
    return [];
  }
  const queue = new PriorityQueue(compare);
  for (let i = 0; i < items.length; i++) {
    if (queue.size < k) {
      queue.push(items[i]);
    } else {
      queue.pushPop(items[i]);
    }
  }
  return queue.drain().reverse();
}
