import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  nodes,
  shortestPath,
  distances,
  reachable,
  canReach,
  topologicalSort,
  hasCycle,
} from '../src/graphpath.js';

function makeGraph() {
  return {
    a: ['b', 'c'],
    b: ['d'],
    c: ['d', 'e'],
    d: ['f'],
    e: ['f'],
    f: [],
  };
}

function indexOf(order, node) {
  return order.indexOf(node);
}

describe('graphpath', () => {
  describe('nodes', () => {
    it('collects keys and nodes that only appear as targets', () => {
      assert.deepEqual(nodes({ a: ['b'], c: ['a', 'd'] }).sort(), ['a', 'b', 'c', 'd']);
      assert.deepEqual(nodes({}), []);
    });
  });

  describe('shortestPath', () => {
    it('finds a shortest path by number of edges', () => {
      const g = { a: ['b', 'x'], b: ['c'], c: ['d'], x: ['d'], d: [] };
      assert.deepEqual(shortestPath(g, 'a', 'd'), ['a', 'x', 'd']);
    });

    it('returns a single node path when start equals goal', () => {
      assert.deepEqual(shortestPath(makeGraph(), 'c', 'c'), ['c']);
    });

    it('returns null when the goal is unreachable', () => {
      assert.equal(shortestPath(makeGraph(), 'f', 'a'), null);
      assert.equal(shortestPath(makeGraph(), 'a', 'zzz'), null);
    });

    it('handles direct neighbours and cycles', () => {
      const g = { a: ['b'], b: ['a', 'c'], c: ['a'] };
      assert.deepEqual(shortestPath(g, 'a', 'b'), ['a', 'b']);
      assert.deepEqual(shortestPath(g, 'a', 'c'), ['a', 'b', 'c']);
      assert.deepEqual(shortestPath(g, 'c', 'b'), ['c', 'a', 'b']);
    });

    it('prefers the earlier neighbour among equal length paths', () => {
      assert.deepEqual(shortestPath(makeGraph(), 'a', 'd'), ['a', 'b', 'd']);
      assert.deepEqual(shortestPath(makeGraph(), 'a', 'f'), ['a', 'b', 'd', 'f']);
    });
  });

  describe('distances', () => {
    it('computes hop counts from the start node', () => {
      assert.deepEqual(distances(makeGraph(), 'a'), { a: 0, b: 1, c: 1, d: 2, e: 2, f: 3 });
    });

    it('only includes reachable nodes', () => {
      assert.deepEqual(distances(makeGraph(), 'e'), { e: 0, f: 1 });
      assert.deepEqual(distances({}, 'q'), { q: 0 });
    });
  });

  describe('reachable and canReach', () => {
    it('visits nodes in depth first order', () => {
      assert.deepEqual(reachable(makeGraph(), 'a'), ['a', 'b', 'd', 'f', 'c', 'e']);
    });

    it('terminates on cycles and includes the start', () => {
      const g = { a: ['b'], b: ['c'], c: ['a'] };
      assert.deepEqual(reachable(g, 'b'), ['b', 'c', 'a']);
      assert.deepEqual(reachable(g, 'z'), ['z']);
    });

    it('lists each node once when it is reached along several edges', () => {
      assert.deepEqual(reachable({ a: ['b', 'c'], b: ['c'] }, 'a'), ['a', 'b', 'c']);
      assert.deepEqual(reachable({ a: ['b', 'b', 'c'], c: ['b'] }, 'a'), ['a', 'b', 'c']);
    });

    it('canReach respects edge direction', () => {
      const g = makeGraph();
      assert.equal(canReach(g, 'a', 'f'), true);
      assert.equal(canReach(g, 'f', 'a'), false);
      assert.equal(canReach(g, 'b', 'e'), false);
      assert.equal(canReach(g, 'd', 'd'), true);
    });
  });

  describe('topologicalSort', () => {
    it('orders every edge from earlier to later', () => {
      const g = makeGraph();
      const order = topologicalSort(g);
      assert.equal(order.length, 6);
      for (const from of Object.keys(g)) {
        for (const to of g[from]) {
          assert.ok(indexOf(order, from) < indexOf(order, to), from + ' before ' + to);
        }
      }
    });

    it('produces the queue based order deterministically', () => {
      assert.deepEqual(topologicalSort(makeGraph()), ['a', 'b', 'c', 'd', 'e', 'f']);
      assert.deepEqual(topologicalSort({ x: [], y: [] }), ['x', 'y']);
      assert.deepEqual(topologicalSort({ c: ['a'], b: ['a'], a: [] }), ['c', 'b', 'a']);
    });

    it('includes nodes that only appear as targets', () => {
      assert.deepEqual(topologicalSort({ a: ['b'] }), ['a', 'b']);
      assert.deepEqual(topologicalSort({}), []);
    });

    it('throws on cycles including self loops', () => {
      assert.throws(() => topologicalSort({ a: ['b'], b: ['a'] }), /cycle/);
      assert.throws(() => topologicalSort({ a: ['a'] }), Error);
      assert.throws(() => topologicalSort({ s: ['a'], a: ['b'], b: ['c'], c: ['a'] }), /cycle/);
    });

    it('hasCycle reports whether a cycle exists', () => {
      assert.equal(hasCycle(makeGraph()), false);
      assert.equal(hasCycle({ a: ['b'], b: ['c'], c: ['b'] }), true);
    });
  });
});
