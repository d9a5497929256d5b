import { defineResource } from '../../engine/registry/resource.js';
import { compileRequests } from '../../iso20022/xsd-reader.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import type { DomainModule } from '../module.js';
import { fxTrade, type TradeEvent } from './fx.machine.js';
import { FX_BASE, xmlErrors } from './fx.http.js';
import { fxRoutes, fxTag } from './fx.routes.js';
import { acceptTrade, cancelTrade, confirmTrade, fxTradeJobs, getTrade, tradeView, type TradeRecord } from './fx.service.js';
import { isFiat } from '../liquidity/allocation.js';
import { listAccounts } from '../reference/accounts.js';
import { SandboxError } from '../../kernel/errors.js';

/**
 * /_sandbox/simulate/fx-trades/{txId}/{accept|confirm|cancel}: the same moves as the XML routes,
 * for tests that want to push a trade along without writing XML. accept takes {"accountId": uuid}
 * (an internal balance settlement); without it the trade settles to a generated account id, or under
 * a live key, which settles only into its own balance accounts, to its account in the trade's fiat
 * currency (the bought one when both are fiat). cancel takes {"reason"}, as the XML's Rsn.
 */
function simulate(t: Tenant, id: string, event: TradeEvent, body: Record<string, unknown>): TradeRecord {
  switch (event) {
    case 'accept': {
      const accountId = typeof body.accountId === 'string' ? body.accountId : t.mode === 'live' ? ownAccount(t, getTrade(t, id)) : t.random.uuid();
      try {
        return acceptTrade(t, id, { kind: 'account', accountId });
      } catch (err) {
        // A refused account is named as this body sends it, not as the XML's AcctId.
        if (err instanceof SandboxError && err.code === 'ACCOUNT_NOT_FOUND') throw new SandboxError(err.code, err.message, [{ field: 'accountId', issue: 'is not one of your balance accounts' }]);
        throw err;
      }
    }
    case 'confirm':
      return confirmTrade(t, id);
    case 'cancel':
      return cancelTrade(t, id, typeof body.reason === 'string' ? body.reason : undefined);
  }
}

/** The key's balance account in the trade's fiat currency, the bought one when both are fiat. */
function ownAccount(t: Tenant, trade: TradeRecord): string {
  const fiat = isFiat(trade.quotedCcy) ? trade.quotedCcy : trade.baseCcy;
  // A currency the key holds no account in leaves a generated id, which the settlement refuses naming accountId.
  return listAccounts(t).find((a) => a.currency === fiat)?.accountId ?? t.random.uuid();
}

/** The FX interface speaks XML; here a trade is the JSON the simulate route answers with (live TTL). */
export const fxTradeResource = defineResource(fxTrade, {
  id: (r: TradeRecord) => r.txId,
  status: (r) => r.status,
  view: tradeView,
  jobs: fxTradeJobs,
  simulate: {
    events: fxTrade.machine.events,
    apply: (t, id, event, body) => tradeView(t, simulate(t, id, event, body)),
    reads: (event) => (event === 'accept' ? ['accountId'] : event === 'cancel' ? ['reason'] : []),
  },
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
