// A typed client of the /_sandbox control API. Every method is one operation of the table below, so
// the table is what the client can do; a test compares it with the control operations /openapi.json
// lists. It runs on the global fetch, so it works against an in-process sandbox or a container.
import { openInbox, type InboxOptions, type WebhookInbox } from './inbox.js';
import type * as T from './types.js';

/** Each method of the client and the control operation ("METHOD /path") it calls. */
export const CONTROL_OPERATIONS = {
  health: 'GET /_sandbox/health',
  scenarioSchema: 'GET /_sandbox/scenario.schema.json',
  reset: 'POST /_sandbox/reset',
  clock: 'GET /_sandbox/clock',
  freezeClock: 'PUT /_sandbox/clock',
  resumeClock: 'PUT /_sandbox/clock',
  advanceClock: 'POST /_sandbox/clock/advance',
  advanceClockTo: 'POST /_sandbox/clock/advance',
  requests: 'GET /_sandbox/requests',
  events: 'GET /_sandbox/events',
  simulate: 'POST /_sandbox/simulate/{resource}/{id}/{event}',
  resources: 'GET /_sandbox/resources',
  balances: 'GET /_sandbox/balances',
  topUp: 'POST /_sandbox/balances/top-up',
  accounts: 'GET /_sandbox/accounts',
  magicValues: 'GET /_sandbox/magic-values',
  uploadBulk: 'POST /_sandbox/bulk-disbursements',
  demoBulk: 'POST /_sandbox/bulk-disbursements/demo',
  scenarios: 'GET /_sandbox/scenarios',
  scenario: 'GET /_sandbox/scenario',
  useScenario: 'PUT /_sandbox/scenario',
  clearScenario: 'DELETE /_sandbox/scenario',
  saveScenario: 'PUT /_sandbox/scenarios/{name}',
  deleteScenario: 'DELETE /_sandbox/scenarios/{name}',
  'webhooks.set': 'PUT /_sandbox/webhooks',
  'webhooks.get': 'GET /_sandbox/webhooks',
  'webhooks.remove': 'DELETE /_sandbox/webhooks',
  'webhooks.flush': 'POST /_sandbox/webhooks/flush',
  'webhooks.test': 'POST /_sandbox/webhooks/test',
  'webhooks.probe': 'POST /_sandbox/webhooks/probe',
  deliveries: 'GET /_sandbox/webhooks/deliveries',
  redeliver: 'POST /_sandbox/webhooks/deliveries/{id}/redeliver',
  report: 'GET /_sandbox/report',
  resetReport: 'DELETE /_sandbox/report',
} as const;

export type ControlMethod = keyof typeof CONTROL_OPERATIONS;

/** A control call the sandbox refused: the HTTP status and the error envelope's code, message and details. */
export class SandboxRequestError extends Error {
  override readonly name = 'SandboxRequestError';
  constructor(
    /** e.g. "PUT /_sandbox/webhooks" */
    readonly operation: string,
    readonly status: number,
    /** The envelope's error.code, e.g. VALIDATION_ERROR. */
    readonly code: string | undefined,
    /** The envelope's error.details: which field was wrong and why. */
    readonly details: readonly { field: string; issue: string }[],
    /** The whole answer, as parsed JSON (or text when it was not JSON). */
    readonly body: unknown,
  ) {
    const message = (body as { message?: unknown } | undefined)?.message;
    super(`${operation} answered ${status}${code ? ` ${code}` : ''}: ${typeof message === 'string' ? message : String(body)}`);
  }
}

interface Parts {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  /** An object is sent as JSON, a string as CSV. */
  body?: unknown;
  headers?: Record<string, string>;
}

async function call<R>(base: string, key: string | undefined, method: ControlMethod, parts: Parts = {}): Promise<R> {
  const operation = CONTROL_OPERATIONS[method];
  const [verb, template] = operation.split(' ');
  const url = new URL(base.replace(/\/$/, '') + template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(parts.params![name])));
  for (const [k, v] of Object.entries(parts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json', ...parts.headers };
  if (key) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (typeof parts.body === 'string') [body, headers['content-type']] = [parts.body, 'text/csv'];
  else if (parts.body !== undefined) [body, headers['content-type']] = [JSON.stringify(parts.body), 'application/json'];
  const res = await fetch(url, { method: verb, headers, body });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: kept as text for the error.
  }
  if (!res.ok) {
    const error = (json as { error?: { code?: string; details?: { field: string; issue: string }[] } } | undefined)?.error;
    throw new SandboxRequestError(operation, res.status, error?.code, error?.details ?? [], json);
  }
  return json as R;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A new sandbox-mode key: a tenant of its own, with nothing in it. */
export const freshTestKey = () => `sk_test_${crypto.randomUUID().replaceAll('-', '')}`;

export interface WaitOptions {
  /** Give up after this many milliseconds (real time); default 10000. */
  timeout?: number;
  /** Only events after this event id; default: from the start of the log. */
  after?: string;
  /** Milliseconds between two reads of the event log; default 50. */
  interval?: number;
}

/** The control API for one API key: its clock, scenario, simulated moves, event log and webhook. */
export class SandboxTenant {
  /** The webhook of this key: where its events are POSTed, and the secret they are signed with. */
  readonly webhooks: {
    /** Set (replace) the webhook. The answer carries the signing secret: generated when none is given. */
    set(url: string, options?: Omit<T.WebhookSettingsRequest, 'url'>): Promise<T.WebhookSettingsWithSecret>;
    /** The settings, without the secret; a 404 SandboxRequestError when none is set. */
    get(): Promise<T.WebhookSettings>;
    /** Stop deliveries; deliveries waiting for a retry are given up. */
    remove(): Promise<T.WebhookStopped>;
    /** Make every delivery due on the key's clock happen now, and wait (at most 15 s) until each was attempted. */
    flush(): Promise<T.FlushResult>;
    /** Send a test delivery (event webhook.test) now, whatever the event filter. */
    test(): Promise<T.Delivery>;
    /** Probe the receiver: one genuine delivery and six forged ones at once; `passed` when it accepts the first and refuses the rest. */
    probe(): Promise<T.ProbeResult>;
  };

  constructor(
    /** The sandbox's base URL, e.g. http://127.0.0.1:4010 */
    readonly url: string,
    /** The API key (Bearer) this client acts as. */
    readonly key: string,
  ) {
    this.webhooks = {
      set: (target, options = {}) => this.call('webhooks.set', { body: { ...options, url: target } }),
      get: () => this.call('webhooks.get'),
      remove: () => this.call('webhooks.remove'),
      flush: () => this.call('webhooks.flush'),
      test: () => this.call('webhooks.test'),
      probe: () => this.call('webhooks.probe'),
    };
  }

  private call<R>(method: ControlMethod, parts?: Parts): Promise<R> {
    return call<R>(this.url, this.key, method, parts);
  }

  /** fetch() on the sandbox with this key: for the partner API, e.g. fetch('/api/v1/partners/payouts', {method: 'POST', body}).
   * A string body is sent as JSON unless the init sets a content type. */
  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${this.key}`);
    if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
    return fetch(this.url.replace(/\/$/, '') + path, { ...init, headers });
  }

  /**
   * A webhook receiver for this key: listens on a free loopback port, sets itself as the key's webhook
   * (events, faults and secret from `options`), and verifies every delivery with the key's secret as
   * Standard Webhooks says. next(type), all(), waitFor(predicate); close() stops it and removes the
   * webhook. The sandbox must be able to reach it: a sandbox started with --webhook-targets public
   * refuses a loopback URL (a SandboxRequestError).
   */
  webhookInbox(options: InboxOptions = {}): Promise<WebhookInbox> {
    return openInbox(this, options);
  }

  /** Forget everything of this key: resources, balances, jobs, events, journal, clock offset, webhook. */
  reset(): Promise<T.ResetResult> {
    return this.call('reset');
  }

  /** The key's clock: now, its offset from real time, and the next timed move. */
  clock(): Promise<T.ClockState> {
    return this.call('clock');
  }

  /** Stop the key's clock where it stands: it then moves only when advanced. */
  freezeClock(): Promise<T.ClockState> {
    return this.call('freezeClock', { body: { frozen: true } });
  }

  /** Let a frozen clock run on from where it stands. */
  resumeClock(): Promise<T.ClockState> {
    return this.call('resumeClock', { body: { frozen: false } });
  }

  /** Move the key's clock forward; every move, expiry and webhook due by then happens, in order, each at its own time. */
  advanceClock(seconds: number): Promise<T.AdvanceClockResult> {
    return this.call('advanceClock', { body: { seconds } satisfies T.AdvanceClockRequest });
  }

  /** Move the key's clock to an instant (never earlier than now: a 409); as advanceClock otherwise. */
  advanceClockTo(instant: Date | string): Promise<T.AdvanceClockResult> {
    const to = typeof instant === 'string' ? instant : instant.toISOString();
    return this.call('advanceClockTo', { body: { to } satisfies T.AdvanceClockRequest });
  }

  /** The request journal, newest first, secrets redacted; filtered on the server:
   * requests({ method: 'POST', path: '/api/v1/partners/payouts', status: '2xx', since: 'req_12' }). */
  requests(query: T.RequestsQuery = {}): Promise<T.JournalList> {
    const { since, status, ...rest } = query;
    return this.call('requests', {
      query: { ...rest, status: status === undefined ? undefined : String(status), since: since instanceof Date ? since.toISOString() : since },
    });
  }

  /** The event log, oldest first. `type`: an event (payout.failed), a resource (payout or payout.*), or *. */
  events(query: { type?: string; after?: string; limit?: number } = {}): Promise<T.EventList> {
    return this.call('events', { query });
  }

  /** The first event of `type` in the log (after `options.after`), waiting for it as long as `options.timeout`. */
  async waitForEvent(type: string, options: WaitOptions = {}): Promise<T.SandboxEvent> {
    const { timeout = 10_000, interval = 50, after } = options;
    const deadline = Date.now() + timeout;
    for (;;) {
      const [event] = (await this.events({ type, after, limit: 1 })).data;
      if (event) return event;
      if (Date.now() >= deadline) {
        const seen = (await this.events({ after, limit: 20 })).data.map((e) => e.event);
        throw new Error(`No '${type}' event within ${timeout} ms for this key; events so far: ${seen.length ? seen.join(', ') : 'none'}.`);
      }
      await sleep(Math.min(interval, Math.max(0, deadline - Date.now())));
    }
  }

  /** Push a resource along its state machine: simulate('payouts', 'order-1', 'fail', { reason }). A move its state forbids is a 409. */
  simulate(resource: string, id: string, event: string, body?: T.SimulateBody): Promise<T.SimulateResult> {
    return this.call('simulate', { params: { resource, id, event }, body });
  }

  /** Every resource of this key, of every kind, newest first, with counts per kind. */
  resources(query: T.ResourcesQuery = {}): Promise<T.ResourceList> {
    return this.call('resources', { query: { ...query } });
  }

  /** The key's wallet balances. */
  balances(): Promise<T.BalanceList> {
    return this.call('balances');
  }

  /** Add funds to one balance: topUp({ key: 'NGN', amount: 1000000 }). */
  topUp(request: T.TopUpRequest): Promise<T.Balance> {
    return this.call('topUp', { body: request });
  }

  /** The fiat balance accounts: the accountId a bank withdrawal names. */
  accounts(): Promise<T.BalanceAccountList> {
    return this.call('accounts');
  }

  /** Upload a bulk disbursement file: JSON ({ items }) or CSV text. */
  uploadBulk(file: T.BulkUploadRequest | string, options: { name?: string; serviceSource?: string } = {}): Promise<T.BulkFile> {
    return this.call('uploadBulk', {
      body: file,
      query: { name: options.name },
      headers: options.serviceSource ? { 'x-service-source': options.serviceSource } : {},
    });
  }

  /** Make the settled demo bulk file, bulk_demo_salaries (24 rows); no other call makes it. */
  demoBulk(): Promise<T.BulkFile> {
    return this.call('demoBulk');
  }

  /** The test values that end a resource a set way with no scenario, and whether they work for this key now. */
  magicValues(): Promise<T.MagicValueList> {
    return this.call('magicValues');
  }

  /** The scenarios this sandbox knows. */
  scenarios(): Promise<T.ScenarioList> {
    return this.call('scenarios');
  }

  /** The scenario in force for this key, and where it comes from. */
  scenario(): Promise<T.ScenarioState> {
    return this.call('scenario');
  }

  /** Bind a scenario to this key: a known name ('failures') or an inline document. It applies from the next request. */
  useScenario(scenario: string | T.ScenarioDocument): Promise<T.ScenarioState> {
    return this.call('useScenario', { body: typeof scenario === 'string' ? { name: scenario } : { scenario } });
  }

  /** Go back to the scenario the sandbox started with. */
  clearScenario(): Promise<T.ScenarioState> {
    return this.call('clearScenario');
  }

  /** Save a scenario under a name for this key; the name then works in useScenario and X-Sandbox-Scenario. */
  saveScenario(name: string, scenario: T.ScenarioDocument): Promise<T.SavedScenario> {
    return this.call('saveScenario', { params: { name }, body: { scenario } });
  }

  /** Forget one of this key's saved scenarios; answers the scenarios left. */
  deleteScenario(name: string): Promise<T.ScenarioList> {
    return this.call('deleteScenario', { params: { name } });
  }

  /** The webhook delivery log, newest first, with every attempt. */
  deliveries(query: T.DeliveriesQuery = {}): Promise<T.DeliveryList> {
    return this.call('deliveries', { query });
  }

  /** Send a delivery once more, with the same webhook-id. */
  redeliver(deliveryId: string): Promise<T.Delivery> {
    return this.call('redeliver', { params: { id: deliveryId } });
  }

  /** Is this key's integration ready for live? Each check's verdict and its evidence (docs/readiness.md). */
  report(): Promise<T.ReadinessReport>;
  /** The same report as Markdown or as a JUnit XML file, as text. */
  report(format: 'markdown' | 'junit'): Promise<string>;
  report(format?: 'markdown' | 'junit'): Promise<T.ReadinessReport | string> {
    return this.call('report', { query: { format }, headers: format ? { accept: format === 'junit' ? 'application/xml' : 'text/markdown' } : {} });
  }

  /** Forget what the report observed of this key, to judge a new run from nothing. */
  resetReport(): Promise<T.ReadinessReport> {
    return this.call('resetReport');
  }
}

/** The control API of one sandbox: what needs no key, and a client per key. */
export class SandboxClient {
  constructor(
    /** The sandbox's base URL, e.g. http://127.0.0.1:4010 */
    readonly url: string,
  ) {}

  /** Up, how long, and which store. Needs no key. */
  health(): Promise<T.SandboxHealth> {
    return call(this.url, undefined, 'health');
  }

  /** The scenario format as JSON Schema. Needs no key. */
  scenarioSchema(): Promise<T.ScenarioJsonSchema> {
    return call(this.url, undefined, 'scenarioSchema');
  }

  /** The control API for one key: a fresh sandbox-mode key (a tenant of its own) unless one is given. */
  tenant(key: string = freshTestKey()): SandboxTenant {
    return new SandboxTenant(this.url, key);
  }
}
