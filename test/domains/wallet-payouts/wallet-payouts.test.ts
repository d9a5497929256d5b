import { beforeEach, describe, expect, it } from 'vitest';
import { defaultBehaviour, type Behaviour } from '../../../src/engine/registry/behaviour.js';
import { advance, createTestApp, KEY, KEY_B, type TestApp } from '../../support/app.js';

const PATH = '/api/v1/partners/wallets/payouts';
const SIM = '/_sandbox/simulate/wallet-payouts';
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const CHAINS = ['ethereum', 'polygon', 'base', 'arbitrum', 'optimism'];
const ASSETS = ['usdc', 'usdt'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const payout = (over: Record<string, unknown> = {}) => ({
  reference: 'wd-20001',
  chain: 'ethereum',
  asset: 'usdc',
  amount: 150,
  toAddress: ADDRESS,
  memo: 'Invoice 20001',
  ...over,
});

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

async function balance(key: string, tenant = KEY) {
  const res = await t.call('GET', '/_sandbox/balances', { key: tenant });
  return res.body.data.find((b: { key: string }) => b.key === key).available as string;
}

const read = async (reference = 'wd-20001', key = KEY) => (await t.call('GET', `${PATH}/${reference}`, { key })).body;

describe('POST /api/v1/partners/wallets/payouts', () => {
  it('creates a PENDING payout that is exactly the documented object', async () => {
    const res = await t.call('POST', PATH, { body: payout() });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ['amount', 'chain', 'createdAt', 'estimatedCompletionAt', 'estimatedFee', 'reference', 'status', 'toAddress', 'token', 'transactionHash', 'walletId', 'withdrawalId'],
    );
    expect(res.body).toMatchObject({
      reference: 'wd-20001',
      chain: 'ethereum',
      token: 'usdc',
      amount: 150,
      estimatedFee: 2.5,
      toAddress: ADDRESS,
      status: 'PENDING',
      transactionHash: null,
      createdAt: '2026-01-15T09:00:00.000Z',
      estimatedCompletionAt: '2026-01-15T09:03:00.000Z',
    });
    expect(res.body.withdrawalId).toMatch(UUID);
    expect(res.body.walletId).toMatch(UUID);
    expect(await read()).toEqual(res.body);
  });

  it('works on every chain and asset, charging less gas on the layer-2 chains than on ethereum', async () => {
    const fees: Record<string, number> = {};
    const wallets = new Set<string>();
    for (const chain of CHAINS) {
      for (const asset of ASSETS) {
        const res = await t.call('POST', PATH, { body: payout({ reference: `${chain}-${asset}`, chain, asset, amount: 100 }) });
        expect(res.status, `${chain} ${asset}`).toBe(201);
        expect(res.body).toMatchObject({ chain, token: asset, status: 'PENDING' });
        fees[`${asset}:${chain}`] = res.body.estimatedFee;
        wallets.add(res.body.walletId);
        const left = (100000 - 100 - res.body.estimatedFee).toFixed(6);
        expect(await balance(`${asset}:${chain}`)).toBe(left);
      }
    }
    expect(fees).toEqual({
      'usdc:ethereum': 2.5, 'usdt:ethereum': 3,
      'usdc:arbitrum': 0.3, 'usdt:arbitrum': 0.35,
      'usdc:optimism': 0.25, 'usdt:optimism': 0.3,
      'usdc:base': 0.1, 'usdt:base': 0.15,
      'usdc:polygon': 0.05, 'usdt:polygon': 0.08,
    });
    expect(wallets.size).toBe(10);
  });

  it('keeps one walletId per chain and asset across payouts', async () => {
    const a = await t.call('POST', PATH, { body: payout({ reference: 'a' }) });
    const b = await t.call('POST', PATH, { body: payout({ reference: 'b', amount: 20 }) });
    const c = await t.call('POST', PATH, { body: payout({ reference: 'c', chain: 'base' }) });
    expect(b.body.walletId).toBe(a.body.walletId);
    expect(c.body.walletId).not.toBe(a.body.walletId);
    expect(b.body.withdrawalId).not.toBe(a.body.withdrawalId);
  });

  it('accepts each limit at its edge', async () => {
    const cases = [
      { reference: 'r'.repeat(100) },
      { reference: 'x' },
      { amount: 10 },
      { amount: 10.123456 },
      { memo: 'm'.repeat(255) },
      { memo: undefined },
      { toAddress: '0xABCDEFabcdef0123456789ABCDEFabcdef012345' },
    ];
    for (const [i, over] of cases.entries()) {
      const res = await t.call('POST', PATH, { body: payout({ reference: `edge-${i}`, ...over }) });
      expect(res.status, JSON.stringify(over)).toBe(201);
    }
  });

  it.each([
    ['a 101-character reference', { reference: 'r'.repeat(101) }, 'reference', 'must be at most 100 characters long'],
    ['an empty reference', { reference: '' }, 'reference', 'must not be empty'],
    ['9.99 token units', { amount: 9.99 }, 'amount', 'must be at least 10'],
    ['seven decimals', { amount: 10.1234567 }, 'amount', 'must have at most 6 decimal places (the token precision)'],
    ['a string amount', { amount: '150' }, 'amount', 'must be a number, not a string'],
    ['an unknown chain', { chain: 'solana' }, 'chain', 'must be one of: ethereum, polygon, base, arbitrum, optimism'],
    ['an upper-case chain', { chain: 'ETHEREUM' }, 'chain', "must be one of: ethereum, polygon, base, arbitrum, optimism (send 'ethereum', in that case)"],
    ['an upper-case asset', { asset: 'USDC' }, 'asset', "must be one of: usdc, usdt (send 'usdc', in that case)"],
    ['an unknown asset', { asset: 'dai' }, 'asset', 'must be one of: usdc, usdt'],
    ['an address of 39 hex digits', { toAddress: `0x${'a'.repeat(39)}` }, 'toAddress', 'must match the pattern /^0x[a-fA-F0-9]{40}$/'],
    ['an address of 41 hex digits', { toAddress: `0x${'a'.repeat(41)}` }, 'toAddress', 'must match the pattern /^0x[a-fA-F0-9]{40}$/'],
    ['an address without 0x', { toAddress: 'a'.repeat(42) }, 'toAddress', 'must match the pattern /^0x[a-fA-F0-9]{40}$/'],
    ['a non-hex address', { toAddress: `0x${'g'.repeat(40)}` }, 'toAddress', 'must match the pattern /^0x[a-fA-F0-9]{40}$/'],
    ['a 256-character memo', { memo: 'm'.repeat(256) }, 'memo', 'must be at most 255 characters long'],
    ['a missing chain', { chain: undefined }, 'chain', 'is required: send one of: ethereum, polygon, base, arbitrum, optimism'],
    ['a missing toAddress', { toAddress: undefined }, 'toAddress', 'is required: send a string'],
  ])('refuses %s with 400 naming the field', async (_name, over, field, issue) => {
    const res = await t.call('POST', PATH, { body: payout(over) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'VALIDATION_ERROR' });
    expect(res.body.error.details).toContainEqual({ field, issue });
    expect(res.body.message).toContain(field);
    expect((await t.call('GET', `${PATH}/wd-20001`)).status).toBe(404);
  });

  it('holds amount plus fee: the whole balance can go, one token-millionth more cannot', async () => {
    const over = await t.call('POST', PATH, { body: payout({ reference: 'over', amount: 99997.500001 }) });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: [{ field: 'amount', issue: 'with its fee, 100000.000001, exceeds the available usdc:ethereum balance of 100000' }] });
    expect(await balance('usdc:ethereum')).toBe('100000.000000');
    const all = await t.call('POST', PATH, { body: payout({ reference: 'all', amount: 99997.5 }) });
    expect(all.status).toBe(201);
    expect(await balance('usdc:ethereum')).toBe('0.000000');
    expect(await balance('usdc:polygon')).toBe('100000.000000');
  });

  it('a top-up through the control API makes room for a larger payout', async () => {
    const top = await t.call('POST', '/_sandbox/balances/top-up', { body: { key: 'usdt:base', amount: 50000 } });
    expect(top.body.available).toBe('150000.000000');
    const res = await t.call('POST', PATH, { body: payout({ chain: 'base', asset: 'usdt', amount: 120000 }) });
    expect(res.status).toBe(201);
    expect(await balance('usdt:base')).toBe('29999.850000');
  });
});

describe('lifecycle', () => {
  it('broadcasts after 30 s and completes at estimatedCompletionAt with a transaction hash', async () => {
    const created = (await t.call('POST', PATH, { body: payout() })).body;
    await advance(t, 29);
    expect((await read()).status).toBe('PENDING');
    await advance(t, 1);
    const processing = await read();
    expect(processing.status).toBe('PROCESSING');
    expect(processing.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(processing.estimatedCompletionAt).toBe(created.estimatedCompletionAt);
    await advance(t, 149);
    expect((await read()).status).toBe('PROCESSING');
    await advance(t, 1);
    const done = await read();
    expect(done).toMatchObject({ status: 'COMPLETED', transactionHash: processing.transactionHash, estimatedCompletionAt: '2026-01-15T09:03:00.000Z' });
    expect(await balance('usdc:ethereum')).toBe('99847.500000');

    const events = (await t.call('GET', '/_sandbox/events?type=wallet_payout')).body.data;
    expect(events.map((e: { event: string; createdAt: string }) => [e.event, e.createdAt])).toEqual([
      ['wallet_payout.pending', '2026-01-15T09:00:00.000Z'],
      ['wallet_payout.processing', '2026-01-15T09:00:30.000Z'],
      ['wallet_payout.completed', '2026-01-15T09:03:00.000Z'],
    ]);
    expect(events[2].data).toMatchObject({
      reference: 'wd-20001',
      withdrawal_id: created.withdrawalId,
      wallet_id: created.walletId,
      to_address: ADDRESS,
      estimated_fee: 2.5,
      transaction_hash: processing.transactionHash,
      status: 'COMPLETED',
      memo: 'Invoice 20001',
      failure_reason: null,
    });
  });

  it('gives the same transaction hash under the same seed and another under another seed', async () => {
    const hashOf = async (app: TestApp) => {
      await app.call('POST', PATH, { body: payout() });
      await advance(app, 30);
      return (await app.call('GET', `${PATH}/wd-20001`)).body.transactionHash as string;
    };
    const first = await hashOf(t);
    expect(await hashOf(await createTestApp())).toBe(first);
    expect(await hashOf(await createTestApp({ config: { seed: 8 } }))).not.toBe(first);
  });

  it('cancelling a PENDING payout releases its hold and stops its schedule', async () => {
    await t.call('POST', PATH, { body: payout({ chain: 'polygon', asset: 'usdt' }) });
    expect(await balance('usdt:polygon')).toBe('99849.920000');
    const res = await t.call('POST', `${SIM}/wd-20001/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.state).toMatchObject({ status: 'CANCELLED', transactionHash: null });
    expect(await balance('usdt:polygon')).toBe('100000.000000');
    await advance(t, 3600);
    expect((await read()).status).toBe('CANCELLED');
    const events = (await t.call('GET', '/_sandbox/events?type=wallet_payout')).body.data;
    expect(events.map((e: { event: string }) => e.event)).toEqual(['wallet_payout.pending', 'wallet_payout.cancelled']);
    expect(events[1].data.failure_reason).toBe('Cancelled before broadcast');
  });

  it('a failed broadcast keeps its hash, releases the hold and records the reason', async () => {
    await t.call('POST', PATH, { body: payout() });
    await t.call('POST', `${SIM}/wd-20001/broadcast`);
    const res = await t.call('POST', `${SIM}/wd-20001/fail`, { body: { reason: 'Out of gas' } });
    expect(res.status).toBe(200);
    expect(res.body.state.status).toBe('FAILED');
    expect(res.body.state.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balance('usdc:ethereum')).toBe('100000.000000');
    const failed = (await t.call('GET', '/_sandbox/events?type=wallet_payout.failed')).body.data;
    expect(failed[0].data).toMatchObject({ status: 'FAILED', failure_reason: 'Out of gas' });
  });

  it('an early simulated broadcast moves estimatedCompletionAt to the schedule it then follows', async () => {
    await t.call('POST', PATH, { body: payout() });
    await advance(t, 10);
    const res = await t.call('POST', `${SIM}/wd-20001/broadcast`);
    expect(res.body.state.estimatedCompletionAt).toBe('2026-01-15T09:02:40.000Z');
    await advance(t, 149);
    expect((await read()).status).toBe('PROCESSING');
    await advance(t, 1);
    expect((await read()).status).toBe('COMPLETED');
  });

  it('follows the durations and outcome of the scenario in force', async () => {
    const slowFailing: Behaviour = {
      ...defaultBehaviour,
      name: 'slow-chain',
      duration: (r, s) => (r.name === 'wallet_payout' ? (s === 'PENDING' ? 600 : 1800) : defaultBehaviour.duration(r, s)),
      outcome: (r, f) => (r.name === 'wallet_payout' ? { succeed: false, reason: `Reverted sending ${f.amount} ${f.asset}` } : { succeed: true }),
    };
    t = await createTestApp({ behaviourFor: () => slowFailing });
    const res = await t.call('POST', PATH, { body: payout() });
    expect(res.body.estimatedCompletionAt).toBe('2026-01-15T09:40:00.000Z');
    await advance(t, 599);
    expect((await read()).status).toBe('PENDING');
    await advance(t, 1);
    expect((await read()).status).toBe('PROCESSING');
    expect(await balance('usdc:ethereum')).toBe('99847.500000');
    await advance(t, 1800);
    expect((await read()).status).toBe('FAILED');
    expect(await balance('usdc:ethereum')).toBe('100000.000000');
    const failed = (await t.call('GET', '/_sandbox/events?type=wallet_payout.failed')).body.data;
    expect(failed[0].data.failure_reason).toBe('Reverted sending 150 usdc');
  });

  it('refuses every move the machine does not allow with 409', async () => {
    const moves: [string, string[], string][] = [
      ['PENDING', [], 'complete'],
      ['PENDING', [], 'fail'],
      ['PROCESSING', ['broadcast'], 'broadcast'],
      ['PROCESSING', ['broadcast'], 'cancel'],
      ['COMPLETED', ['broadcast', 'complete'], 'cancel'],
      ['COMPLETED', ['broadcast', 'complete'], 'fail'],
      ['FAILED', ['broadcast', 'fail'], 'complete'],
      ['FAILED', ['broadcast', 'fail'], 'broadcast'],
      ['CANCELLED', ['cancel'], 'broadcast'],
      ['CANCELLED', ['cancel'], 'cancel'],
    ];
    for (const [i, [state, path, event]] of moves.entries()) {
      const ref = `move-${i}`;
      await t.call('POST', PATH, { body: payout({ reference: ref, amount: 10 }) });
      for (const step of path) expect((await t.call('POST', `${SIM}/${ref}/${step}`)).status).toBe(200);
      expect((await read(ref)).status).toBe(state);
      const res = await t.call('POST', `${SIM}/${ref}/${event}`);
      expect(res.status, `${event} from ${state}`).toBe(409);
      expect(res.body.error.code).toBe('INVALID_STATE_TRANSITION');
      expect(res.body.message).toContain(`is ${state}`);
      expect((await read(ref)).status).toBe(state);
    }
  });

  it('simulate names the events and refuses an unknown payout', async () => {
    const ev = await t.call('POST', `${SIM}/x/explode`);
    expect(ev.status).toBe(400);
    expect(ev.body.error.details[0].issue).toBe('must be one of: broadcast, complete, fail, cancel');
    expect((await t.call('POST', `${SIM}/nope/cancel`)).status).toBe(404);
  });
});

describe('read-back, idempotency and tenants', () => {
  it('answers 404 for an unknown reference', async () => {
    const res = await t.call('GET', `${PATH}/nope`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('replays the same reference and body, and refuses another body with 409', async () => {
    const first = await t.call('POST', PATH, { body: payout() });
    const again = await t.call('POST', PATH, { body: payout() });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await t.call('POST', PATH, { body: payout({ amount: 151 }) });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await balance('usdc:ethereum')).toBe('99847.500000');
  });

  it('makes exactly one payout from concurrent identical requests', async () => {
    const all = await Promise.all(Array.from({ length: 10 }, () => t.call('POST', PATH, { body: payout() })));
    expect(all.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(all.map((r) => r.body.withdrawalId)).size).toBe(1);
    expect(await balance('usdc:ethereum')).toBe('99847.500000');
    expect((await t.call('GET', '/_sandbox/events?type=wallet_payout')).body.data).toHaveLength(1);
  });

  it('keeps payouts, balances and wallets per key', async () => {
    const mine = await t.call('POST', PATH, { body: payout() });
    expect((await t.call('GET', `${PATH}/wd-20001`, { key: KEY_B })).status).toBe(404);
    expect((await t.call('POST', `${SIM}/wd-20001/cancel`, { key: KEY_B })).status).toBe(404);
    const theirs = await t.call('POST', PATH, { key: KEY_B, body: payout({ amount: 500 }) });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.walletId).not.toBe(mine.body.walletId);
    expect(await balance('usdc:ethereum', KEY_B)).toBe('99497.500000');
    expect(await balance('usdc:ethereum')).toBe('99847.500000');
    expect((await read()).amount).toBe(150);
  });

  it('refuses both routes without a key', async () => {
    expect((await t.call('POST', PATH, { key: null, body: payout() })).status).toBe(401);
    expect((await t.call('GET', `${PATH}/wd-20001`, { key: null })).status).toBe(401);
  });

  it('both routes are in /openapi.json', async () => {
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    expect(doc.paths['/api/v1/partners/wallets/payouts'].post.responses['201']).toBeDefined();
    expect(doc.paths['/api/v1/partners/wallets/payouts/{reference}'].get.responses['200']).toBeDefined();
    expect(doc.components.schemas.CreateWalletPayoutRequest.properties.toAddress.pattern).toBe('^0x[a-fA-F0-9]{40}$');
  });
});
