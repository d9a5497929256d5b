// Which scenario is in force: the X-Sandbox-Scenario header of the request, else the tenant's own
// choice (PUT /_sandbox/scenario), else the start default (--scenario). The tenant's choice lives in
// its store, so it is per tenant and survives a restart with --data; it is a setting, so a reset
// keeps it (see Tenant.reset).
import { SandboxError } from '../kernel/errors.js';
import type { Behaviour } from './behaviour.js';
import { resetFaultState } from './faults.js';
import type { LoadedScenario } from './scenario.load.js';
import type { ScenarioRegistry } from './scenario.registry.js';
import { behaviourOf } from './scenario.behaviour.js';
import type { Scenario } from './scenario.schema.js';
import type { Tenant } from './tenant.js';

export type ScenarioSource = 'header' | 'tenant' | 'start';

/** A tenant's choice as stored: a known name, or an inline document. */
type Choice = { name: string; inline?: Scenario };

const choices = (t: Tenant) => t.store.collection<Choice>('scenario');

export function unknownScenario(name: string, registry: ScenarioRegistry, field = 'X-Sandbox-Scenario'): SandboxError {
  const known = registry.names().join(', ');
  return new SandboxError('INVALID_SCENARIO', `No scenario named '${name}'. Use one of: ${known}.`, [
    { field, issue: `must be one of: ${known}` },
  ]);
}

/** The scenario in force for this tenant (and this request, when it names one), and where it comes from. */
export function scenarioInForce(t: Tenant, registry: ScenarioRegistry, requested?: string): { scenario: LoadedScenario; source: ScenarioSource } {
  if (requested) {
    const s = registry.get(requested);
    if (!s) throw unknownScenario(requested, registry);
    return { scenario: s, source: 'header' };
  }
  const choice = choices(t).get('current');
  if (choice?.inline) {
    const doc = choice.inline;
    return { scenario: { name: choice.name, description: doc.description ?? null, origin: 'inline', file: null, doc }, source: 'tenant' };
  }
  const named = choice && registry.get(choice.name);
  if (named) return { scenario: named, source: 'tenant' };
  return { scenario: registry.startDefault, source: 'start' };
}

/** Bind a scenario to the tenant; its counters start afresh. */
export function chooseScenario(t: Tenant, choice: Choice): void {
  resetFaultState(t);
  choices(t).put('current', choice);
}

/** Back to the start default; counters start afresh. */
export function clearScenario(t: Tenant): void {
  resetFaultState(t);
  choices(t).remove('current');
}

/**
 * The behaviourFor of createApp: a named scenario (a request's, or the one a resource was created
 * under) or else the one in force. Request headers are checked by the faults middleware before any
 * handler runs; a stored name no longer known (the server restarted with other files) falls back.
 */
export function scenarioBehaviourFor(registry: ScenarioRegistry) {
  // A Behaviour depends only on the tenant, the scenario document and its name: the last one each
  // tenant asked for is kept, since nearly every request asks for the same one again.
  const last = new WeakMap<Tenant, Behaviour & { doc: Scenario }>();
  return (t: Tenant, name?: string): Behaviour => {
    const named = name ? registry.get(name) : undefined;
    const scenario = named ?? scenarioInForce(t, registry).scenario;
    const kept = last.get(t);
    if (kept && kept.doc === scenario.doc && kept.name === scenario.name) return kept;
    const made = Object.assign(behaviourOf(scenario.doc, scenario.name, t), { doc: scenario.doc });
    last.set(t, made);
    return made;
  };
}
