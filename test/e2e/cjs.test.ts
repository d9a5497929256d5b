// The CommonJS entries (dist/cjs/, the require condition of payments-sandbox/client, /matchers and
// /jest) as require() loads them: the control client drives a sandbox, its inbox verifies, and the
// Jest setup registers the matchers with a global expect.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/index.js';
import type * as Client from '../../src/client/index.js';
import type * as Matchers from '../../src/client/matchers.js';
import { payout } from '../support/webhooks.js';

const require = createRequire(import.meta.url);
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ scenario: 'failures' });
});
afterAll(() => sb?.close());

it('require("payments-sandbox/client") drives a sandbox and receives verified webhooks', async () => {
  const { SandboxClient, SandboxRequestError } = require('../../dist/cjs/client.cjs') as typeof Client;
  const t = new SandboxClient(sb.url).tenant();
  const inbox = await t.webhookInbox({ events: ['payout.failed'] });
  try {
    expect((await t.fetch('/api/v1/partners/payouts', { method: 'POST', body: JSON.stringify(payout('cjs-1')) })).status).toBe(201);
    await t.advanceClock(300);
    expect((await inbox.next('payout.failed')).data).toMatchObject({ reference: 'cjs-1', status: 'FAILED' });
    await expect(t.resources({ kind: 'payout' as 'payouts' })).rejects.toBeInstanceOf(SandboxRequestError);
  } finally {
    await inbox.close();
  }
});

it('the Jest setup registers toHaveReceived with the global expect, which the matchers entry exports bare', async () => {
  const registered: Record<string, unknown>[] = [];
  const g = globalThis as { expect?: unknown };
  const before = g.expect;
  g.expect = { extend: (m: Record<string, unknown>) => registered.push(m) };
  try {
    require('../../dist/cjs/jest.cjs');
  } finally {
    g.expect = before;
  }
  expect(Object.keys(registered[0])).toEqual(['toHaveReceived']);
  const { toHaveReceived } = require('../../dist/cjs/matchers.cjs') as typeof Matchers;
  const t = sb.tenant();
  await t.fetch('/api/v1/partners/payouts/none');
  expect((await toHaveReceived(t, { status: 404 }, { times: 1 })).pass).toBe(true);
});
