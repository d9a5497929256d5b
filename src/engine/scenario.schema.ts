// The one schema of a scenario document (YAML or JSON). Files, inline documents sent to
// PUT /_sandbox/scenario and `payments-sandbox validate` are all checked by it, and it is published
// as JSON Schema at /_sandbox/scenario.schema.json.
import { z } from 'zod';
import type { LifecycleResource } from './behaviour.js';
import { FaultRuleSchema } from './faults.js';
import { REGEX_LIMITS, regexProblem } from './scenario.regex.js';

/**
 * Per resource: the states a timed move leaves, the terminal states an outcome may name, and which
 * of those is success. A quote's only timed move a scenario sets is its pay-in (awaiting_payment →
 * completed); expiry follows its ttl. An FX trade has no timed move at all: it moves on the
 * partner's accept, confirmation and cancellation, so a scenario sets only its ttl.
 */
export const LIFECYCLES = {
  payout: { timed: ['PENDING', 'PROCESSING'], terminal: ['SUCCESSFUL', 'FAILED'], success: 'SUCCESSFUL' },
  wallet_payout: { timed: ['PENDING', 'PROCESSING'], terminal: ['COMPLETED', 'FAILED'], success: 'COMPLETED' },
  withdrawal: { timed: ['PROCESSING'], terminal: ['SUCCESSFUL', 'FAILED'], success: 'SUCCESSFUL' },
  transfer: { timed: ['PENDING', 'PROCESSING'], terminal: ['SUCCESSFUL', 'FAILED'], success: 'SUCCESSFUL' },
  quote: { timed: ['awaiting_payment'], terminal: ['completed', 'expired'], success: 'completed' },
  fx_trade: { timed: [], terminal: ['COMP', 'CANC'], success: 'COMP' },
} as const satisfies Record<LifecycleResource, { timed: readonly string[]; terminal: readonly string[]; success: string }>;

export const RESOURCES = Object.keys(LIFECYCLES) as LifecycleResource[];

const MAX_SECONDS = 10 * 365 * 24 * 3600;
const seconds = z.number().min(0).max(MAX_SECONDS);
const posInt = z.number().int().min(1);

/** How many items a list of a scenario may hold (outcome and fault rules, nth lists, names). */
const MAX_ITEMS = 50;

// A regular expression, run on RE2 (see scenario.regex.ts).
const pattern = z
  .string()
  .min(1)
  .max(REGEX_LIMITS.length)
  .superRefine((p, ctx) => {
    const problem = p.length > REGEX_LIMITS.length ? undefined : regexProblem(p);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
const word = z.string().min(1).max(50);
const oneOrMany = z.union([word, z.array(word).min(1).max(MAX_ITEMS)]);
const nth = z.union([posInt, z.array(posInt).min(1).max(100)]);

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
    reference: pattern.optional().describe('RE2 regular expression on the reference'),
    accountNumber: pattern.optional().describe('RE2 regular expression on accountNumber or destination.accountNumber'),
    fields: z
      .record(z.string().min(1).max(100), pattern)
      .refine((f) => Object.keys(f).length <= 10, 'must name at most 10 fields')
      .optional()
      .describe('RE2 regular expressions on any field by dotted path, at most 10'),
  })
  .describe('Every predicate given must hold');

function resourceSchema<R extends LifecycleResource>(resource: R) {
  const { timed, terminal } = LIFECYCLES[resource];
  const timing = z.strictObject(
    Object.fromEntries([...timed, '*'].map((s) => [s, seconds.optional()])) as Record<string, z.ZodOptional<typeof seconds>>,
  );
  const outcome = z
    .strictObject({
      when: PredicatesSchema.optional(),
      nth: nth.optional().describe('Only the n-th request(s) matching `when`, counted per tenant'),
      every: posInt.optional().describe('Every n-th request matching `when`'),
      status: z.enum(terminal as unknown as [string, ...string[]]),
      reason: z.string().min(1).max(200).optional(),
    })
    .refine((o) => o.nth === undefined || o.every === undefined, { message: 'give at most one of nth and every', path: ['every'] });
  return z.strictObject({
    timing: timing.optional().describe(`Seconds each state lasts before its timed move; '*' covers any other state`),
    outcomes: z.array(outcome).max(MAX_ITEMS).optional().describe('First rule that matches decides; none matching means success'),
  });
}

const ttl = z.number().int().min(1).max(MAX_SECONDS);

/** What a scenario name may be: lower case letters, digits and dashes, at most 60. */
export const NAME_RULE = /^[a-z0-9][a-z0-9-]{0,59}$/;

export const ScenarioSchema = z
  .strictObject({
    name: z
      .string()
      .regex(NAME_RULE, 'must be lower case letters, digits and dashes, at most 60')
      .optional(),
    description: z.string().min(1).max(2000).optional(),
    payout: resourceSchema('payout').optional(),
    wallet_payout: resourceSchema('wallet_payout').optional(),
    withdrawal: resourceSchema('withdrawal')
      .extend({
        authCode: z
          .strictObject({
            required: z.boolean(),
            codes: z.array(z.string().min(1).max(100)).min(1).max(100).optional().describe('The codes accepted; any other is refused'),
            pattern: pattern.optional().describe('Accepted codes match this RE2 regular expression'),
          })
          .optional(),
      })
      .optional(),
    transfer: resourceSchema('transfer').optional(),
    quote: resourceSchema('quote').extend({ ttl: ttl.optional().describe('Quote lifetime in seconds') }).optional(),
    fx_trade: z
      .strictObject({ ttl: ttl.optional().describe('Trade TTL in seconds') })
      .optional()
      .describe('FX trades move only on the partner\'s accept, confirmation and cancellation: a scenario sets their TTL, nothing else'),
    webhooks: z
      .strictObject({
        duplicate: z.boolean().optional().describe('Send every accepted delivery a second time, with the same webhook-id'),
        outOfOrder: z.boolean().optional().describe('Swap deliveries in pairs: each one is held until the next has been sent'),
        delaySeconds: z.number().int().min(0).max(86_400).optional().describe("Hold each first attempt this long on the key's clock"),
      })
      .optional()
      .describe('Webhook delivery faults; each one set here takes the place of the same option of PUT /_sandbox/webhooks'),
    faults: z.array(FaultRuleSchema).max(MAX_ITEMS).optional().describe('HTTP faults on /api routes; the first rule that fires decides'),
  })
  .superRefine((doc, ctx) => {
    const found = patternPaths(doc as Scenario);
    if (found.length <= REGEX_LIMITS.perScenario) return;
    ctx.addIssue({
      code: 'custom',
      path: found[REGEX_LIMITS.perScenario],
      message: `is one regular expression too many: a scenario holds at most ${REGEX_LIMITS.perScenario} (this one has ${found.length})`,
    });
  })
  .describe('A payments-sandbox scenario: timing, outcomes, TTLs, requirements and HTTP faults');

export type Scenario = z.infer<typeof ScenarioSchema>;

/** Where the regular expressions of a document are, in document order. */
function patternPaths(doc: Scenario): (string | number)[][] {
  const out: (string | number)[][] = [];
  for (const resource of RESOURCES) {
    const outcomes = (doc[resource] as { outcomes?: OutcomeRule[] } | undefined)?.outcomes ?? [];
    outcomes.forEach(({ when }, i) => {
      const at = [resource, 'outcomes', i, 'when'];
      if (when?.reference !== undefined) out.push([...at, 'reference']);
      if (when?.accountNumber !== undefined) out.push([...at, 'accountNumber']);
      for (const f of Object.keys(when?.fields ?? {})) out.push([...at, 'fields', f]);
    });
  }
  if (doc.withdrawal?.authCode?.pattern !== undefined) out.push(['withdrawal', 'authCode', 'pattern']);
  return out;
}
export type OutcomeRule = NonNullable<NonNullable<Scenario['payout']>['outcomes']>[number];
export type Predicates = z.infer<typeof PredicatesSchema>;

/** The schema as JSON Schema (draft 2020-12), as published by the server. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    $id: '/_sandbox/scenario.schema.json',
    title: 'payments-sandbox scenario',
    ...z.toJSONSchema(ScenarioSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }),
  };
}
