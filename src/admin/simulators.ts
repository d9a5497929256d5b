// How the control API pushes a resource along its machine: each domain registers a simulator.
import type { Tenant } from '../engine/tenant.js';

export interface Simulator {
  /** The events this resource accepts through /_sandbox/simulate. */
  events: readonly string[];
  /** Apply the event and return the resource as the API shows it. */
  apply(tenant: Tenant, id: string, event: string, body: Record<string, unknown>): Record<string, unknown>;
}

export type Simulators = Record<string, Simulator>;

/**
 * For the PENDING → PROCESSING → SUCCESSFUL | FAILED lifecycles (payouts, transfers): a simulated
 * `complete` or `fail` on a PENDING resource first runs `process`, so the end stays one call and
 * the events keep the lifecycle's order.
 */
export function throughProcessing(status: string, event: string, process: () => unknown): void {
  if (status === 'PENDING' && (event === 'complete' || event === 'fail')) process();
}
