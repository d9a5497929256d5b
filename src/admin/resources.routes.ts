// GET /_sandbox/resources: every resource of the caller's tenant, of every kind, in one call, as the
// API shows it. The console draws its resource list from here and each resource's history from the
// event log. A new kind of resource is one more entry in RESOURCE_KINDS.
import { createRoute, z } from '@hono/zod-openapi';
import type { Tenant } from '../engine/tenant.js';
import { errorResponses, jsonResponse, newRouter, security } from '../http/openapi.js';
import { present as presentPayout, type PayoutRecord } from '../domains/payouts/payouts.service.js';
import { present as presentWalletPayout, type WalletPayoutRecord } from '../domains/wallet-payouts/wallet-payouts.service.js';
import { present as presentWithdrawal, type WithdrawalRecord } from '../domains/withdrawals/withdrawals.service.js';
import { present as presentTransfer, transfers, type TransferRecord } from '../domains/transfers/transfers.service.js';
import { presentBulk, type BulkRecord } from '../domains/transfers/bulk.service.js';
import { QUOTES } from '../domains/quotes/quotes.service.js';
import type { QuoteRecord } from '../domains/quotes/quotes.build.js';
import { FX_TRADES, tradeView, type TradeRecord } from '../domains/fx/fx.service.js';

export interface ResourceKind<R = any> {
  /** The name the console and this route use; also the event prefix's plural. */
  kind: string;
  /** The tenant store collection the records live in. */
  collection: string;
  /** Prefix of this kind's events in the event log (payout.pending → payout). */
  eventPrefix: string;
  id(r: R): string;
  status(r: R): string | null;
  view(t: Tenant, r: R): Record<string, unknown>;
}

function bulkView(t: Tenant, b: BulkRecord): Record<string, unknown> {
  const store = transfers(t);
  const statuses: Record<string, number> = {};
  for (const ref of b.references) {
    const s = store.get(ref)?.status;
    if (s) statuses[s] = (statuses[s] ?? 0) + 1;
  }
  return { ...presentBulk(b), statuses };
}

export const RESOURCE_KINDS: ResourceKind[] = [
  { kind: 'payouts', collection: 'payouts', eventPrefix: 'payout', id: (r: PayoutRecord) => r.reference, status: (r: PayoutRecord) => r.status, view: (_t, r) => presentPayout(r) },
  {
    kind: 'wallet-payouts',
    collection: 'wallet_payouts',
    eventPrefix: 'wallet_payout',
    id: (r: WalletPayoutRecord) => r.reference,
    status: (r: WalletPayoutRecord) => r.status,
    view: (_t, r) => presentWalletPayout(r),
  },
  {
    kind: 'withdrawals',
    collection: 'withdrawals',
    eventPrefix: 'withdrawal',
    id: (r: WithdrawalRecord) => r.reference,
    status: (r: WithdrawalRecord) => r.status,
    view: (_t, r) => presentWithdrawal(r),
  },
  { kind: 'transfers', collection: 'transfers', eventPrefix: 'transfer', id: (r: TransferRecord) => r.reference, status: (r: TransferRecord) => r.status, view: (_t, r) => presentTransfer(r) },
  { kind: 'bulk-disbursements', collection: 'bulk_disbursements', eventPrefix: 'bulk_disbursement', id: (r: BulkRecord) => r.id, status: () => null, view: bulkView },
  // A quote as GET /api/v1/partners/marketplace/quote/{id} answers it; its events are quote.<state>.
  { kind: 'quotes', collection: QUOTES, eventPrefix: 'quote', id: (r: QuoteRecord) => r.view.quoteId, status: (r: QuoteRecord) => r.view.status, view: (_t, r: QuoteRecord) => r.view },
  // The FX interface speaks XML; here a trade is the JSON the simulate route answers with (live TTL).
  { kind: 'fx-trades', collection: FX_TRADES, eventPrefix: 'fx_trade', id: (r: TradeRecord) => r.txId, status: (r: TradeRecord) => r.status, view: tradeView },
];

const Query = z.object({
  kind: z.string().optional().openapi({ param: { name: 'kind', in: 'query' }, description: 'Only this kind (payouts, transfers, ...)' }),
  limit: z.coerce.number().int().min(1).max(1000).default(100).openapi({ param: { name: 'limit', in: 'query' }, description: 'Newest resources kept per kind' }),
});

const ResourceItem = z
  .object({
    kind: z.string().openapi({ example: 'payouts' }),
    id: z.string().openapi({ example: 'order-10001' }),
    status: z.string().nullable().openapi({ example: 'PENDING', description: 'Current state; null for kinds without one (bulk files)' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
    eventPrefix: z.string().openapi({ example: 'payout', description: 'Its state changes are the events named <eventPrefix>.<state>' }),
    resource: z.record(z.string(), z.unknown()).openapi({ description: 'The resource as the API shows it' }),
  })
  .openapi('SandboxResource');

const ResourceList = z
  .object({
    data: z.array(ResourceItem),
    counts: z.record(z.string(), z.number().int()).openapi({ description: 'How many of each kind the tenant holds', example: { payouts: 2, transfers: 0 } }),
  })
  .openapi('SandboxResourceList');

export function resourceRoutes(kinds: readonly ResourceKind[] = RESOURCE_KINDS) {
  const names = kinds.map((k) => k.kind);
  return newRouter().openapi(
    createRoute({
      method: 'get',
      path: '/_sandbox/resources',
      tags: ['Sandbox control'],
      security,
      summary: "Every resource of this key's tenant, of every kind, newest first",
      description: `Kinds: ${names.join(', ')}. Each resource's history is in GET /_sandbox/events (events named <eventPrefix>.<state>).`,
      request: { query: Query },
      responses: { 200: jsonResponse(ResourceList, 'Resources and counts per kind'), ...errorResponses(400) },
    }),
    (c) => {
      const t = c.get('tenant');
      const { kind, limit } = c.req.valid('query');
      const data: z.infer<typeof ResourceItem>[] = [];
      const counts: Record<string, number> = {};
      for (const k of kinds) {
        if (kind !== undefined && k.kind !== kind) continue;
        const records = [...t.store.collection<Record<string, unknown>>(k.collection).values()];
        counts[k.kind] = records.length;
        const newest = records
          .map((r) => ({ r, createdAt: String(r.createdAt ?? ''), id: k.id(r) }))
          .sort((a, b) => (a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : b.createdAt.localeCompare(a.createdAt)))
          .slice(0, limit);
        for (const { r, createdAt, id } of newest) {
          data.push({ kind: k.kind, id, status: k.status(r), createdAt, eventPrefix: k.eventPrefix, resource: k.view(t, r) });
        }
      }
      return c.json({ data, counts }, 200);
    },
  );
}
