// A prefix tree storing strings, with word counts per node.

function createNode() {
  return { children: new Map(), end: false, count: 0 };
}

function checkWord(word) {
  if (typeof word !== 'string') {
    throw new TypeError('Word must be a string');
  }
}

export class Trie {
  constructor(words = []) {
    this.root = createNode();
    this.size = 0;
    for (const word of words) {
      this.insert(word);
    }
  }

  insert(word) {
    checkWord(word);
    if (this.has(word)) {
      return false;
    }
    let node = this.root;
    node.count++;
    for (const ch of word) {
      if (!node.children.has(ch)) {
        node.children.set(ch, createNode());
      }
      node = node.children.get(ch);
      node.count++;
    }
    node.end = true;
    this.size++;
    return true;
  }

  findNode(prefix) {
    let node = this.root;
    for (const ch of prefix) {
      node = node.children.get(ch);
      if (node === undefined) {
        return null;
      }
    }
    return node;
  }

  has(word) {
    checkWord(word);
    const node = this.findNode(word);
    return node !== null && node.end;
  }

  startsWith(prefix) {
    checkWord(prefix);
    const node = this.findNode(prefix);
    return node !== null && node.count > 0;
  }

  countPrefix(prefix) {
    checkWord(prefix);
    const node = this.findNode(prefix);
    return node === null ? 0 : node.count;
  }

  wordsWithPrefix(prefix, limit = Infinity) {
    checkWord(prefix);
    const out = [];
    const start = this.findNode(prefix);
    if (start === null || limit <= 0) {
      return out;
    }
    const walk = (node, path) => {
      if (out.length >= limit) {
        return;
      }
      if (node.end) {
        out.push(path);
      }
      const keys = Array.from(node.children.keys()).sort();
      for (const key of keys) {
        walk(node.children.get(key), path + key);
      }
    };
    walk(start, prefix);
    return out;
  }

  delete(word) {
    checkWord(word);
    if (!this.has(word)) {
      return false;
    }
    let node = this.root;
    node.count--;
    for (const ch of word) {
      const child = node.children.get(ch);
      child.count--;
      if (child.count === 0) {
        node.children.delete(ch);
        this.size--;
        return true;
      }
      node = child;
    }
    node.end = false;
    this.size--;
    return true;
  }

  longestCommonPrefix() {
    let node = this.root;
    let prefix = '';
    while (node.children.size === 1 && !node.end) {
      const [ch, child] = node.children.entries().next().value;
      prefix += ch;
      node = child;
    }
    return this.size === 0 ? '' : prefix;
  }
}
