// Which scenario is in force: the X-Sandbox-Scenario header of the request, else the tenant's own
// choice (PUT /_sandbox/scenario), else the start default (--scenario). The tenant's choice lives in
// its store, so it is per tenant and survives a restart with --data; it is a setting, so a reset
// keeps it (see Tenant.reset).
import { SandboxError } from '../../kernel/errors.js';
import type { Behaviour } from '../registry/behaviour.js';
import { resetFaultState } from '../requests/fault-rules.js';
import type { LoadedScenario } from './scenario.load.js';
import type { ScenarioRegistry } from './scenario.registry.js';
import { behaviourOf } from './scenario.behaviour.js';
import type { Scenario } from './scenario.schema.js';
import { SAVED_SCENARIOS, type Tenant } from '../tenancy/tenant.js';

export type ScenarioSource = 'header' | 'tenant' | 'start';

/** A tenant's choice as stored: a known name, or an inline document. */
type Choice = { name: string; inline?: Scenario };

const choices = (t: Tenant) => t.store.collection<Choice>('scenario');

/** The scenarios a key saved by name (PUT /_sandbox/scenarios/{name}), for that key only. */
const saved = (t: Tenant) => t.store.collection<Scenario>(SAVED_SCENARIOS);

/** Most scenarios one key may save. */
export const SAVED_MAX = 20;

/** The names a key may use: the server's scenarios, then its own saved ones. */
export function scenarioNames(t: Tenant | undefined, registry: ScenarioRegistry): string[] {
  return [...registry.names(), ...(t ? [...saved(t).keys()].sort() : [])];
}

export function unknownScenario(name: string, registry: ScenarioRegistry, field = 'X-Sandbox-Scenario', t?: Tenant): SandboxError {
  const known = scenarioNames(t, registry).join(', ');
  return new SandboxError('INVALID_SCENARIO', `No scenario named '${name}'. Use one of: ${known}.`, [
    { field, issue: `must be one of: ${known}` },
  ]);
}

const savedOne = (name: string, doc: Scenario): LoadedScenario => ({ name, description: doc.description ?? null, origin: 'saved', file: null, doc });

/** A scenario by name: one of the server's, else one the key saved. */
export function findScenario(t: Tenant, registry: ScenarioRegistry, name: string): LoadedScenario | undefined {
  const known = registry.get(name);
  if (known) return known;
  const doc = saved(t).get(name);
  return doc && savedOne(name, doc);
}

/** The key's saved scenarios, by name. */
export function savedScenarios(t: Tenant): LoadedScenario[] {
  return [...saved(t).keys()].sort().map((name) => savedOne(name, saved(t).get(name)!));
}

/** Save (or replace) a scenario under a name for this key; bound by that name, it applies at once. */
export function saveScenario(t: Tenant, registry: ScenarioRegistry, name: string, doc: Scenario): void {
  if (registry.get(name)) {
    throw new SandboxError('INVALID_SCENARIO', `'${name}' is the name of one of this server's scenarios; save yours under another name.`, [
      { field: 'name', issue: `is taken by a scenario of the server: choose a name not among ${registry.names().join(', ')}` },
    ]);
  }
  if (!saved(t).has(name) && saved(t).size >= SAVED_MAX) {
    throw new SandboxError('TENANT_FULL', `This key keeps ${SAVED_MAX} saved scenarios, the most one key may keep. Delete one with DELETE /_sandbox/scenarios/{name} first.`);
  }
  saved(t).put(name, { ...doc, name });
}

/** Forget a saved scenario; false when the key has none by that name. */
export function deleteScenario(t: Tenant, name: string): boolean {
  if (!saved(t).has(name)) return false;
  saved(t).remove(name);
  return true;
}

/** The scenario in force for this tenant (and this request, when it names one), and where it comes from. */
export function scenarioInForce(t: Tenant, registry: ScenarioRegistry, requested?: string): { scenario: LoadedScenario; source: ScenarioSource } {
  if (requested) {
    const s = findScenario(t, registry, requested);
    if (!s) throw unknownScenario(requested, registry, 'X-Sandbox-Scenario', t);
    return { scenario: s, source: 'header' };
  }
  const choice = choices(t).get('current');
  if (choice?.inline) {
    const doc = choice.inline;
    return { scenario: { name: choice.name, description: doc.description ?? null, origin: 'inline', file: null, doc }, source: 'tenant' };
  }
  // A saved scenario deleted since it was bound leaves the key on the start default.
  const named = choice && findScenario(t, registry, choice.name);
  if (named) return { scenario: named, source: 'tenant' };
  return { scenario: registry.startDefault, source: 'start' };
}

/** Bind a scenario to the tenant; its counters start afresh, and its market's moves count from now. */
export function chooseScenario(t: Tenant, choice: Choice): void {
  resetFaultState(t);
  choices(t).put('current', choice);
  t.markBound();
}

/** Back to the start default; counters start afresh, and its market's moves count from now. */
export function clearScenario(t: Tenant): void {
  resetFaultState(t);
  choices(t).remove('current');
  t.markBound();
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
    const named = name ? findScenario(t, registry, name) : undefined;
    const scenario = named ?? scenarioInForce(t, registry).scenario;
    const kept = last.get(t);
    if (kept && kept.doc === scenario.doc && kept.name === scenario.name) return kept;
    const made = Object.assign(behaviourOf(scenario.doc, scenario.name, t), { doc: scenario.doc });
    last.set(t, made);
    return made;
  };
}
