// The types every part of the engine reads of a resource's description, apart from the code that
// builds them (lifecycle.ts, resource.ts), so that reading them brings in nothing else.
import type { z } from 'zod';

/** Every spelling of a resource, from its one name by one rule. */
export interface ResourceNames<N extends string = string> {
  /** Singular, lower case words joined by _: wallet_payout. Also its event prefix and scenario key. */
  readonly name: N;
  /** The tenant store collection: the name plus s (wallet_payouts). */
  readonly collection: `${N}s`;
  /** Its URL segment in the control API: the collection with - for _ (wallet-payouts). */
  readonly segment: string;
}

/** What a resource adds to its scenario section besides timing, outcomes and ttl. */
export interface ScenarioPart {
  readonly fields?: Readonly<Record<string, z.ZodType>>;
  readonly description?: string;
  /** Where its own fields hold regular expressions, as paths within its section (they count towards a scenario's limit). */
  patterns?(section: Record<string, unknown>): (string | number)[][];
}

/** What the engine reads of a lifecycle (behaviour, scenario format, event names). */
export interface LifecycleInfo extends ResourceNames {
  readonly states: readonly string[];
  readonly timed: readonly string[];
  readonly outcomeStates: readonly string[];
  readonly success: string | undefined;
  readonly durations: Readonly<Record<string, number | undefined>>;
  /** Set when the resource lives for a ttl a scenario may set: the ttl field's description. */
  readonly ttl: string | undefined;
  /** More fields of its scenario section, and the section's description. */
  readonly scenario: ScenarioPart;
  /** Every event it emits: <name>.<state in lower case> per state, then its extra events. */
  readonly events: readonly string[];
  /** The events after which its resource has no other: those of the states no move leaves, and its
   * extra events (each the one event of what it tells about). */
  readonly finalEvents: readonly string[];
  /** What its outcome rules are matched on, so a rule that can never match is refused. */
  readonly rules?: RuleVocabulary;
  /** Its zero-setup test values: requests that end a set way under test keys, whatever the scenario's rules. */
  readonly magic?: readonly MagicValue[];
}

/** A test value: a request field holding `value` ends the resource as `status` (with `reason`), or
 * holds it in its last timed state until simulated. Honoured under test keys unless the scenario
 * says `magicValues: false`. */
export interface MagicValue {
  /** The field, by dotted path in the request (`destination.accountNumber`). */
  readonly field: string;
  readonly value: string;
  readonly status?: string;
  readonly reason?: string;
  /** Held in its last timed state until POST /_sandbox/simulate moves it. */
  readonly hold?: boolean;
}

/** What a resource's outcome rules are matched on. */
export interface RuleVocabulary {
  /** The request the rules match: its field paths, and the values of its closed lists. */
  readonly request: z.ZodType;
  /** Fields the rules see besides the request's, with their values when they are a closed list. */
  readonly added?: Readonly<Record<string, readonly string[] | null>>;
  /** Why a `reference` rule can never be steered by the caller, when so. */
  readonly referenceNote?: string;
}

/** A link between records of two resources, as retention follows it. */
export interface Ownership {
  field: string;
  collection: string;
}

/** The resources retention and the cap see, from the app's resource descriptions; records are keyed
 * by the id their timed moves name, and a resource's idempotency scope is its name. */
export type Retained = readonly (ResourceNames & { readonly ownedBy: Ownership | undefined; readonly owns: Ownership | undefined })[];
