// GET /api/v1/partners/rates: the live service's JSON rate, read from the one market of the sandbox.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/kernel/money.js';
import { LowdbStore } from '../../../src/store/lowdb.store.js';
import { advance, createTestApp, KEY, KEY_B, type TestApp } from '../../support/app.js';
import { fx } from '../../support/fx.js';

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

  it('refuses a query parameter given twice, saying to send it once', async () => {
    const res = await t.call('GET', `${RATES}?from=NGN&from=GHS&to=USDT`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid request query: from is given 2 times: send it once.');
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'from', issue: 'is given 2 times: send it once' }] });
    const page = await t.call('GET', '/api/v1/transfers/bulk/bulk_demo_salaries/transfers?size=5&size=10', { headers: { 'x-service-source': 'payroll-service' } });
    expect(page.status).toBe(400);
    expect(page.body.error.details).toEqual([{ field: 'size', issue: 'is given 2 times: send it once' }]);
  });

  it('refuses a missing, unknown or unconvertible currency, and a chain the pair has no pool on, naming the parameter', async () => {
    const cases: [string, string, string, string][] = [
      ['to=USDT', 'VALIDATION_ERROR', 'from', 'from (or base)'],
      ['from=NGN', 'VALIDATION_ERROR', 'to', 'to (or quote)'],
      ['from=XYZ&to=USDT', 'UNSUPPORTED_CURRENCY', 'from', 'NGN, GHS, USD, USDT, USDC'],
      ['base=NGN&quote=EUR', 'UNSUPPORTED_CURRENCY', 'quote', 'NGN, GHS, USD, USDT, USDC'],
      ['from=NGN&to=ngn', 'VALIDATION_ERROR', 'from', 'are both NGN'],
      ['from=USDT&to=USDC', 'UNSUPPORTED_CURRENCY', 'to', 'NGN, GHS, USD'],
      ['base=USDC&quote=USDT', 'UNSUPPORTED_CURRENCY', 'quote', 'never one token to another'],
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

describe('one market: the rate read and the quote made after it agree', () => {
  /** The NGN→USDT pools' rates (NGN per USDT) as the FX listings show them now. */
  const poolRates = async () => {
    const res = await fx(t, 'GET', '/listings?source=NGN&destination=USDT');
    return ((res.xml.Listgs ?? []) as Record<string, string>[]).map((l) => Number(l.XchgRate));
  };

  for (const [label, seconds] of [['as the sandbox starts', 0], ['after the market moved five hours', 5 * 3600]] as const) {
    it(`an express quote's weighted average rate is within the pools' spread of the rate read, ${label}`, async () => {
      if (seconds) await advance(t, seconds);
      const rate = await read('from=NGN&to=USDT');
      const pools = await poolRates();
      const [lo, hi] = [Math.min(...pools), Math.max(...pools)];
      const res = await t.call('POST', '/api/v1/partners/marketplace/express/quote', { body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000 } });
      expect(res.status).toBe(201);
      const war = res.body[0].allocationResult.weightedAverageRate;
      const market = 1 / rate.rate;
      // The quote trades at the pools' rates; the rate read is their mid: both within the spread.
      expect(war).toBe(pools[0]);
      expect(market).toBeGreaterThanOrEqual(lo);
      expect(market).toBeLessThanOrEqual(hi);
      expect(Math.abs(war - market)).toBeLessThanOrEqual(hi - lo);
      // 50,000 NGN at the quote's rate is what the rate read says, less the pool's edge over the mid.
      expect(res.body[0].totalDestinationAmount).toBeCloseTo(50000 * rate.rate * (market / war), 3);
      if (seconds) expect(pools[0]).not.toBe(1580.5);
    });
  }

  it('names the chain a quote takes now: once the key drew the best pool dry, the next one\'s', async () => {
    const body = { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 42500, amountDirection: 'destination' };
    const q = (await t.call('POST', '/api/v1/partners/marketplace/intent', { body })).body;
    expect(q.chain).toBe('BASE');
    await t.call('PUT', `/api/v1/quotes/complete/${q.quoteId}`, { body: { destination: { blockChain: { address: `0x${'b'.repeat(40)}` } } } });
    expect((await t.call('POST', `/_sandbox/simulate/quotes/${q.quoteId}/pay-in`)).status).toBe(200);
    expect((await read('from=NGN&to=USDT')).chain).toBe('ethereum');
    const next = (await t.call('POST', '/api/v1/partners/marketplace/intent', { body: { ...body, amount: 10 } })).body;
    expect(next.chain).toBe('ETHEREUM');
    // The drawn pool is still the pair's: asked for by name, its chain is answered.
    expect((await read('from=NGN&to=USDT&chain=base')).chain).toBe('base');
    expect((await read('from=NGN&to=USDT', KEY_B)).chain).toBe('base');
  });
});

describe('a scenario pins a rate or scripts a move', () => {
  const scenario = (market: unknown) => t.call('PUT', '/_sandbox/scenario', { body: { scenario: { market } } });

  it('pins USDT/NGN and drops it 5 % after 10 minutes: the rate, the maker rate and quotes follow, as ADMIN_OVERRIDE', async () => {
    expect((await scenario({ 'USDT/NGN': { pin: 1600, moves: [{ after: 600, percent: -5 }] } })).status).toBe(200);
    expect(await read('from=USDT&to=NGN')).toMatchObject({ rate: 1600, source: 'ADMIN_OVERRIDE' });
    expect((await makerRate('USDT', 'NGN')).XchgRate).toBe('1600');
    // Another market keeps its walk.
    expect((await read('from=GHS&to=USDT')).source).toBe('MARKET_MAKER');
    await advance(t, 599);
    expect((await read('from=USDT&to=NGN')).rate).toBe(1600);
    await advance(t, 1);
    expect(await read('from=USDT&to=NGN')).toMatchObject({ rate: 1520, timestamp: '2026-01-15T09:10:00.000Z' });
    // The pools moved with it: the best USDT→NGN pool (1575 at the start) is now 1575 × 1520 / 1569.3625.
    const quote = await t.call('POST', '/api/v1/partners/marketplace/express/quote', { body: { sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 100 } });
    expect(quote.body[0].allocationResult.weightedAverageRate).toBe(new Decimal(1575).mul(1520).div('1569.3625').toSignificantDigits(8).toNumber());
    await t.call('DELETE', '/_sandbox/scenario');
    expect((await read('from=USDT&to=NGN')).source).toBe('MARKET_MAKER');
    // The document says when each source is answered.
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    for (const name of ['Rate', 'RateUpdate']) {
      const described = doc.components.schemas[name].properties.source.description ?? '';
      expect(described, name).toMatch(/MARKET_MAKER.*ADMIN_OVERRIDE.*scenario/);
    }
  });

  it('takes a pair either way round: NGN/USDT up 10 % is USDT 10 % cheaper in NGN', async () => {
    const before = await read('from=NGN&to=USDT');
    await scenario({ 'NGN/USDT': { moves: [{ after: 0, percent: 10 }] } });
    const after = await read('from=NGN&to=USDT');
    // 1.1 times the start's 1 / 1585.1375, to the 8 significant digits of the maker rate it inverts.
    expect(after.rate).toBeCloseTo(before.rate * 1.1, 9);
    expect(after.rate).not.toBe(before.rate);
    expect(after.source).toBe('ADMIN_OVERRIDE');
  });

  it('refuses a section that is no pair of the market, naming where', async () => {
    for (const market of [{ 'NGN/GHS': { pin: 1 } }, { 'USDT/NGN': {} }, { 'USDT/NGN': { pin: -1 } }]) {
      const res = await scenario(market);
      expect(res.status, JSON.stringify(market)).toBe(400);
      expect(res.body.error.details[0].field, JSON.stringify(market)).toMatch(/^scenario\.market/);
    }
    const fiatPair = await scenario({ 'GHS/NGN': { pin: 100 } });
    expect(fiatPair.body.error.details).toEqual([
      { field: 'scenario.market.GHS/NGN', issue: 'is a fiat pair, the cross of two markets: set USDT/NGN and GHS/USDT (or one of them) instead' },
    ]);
    const schema = (await t.call('GET', '/_sandbox/scenario.schema.json', { key: null })).body;
    expect(JSON.stringify(schema)).toContain('ADMIN_OVERRIDE');
  });
});

describe('GET /api/v1/partners/marketplace/rates/stream: streams per key', () => {
  const open = (t: TestApp, key = KEY) =>
    t.app.request('/api/v1/partners/marketplace/rates/stream?from=NGN&to=USDT', { headers: { authorization: `Bearer ${key}` } });

  it('names a query parameter it does not take in X-Sandbox-Warning, as the JSON rate does', async () => {
    const res = await t.app.request('/api/v1/partners/marketplace/rates/stream?from=NGN&to=USDT&chain=SOLANA&form=x', { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('x-sandbox-warning')).toBe("unknown query parameter 'chain' was ignored; unknown query parameter 'form' was ignored: did you mean 'from'?");
    await res.body!.cancel();
    const plain = await t.app.request('/api/v1/partners/marketplace/rates/stream?from=NGN&to=USDT', { headers: { authorization: `Bearer ${KEY}` } });
    expect(plain.headers.get('x-sandbox-warning')).toBeNull();
    await plain.body!.cancel();
  });

  it('lets one key hold 10 streams at once, refuses the 11th with 429, and not another key\'s', async () => {
    const t = await createTestApp();
    const held = [];
    for (let i = 0; i < 10; i++) {
      const res = await open(t);
      expect(res.status).toBe(200);
      held.push(res);
    }
    const refused = await open(t);
    expect(refused.status).toBe(429);
    const body = await refused.json();
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.message).toContain('10 rate streams open');
    const other = await open(t, KEY_B);
    expect(other.status).toBe(200);
    // Closing one makes room again.
    await held[0].body!.cancel();
    const again = await open(t);
    expect(again.status).toBe(200);
    for (const res of [...held.slice(1), other, again]) await res.body!.cancel();
  });

  it('refuses a stream past the server-wide cap with 503 and Retry-After, whichever key asks, until one closes', async () => {
    const t = await createTestApp({ config: { maxStreams: 3, heartbeatSeconds: 20 } });
    const held = [await open(t), await open(t), await open(t, KEY_B)];
    expect(held.map((r) => r.status)).toEqual([200, 200, 200]);
    for (const key of [KEY, KEY_B, 'sk_test_00000000000000000000000000000009']) {
      const refused = await open(t, key);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('20');
      expect(refused.headers.get('connection')).toBe('close');
      const body = await refused.json();
      expect(body).toMatchObject({ status: 'error', error: { type: 'api_error', code: 'SERVICE_UNAVAILABLE', details: [] } });
      expect(body.message).toContain('3 rate streams open for all keys');
    }
    // A key at its own cap hears about its own budget first.
    const capped = await createTestApp({ config: { maxStreams: 10 } });
    const own = [];
    for (let i = 0; i < 10; i++) own.push(await open(capped));
    expect((await open(capped)).status).toBe(429);
    expect((await open(capped, KEY_B)).status).toBe(503);
    for (const res of own) await res.body!.cancel();
    // Closing one makes room again, for any key.
    await held[0].body!.cancel();
    const again = await open(t, KEY_B);
    expect(again.status).toBe(200);
    for (const res of [...held.slice(1), again]) await res.body!.cancel();
  });

  it('keeps a key with an open stream loaded past --max-tenants, so its clock advances still reach the stream', async () => {
    const store = await LowdbStore.open(await mkdtemp(`${tmpdir()}/streams-`));
    const t = await createTestApp({ store, config: { maxTenants: 1 } });
    const res = await open(t);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (n: number) => {
      while ((text.match(/event: rate_update/g) ?? []).length < n) text += (await reader.read()).value ?? '';
    };
    await until(1);
    // Another key's request would unload the least recently used idle key: the streaming one is not idle.
    expect((await t.call('GET', '/_sandbox/clock', { key: KEY_B })).status).toBe(200);
    await advance(t, 120);
    await until(3);
    expect((text.match(/event: rate_update/g) ?? []).length).toBe(3);
    await reader.cancel();
    // Its logs' file handles are closed here, not left to the collector (an error on Node 26).
    await store.close();
  });
});

describe('a fiat pair: the cross of its two USDT markets', () => {
  // At the start the USDT→NGN pools average 1569.3625 NGN per USDT and the GHS→USDT pools 15.72 GHS per USDT.
  const cross = (over: string, under: string) => new Decimal(over).div(under).toSignificantDigits(8, Decimal.ROUND_DOWN).toNumber();

  it('answers GHS→NGN as a multiplier: NGN per GHS, the USDT→NGN maker rate over the GHS→USDT one, rounded down', async () => {
    expect(await read('from=GHS&to=NGN')).toEqual({
      from: 'GHS',
      to: 'NGN',
      // 1569.3625 / 15.72 = 99.8322201..., rounded down to 8 digits
      rate: 99.83222,
      source: 'MARKET_MAKER',
      timestamp: '2026-01-15T09:00:00.000Z',
      // the chain of the best GHS→NGN cross pool (BASE: 1575 / 15.62)
      chain: 'base',
      ageSeconds: 0,
      cached: false,
    });
    // NGN→GHS: the USDT→GHS pools average 15.306667 GHS per USDT, the NGN→USDT ones 1585.1375 NGN per USDT.
    expect(await read('base=ngn&quote=ghs&chain=ARBITRUM')).toMatchObject({ from: 'NGN', to: 'GHS', rate: 0.0096563654, chain: 'arbitrum' });
    const noPool = await t.call('GET', `${RATES}?from=GHS&to=NGN&chain=ETHEREUM`);
    expect(noPool.status).toBe(400);
    expect(noPool.body.error.details).toEqual([{ field: 'chain', issue: 'must be one of BASE, POLYGON, ARBITRUM' }]);
  });

  it('moves with both markets on the key\'s clock, as the FX maker rate of the pair does', async () => {
    for (const seconds of [0, 3 * 3600, 86_400]) {
      if (seconds) await advance(t, seconds);
      const [ngn, ghs, pair] = [await makerRate('USDT', 'NGN'), await makerRate('GHS', 'USDT'), await makerRate('GHS', 'NGN')];
      const json = await read('from=GHS&to=NGN');
      expect(json.rate, `after ${seconds} s`).toBe(cross(ngn.XchgRate, ghs.XchgRate));
      expect(pair.XchgRate).toBe(String(json.rate));
      expect(json.timestamp).toBe(pair.TmStmp);
    }
    // A day on, the pair has its own 24-hour change: the NGN/USDT change against the GHS/USDT one.
    const { PctChg24H: ngnChange } = await makerRate('USDT', 'NGN');
    const { PctChg24H: ghsChange } = await makerRate('GHS', 'USDT');
    const { PctChg24H: pairChange } = await makerRate('GHS', 'NGN');
    const expected = new Decimal(ngnChange).div(100).plus(1).div(new Decimal(ghsChange).div(100).plus(1)).minus(1).mul(100);
    expect(Math.abs(Number(pairChange) - expected.toNumber())).toBeLessThan(0.001);
  });

  it('follows a scenario pin of one leg, as ADMIN_OVERRIDE, and a quote made after it shows the cross of the pools', async () => {
    expect((await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { market: { 'USDT/NGN': { pin: 1600 } } } } })).status).toBe(200);
    // 1600 / 15.72, rounded down
    expect(await read('from=GHS&to=NGN')).toMatchObject({ rate: 101.78117, source: 'ADMIN_OVERRIDE' });
    const quote = await t.call('POST', '/api/v1/partners/marketplace/express/quote', { body: { sourceCurrency: 'GHS', destinationCurrency: 'NGN', amount: 100 } });
    // the best USDT→NGN pool, 1575 at the start, is now 1575 × 1600 / 1569.3625 to 8 digits, over GHS→USDT BASE at 15.62
    const ngnPool = new Decimal(1575).mul(1600).div('1569.3625').toSignificantDigits(8);
    expect(quote.body[0].allocationResult.weightedAverageRate).toBe(cross(ngnPool.toString(), '15.62'));
  });

  it('gives each streamed rate the change of that rate: the maker rate\'s own for token→fiat, its inverse\'s for fiat→token', async () => {
    await advance(t, 86_400);
    const firstUpdate = async (query: string) => {
      const res = await t.app.request(`/api/v1/partners/marketplace/rates/stream?${query}`, { headers: { authorization: `Bearer ${KEY}` } });
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('rate_update')) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      return JSON.parse(/event: rate_update\ndata: (.*)\n/.exec(text)![1]);
    };
    const sell = await firstUpdate('from=USDT&to=NGN');
    expect(sell.percentChange24h).toBe(Number((await makerRate('USDT', 'NGN')).PctChg24H));
    // The maker rate of NGN→USDT is NGN per USDT; the stream sends USDT per NGN, which moved the other way.
    const maker = new Decimal((await makerRate('NGN', 'USDT')).PctChg24H);
    const buy = await firstUpdate('from=NGN&to=USDT');
    expect(Math.sign(buy.percentChange24h)).toBe(-maker.s);
    const inverse = new Decimal(1).div(maker.div(100).plus(1)).minus(1).mul(100);
    expect(Math.abs(buy.percentChange24h - inverse.toNumber())).toBeLessThan(0.001);
  });

  it('streams the pair\'s rate', async () => {
    const res = await t.app.request('/api/v1/partners/marketplace/rates/stream?from=GHS&to=NGN', { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('rate_update')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const data = JSON.parse(/event: rate_update\ndata: (.*)\n/.exec(text)![1]);
    expect(data).toMatchObject({ from: 'GHS', to: 'NGN', rate: 99.83222, timestamp: '2026-01-15T09:00:00.000Z', source: 'MARKET_MAKER' });
  });
});
