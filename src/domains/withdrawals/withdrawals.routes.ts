import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonResponse, newRouter, replayedHeader, security, type Tag } from '../../http/openapi.js';
import { created, reply, requestScenario } from '../../http/respond.js';
import { CreateWithdrawalRequest, IdempotencyHeader, Withdrawal, WithdrawalReferenceParam } from './withdrawals.schema.js';
import { withdrawal } from './withdrawals.machine.js';
import { createWithdrawal, getWithdrawal, present } from './withdrawals.service.js';

export const withdrawalsTag: Tag = {
  name: 'Bank withdrawals',
  description: 'Withdraw from one of your balance accounts to a bank account.',
  order: 3,
};
const tags = [withdrawalsTag.name];

const create = createRoute({
  method: 'post',
  path: '/api/v1/partners/withdrawal',
  operationId: 'createWithdrawal',
  tags,
  security,
  summary: 'Withdraw from a balance account to a bank account',
  description:
    'Debits the balance account named by accountId (which fixes the currency) and sends the money to the bank account. ' +
    'PROCESSING until the provider settles it: SUCCESSFUL, or FAILED with a refund. ' +
    'The request has no reference: send an Idempotency-Key header to make retries safe. ' +
    'Live keys pay only an account that Resolve Bank Account resolves (else 404 ACCOUNT_NOT_FOUND), in the name it resolves to (else 400 ACCOUNT_NAME_MISMATCH).',
  request: { headers: IdempotencyHeader, body: jsonBody(CreateWithdrawalRequest) },
  responses: {
    201: {
      ...jsonResponse(Withdrawal, 'Withdrawal accepted (or replayed, with Idempotent-Replayed: true)'),
      headers: replayedHeader('Idempotency-Key and body'),
    },
    ...errorResponses(400, 403, 404, 409, 413, 415),
  },
});

const read = createRoute({
  method: 'get',
  path: '/api/v1/partners/withdrawal/{reference}',
  operationId: 'getWithdrawal',
  tags,
  security,
  summary: 'Read a bank withdrawal by its reference (TRF-...)',
  request: { params: WithdrawalReferenceParam },
  responses: { 200: jsonResponse(Withdrawal, 'The withdrawal in its current state'), ...errorResponses(400, 404) },
});

export const withdrawalRoutes = newRouter()
  .openapi(create, (c) => {
    const t = c.get('tenant');
    const body = c.req.valid('json');
    // No reference in the body: idempotent by the Idempotency-Key header, when sent.
    return created(c, {
      resource: withdrawal.name,
      key: c.req.valid('header')['idempotency-key'],
      keyField: 'Idempotency-Key',
      body,
      create: () => createWithdrawal(t, body, requestScenario(c)),
      read: (ref) => getWithdrawal(t, ref),
      present,
    });
  })
  .openapi(read, (c) => reply(c, present(getWithdrawal(c.get('tenant'), c.req.valid('param').reference)), 200));
