// A traffic light built on the generic state machine.
import { StateMachine, TransitionError } from './machine.js';

export { StateMachine, TransitionError };

export const DURATIONS = { green: 30, yellow: 5, red: 25, flashing: 0 };

export function createTrafficLight(options = {}) {
  const maxHistory = options.maxHistory === undefined ? 10 : options.maxHistory;
  const machine = new StateMachine({
    initial: 'red',
    maxHistory,
    states: ['green', 'yellow', 'red', 'flashing'],
    transitions: [
      { from: 'green', to: 'yellow', event: 'next' },
      { from: 'yellow', to: 'red', event: 'next' },
      { from: 'red', to: 'green', event: 'next', guard: (ctx) => !ctx || ctx.pedestrians === 0 || ctx.waited >= 10 },
      { from: 'green', to: 'flashing', event: 'fault' },
      { from: 'yellow', to: 'flashing', event: 'fault' },
      { from: 'red', to: 'flashing', event: 'fault' },
      { from: 'flashing', to: 'red', event: 'repair' },
    ],
  });
  return machine;
}

// Run a schedule of events and return the total seconds spent in the
// states that were entered.
export function runCycle(machine, events) {
  let seconds = 0;
  for (const event of events) {
    const state = machine.send(event);
    seconds += DURATIONS[state];
  }
  return seconds;
}

const CYCLE = ['green', 'yellow', 'red'];

// Seconds remaining until the light next turns red, assuming the normal
// cycle and that the current state was just entered.
export function secondsUntilRed(state) {
  if (state === 'red') {
    return 0;
  }
  const index = CYCLE.indexOf(state);
  if (index === -1) {
    throw new TransitionError('No schedule for state ' + state);
  }
  let total = 0;
  for (let i = index; i < CYCLE.length - 1; i++) {
    total += DURATIONS[CYCLE[i]];
  }
  return total;
}

// The normal cycle from `start` for `steps` states, with start times.
export function timeline(start, steps) {
  let index = CYCLE.indexOf(start);
  if (index === -1) {
    throw new TransitionError('No schedule for state ' + start);
  }
  const out = [];
  let at = 0;
  for (let i = 0; i < steps; i++) {
    const state = CYCLE[index];
    out.push({ state, at });
    at += DURATIONS[state];
    index = (index + 1) % CYCLE.length;
  }
  return out;
}
