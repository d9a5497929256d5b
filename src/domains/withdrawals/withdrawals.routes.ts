import { createRoute } from '@hono/zod-openapi';
import { SandboxError } from '../../kernel/errors.js';
import { idempotent, type StoredResponse } from '../../engine/idempotency.js';
import { errorResponses, jsonBody, jsonResponse, newRouter, security } from '../../http/openapi.js';
import { reply, requestScenario, respondIdempotent } from '../../http/respond.js';
import type { Tenant } from '../../engine/tenant.js';
import { CreateWithdrawalRequest, IdempotencyHeader, Withdrawal, WithdrawalReferenceParam } from './withdrawals.schema.js';
import { createWithdrawal, getWithdrawal, present } from './withdrawals.service.js';

const tags = ['Bank withdrawals'];

const create = createRoute({
  method: 'post',
  path: '/api/v1/partners/withdrawal',
  tags,
  security,
  summary: 'Withdraw from a balance account to a bank account',
  description:
    'Debits the balance account named by accountId (which fixes the currency) and sends the money to the bank account. ' +
    'PROCESSING until the provider settles it: SUCCESSFUL, or FAILED with a refund. ' +
    'The request has no reference: send an Idempotency-Key header to make retries safe.',
  request: { headers: IdempotencyHeader, body: jsonBody(CreateWithdrawalRequest) },
  responses: {
    201: jsonResponse(Withdrawal, 'Withdrawal accepted (or replayed, with Idempotent-Replayed: true)'),
    ...errorResponses(400, 403, 404, 409, 413, 415),
  },
});

const read = createRoute({
  method: 'get',
  path: '/api/v1/partners/withdrawal/{reference}',
  tags,
  security,
  summary: 'Read a bank withdrawal by its reference (TRF-...)',
  request: { params: WithdrawalReferenceParam },
  responses: { 200: jsonResponse(Withdrawal, 'The withdrawal in its current state'), ...errorResponses(404) },
});

/** Idempotency by header: the same key with the same body replays, with another body is 409. */
function withKey(t: Tenant, key: string | undefined, body: unknown, create: () => StoredResponse) {
  if (key === undefined) return { ...create(), replayed: false };
  try {
    return idempotent(t, 'withdrawal', key, body, create, {
      id: (created) => (created as { reference: string }).reference,
      body: (reference) => present(getWithdrawal(t, reference)),
    });
  } catch (err) {
    if (!(err instanceof SandboxError) || err.code !== 'IDEMPOTENCY_CONFLICT') throw err;
    throw new SandboxError(
      'IDEMPOTENCY_CONFLICT',
      `The Idempotency-Key '${key}' was already used with a different request body. Send the original body to get the original response again, or use a new key.`,
      [{ field: 'Idempotency-Key', issue: 'already used with a different body' }],
    );
  }
}

export const withdrawalRoutes = newRouter()
  .openapi(create, (c) => {
    const t = c.get('tenant');
    const body = c.req.valid('json');
    const key = c.req.valid('header')['idempotency-key'];
    return respondIdempotent(c, withKey(t, key, body, () => createWithdrawal(t, body, requestScenario(c))));
  })
  .openapi(read, (c) => reply(c, present(getWithdrawal(c.get('tenant'), c.req.valid('param').reference)), 200));
