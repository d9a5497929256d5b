// Webhook settings of a tenant: set (with a generated secret when none is given), read, stop.
import { SandboxError } from '../../kernel/errors.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { addressRefusal, type TargetPolicy } from './targets.js';
import type { WebhookSettings, WebhookSettingsRequest } from './webhooks.schema.js';

/** What is kept: the settings plus the signing secret, which is never shown after the PUT. */
export interface SettingsRecord extends WebhookSettings {
  secret: string;
}

/** The collection the settings live in; a reset keeps it. */
export const SETTINGS_COLLECTION = 'webhook_settings';
const settings = (t: Tenant) => t.store.collection<SettingsRecord>(SETTINGS_COLLECTION);
const KEY = 'settings';

export const settingsOf = (t: Tenant): SettingsRecord | undefined => settings(t).get(KEY);

/** The faults every settings record answers with; one stored before an option existed takes its default. */
export const DEFAULT_FAULTS: WebhookSettings['faults'] = { duplicate: false, outOfOrder: false, delaySeconds: 0, order: 'as-happened' };

export function present(s: SettingsRecord): WebhookSettings {
  const { secret: _secret, ...view } = s;
  return { ...view, faults: { ...DEFAULT_FAULTS, ...view.faults } };
}

/** whsec_ plus the base64 of 24 bytes of the tenant's seeded randomness. */
function newSecret(t: Tenant): string {
  return `whsec_${Buffer.from(t.random.hex(48), 'hex').toString('base64')}`;
}

/** Replace the settings. Every PUT answers with the secret in force, the only time it is shown. */
export function putSettings(t: Tenant, req: WebhookSettingsRequest, policy: TargetPolicy): SettingsRecord {
  const refusal = addressRefusal(new URL(req.url), policy);
  if (refusal) throw new SandboxError('VALIDATION_ERROR', `Invalid request body: url ${refusal}.`, [{ field: 'url', issue: refusal }]);
  const now = t.nowIso();
  const record: SettingsRecord = {
    url: req.url,
    events: req.events ? [...new Set(req.events)] : ['*'],
    faults: { ...DEFAULT_FAULTS, ...req.faults },
    createdAt: settingsOf(t)?.createdAt ?? now,
    updatedAt: now,
    secret: req.secret ?? newSecret(t),
  };
  settings(t).put(KEY, record);
  t.observations.webhook(record.url);
  return record;
}

export function getSettings(t: Tenant): SettingsRecord {
  const s = settingsOf(t);
  if (!s) {
    throw new SandboxError('RESOURCE_NOT_FOUND', 'No webhook is set for this API key. Set one with PUT /_sandbox/webhooks {"url": "https://..."}.');
  }
  return s;
}

/** Forget the settings; returns whether there were any. */
export function removeSettings(t: Tenant): boolean {
  if (!settingsOf(t)) return false;
  settings(t).remove(KEY);
  t.observations.webhook(undefined);
  return true;
}
