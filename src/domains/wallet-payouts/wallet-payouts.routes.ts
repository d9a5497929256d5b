import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonResponse, newRouter, replayedHeader, security, type Tag } from '../../http/openapi.js';
import { created, reply, requestScenario } from '../../http/respond.js';
import { CreateWalletPayoutRequest, WalletPayout, WalletPayoutReferenceParam } from './wallet-payouts.schema.js';
import { walletPayout } from './wallet-payouts.machine.js';
import { createWalletPayout, getWalletPayout, present } from './wallet-payouts.service.js';

export const walletPayoutsTag: Tag = {
  name: 'Crypto wallet payouts',
  description: 'Send USDC or USDT to a blockchain address on one of five chains.',
  order: 2,
};
const tags = [walletPayoutsTag.name];

const create = createRoute({
  method: 'post',
  path: '/api/v1/partners/wallets/payouts',
  operationId: 'createWalletPayout',
  tags,
  security,
  summary: 'Create a crypto wallet payout',
  description:
    'Holds amount plus estimatedFee on the chain and asset balance and sends the tokens to toAddress. ' +
    'PENDING until broadcast, then PROCESSING with a transactionHash, then COMPLETED or FAILED. Idempotent per reference.',
  request: { body: jsonBody(CreateWalletPayoutRequest) },
  responses: {
    201: {
      ...jsonResponse(WalletPayout, 'Withdrawal initiated successfully (or replayed, with Idempotent-Replayed: true)'),
      headers: replayedHeader('reference and body'),
    },
    ...errorResponses(400, 409, 413, 415),
  },
});

const read = createRoute({
  method: 'get',
  path: '/api/v1/partners/wallets/payouts/{reference}',
  operationId: 'getWalletPayout',
  tags,
  security,
  summary: 'Read a crypto wallet payout by reference',
  request: { params: WalletPayoutReferenceParam },
  responses: { 200: jsonResponse(WalletPayout, 'The payout in its current state'), ...errorResponses(400, 404) },
});

export const walletPayoutRoutes = newRouter()
  .openapi(create, (c) => {
    const t = c.get('tenant');
    const body = c.req.valid('json');
    return created(c, {
      resource: walletPayout.name,
      key: body.reference,
      body,
      create: () => createWalletPayout(t, body, requestScenario(c)),
      read: (ref) => getWalletPayout(t, ref),
      present,
    });
  })
  .openapi(read, (c) => reply(c, present(getWalletPayout(c.get('tenant'), c.req.valid('param').reference)), 200));
