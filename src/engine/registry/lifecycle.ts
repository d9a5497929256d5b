// The lifecycle half of a resource's description: its one name (every other spelling is derived
// from it), its machine, which states are timed and how long each lasts by default, which end states
// a scenario may pick and which of them is success, and what its scenario section holds besides.
// Services read durations and outcomes and emit events through it, so a state is always one of the
// machine's: a misspelt state does not compile. The engine reads it without knowing which resource
// it is.
import type { z } from 'zod';
import type { Machine } from '../../kernel/machine.js';
import type { Behaviour, Outcome } from './behaviour.js';
import type { EventView } from './events.js';
import type { LifecycleInfo, MagicValue, ResourceNames, RuleVocabulary, ScenarioPart } from './types.js';
import type { JobHandler, Tenant } from '../tenancy/tenant.js';


export type { LifecycleInfo, MagicValue, ResourceNames, ScenarioPart } from './types.js';

const NAME = /^[a-z]+(_[a-z]+)*$/;

export function resourceNames<N extends string>(name: N): ResourceNames<N> {
  if (!NAME.test(name)) throw new Error(`A resource name is lower case words joined by _ (wallet_payout), not '${name}'`);
  const collection = `${name}s` as const;
  return { name, collection, segment: collection.replaceAll('_', '-') };
}




export interface LifecycleSpec<N extends string, S extends string, E extends string, X extends string, M> {
  name: N;
  machine: Machine<S, E>;
  /** States left by a timed move: a scenario may set how long each lasts. */
  timed?: readonly S[];
  /** The end states a scenario outcome may name, and which one is success. */
  outcomes?: { states: readonly S[]; success: S };
  /** Default seconds per timed state; a state not listed lasts 60. */
  durations?: Partial<Record<S, number>>;
  /**
   * The move each timed state makes when its time is up: an event, or the planned outcome's
   * (`succeed` or `fail`). Its timers run as jobs of kind <name>.advance.
   */
  timedMoves?: Partial<Record<S, E | { succeed: E; fail: E }>>;
  /** The description of `ttl` in its scenario section, for a resource that lives for a ttl (default 300 s). */
  ttl?: string;
  scenario?: ScenarioPart;
  /** Events it emits besides entering a state (a quote's order.successful). */
  extraEvents?: readonly X[];
  /** The fields scenario outcome rules match, from what the resource is created with. */
  match?: (input: M) => Record<string, unknown>;
  /** What `match` gives, as a vocabulary the scenario check reads. */
  rules?: RuleVocabulary;
  /** Zero-setup test values, matched on what `match` gives. */
  magic?: readonly MagicValue[];
}

export interface Lifecycle<N extends string, S extends string, E extends string, X extends string, M>
  extends Omit<LifecycleInfo, keyof ResourceNames | 'states'>,
    ResourceNames<N> {
  readonly machine: Machine<S, E>;
  readonly states: readonly S[];
  /** Seconds `state` lasts under this behaviour (its scenario's timing, else the default), for a
   * resource that will end as `outcome`: an outcome with `after` fits the timed states before it. */
  duration(b: Behaviour, state: S, outcome?: Outcome): number;
  /** How the lifecycle of a new resource ends under this behaviour. */
  outcome(b: Behaviour, input: M): Outcome<S>;
  /** Its lifetime in seconds under this behaviour. */
  ttlOf(b: Behaviour): number;
  /** Its scenario section as the scenario wrote it (for the fields the domain itself reads). */
  section(b: Behaviour): Record<string, unknown> | undefined;
  /** Record entering `state`: the event <name>.<state in lower case>, whose view is `view(source)`
   * (`source` itself without a view). */
  emit<V>(t: Tenant, state: S, source: V, view?: EventView<V>): void;
  /** Record one of its extra events. */
  emitExtra<V>(t: Tenant, event: X, source: V, view?: EventView<V>): void;
  /** The job kind of its timed moves: <name>.advance. */
  readonly timer: string;
  /** The event `state`'s timer fires for a resource that will end as `outcome`; undefined when `state` has no timed move. */
  timedEvent(state: S, outcome: Outcome): E | undefined;
  /**
   * After a move into `state`: forget the timer of the state left, and start `state`'s when it has a
   * timed move, `after` from `now` (the tenant's time by default): so many seconds, or as long as
   * the behaviour says the state lasts.
   */
  retime(t: Tenant, id: string, state: S, after: Behaviour | number, now?: number, outcome?: Outcome): void;
  /** The handler of its timers: reads the resource and moves it by its timed event. */
  timerJobs(read: (t: Tenant, id: string) => { status: S; outcome: Outcome } | undefined, move: (t: Tenant, id: string, event: E) => unknown): Record<string, JobHandler>;
}

export function defineLifecycle<N extends string, S extends string, E extends string, X extends string = never, M = Record<string, unknown>>(
  spec: LifecycleSpec<N, S, E, X, M>,
): Lifecycle<N, S, E, X, M> {
  const names = resourceNames(spec.name);
  const eventOf = new Map<string, string>(spec.machine.states.map((s) => [s, `${spec.name}.${s.toLowerCase()}`]));
  const match = spec.match ?? ((input: M) => input as Record<string, unknown>);
  const timer = `${spec.name}.advance`;
  const moves: Partial<Record<S, E | { succeed: E; fail: E }>> = spec.timedMoves ?? {};
  /** The states a resource passes through on its timed moves until the one the outcome decides. */
  let chain: S[] | undefined;
  const timedChain = (): S[] => {
    if (chain) return chain;
    chain = [];
    let state: S | undefined = spec.machine.states.find((s) => moves[s] !== undefined);
    while (state !== undefined && !chain.includes(state)) {
      chain.push(state);
      const move: E | { succeed: E; fail: E } | undefined = moves[state];
      if (move === undefined || typeof move !== 'string') break;
      state = spec.machine.transitions[move].to;
      if (moves[state] === undefined) break;
    }
    return chain;
  };
  const timedEvent = (state: S, outcome: Outcome): E | undefined => {
    const move: E | { succeed: E; fail: E } | undefined = moves[state];
    if (move === undefined || typeof move === 'string') return move;
    return outcome.succeed ? move.succeed : move.fail;
  };
  return {
    ...names,
    machine: spec.machine,
    states: spec.machine.states,
    timed: spec.timed ?? [],
    outcomeStates: spec.outcomes?.states ?? [],
    success: spec.outcomes?.success,
    durations: spec.durations ?? {},
    ttl: spec.ttl,
    scenario: spec.scenario ?? {},
    events: [...eventOf.values(), ...(spec.extraEvents ?? [])],
    finalEvents: [...spec.machine.states.filter((s) => spec.machine.isTerminal(s)).map((s) => eventOf.get(s)!), ...(spec.extraEvents ?? [])],
    ...(spec.rules ? { rules: spec.rules } : {}),
    ...(spec.magic ? { magic: spec.magic } : {}),
    duration(b, state, outcome) {
      const plain = b.duration(this, state);
      if (outcome?.after === undefined) return plain;
      // The timed states from the first to the one whose move the outcome decides, in order: each
      // keeps its time while it fits in `after`, and the last one takes what is left.
      const chain = timedChain();
      const at = chain.indexOf(state);
      if (at < 0) return plain;
      let left = outcome.after;
      for (let i = 0; i < at; i++) left -= Math.min(b.duration(this, chain[i]), left);
      return at === chain.length - 1 ? left : Math.min(plain, left);
    },
    outcome(b, input) {
      return b.outcome(this, match(input)) as Outcome<S>;
    },
    ttlOf(b) {
      return b.ttl(this);
    },
    section(b) {
      return b.section(spec.name) as Record<string, unknown> | undefined;
    },
    emit(t, state, source, view) {
      t.emit(eventOf.get(state)!, source, view);
    },
    emitExtra(t, event, source, view) {
      t.emit(event, source, view);
    },
    timer,
    timedEvent,
    retime(t, id, state, after, now = t.now(), outcome) {
      t.scheduler.cancelFor(id, timer);
      if (moves[state] === undefined) return;
      const seconds = typeof after === 'number' ? after : this.duration(after, state, outcome);
      t.scheduler.enqueue(timer, id, now + seconds * 1000);
    },
    timerJobs(read, move) {
      return {
        [timer]: (t, job) => {
          const r = read(t, job.ref);
          const event = r && timedEvent(r.status, r.outcome);
          if (event) move(t, job.ref, event);
        },
      };
    },
  };
}
