import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  createTrafficLight,
  runCycle,
  secondsUntilRed,
  timeline,
  StateMachine,
  TransitionError,
  DURATIONS,
} from '../src/trafficlight.js';

describe('trafficlight', () => {
  describe('basic cycle', () => {
    it('starts red and cycles green, yellow, red', () => {
      const light = createTrafficLight();
      assert.equal(light.state, 'red');
      assert.equal(light.send('next'), 'green');
      assert.equal(light.send('next'), 'yellow');
      assert.equal(light.send('next'), 'red');
    });

    it('lists the events available in the current state', () => {
      const light = createTrafficLight();
      assert.deepEqual(light.availableEvents(), ['next', 'fault']);
      light.send('fault');
      assert.deepEqual(light.availableEvents(), ['repair']);
    });

    it('goes to flashing on a fault and back to red on repair', () => {
      const light = createTrafficLight();
      light.send('next');
      assert.equal(light.send('fault'), 'flashing');
      assert.equal(light.send('repair'), 'red');
    });
  });

  describe('invalid transitions', () => {
    it('throws for events not allowed in the current state', () => {
      const light = createTrafficLight();
      assert.throws(() => light.send('repair'), TransitionError);
      light.send('fault');
      assert.throws(() => light.send('next'), /Invalid transition "next" from state flashing/);
      assert.equal(light.state, 'flashing');
    });

    it('throws for unknown events and leaves history untouched', () => {
      const light = createTrafficLight();
      assert.throws(() => light.send('explode'), /Invalid transition/);
      assert.deepEqual(light.history, []);
      assert.equal(light.can('explode'), false);
    });
  });

  describe('guards', () => {
    it('allows green when nobody waits or the wait was long enough', () => {
      assert.equal(createTrafficLight().can('next', { pedestrians: 0, waited: 0 }), true);
      assert.equal(createTrafficLight().can('next', { pedestrians: 3, waited: 10 }), true);
      assert.equal(createTrafficLight().can('next'), true);
    });

    it('blocks green while pedestrians wait less than ten seconds', () => {
      const light = createTrafficLight();
      assert.equal(light.can('next', { pedestrians: 2, waited: 9 }), false);
      assert.throws(() => light.send('next', { pedestrians: 2, waited: 9 }), /Guard rejected/);
      assert.equal(light.state, 'red');
      assert.equal(light.send('next', { pedestrians: 2, waited: 11 }), 'green');
    });
  });

  describe('history', () => {
    it('records previous states and can go back', () => {
      const light = createTrafficLight();
      light.send('next');
      light.send('next');
      assert.deepEqual(light.history, ['red', 'green']);
      assert.equal(light.back(), 'green');
      assert.equal(light.back(), 'red');
      assert.throws(() => light.back(), /No history/);
    });

    it('keeps only the most recent entries', () => {
      const light = createTrafficLight({ maxHistory: 2 });
      light.send('next');
      light.send('next');
      light.send('next');
      assert.deepEqual(light.history, ['green', 'yellow']);
      light.send('next');
      assert.deepEqual(light.history, ['yellow', 'red']);
    });

    it('keeps ten entries by default', () => {
      const light = createTrafficLight();
      for (let i = 0; i < 11; i++) {
        light.send('next');
      }
      assert.equal(light.history.length, 10);
      assert.equal(light.history[0], 'green');
      assert.equal(light.history[9], 'green');
      assert.equal(light.state, 'yellow');
    });

    it('keeps exactly maxHistory entries at the limit', () => {
      const light = createTrafficLight({ maxHistory: 3 });
      light.send('next');
      light.send('next');
      light.send('next');
      assert.equal(light.history.length, 3);
      assert.deepEqual(light.history, ['red', 'green', 'yellow']);
    });
  });

  describe('reset', () => {
    it('returns to the initial state and clears history', () => {
      const light = createTrafficLight();
      light.send('next');
      light.send('fault');
      assert.equal(light.reset(), 'red');
      assert.deepEqual(light.history, []);
      assert.equal(light.send('next'), 'green');
    });
  });

  describe('runCycle', () => {
    it('sums the durations of entered states', () => {
      const light = createTrafficLight();
      assert.equal(runCycle(light, ['next', 'next', 'next']), DURATIONS.green + DURATIONS.yellow + DURATIONS.red);
      assert.equal(runCycle(createTrafficLight(), []), 0);
      assert.equal(runCycle(createTrafficLight(), ['next']), 30);
      assert.equal(runCycle(createTrafficLight(), ['fault', 'repair']), 25);
    });

    it('stops with an error on an invalid event', () => {
      const light = createTrafficLight();
      assert.throws(() => runCycle(light, ['next', 'repair']), TransitionError);
      assert.equal(light.state, 'green');
    });
  });

  describe('schedule', () => {
    it('computes seconds until red', () => {
      assert.equal(secondsUntilRed('green'), 35);
      assert.equal(secondsUntilRed('yellow'), 5);
      assert.equal(secondsUntilRed('red'), 0);
      assert.throws(() => secondsUntilRed('flashing'), /No schedule for state flashing/);
    });

    it('builds a timeline with cumulative start times', () => {
      assert.deepEqual(timeline('yellow', 4), [
        { state: 'yellow', at: 0 },
        { state: 'red', at: 5 },
        { state: 'green', at: 30 },
        { state: 'yellow', at: 60 },
      ]);
      assert.deepEqual(timeline('red', 0), []);
      assert.deepEqual(timeline('green', 1), [{ state: 'green', at: 0 }]);
      assert.throws(() => timeline('blue', 2), TransitionError);
    });
  });

  describe('StateMachine validation', () => {
    it('rejects bad configurations', () => {
      assert.throws(() => new StateMachine(), /at least one state/);
      assert.throws(() => new StateMachine({ states: [], initial: 'a', transitions: [] }), /at least one state/);
      assert.throws(() => new StateMachine({ states: ['a'], initial: 'b', transitions: [] }), /initial state: b/);
      assert.throws(
        () => new StateMachine({ states: ['a'], initial: 'a', transitions: [{ from: 'a', to: 'z', event: 'go' }] }),
        /unknown state: a -> z/,
      );
    });

    it('requires a guard to return exactly true', () => {
      const m = new StateMachine({
        states: ['a', 'b'],
        initial: 'a',
        transitions: [{ from: 'a', to: 'b', event: 'go', guard: (ctx) => ctx }],
      });
      assert.equal(m.can('go', 1), false);
      assert.equal(m.can('go', true), true);
      assert.equal(m.send('go', true), 'b');
    });

    it('copies the configured states and names its errors', () => {
      const states = ['a', 'b'];
      const m = new StateMachine({ states, initial: 'a', transitions: [], maxHistory: 3 });
      states.push('c');
      assert.deepEqual(m.states, ['a', 'b']);
      assert.equal(m.maxHistory, 3);
      assert.equal(new StateMachine({ states, initial: 'c', transitions: [] }).maxHistory, 10);
      let caught = null;
      try {
        m.send('go');
      } catch (err) {
        caught = err;
      }
      assert.ok(caught instanceof TransitionError);
      assert.equal(caught.name, 'TransitionError');
    });
  });
});
