// Every setting of the sandbox and its default, in one schema for flags and environment.
import { z } from 'zod';

export const ConfigSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(4010),
  host: z.string().min(1).default('127.0.0.1'),
  /** Directory for persistent tenants; absent means memory only. */
  data: z.string().min(1).optional(),
  /** Default scenario for every tenant: a bundled name or a file. */
  scenario: z.string().min(1).default('default'),
  /** Makes ids, names and rates repeatable. */
  seed: z.coerce.number().int().min(0).optional(),
  /** File of accepted keys, one per line. */
  keys: z.string().min(1).optional(),
  /** How often due jobs of loaded tenants are applied in the background, in ms. */
  tickMs: z.coerce.number().int().min(10).default(1000),
  journalSize: z.coerce.number().int().min(1).max(10_000).default(200),
  eventLogSize: z.coerce.number().int().min(1).max(100_000).default(1000),
  bodyLimitBytes: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** Most tenants kept in memory with --data; the least recently used idle ones reload from disk on
   * their next request. 0 keeps every tenant. Without --data it has no effect (nothing to reload). */
  maxTenants: z.coerce.number().int().min(0).default(0),
  /** Which addresses webhooks may reach: any, or public only (no private, loopback or link-local
   * address, literal or resolved), which a hosted sandbox needs. */
  webhookTargets: z.enum(['any', 'public']).default('any'),
});

export type Config = z.infer<typeof ConfigSchema>;

/** Environment variables that set a config field. */
export const ENV_NAMES: Record<string, keyof Config> = {
  PORT: 'port',
  HOST: 'host',
  SANDBOX_DATA: 'data',
  SANDBOX_SCENARIO: 'scenario',
  SANDBOX_SEED: 'seed',
  SANDBOX_KEYS: 'keys',
  SANDBOX_TICK_MS: 'tickMs',
  SANDBOX_MAX_TENANTS: 'maxTenants',
  SANDBOX_WEBHOOK_TARGETS: 'webhookTargets',
};

export const defaultConfig = (): Config => ConfigSchema.parse({});
