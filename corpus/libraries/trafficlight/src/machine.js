// A small generic finite state machine.
// config: { initial, states: [...], transitions: [{ from, to, event, guard? }] }

export class TransitionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'TransitionError';
  }
}

export class StateMachine {
  constructor(config) {
    if (!config || !Array.isArray(config.states) || config.states.length === 0) {
      throw new Error('A machine needs at least one state');
    }
    if (!config.states.includes(config.initial)) {
      throw new Error('Unknown initial state: ' + config.initial);
    }
    for (const t of config.transitions) {
      if (!config.states.includes(t.from) || !config.states.includes(t.to)) {
        throw new Error('Transition uses an unknown state: ' + t.from + ' -> ' + t.to);
      }
    }
    this.states = config.states.slice();
    this.transitions = config.transitions.slice();
    this.initial = config.initial;
    this.maxHistory = config.maxHistory === undefined ? 10 : config.maxHistory;
    this.state = config.initial;
    this.history = [];
  }

  findTransition(event) {
    for (const t of this.transitions) {
      if (t.event === event && t.from === this.state) {
        return t;
      }
    }
    return null;
  }

  can(event, context) {
    const t = this.findTransition(event);
    if (t === null) {
      return false;
    }
    return typeof t.guard !== 'function' || t.guard(context) === true;
  }

  availableEvents() {
    const events = [];
    for (const t of this.transitions) {
      if (t.from === this.state && !events.includes(t.event)) {
        events.push(t.event);
      }
    }
    return events;
  }

  send(event, context) {
    const t = this.findTransition(event);
    if (t === null) {
      throw new TransitionError('Invalid transition "' + event + '" from state ' + this.state);
    }
    if (typeof t.guard === 'function' && t.guard(context) !== true) {
      throw new TransitionError('Guard rejected "' + event + '" from state ' + this.state);
    }
    this.history.push(this.state);
    if (this.history.length > this.maxHistory) {
      this.history.shift();
    }
    this.state = t.to;
    return this.state;
  }

  back() {
    if (this.history.length === 0) {
      throw new TransitionError('No history to go back to');
    }
    this.state = this.history.pop();
    return this.state;
  }

  reset() {
    this.state = this.initial;
    this.history = [];
    return this.state;
  }
}
