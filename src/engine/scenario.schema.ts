// The one schema of a scenario document (YAML or JSON), built from the resources of the domain list
// when the app is composed: each resource with a lifecycle has its section (timing of its timed
// states, outcomes naming its end states, its ttl and own fields). Files, inline documents sent to
// PUT /_sandbox/scenario and `payments-sandbox validate` are all checked by it, and it is published
// as JSON Schema at /_sandbox/scenario.schema.json.
import safeRegex from 'safe-regex2';
import { z } from 'zod';
import { FaultRuleSchema } from './faults.js';
import type { LifecycleInfo } from './lifecycle.js';

const MAX_SECONDS = 10 * 365 * 24 * 3600;
const seconds = z.number().min(0).max(MAX_SECONDS);
const posInt = z.number().int().min(1);
const ttl = z.number().int().min(1).max(MAX_SECONDS);

function isRegex(p: string): boolean {
  try {
    new RegExp(p);
    return true;
  } catch {
    return false;
  }
}

// Inline scenarios come from any key, and one shared server runs their patterns: a pattern whose
// nested repetition could take exponential time is refused.
export const pattern = z
  .string()
  .min(1)
  .max(200)
  .refine(isRegex, 'must be a valid regular expression')
  .refine((p) => !isRegex(p) || safeRegex(p), 'must not nest repetitions (such as (a+)+): it could take exponential time');
const oneOrMany = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

export const PredicatesSchema = z
  .strictObject({
    amount: z
      .strictObject({ min: z.number().optional(), max: z.number().optional() })
      .refine((a) => a.min === undefined || a.max === undefined || a.min <= a.max, 'min must not exceed max')
      .optional()
      .describe('Inclusive bounds on amount'),
    currency: oneOrMany.optional().describe('Matches currency, sourceCurrency or destinationCurrency, any case'),
    chain: oneOrMany.optional().describe('Any case'),
    token: oneOrMany.optional().describe('Any case'),
    reference: pattern.optional().describe('Regular expression on the reference'),
    accountNumber: pattern.optional().describe('Regular expression on accountNumber or destination.accountNumber'),
    fields: z.record(z.string().min(1), pattern).optional().describe('Regular expressions on any field by dotted path'),
  })
  .describe('Every predicate given must hold');

function outcomeSchema(terminal: readonly string[]) {
  return z
    .strictObject({
      when: PredicatesSchema.optional(),
      nth: z.union([posInt, z.array(posInt).min(1)]).optional().describe('Only the n-th request(s) matching `when`, counted per tenant'),
      every: posInt.optional().describe('Every n-th request matching `when`'),
      status: z.enum(terminal as [string, ...string[]]),
      reason: z.string().min(1).max(200).optional(),
    })
    .refine((o) => o.nth === undefined || o.every === undefined, { message: 'give at most one of nth and every', path: ['every'] });
}

/** A resource with timed states gets timing and outcomes; one that lives for a ttl, its ttl; then its own fields. */
function resourceSchema(r: LifecycleInfo): z.ZodType {
  const own: Record<string, z.ZodType> = { ...(r.ttl ? { ttl: ttl.optional().describe(r.ttl) } : {}), ...r.scenario.fields };
  let part: z.ZodObject = z.strictObject(own);
  if (r.timed.length > 0) {
    const timing = z.strictObject(Object.fromEntries([...r.timed, '*'].map((s) => [s, seconds.optional()])));
    part = z.strictObject({
      timing: timing.optional().describe(`Seconds each state lasts before its timed move; '*' covers any other state`),
      outcomes: z.array(outcomeSchema(r.outcomeStates)).optional().describe('First rule that matches decides; none matching means success'),
    });
    if (Object.keys(own).length > 0) part = part.extend(own);
  }
  const optional = part.optional();
  return r.scenario.description ? optional.describe(r.scenario.description) : optional;
}

/** What a scenario name may be: lower case letters, digits and dashes, at most 60. */
export const NAME_RULE = /^[a-z0-9][a-z0-9-]{0,59}$/;

/** The document's schema: a section per resource lifecycle, then the (optional) sections other modules read, such as webhooks. */
export function scenarioSchema(lifecycles: readonly LifecycleInfo[], sections: Readonly<Record<string, z.ZodType>> = {}) {
  const parts: Record<string, z.ZodType> = {};
  for (const r of lifecycles) parts[r.name] = resourceSchema(r);
  for (const [key, section] of Object.entries(sections)) parts[key] = section;
  return z
    .strictObject({
      name: z
        .string()
        .regex(NAME_RULE, 'must be lower case letters, digits and dashes, at most 60')
        .optional(),
      description: z.string().min(1).max(2000).optional(),
      ...parts,
      faults: z.array(FaultRuleSchema).optional().describe('HTTP faults on /api routes; the first rule that fires decides'),
    })
    .describe('A payments-sandbox scenario: timing, outcomes, TTLs, requirements and HTTP faults');
}

export type OutcomeRule = z.infer<ReturnType<typeof outcomeSchema>>;
export type Predicates = z.infer<typeof PredicatesSchema>;

/** A resource's section of a scenario. */
export interface ScenarioSection {
  timing?: Record<string, number | undefined>;
  outcomes?: OutcomeRule[];
  ttl?: number;
  [field: string]: unknown;
}

/** A checked scenario document: name, description, faults, and one section per resource or module. */
export interface Scenario {
  name?: string;
  description?: string;
  faults?: z.infer<typeof FaultRuleSchema>[];
  [section: string]: unknown;
}

/** The scenario format of one domain list: its schema, and the schema as published. */
export interface ScenarioFormat {
  readonly schema: z.ZodType<Scenario>;
  /** The schema as JSON Schema (draft 2020-12), as published by the server. */
  jsonSchema(): Record<string, unknown>;
}

export function scenarioFormat(lifecycles: readonly LifecycleInfo[], sections: Readonly<Record<string, z.ZodType>> = {}): ScenarioFormat {
  const schema = scenarioSchema(lifecycles, sections) as unknown as z.ZodType<Scenario>;
  let json: Record<string, unknown> | undefined;
  return {
    schema,
    jsonSchema: () =>
      (json ??= {
        $id: '/_sandbox/scenario.schema.json',
        title: 'payments-sandbox scenario',
        ...z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }),
      }),
  };
}
