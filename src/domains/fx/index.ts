import { defineResource } from '../../engine/registry/resource.js';
import { compileRequests } from '../../iso20022/xsd-reader.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import type { DomainModule } from '../module.js';
import { fxTrade, type TradeEvent } from './fx.machine.js';
import { FX_BASE, xmlErrors } from './fx.http.js';
import { fxRoutes, fxTag } from './fx.routes.js';
import { acceptTrade, cancelTrade, confirmTrade, fxTradeJobs, tradeView, type TradeRecord } from './fx.service.js';

/**
 * /_sandbox/simulate/fx-trades/{txId}/{accept|confirm|cancel}: the same moves as the XML routes,
 * for tests that want to push a trade along without writing XML. accept takes {"accountId": uuid}
 * (an internal balance settlement); without it the trade settles to a generated account id.
 */
function simulate(t: Tenant, id: string, event: TradeEvent, body: Record<string, unknown>): TradeRecord {
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

/** The FX interface speaks XML; here a trade is the JSON the simulate route answers with (live TTL). */
export const fxTradeResource = defineResource(fxTrade, {
  id: (r: TradeRecord) => r.txId,
  status: (r) => r.status,
  view: tradeView,
  jobs: fxTradeJobs,
  simulate: { events: fxTrade.machine.events, apply: (t, id, event, body) => tradeView(t, simulate(t, id, event, body)) },
});

/** Every error of the FX paths and of the XSDs, those of the key check and the body limit included, is the XML reject. */
const xmlPaths = xmlErrors();

export const fxDomain = {
  routes: fxRoutes,
  tags: [fxTag],
  before: [
    { path: `${FX_BASE}/*`, handler: xmlPaths },
    { path: '/xsd/*', handler: xmlPaths },
  ],
  resources: [fxTradeResource],
  prepare: compileRequests,
} satisfies DomainModule;
