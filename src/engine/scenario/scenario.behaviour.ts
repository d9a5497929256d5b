// A scenario document as a Behaviour for one tenant. What the document does not say falls back to
// the defaults (defaultBehaviour); outcome counters for "the n-th matching request" live in the
// tenant's store, so they are per tenant, survive restarts and go away with a reset.
import { defaultBehaviour, magicOutcome, SUCCEEDS, type Behaviour, type BehaviourResource, type Outcome } from '../registry/behaviour.js';
import { countFired } from '../requests/fault-rules.js';
import { matches } from './scenario.predicates.js';
import type { Tenant } from '../tenancy/tenant.js';
import type { OutcomeRule, Scenario, ScenarioSection } from './scenario.schema.js';

const counters = (t: Tenant) => t.store.collection<number>('scenario_counters');

function pickOutcome(t: Tenant, scope: string, resource: BehaviourResource, rules: readonly OutcomeRule[], fields: Record<string, unknown>): Outcome {
  let picked: OutcomeRule | undefined;
  let index = -1;
  rules.forEach((rule, i) => {
    if (!matches(rule.when, fields)) return;
    let n = 0;
    if (rule.nth !== undefined || rule.every !== undefined) {
      const key = `${scope}:outcome:${resource.name}:${i}`;
      n = (counters(t).get(key) ?? 0) + 1;
      counters(t).put(key, n);
    }
    if (picked) return;
    if (rule.nth !== undefined && !(Array.isArray(rule.nth) ? rule.nth : [rule.nth]).includes(n)) return;
    if (rule.every !== undefined && n % rule.every !== 0) return;
    picked = rule;
    index = i;
  });
  if (!picked) return SUCCEEDS;
  countFired(t, scope, `outcome:${resource.name}:${index}`);
  return outcomeOf(picked, resource);
}

/** One outcome object per rule, shared by every record it decides (records never change theirs). */
const outcomes = new WeakMap<OutcomeRule, Outcome>();

function outcomeOf(rule: OutcomeRule, resource: BehaviourResource): Outcome {
  let o = outcomes.get(rule);
  if (o === undefined) {
    o = {
      succeed: rule.status === resource.success,
      status: rule.status,
      ...(rule.reason !== undefined ? { reason: rule.reason } : {}),
      ...(rule.after !== undefined ? { after: rule.after } : {}),
    };
    outcomes.set(rule, o);
  }
  return o;
}

/** The Behaviour a tenant gets from a scenario; `scope` keys its counters (the scenario's name). */
export function behaviourOf(doc: Scenario, name: string, t: Tenant): Behaviour {
  const section = (key: string) => doc[key] as ScenarioSection | undefined;
  return {
    name,
    duration(resource, state) {
      const timing = section(resource.name)?.timing;
      return timing?.[state] ?? timing?.['*'] ?? defaultBehaviour.duration(resource, state);
    },
    outcome(resource, fields) {
      // Test values first, under test keys, unless the scenario turns them off.
      const magic = t.mode === 'sandbox' && doc.magicValues !== false ? magicOutcome(resource, fields) : undefined;
      if (magic) return magic;
      const rules = section(resource.name)?.outcomes;
      return rules?.length ? pickOutcome(t, name, resource, rules, fields) : SUCCEEDS;
    },
    ttl(resource) {
      return section(resource.name)?.ttl ?? defaultBehaviour.ttl(resource);
    },
    section(key) {
      return doc[key];
    },
  };
}
