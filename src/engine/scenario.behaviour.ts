// A scenario document as a Behaviour for one tenant. What the document does not say falls back to
// the defaults (defaultBehaviour); outcome counters for "the n-th matching request" live in the
// tenant's store, so they are per tenant, survive restarts and go away with a reset.
import { dec } from '../kernel/money.js';
import { defaultBehaviour, SUCCEEDS, type Behaviour, type BehaviourResource, type Outcome } from './behaviour.js';
import { countFired } from './faults.js';
import { regexMatches } from './scenario.regex.js';
import type { Tenant } from './tenant.js';
import type { OutcomeRule, Predicates, Scenario, ScenarioSection } from './scenario.schema.js';

const counters = (t: Tenant) => t.store.collection<number>('scenario_counters');

function at(fields: Record<string, unknown>, dotted: string): unknown {
  let v: unknown = fields;
  for (const k of dotted.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** A field at the top level, or inside destination / source when not at the top. */
function field(fields: Record<string, unknown>, name: string): unknown {
  return fields[name] ?? at(fields, `destination.${name}`) ?? at(fields, `source.${name}`);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);

function oneOf(want: string | string[], ...values: unknown[]): boolean {
  const list = (Array.isArray(want) ? want : [want]).map((w) => w.toLowerCase());
  return values.some((v) => str(v) !== undefined && list.includes(str(v)!.toLowerCase()));
}

function matchesPattern(p: string, v: unknown): boolean {
  const s = str(v);
  return s !== undefined && regexMatches(p, s);
}

export function matches(when: Predicates | undefined, fields: Record<string, unknown>): boolean {
  if (!when) return true;
  if (when.amount) {
    const raw = str(field(fields, 'amount'));
    if (raw === undefined || !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(raw)) return false;
    const a = dec(raw);
    if (when.amount.min !== undefined && a.lt(when.amount.min)) return false;
    if (when.amount.max !== undefined && a.gt(when.amount.max)) return false;
  }
  if (when.currency && !oneOf(when.currency, fields.currency, fields.sourceCurrency, fields.destinationCurrency)) return false;
  if (when.chain && !oneOf(when.chain, field(fields, 'chain'))) return false;
  if (when.token && !oneOf(when.token, field(fields, 'token'))) return false;
  if (when.reference && !matchesPattern(when.reference, fields.reference)) return false;
  if (when.accountNumber && !matchesPattern(when.accountNumber, field(fields, 'accountNumber'))) return false;
  for (const [p, re] of Object.entries(when.fields ?? {})) if (!matchesPattern(re, at(fields, p))) return false;
  return true;
}

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
  return {
    succeed: picked.status === resource.success,
    status: picked.status,
    ...(picked.reason !== undefined ? { reason: picked.reason } : {}),
  };
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
