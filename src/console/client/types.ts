// What the console reads from the sandbox, as far as it reads it: the shapes of the answers of the
// control API and of the partner API calls its flows make. A module of the console's browser bundle.

export interface ResourceRow {
  kind: string;
  eventPrefix: string;
  id: string;
  status: string | null;
  createdAt: string;
  moves?: string[];
  resource: Record<string, unknown> & { bulkId?: string; status?: string };
}

export interface SandboxEvent {
  id: string;
  event: string;
  createdAt: string;
  data?: Record<string, unknown> & { status?: string; failure_reason?: string };
}

export interface JournalEntry {
  id: string;
  method: string;
  path: string;
  query?: string;
  status: number;
  sent?: number;
  fault?: { kind: string; rule: string };
  durationMs: number;
  at: string;
  requestHeaders: Record<string, string>;
  requestBody?: unknown;
  responseBody?: unknown;
}

export interface DeliveryAttempt {
  trigger: string;
  at: string;
  statusCode: number | null;
  error?: string | null;
  requestHeaders?: Record<string, string> | null;
  responseBody?: string | null;
}

export interface Delivery {
  id: string;
  eventId: string;
  event: string;
  status: string;
  tries: number;
  nextAttemptAt: string | null;
  createdAt: string;
  payload: unknown;
  attempts: DeliveryAttempt[];
}

export interface ClockState {
  now: string;
  offsetSeconds: number;
  /** Frozen: the key's clock moves only when advanced. */
  frozen?: boolean;
  pendingJobs: number;
  nextDueAt: string | null;
}

export interface ScenarioState {
  name: string;
  source: string;
  /** bundled, file or inline (a document sent with PUT for this key). */
  origin?: string;
}

export interface ScenarioSummary {
  name: string;
  description?: string;
}

export interface Balance {
  key: string;
  available: string | number;
}

export interface MagicValue {
  value: string;
  field: string;
  applies: string;
  effect: string;
}

export interface Rate {
  from: string;
  to: string;
  rate: string | number;
  source: string;
  timestamp: string;
}

export interface Listed<T> {
  data: T[];
  counts: Record<string, number>;
}

/** The partner API's envelope: { status, message, data }. */
export interface Envelope<T> {
  data: T;
}

export interface Bank {
  code: string;
  name: string;
}

export interface Payout {
  reference: string;
  status: string;
  createdAt: string;
  estimatedCompletionAt: string;
  failureReason?: string | null;
}

export interface Quote {
  quoteId: string;
  status: string;
  allocationResult?: { weightedAverageRate?: string | number };
}

export interface WebhookSettings {
  url: string;
  secret?: string;
}

/** What the console last read of the key: the lists and panels its views draw. */
export interface Snapshot {
  resources: Listed<ResourceRow>;
  /** The resource a deep link names, read by its id when the newest resources may not hold it. */
  named?: ResourceRow[];
  events: SandboxEvent[];
  journal: JournalEntry[];
  deliveries: Listed<Delivery> | null;
  clock: ClockState;
  scenario: ScenarioState;
  scenarios: ScenarioSummary[];
  balances: Balance[];
  magic: { honoured: boolean; data: MagicValue[] };
}
