// createTestApp: the whole sandbox over app.request() with a manual clock and a memory store.
// Every JSON response that passes through `call` is checked against /openapi.json.
import { createApp, type App, type AppDeps } from '../../src/app.js';
import { ConfigSchema, type Config } from '../../src/config.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { MemoryStore } from '../../src/store/memory.store.js';
import { OpenApiValidator } from './openapi.js';

export const KEY = 'sk_test_00000000000000000000000000000001';
export const KEY_B = 'sk_test_00000000000000000000000000000002';
export const LIVE_KEY = 'sk_live_00000000000000000000000000000003';

/** A valid sandbox-mode fiat payout request. */
export const payoutRequest = (reference: string, amount = 1000) => ({
  reference,
  amount,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Raw body text; sent as is. */
  raw?: string;
  headers?: Record<string, string>;
  /** Skip the OpenAPI check (for responses that are deliberately not JSON). */
  unchecked?: boolean;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Validators by the routes their document describes: most test apps have the same routes, so the
 * document is built and compiled once per process instead of once per app. */
const validators = new Map<string, Promise<OpenApiValidator>>();

function validatorFor(app: App): Promise<OpenApiValidator> {
  const routes = app.openAPIRegistry.definitions
    .flatMap((d) => (d.type === 'route' ? [`${d.route.method} ${d.route.path}`] : []))
    .join('\n');
  let v = validators.get(routes);
  if (!v) validators.set(routes, (v = (async () => new OpenApiValidator(await (await app.request('/openapi.json')).json()))()));
  return v;
}

export async function createTestApp(opts: { config?: Partial<Config> } & Partial<Omit<AppDeps, 'config'>> = {}) {
  const clock = opts.clock instanceof ManualClock ? opts.clock : new ManualClock();
  const config = ConfigSchema.parse({ seed: 7, ...opts.config });
  const store = opts.store ?? new MemoryStore();
  const { app, tenants } = createApp({ ...opts, config, store, clock });
  const validator = await validatorFor(app);

  async function call<T = any>(method: string, path: string, o: CallOptions = {}): Promise<CallResult<T>> {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.key === undefined ? KEY : o.key;
    if (key !== null) headers.authorization ??= `Bearer ${key}`;
    let body: string | undefined = o.raw;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await app.request(path, { method, headers, body });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
    const parsed = isJson && text ? JSON.parse(text) : text;
    if (isJson && !o.unchecked) validator.check(method, new URL(path, 'http://x').pathname, res.status, parsed);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  return { app, tenants, clock, store, validator, call };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** Advance a tenant's clock through the control API. */
export async function advance(t: TestApp, seconds: number, key = KEY) {
  const res = await t.call('POST', '/_sandbox/clock/advance', { key, body: { seconds } });
  if (res.status !== 200) throw new Error(`advance failed: ${res.status} ${res.text}`);
  return res.body;
}
