// The event names the services emit, and what an events filter of PUT /_sandbox/webhooks may name.
// Each resource emits <resource>.<state in lower case> on entering any state of its machine.
import { tradeMachine } from '../fx/fx.machine.js';
import { quoteMachine } from '../quotes/quotes.machine.js';
import { payoutMachine } from '../payouts/payouts.machine.js';
import { transferMachine } from '../transfers/transfers.machine.js';
import { walletPayoutMachine } from '../wallet-payouts/wallet-payouts.machine.js';
import { withdrawalMachine } from '../withdrawals/withdrawals.machine.js';

const STATES: Record<string, readonly string[]> = {
  payout: payoutMachine.states,
  wallet_payout: walletPayoutMachine.states,
  withdrawal: withdrawalMachine.states,
  transfer: transferMachine.states,
  quote: quoteMachine.states,
  // moveQuote emits order.successful beside quote.completed
  order: ['successful'],
  fx_trade: tradeMachine.states,
};

/** Each resource's event names, e.g. payout → payout.pending, payout.processing, … */
export const EVENT_NAMES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(STATES).map(([resource, states]) => [resource, states.map((s) => `${resource}.${s.toLowerCase()}`)]),
);

export const RESOURCES = Object.keys(EVENT_NAMES);

/** Every filter that can match an event: *, each resource, resource.*, and each event name. */
export const EVENT_FILTERS = ['*', ...RESOURCES.flatMap((r) => [r, `${r}.*`, ...EVENT_NAMES[r]])];

/** Why a filter can never match an event, saying what to send instead; undefined when it can. */
export function filterProblem(filter: string): string | undefined {
  if (EVENT_FILTERS.includes(filter)) return undefined;
  const resource = filter.split('.')[0];
  if (!Object.hasOwn(EVENT_NAMES, resource)) {
    return `matches no event: send *, a resource (${RESOURCES.join(', ')}), a resource followed by .*, or an event name such as payout.failed`;
  }
  return `matches no ${resource} event: send ${resource}, ${resource}.* or one of: ${EVENT_NAMES[resource].join(', ')}`;
}
