// What the control client sends and receives: the output and input types of the very zod schemas the
// /_sandbox routes validate with and /openapi.json is generated from, so the two cannot differ.
import type { z } from '@hono/zod-openapi';
import type * as Admin from '../admin/admin.schema.js';
import type * as Resources from '../admin/resources.routes.js';
import type * as Scenarios from '../admin/scenario.routes.js';
import type * as Reference from '../domains/reference/reference.schema.js';
import type * as Transfers from '../domains/transfers/transfers.schema.js';
import type * as Webhooks from '../domains/webhooks/webhooks.schema.js';
import type * as Readiness from '../readiness/readiness.routes.js';

export type SandboxHealth = z.output<typeof Admin.Health>;
export type ResetResult = z.output<typeof Admin.ResetResult>;
export type ClockState = z.output<typeof Admin.ClockState>;
export type AdvanceClockResult = z.output<typeof Admin.AdvanceResult>;
export type AdvanceClockRequest = z.input<typeof Admin.AdvanceRequest>;
export type JournalList = z.output<typeof Admin.JournalList>;
export type JournalEntry = z.output<typeof Admin.JournalEntry>;
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
/** A class of statuses: 2xx, 4xx, ... */
export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx';
/** What GET /_sandbox/requests filters on, on the server; each left out matches every entry. */
export interface RequestsQuery {
  /** Only requests of this method (any case). */
  method?: HttpMethod | Lowercase<HttpMethod>;
  /** Only requests to this path; a pattern as in a fault rule: `*` any text within a segment,
   * `{name}` at least one character, a `**` segment any number of segments. */
  path?: string;
  /** Only requests the sandbox answered with this status, or a status of this class. */
  status?: number | StatusClass;
  /** Only requests after this journal entry (its id, `req_12`), or at or after this instant of the key's clock. */
  since?: string | Date;
  /** Most entries answered, newest first, after filtering; default 50. */
  limit?: number;
}
export type SandboxEvent = z.output<typeof Admin.SandboxEvent>;
export type EventList = z.output<typeof Admin.EventList>;
export type SimulateBody = z.input<typeof Admin.SimulateRequest>;
export type SimulateResult = z.output<typeof Admin.SimulateResult>;
/** The kinds of resource GET /_sandbox/resources lists (test/client.kinds.test.ts compares them with the sandbox's). */
export type ResourceKind = 'payouts' | 'wallet-payouts' | 'withdrawals' | 'transfers' | 'bulk-disbursements' | 'quotes' | 'fx-trades';
export interface ResourcesQuery extends Partial<Omit<z.output<typeof Resources.ResourcesQuery>, 'kind'>> {
  /** Only this kind; another is a 400 (a SandboxRequestError) saying which was meant. */
  kind?: ResourceKind;
}
export type ResourceItem = Omit<z.output<typeof Resources.ResourceItem>, 'kind'> & { kind: ResourceKind };
export interface ResourceList {
  data: ResourceItem[];
  /** How many of each kind the key holds (only the kind asked for, when one was). */
  counts: Partial<Record<ResourceKind, number>>;
}
export type ScenarioList = z.output<typeof Scenarios.ScenarioList>;
export type ScenarioState = z.output<typeof Scenarios.ScenarioState>;
export type SavedScenario = z.output<typeof Scenarios.SavedScenario>;
/** An inline scenario document, in the format of GET /_sandbox/scenario.schema.json. */
export type ScenarioDocument = NonNullable<z.input<typeof Scenarios.ChooseScenario>['scenario']>;
export type Balance = z.output<typeof Reference.Balance>;
export type BalanceList = z.output<typeof Reference.BalanceList>;
export type TopUpRequest = z.input<typeof Reference.TopUpRequest>;
export type BalanceAccountList = z.output<typeof Reference.BalanceAccountList>;
export type MagicValueList = z.output<typeof Reference.MagicValueList>;
export type BulkUploadRequest = z.input<typeof Transfers.BulkUploadRequest>;
export type BulkFile = z.output<typeof Transfers.BulkFile>;
export type WebhookSettingsRequest = z.input<typeof Webhooks.WebhookSettingsRequest>;
export type WebhookSettings = z.output<typeof Webhooks.WebhookSettings>;
export type WebhookSettingsWithSecret = z.output<typeof Webhooks.WebhookSettingsWithSecret>;
export type WebhookStopped = z.output<typeof Webhooks.WebhookStopped>;
export type DeliveriesQuery = Partial<z.output<typeof Webhooks.DeliveriesQuery>>;
export type Delivery = z.output<typeof Webhooks.Delivery>;
export type DeliveryList = z.output<typeof Webhooks.DeliveryList>;
export type FlushResult = z.output<typeof Webhooks.FlushResult>;
export type ProbeResult = z.output<typeof Webhooks.ProbeResult>;
/** The JSON Schema (draft 2020-12) of the scenario format. */
export type ScenarioJsonSchema = Record<string, unknown>;
export type ReadinessReport = z.output<typeof Readiness.ReportSchema>;
