import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonResponse, newRouter, replayedHeader, security, type Tag } from '../../http/openapi.js';
import { created, reply, requestScenario } from '../../http/respond.js';
import { CreatePayoutRequest, PayoutEnvelope, ReferenceParam } from './payouts.schema.js';
import { payout } from './payouts.machine.js';
import { createPayout, envelope, getPayout } from './payouts.service.js';

export const payoutsTag: Tag = {
  name: 'Fiat payouts',
  description: 'Pay out from the wallet balance to a bank account, after listing banks and resolving the account.',
  order: 1,
};
const tags = [payoutsTag.name];

const create = createRoute({
  method: 'post',
  path: '/api/v1/partners/payouts',
  operationId: 'createPayout',
  tags,
  security,
  summary: 'Create a fiat payout',
  description:
    'Debits the partner wallet (amount plus fee) and routes the payout to the bank. Idempotent per reference. Live keys pay only an account that Resolve Bank Account resolves (else 404 ACCOUNT_NOT_FOUND), in the name it resolves to (else 400 ACCOUNT_NAME_MISMATCH).',
  request: { body: jsonBody(CreatePayoutRequest) },
  responses: {
    201: {
      ...jsonResponse(PayoutEnvelope, 'Payout created (or replayed, with Idempotent-Replayed: true)'),
      headers: replayedHeader('reference and body'),
    },
    ...errorResponses(400, 404, 409, 413, 415),
  },
});

const read = createRoute({
  method: 'get',
  path: '/api/v1/partners/payouts/{reference}',
  operationId: 'getPayout',
  tags,
  security,
  summary: 'Read a fiat payout by reference',
  request: { params: ReferenceParam },
  responses: { 200: jsonResponse(PayoutEnvelope, 'The payout in its current state'), ...errorResponses(400, 404) },
});

export const payoutRoutes = newRouter()
  .openapi(create, (c) => {
    const t = c.get('tenant');
    const body = c.req.valid('json');
    return created(c, {
      resource: payout.name,
      key: body.reference,
      body,
      create: () => createPayout(t, body, requestScenario(c)),
      read: (ref) => getPayout(t, ref),
      present: (p) => envelope('Payout initiated successfully', p),
    });
  })
  .openapi(read, (c) => {
    const p = getPayout(c.get('tenant'), c.req.valid('param').reference);
    return reply(c, envelope('Payout retrieved successfully', p), 200);
  });
