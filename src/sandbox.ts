// startSandbox(): a sandbox inside the caller's process, for a partner's test suite. It is
// startServer with options checked by the CLI's config schema (port 0 by default) and the control
// client bound to its URL. Nothing is kept at module level: many can run side by side.
import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import { SandboxClient } from './client/control.js';
import { ConfigSchema, type Config } from './config.js';
import type { Clock } from './kernel/clock.js';
import { startServer } from './server.js';

/** Settings given as text with a unit on the command line (90s, 45m, 12h, 7d), or as seconds. */
type Durations = 'resourceRetention' | 'tenantRetention';

/** The settings of `payments-sandbox` on the command line, as an object (e.g. --max-resources is maxResources),
 * plus where background failures are reported. `port` is 0 (any free port) unless given. */
export type SandboxOptions = Partial<Omit<Config, Durations | 'clock'>> &
  Partial<Pick<z.input<typeof ConfigSchema>, Durations>> & {
    /** Where failures of background work are reported; console.error by default. */
    logError?: (message: string, err: unknown) => void;
    /**
     * An instant (a Date, '2030-01-01T00:00:00Z' or '2030-01-01'), as --clock: the clock of every key
     * first seen begins there, past or future, and runs on. Or a Clock, the base time every key's clock
     * is read from ({ now: () => ms }), for tests of the sandbox itself. Real time by default.
     */
    clock?: Date | string | Clock;
  };

/** A running sandbox: its URL, the control client (health, scenarioSchema, tenant) and close(). */
export interface Sandbox extends SandboxClient {
  /** e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly port: number;
  /** Stop accepting, let requests in flight finish, flush the store. The same promise on every call. */
  close(): Promise<void>;
}

class RunningSandbox extends SandboxClient implements Sandbox {
  constructor(
    url: string,
    readonly port: number,
    readonly close: () => Promise<void>,
  ) {
    super(url);
  }
}

/** Start a sandbox on a port of this machine: `const sb = await startSandbox({ seed: 1, scenario: 'failures' })`. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { logError, clock: clockOption, ...rest } = options;
  const clock = typeof clockOption === 'object' && !(clockOption instanceof Date) ? clockOption : undefined;
  const settings: Record<string, unknown> = clock || clockOption === undefined ? rest : { ...rest, clock: clockOption };
  const unknown = Object.keys(rest).filter((k) => !(k in ConfigSchema.shape));
  const known = Object.keys(ConfigSchema.shape).filter((k) => k !== 'clock');
  if (unknown.length) throw new TypeError(`startSandbox: unknown option ${unknown.map((k) => `'${k}'`).join(', ')}. Known: ${known.join(', ')}, logError, clock.`);
  const parsed = ConfigSchema.safeParse({ port: 0, ...settings });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`);
    throw new TypeError(`startSandbox: invalid options. ${problems.join('; ')}`);
  }
  // As the command does: an unseeded start picks its seed and serves it (GET /_sandbox/health), so a
  // failing run can be replayed with startSandbox({ seed }).
  const config = parsed.data.seed === undefined ? { ...parsed.data, seed: randomInt(0, 2 ** 31 - 1) } : parsed.data;
  const server = await startServer(config, { logError, clock });
  return new RunningSandbox(server.url, server.port, server.close);
}
