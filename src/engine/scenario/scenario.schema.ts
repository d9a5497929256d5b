// The one schema of a scenario document (YAML or JSON), built from the resources of the domain list
// when the app is composed: each resource with a lifecycle has its section (timing of its timed
// states, outcomes naming its end states, its ttl and own fields). Files, inline documents sent to
// PUT /_sandbox/scenario and `payments-sandbox validate` are all checked by it, and it is published
// as JSON Schema at /_sandbox/scenario.schema.json.
import { z } from 'zod';
import { FaultRuleSchema } from '../requests/fault-rules.js';
import type { LifecycleInfo } from '../registry/lifecycle.js';
import { lintScenario, type AppRoute, type Lint } from './scenario.lint.js';
import { MAX_ITEMS, PredicatesSchema, type Predicates } from './scenario.predicates.js';
import { REGEX_LIMITS } from './scenario.regex.js';

export { pattern, PredicatesSchema, type Predicates } from './scenario.predicates.js';

const MAX_SECONDS = 10 * 365 * 24 * 3600;
const seconds = z.number().min(0).max(MAX_SECONDS);
const posInt = z.number().int().min(1);
const ttl = z.number().int().min(1).max(MAX_SECONDS);

const nth = z.union([posInt, z.array(posInt).min(1).max(100)]);

function outcomeSchema(terminal: readonly string[]) {
  return z
    .strictObject({
      when: PredicatesSchema.optional(),
      nth: nth.optional().describe('Only the n-th request(s) matching `when`, counted per tenant'),
      every: posInt.optional().describe('Every n-th request matching `when`'),
      status: z.enum(terminal as [string, ...string[]]),
      reason: z.string().min(1).max(200).optional(),
      after: seconds.optional().describe('Seconds from creation to this end state, whatever the timing says (the timed states before it are fitted to it)'),
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
      outcomes: z.array(outcomeSchema(r.outcomeStates)).max(MAX_ITEMS).optional().describe('First rule that matches decides; none matching means success'),
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
      magicValues: z
        .boolean()
        .optional()
        .describe('false turns off the test values (docs/magic-values.md) under this scenario; they are on by default, for test keys only'),
      ...parts,
      faults: z.array(FaultRuleSchema).max(MAX_ITEMS).optional().describe('HTTP faults on /api routes; the first rule that fires decides'),
    })
    .superRefine((doc, ctx) => {
      const found = patternPaths(doc as Scenario, lifecycles);
      if (found.length <= REGEX_LIMITS.perScenario) return;
      ctx.addIssue({
        code: 'custom',
        path: found[REGEX_LIMITS.perScenario],
        message: `is one regular expression too many: a scenario holds at most ${REGEX_LIMITS.perScenario} (this one has ${found.length})`,
      });
    })
    .describe('A payments-sandbox scenario: timing, outcomes, TTLs, requirements and HTTP faults');
}

/** Where the regular expressions of a document are: every outcome rule's, then each resource's own fields'. */
function patternPaths(doc: Scenario, lifecycles: readonly LifecycleInfo[]): (string | number)[][] {
  const out: (string | number)[][] = [];
  for (const { name } of lifecycles) {
    const outcomes = (doc[name] as ScenarioSection | undefined)?.outcomes ?? [];
    outcomes.forEach(({ when }, i) => {
      const at = [name, 'outcomes', i, 'when'];
      if (when?.reference !== undefined) out.push([...at, 'reference']);
      if (when?.accountNumber !== undefined) out.push([...at, 'accountNumber']);
      for (const f of Object.keys(when?.fields ?? {})) out.push([...at, 'fields', f]);
    });
  }
  for (const { name, scenario } of lifecycles) {
    const section = doc[name] as ScenarioSection | undefined;
    if (section && scenario.patterns) out.push(...scenario.patterns(section).map((p) => [name, ...p]));
  }
  return out;
}

export type OutcomeRule = z.infer<ReturnType<typeof outcomeSchema>>;

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
  /** What a well-formed document says that can never happen (errors) or never be reached (warnings). */
  lint(doc: Scenario): Lint;
}

export function scenarioFormat(
  lifecycles: readonly LifecycleInfo[],
  sections: Readonly<Record<string, z.ZodType>> = {},
  routes?: readonly AppRoute[],
): ScenarioFormat {
  const schema = scenarioSchema(lifecycles, sections) as unknown as z.ZodType<Scenario>;
  let json: Record<string, unknown> | undefined;
  return {
    schema,
    lint: (doc) => lintScenario(doc, lifecycles, routes),
    jsonSchema: () =>
      (json ??= {
        $id: '/_sandbox/scenario.schema.json',
        title: 'payments-sandbox scenario',
        ...z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }),
      }),
  };
}
