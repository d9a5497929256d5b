// /_sandbox/simulate/fx-trades/{txId}/{accept|confirm|cancel}: the same moves as the XML routes,
// for tests that want to push a trade along without writing XML. accept takes {"accountId": uuid}
// (an internal balance settlement); without it the trade settles to a generated account id.
import type { Simulators } from '../../admin/simulators.js';
import type { Tenant } from '../../engine/tenant.js';
import { tradeMachine, type TradeEvent } from './fx.machine.js';
import { acceptTrade, cancelTrade, confirmTrade, ttlLeft, type TradeRecord } from './fx.service.js';

function apply(t: Tenant, id: string, event: TradeEvent, body: Record<string, unknown>): TradeRecord {
  switch (event) {
    case 'accept': {
      const accountId = typeof body.accountId === 'string' ? body.accountId : t.random.uuid();
      return acceptTrade(t, id, { kind: 'account', accountId });
    }
    case 'confirm':
      return confirmTrade(t, id);
    case 'cancel':
      return cancelTrade(t, id);
  }
}

export const fxSimulators: Simulators = {
  'fx-trades': {
    events: tradeMachine.events,
    apply: (t, id, event, body) => {
      const r = apply(t, id, event as TradeEvent, body);
      return { ...r, ttlSeconds: ttlLeft(t, r) };
    },
  },
};
