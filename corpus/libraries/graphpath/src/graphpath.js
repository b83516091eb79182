// Graph helpers over adjacency lists: { node: [neighbour, ...] }.

function neighbours(graph, node) {
  const list = graph[node];
  return Array.isArray(list) ? list : [];
}

export function nodes(graph) {
  const seen = new Set();
  for (const key of Object.keys(graph)) {
    seen.add(key);
    for (const next of graph[key]) {
      seen.add(String(next));
    }
  }
  return Array.from(seen);
}

export function shortestPath(graph, start, goal) {
  if (start === goal) {
    return [start];
  }
  const previous = new Map();
  const visited = new Set([start]);
  const queue = [start];
  let head = 0;
  while (head < queue.length) {
    const current = queue[head];
    head++;
    for (const next of neighbours(graph, current)) {
      if (visited.has(next)) {
        continue;
      }
      visited.add(next);
      previous.set(next, current);
      if (next === goal) {
        const path = [goal];
        let step = goal;
        while (step !== start) {
          step = previous.get(step);
          path.unshift(step);
        }
        return path;
      }
      queue.push(next);
    }
  }
  return null;
}

export function distances(graph, start) {
  const dist = { [start]: 0 };
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const current = queue[i];
    for (const next of neighbours(graph, current)) {
      if (dist[next] === undefined) {
        dist[next] = dist[current] + 1;
        queue.push(next);
      }
    }
  }
  return dist;
}

export function reachable(graph, start) {
  const visited = new Set();
  const order = [];
  const stack = [start];
  while (stack.length > 0) {
    const current = stack.pop();
    if (visited.has(current)) {
      continue;
    }
    visited.add(current);
    order.push(current);
    const list = neighbours(graph, current);
    for (let i = list.length - 1; i >= 0; i--) {
      if (!visited.has(list[i])) {
        stack.push(list[i]);
      }
    }
  }
  return order;
}

export function canReach(graph, from, to) {
  return reachable(graph, from).includes(to);
}

export function topologicalSort(graph) {
  const all = nodes(graph);
  const indegree = new Map();
  for (const node of all) {
    indegree.set(node, 0);
  }
  for (const node of all) {
    for (const next of neighbours(graph, node)) {
      indegree.set(next, indegree.get(next) + 1);
    }
  }
  const ready = all.filter((node) => indegree.get(node) === 0);
  const order = [];
  while (ready.length > 0) {
    const current = ready.shift();
    order.push(current);
    for (const next of neighbours(graph, current)) {
      const remaining = indegree.get(next) - 1;
      indegree.set(next, remaining);
      if (remaining === 0) {
        ready.push(next);
      }
    }
  }
  if (order.length < all.length) {
    throw new Error('Graph contains a cycle');
  }
  return order;
}

export function hasCycle(graph) {
  try {
    topologicalSort(graph);
    return false;
  } catch (err) {
    return true;
  }
}
