// API key → tenant and mode. sk_test_ keys are sandbox mode, sk_live_ keys live simulation, anything
// else is refused; --key-format live also refuses keys not of the live service's format. Before the handler, the tenant's due jobs are applied (catch-up), once an advance of the key under way has applied its moves; after it, the
// tenant's writes are made durable before the response leaves. A key whose stored data fail their
// checks is answered 503 TENANT_DATA_DAMAGED, naming the file, until they are repaired.
import type { Context, MiddlewareHandler, Next } from 'hono';
import { BoundedMap } from '../kernel/bounded-map.js';
import { SandboxError } from '../kernel/errors.js';
import { StoreLoadError } from '../store/file.format.js';
import { StoreUnavailableError } from '../store/store.js';
import { databaseUnavailable, keyBusy, renderError } from './error-responses.js';
import { replaceResponse } from './framework.js';
import type { Tenants } from '../engine/tenancy/tenants.js';
import type { Mode, Tenant } from '../engine/tenancy/tenant.js';
import type { AppEnv } from './types.js';

const KEY = /^sk_(test|live)_[A-Za-z0-9_-]{1,200}$/;
/** The live service's key format, which --key-format live requires. */
export const LIVE_FORMAT = /^sk_(test|live)_[0-9a-f]{32}$/;

/** Refuses a key not of the live service's format (with --key-format live). */
function checkLiveFormat(key: string): void {
  if (LIVE_FORMAT.test(key)) return;
  throw new SandboxError(
    'INVALID_API_KEY',
    'The API key is not in the format of the live service, which this sandbox requires (--key-format live): a key is sk_test_ or sk_live_ followed by 32 lowercase hexadecimal characters, such as sk_test_0123456789abcdef0123456789abcdef.',
    [{ field: 'Authorization', issue: 'must be sk_test_ or sk_live_ followed by 32 characters of 0-9 and a-f' }],
  );
}

export function parseKey(header: string | undefined): { key: string; mode: Mode } {
  if (!header) {
    throw new SandboxError(
      'AUTHENTICATION_REQUIRED',
      'No API key was sent. Send the header Authorization: Bearer sk_test_<your key> (or sk_live_ for live rules).',
      [{ field: 'Authorization', issue: 'is required' }],
    );
  }
  const m = /^Bearer +(\S+)$/i.exec(header.trim());
  const key = m?.[1];
  const parsed = key ? KEY.exec(key) : null;
  if (!key || !parsed) {
    throw new SandboxError(
      'INVALID_API_KEY',
      'The API key is not valid. Send a secret key as Authorization: Bearer sk_test_<key>; publishable keys and other schemes are not accepted.',
      [{ field: 'Authorization', issue: 'must be Bearer followed by a key that begins with sk_test_ or sk_live_' }],
    );
  }
  return { key, mode: parsed[1] === 'live' ? 'live' : 'sandbox' };
}

/** Authorization headers already parsed: a client sends the same one on every request. Only headers
 * of a key's length are kept: `Bearer` and 16 KB of spaces before a key is a valid header, and 10,000
 * of them would hold 160 MB. */
const parsedKeys = new BoundedMap<string, { key: string; mode: Mode }>(10_000, false, 256);

/** How many parsed headers are kept (for tests). */
export const keptKeyCount = () => parsedKeys.size;

function keyOf(header: string | undefined): { key: string; mode: Mode } {
  const kept = header === undefined ? undefined : parsedKeys.get(header);
  if (kept) return kept;
  const parsed = parseKey(header);
  if (header !== undefined) parsedKeys.set(header, parsed);
  return parsed;
}

export interface KeyRules {
  /** Only these keys (--keys). */
  allowedKeys?: ReadonlySet<string>;
  /** Only keys of the live service's format (--key-format live). */
  liveFormat?: boolean;
}

export function tenantMiddleware(tenants: Tenants, { allowedKeys, liveFormat }: KeyRules = {}): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const { key, mode } = keyOf(c.req.header('authorization'));
    if (liveFormat) checkLiveFormat(key);
    if (allowedKeys && !allowedKeys.has(key)) {
      // A well-formed key this sandbox does not let in: 403, the contract's "key not allowed" (401 is a missing or malformed key).
      throw new SandboxError('PERMISSION_DENIED', 'This API key is not one this sandbox accepts. Use a key from its keys file.', [
        { field: 'Authorization', issue: 'not in the keys file' },
      ]);
    }
    const loaded = tenants.holdLoaded(key);
    if (loaded && tenants.passive) {
      // Memory store, nothing ever unloaded: no hold to release and nothing to flush afterwards, so
      // no async frame either (see framework.ts, plain middleware).
      c.set('tenant', loaded);
      loaded.noteRequest();
      // An advance of this key applying its moves in slices: its requests wait for it (tenant.ts).
      if (loaded.advancing) return loaded.caughtUp().then(next);
      // Moves due in thousands are applied a slice at a time before the request goes on.
      const catchingUp = loaded.catchUpInSlices();
      return catchingUp ? catchingUp.then(() => loaded.caughtUp()).then(next) : next();
    }
    return held(c, next, tenants, loaded ?? tenants.acquire(key, mode));
  };
}

/** The request with its tenant held throughout (so an idle-tenant limit never unloads it midway)
 * and its writes made durable before the response leaves. */
async function held(c: Context<AppEnv>, next: Next, tenants: Tenants, holding: Tenant | Promise<Tenant>): Promise<void> {
  let tenant: Tenant;
  try {
    tenant = await holding;
  } catch (err) {
    if (err instanceof StoreUnavailableError) throw unavailable(false, err);
    throw err instanceof StoreLoadError ? damaged(err) : err;
  }
  /** False once outside() has let the tenant go for good (a shared store's, failing). */
  let holds = true;
  try {
    c.set('tenant', tenant);
    c.set('tenantHeld', true);
    tenant.noteRequest();
    await tenant.caughtUp();
    c.set('outside', (work) =>
      tenants.outside(tenant, work).catch((err: unknown) => {
        // On a shared store the tenant was let go and not taken again: another request may hold it
        // now. The other stores hold it throughout, and the request ends as any other.
        if (tenants.letsGoOutside) holds = false;
        // The request's writes before the work, or its next session, could not reach the database.
        throw err instanceof StoreUnavailableError ? unavailable(true, err) : err;
      }),
    );
    await next();
    if (!holds || tenant.store.flushed) return;
    tenant.markSeen();
    try {
      await tenants.persist(tenant);
    } catch (err) {
      if (err instanceof StoreUnavailableError) {
        replaceResponse(c, renderError(c, unavailable(true, err)));
        return;
      }
      console.error('[sandbox] could not persist a write:', err);
      const message =
        'The sandbox could not write this request to its data directory, so it may not survive a restart. Retry it: a retry with the same reference answers from what is kept.';
      replaceResponse(c, renderError(c, new SandboxError('INTERNAL_ERROR', message)));
    }
  } finally {
    if (holds) tenants.release(tenant);
    // A fault's wait, served once the tenant is let go (see http/fault-responses.ts, wait()).
    await c.get('afterRelease')?.();
  }
}

let lastOutage = 0;

/** The shared database cannot be reached: 503, and the request is safe to retry. Logged at most once
 * a minute, however many requests meet the outage. */
function unavailable(writing: boolean, err: StoreUnavailableError): SandboxError {
  if (err.lockWait) return keyBusy(writing);
  if (Date.now() - lastOutage > 60_000) {
    lastOutage = Date.now();
    console.error('[sandbox]', err.message);
  }
  return databaseUnavailable(writing);
}

/** The key's stored data fail their checks: this key is refused until they are repaired, others go on. */
const damaged = (err: StoreLoadError) =>
  new SandboxError(
    'TENANT_DATA_DAMAGED',
    `The data the sandbox keeps for this API key are damaged, so it will not load them: ${err.shown}: ${err.reason}. ` +
      `Requests with this key fail until the sandbox's operator restores that file from a backup, or moves the folder ` +
      `${err.shownFolder} out of the data directory to start this key empty. Other keys are not affected.`,
  );
