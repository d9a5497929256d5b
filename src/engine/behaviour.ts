// How resources behave over time: how long each state lasts, how a lifecycle ends, how long quotes
// and trades live, and which optional fields are required. Scenarios supply these; the defaults
// follow the API document with realistic timings.

export type LifecycleResource = 'payout' | 'wallet_payout' | 'withdrawal' | 'quote' | 'fx_trade' | 'transfer';

export interface Outcome {
  succeed: boolean;
  reason?: string;
  /** The terminal state a scenario named, when it named one (e.g. 'expired' for a quote). */
  status?: string;
}

/** What a scenario makes of an authCode sent (or not) with a withdrawal. */
export type AuthCodeCheck = 'ok' | 'missing' | 'invalid';

/** Webhook delivery faults a scenario sets; an option left out is the webhook settings' own. */
export interface WebhookFaultOverrides {
  duplicate?: boolean;
  outOfOrder?: boolean;
  delaySeconds?: number;
}

export interface Behaviour {
  readonly name: string;
  /** Seconds a resource stays in `state` before its next timed move. */
  duration(resource: LifecycleResource, state: string): number;
  /** How the lifecycle of a new resource with these fields ends. */
  outcome(resource: LifecycleResource, fields: Record<string, unknown>): Outcome;
  /** Lifetime in seconds of quotes and FX trades. */
  ttl(resource: 'quote' | 'fx_trade'): number;
  /** Whether a field the API document makes optional is required. */
  requires(flag: 'withdrawal.authCode'): boolean;
  /** Whether this authCode passes: 'missing' when required and absent, 'invalid' when not accepted. */
  checkAuthCode(code: string | undefined): AuthCodeCheck;
  /** The webhook delivery faults this scenario sets (none by default). */
  webhookFaults(): WebhookFaultOverrides;
}

/** The outcome of a lifecycle that succeeds, shared by every such record (records are never changed). */
export const SUCCEEDS: Outcome = Object.freeze({ succeed: true });

export const DEFAULT_DURATIONS: Record<LifecycleResource, Record<string, number>> = {
  payout: { PENDING: 30, PROCESSING: 270 },
  wallet_payout: { PENDING: 30, PROCESSING: 150 },
  withdrawal: { PROCESSING: 300 },
  transfer: { PENDING: 30, PROCESSING: 270 },
  quote: {},
  fx_trade: {},
};

export const defaultBehaviour: Behaviour = {
  name: 'default',
  duration: (resource, state) => DEFAULT_DURATIONS[resource][state] ?? 60,
  outcome: () => SUCCEEDS,
  ttl: () => 300,
  requires: () => false,
  checkAuthCode: () => 'ok',
  webhookFaults: () => ({}),
};
