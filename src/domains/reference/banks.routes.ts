// Get All Banks and Resolve Bank Account. The API document lists them with fiat payouts, so they
// carry the tag the payouts domain declares.
import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonResponse, newRouter, security } from '../../http/openapi.js';
import { reply } from '../../http/respond.js';
import { BanksEnvelope, BanksQuery, ResolveEnvelope, ResolveQuery } from './banks.schema.js';
import { listBanks, resolveAccount } from './banks.service.js';

const tags = ['Fiat payouts'];

const banks = createRoute({
  method: 'get',
  path: '/api/v1/partners/banks',
  operationId: 'listBanks',
  tags,
  security,
  summary: 'Get All Banks (NGN and GHS)',
  request: { query: BanksQuery },
  responses: { 200: jsonResponse(BanksEnvelope, 'Banks and their codes'), ...errorResponses(400) },
});

const resolve = createRoute({
  method: 'get',
  path: '/api/v1/partners/banks/resolve',
  operationId: 'resolveBankAccount',
  tags,
  security,
  summary: 'Resolve Bank Account',
  description: 'Test keys resolve every account to John Doe; live keys resolve only listed banks and fixture accounts.',
  request: { query: ResolveQuery },
  responses: { 200: jsonResponse(ResolveEnvelope, 'The verified account name'), ...errorResponses(400, 404) },
});

export const bankRoutes = newRouter()
  .openapi(banks, (c) => {
    const { currency } = c.req.valid('query');
    return reply(c, { status: 'success' as const, message: 'Banks retrieved successfully', data: listBanks(currency) }, 200);
  })
  .openapi(resolve, (c) => {
    const t = c.get('tenant');
    const data = resolveAccount(t.mode, c.req.valid('query'), t.behaviour().section('magicValues') !== false);
    return reply(c, { status: 'success' as const, message: 'Account resolved successfully', data }, 200);
  });
