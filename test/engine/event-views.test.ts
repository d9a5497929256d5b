// An event shows the resource as it stood when the event was recorded, however much later the log
// is read and whatever the resource has done since: events keep the record of that moment and build
// the payload from it when read.
import { describe, expect, it } from 'vitest';
import { advance, createTestApp, payoutRequest } from '../support/app.js';
import { newTrade } from '../support/fx.js';

const PAYOUT = payoutRequest('ev-1', 2500);

describe('event payloads', () => {
  it('show each state of a payout as it was, with the first one equal to the created answer', async () => {
    const t = await createTestApp();
    const created = await t.call('POST', '/api/v1/partners/payouts', { body: PAYOUT });
    expect(created.status).toBe(201);
    await advance(t, 30);
    await advance(t, 270);
    const events = (await t.call('GET', '/_sandbox/events?type=payout')).body.data;
    expect(events.map((e: { event: string }) => e.event)).toEqual(['payout.pending', 'payout.processing', 'payout.successful']);
    expect(events.map((e: { data: { status: string } }) => e.data.status)).toEqual(['PENDING', 'PROCESSING', 'SUCCESSFUL']);
    // Each payload's updated_at is the instant of its own event, not the payout's latest.
    expect(events.map((e: { data: { updated_at: string } }) => e.data.updated_at)).toEqual(events.map((e: { createdAt: string }) => e.createdAt));
    const d = created.body.data;
    expect(events[0].data).toEqual({
      reference: 'ev-1',
      amount: 2500,
      currency: 'NGN',
      status: 'PENDING',
      fee: d.fee,
      destination: { account_number: '0123456789', account_name: 'John Doe', bank_code: '058', bank_name: d.destination.bankName },
      transaction_reference: d.transactionReference,
      failure_reason: null,
      created_at: d.createdAt,
      updated_at: d.createdAt,
      estimated_completion_at: d.estimatedCompletionAt,
    });
    // Read twice, the log answers the same.
    expect((await t.call('GET', '/_sandbox/events?type=payout')).body.data).toEqual(events);
  });

  it('keep the seconds an FX trade had left when it was created, not the seconds left when read', async () => {
    const t = await createTestApp();
    await newTrade(t);
    await advance(t, 100);
    const [e] = (await t.call('GET', '/_sandbox/events?type=fx_trade.newt')).body.data;
    expect(e.data.status).toBe('NEWT');
    expect(e.data.ttl_seconds).toBe(300);
    expect(e.data.mode).toBe('sandbox');
  });
});
