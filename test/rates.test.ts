// GET /api/v1/partners/rates: the live service's JSON rate, read from the one market of the sandbox.
import { beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../src/kernel/money.js';
import { advance, createTestApp, KEY_B, type TestApp } from './support/app.js';
import { fx } from './support/fx.js';

const RATES = '/api/v1/partners/rates';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const read = async (query: string, key?: string) => {
  const res = await t.call('GET', `${RATES}?${query}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const makerRate = async (from: string, to: string) => (await fx(t, 'GET', `/rates/makers?from=${from}&to=${to}`)).xml as Record<string, string>;

describe('GET /api/v1/partners/rates', () => {
  it('answers the live body: a multiplier from the pools\' market, tokens and chains in lower case', async () => {
    const res = await t.call('GET', `${RATES}?from=NGN&to=USDT`);
    expect(res.status).toBe(200);
    // The NGN→USDT pools average 1585.1375 NGN per USDT when the sandbox starts.
    expect(res.body).toEqual({
      from: 'NGN',
      to: 'usdt',
      rate: new Decimal(1).div('1585.1375').toSignificantDigits(8).toNumber(),
      source: 'MARKET_MAKER',
      timestamp: '2026-01-15T09:00:00.000Z',
      chain: 'base',
      ageSeconds: 0,
      cached: false,
    });
    const back = await read('from=usdt&to=ngn&chain=polygon');
    expect(back).toMatchObject({ from: 'usdt', to: 'NGN', rate: 1569.3625, chain: 'polygon' });
  });

  it('takes base and quote for from and to; from and to win when both are sent', async () => {
    expect(await read('base=GHS&quote=USDC')).toMatchObject({ from: 'GHS', to: 'usdc', rate: new Decimal(1).div('15.78').toSignificantDigits(8).toNumber() });
    expect(await read('from=USDC&to=GHS&base=NGN&quote=USDT')).toMatchObject({ from: 'usdc', to: 'GHS', rate: 15.26 });
  });

  it('is the FX maker rate, stated as a multiplier, and moves with it on the key\'s clock', async () => {
    for (const seconds of [0, 45, 15, 3600, 86_400]) {
      if (seconds) await advance(t, seconds);
      const maker = await makerRate('USDT', 'NGN');
      const json = await read('from=USDT&to=NGN');
      expect(json.rate).toBe(Number(maker.XchgRate));
      expect(json.timestamp).toBe(maker.TmStmp);
      expect(json.ageSeconds).toBe(Number(maker.AgeSecs));
      const inverse = await read('from=NGN&to=USDT');
      expect(inverse.rate).toBe(new Decimal(1).div((await makerRate('NGN', 'USDT')).XchgRate).toSignificantDigits(8).toNumber());
    }
    expect((await read('from=USDT&to=NGN')).rate).not.toBe(1569.3625);
  });

  it('refuses a missing, unknown or unconvertible currency, and a chain the pair has no pool on, naming the parameter', async () => {
    const cases: [string, string, string, string][] = [
      ['to=USDT', 'VALIDATION_ERROR', 'from', 'from (or base)'],
      ['from=NGN', 'VALIDATION_ERROR', 'to', 'to (or quote)'],
      ['from=XYZ&to=USDT', 'UNSUPPORTED_CURRENCY', 'from', 'NGN, GHS, USD, USDT, USDC'],
      ['base=NGN&quote=EUR', 'UNSUPPORTED_CURRENCY', 'quote', 'NGN, GHS, USD, USDT, USDC'],
      ['from=NGN&to=GHS', 'UNSUPPORTED_CURRENCY', 'to', 'USDT, USDC'],
      ['from=USDT&to=USDC', 'UNSUPPORTED_CURRENCY', 'to', 'NGN, GHS, USD'],
      ['from=NGN&to=USDT&chain=OPTIMISM', 'VALIDATION_ERROR', 'chain', 'BASE, ETHEREUM, POLYGON, ARBITRUM'],
      ['from=NGN&to=USDT&chain=solana', 'VALIDATION_ERROR', 'chain', 'is not a chain'],
    ];
    for (const [query, code, field, text] of cases) {
      const res = await t.call('GET', `${RATES}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe(code);
      expect(res.body.error.details[0].field, query).toBe(field);
      expect(res.body.message, query).toContain(text);
    }
    expect((await t.call('GET', `${RATES}?from=NGN&to=USDT`, { key: null })).status).toBe(401);
  });

  it('follows each key\'s own clock: one key advancing moves only its market', async () => {
    const start = await read('from=USDT&to=NGN');
    await advance(t, 6 * 3600);
    const moved = await read('from=USDT&to=NGN');
    expect(moved.rate).not.toBe(start.rate);
    expect(moved.timestamp).toBe('2026-01-15T15:00:00.000Z');
    expect(await read('from=USDT&to=NGN', KEY_B)).toEqual(start);
  });
});
