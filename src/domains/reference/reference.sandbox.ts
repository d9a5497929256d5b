// The reference data's control routes: the tenant's wallet balances, a top-up, the balance
// accounts whose accountId a bank withdrawal names, and the zero-setup test values.
import { createRoute } from '@hono/zod-openapi';
import { dec } from '../../kernel/money.js';
import { CONTROL_TAG, errorResponses, jsonBody, jsonResponse, newRouter, security } from '../../http/openapi.js';
import { listAccounts } from './accounts.js';
import { balanceOf, credit, formatBalance, listBalances } from './balances.service.js';
import { magicValueTable } from './magic-values.js';
import { Balance, BalanceAccountList, BalanceList, MagicValueList, TopUpRequest } from './reference.schema.js';

const tags = [CONTROL_TAG.name];

const balances = createRoute({
  method: 'get',
  path: '/_sandbox/balances',
  operationId: 'listBalances',
  tags,
  security,
  summary: "The tenant's wallet balances",
  responses: { 200: jsonResponse(BalanceList, 'Balances'), ...errorResponses() },
});

const topUp = createRoute({
  method: 'post',
  path: '/_sandbox/balances/top-up',
  operationId: 'topUpBalance',
  tags,
  security,
  summary: "Add funds to one of the tenant's balances",
  request: { body: jsonBody(TopUpRequest) },
  responses: { 200: jsonResponse(Balance, 'The balance after the top-up'), ...errorResponses(400) },
});

const accounts = createRoute({
  method: 'get',
  path: '/_sandbox/accounts',
  operationId: 'listBalanceAccounts',
  tags,
  security,
  summary: "The tenant's fiat balance accounts: the accountId to send on a bank withdrawal",
  responses: { 200: jsonResponse(BalanceAccountList, 'Balance accounts'), ...errorResponses() },
});

const magicValues = createRoute({
  method: 'get',
  path: '/_sandbox/magic-values',
  operationId: 'listMagicValues',
  tags,
  security,
  summary: 'The test values that end a payout, withdrawal, transfer or wallet payout a set way, with no scenario to write',
  responses: { 200: jsonResponse(MagicValueList, 'Test values'), ...errorResponses() },
});

export const referenceSandbox = () =>
  newRouter()
    .openapi(balances, (c) => c.json({ data: listBalances(c.get('tenant')) }, 200))
    .openapi(topUp, (c) => {
      const t = c.get('tenant');
      const { key, amount } = c.req.valid('json');
      credit(t, key, dec(amount));
      return c.json({ key, available: formatBalance(key, balanceOf(t, key)) }, 200);
    })
    .openapi(accounts, (c) => c.json({ data: listAccounts(c.get('tenant')) }, 200))
    .openapi(magicValues, (c) => {
      const t = c.get('tenant');
      return c.json({ honoured: t.mode === 'sandbox' && t.behaviour().section('magicValues') !== false, data: magicValueTable() }, 200);
    });
