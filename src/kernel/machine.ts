// State machines as data: a table of events, each with the states it may leave from and the state
// it leads to. One guard decides whether a move is allowed; an illegal move is one clear error.
import { invalidTransition } from './errors.js';

export interface Transition<S extends string> {
  from: readonly S[];
  to: S;
}

export interface Machine<S extends string, E extends string> {
  readonly name: string;
  readonly states: readonly S[];
  readonly transitions: Readonly<Record<E, Transition<S>>>;
  readonly events: readonly E[];
  can(state: S, event: E): boolean;
  /** The state after `event`, or a 409 naming the states the event is allowed from. */
  next(state: S, event: E, id: string): S;
  isEvent(event: string): event is E;
  isTerminal(state: S): boolean;
}

export function defineMachine<S extends string, E extends string>(
  name: string,
  states: readonly S[],
  transitions: Record<E, Transition<S>>,
): Machine<S, E> {
  const events = Object.keys(transitions) as E[];
  const leaving = new Set(events.flatMap((e) => transitions[e].from));
  return {
    name,
    states,
    transitions,
    events,
    can: (state, event) => transitions[event]?.from.includes(state) ?? false,
    next(state, event, id) {
      const t = transitions[event];
      if (!t.from.includes(state)) throw invalidTransition(name, id, state, event, t.from);
      return t.to;
    },
    isEvent: (event): event is E => Object.prototype.hasOwnProperty.call(transitions, event),
    isTerminal: (state) => !leaving.has(state),
  };
}
