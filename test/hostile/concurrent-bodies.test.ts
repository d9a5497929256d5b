// Requests sent at once whose bodies cost milliseconds to read are read one per turn of the event
// loop: their bodies arrive together, and each was read and checked in the same turn as the others.
// Thirty scenarios of 50 rules sent at once held every key 280 ms; thirty FX messages of 1 MB, 435 ms;
// thirty JSON bodies of 1 MB, 140 ms.
// Counted as turns of the event loop that pass while they are answered, not timed.
import { describe, expect, it } from 'vitest';
import { createTestApp, KEY, payoutRequest } from '../support/app.js';
import { turnsDuring } from '../support/turns.js';

const SCENARIO = `faults:\n${Array.from({ length: 50 }, () => '  - route: { path: /api/v1/partners/payouts }\n    probability: 0.01\n    fault: { kind: error, status: 500 }\n').join('')}`;
const TRADE = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.05"><FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair>${inner}<TradAmts><TradgCcyAmt>100</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr></Document>`;

async function send(t: Awaited<ReturnType<typeof createTestApp>>, method: string, path: string, type: string, body: string): Promise<number> {
  const res = await t.app.request(path, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': type }, body });
  return res.status;
}

describe('bodies of requests sent at once', () => {
  it('scenarios are each read and checked in a turn of their own', async () => {
    const t = await createTestApp();
    expect(await send(t, 'PUT', '/_sandbox/scenario', 'application/yaml', SCENARIO)).toBe(200);
    const { result, turns } = await turnsDuring(() => Promise.all(Array.from({ length: 12 }, () => send(t, 'PUT', '/_sandbox/scenario', 'application/yaml', SCENARIO))));
    expect(result).toEqual(Array(12).fill(200));
    expect(turns).toBeGreaterThanOrEqual(12);
  });

  it('large JSON bodies are each counted and parsed in a turn of their own', async () => {
    const t = await createTestApp();
    const body = (i: number) => JSON.stringify({ ...payoutRequest(`large-${i}`), note: 'x'.repeat(100_000) });
    expect(await send(t, 'POST', '/api/v1/partners/payouts', 'application/json', body(0))).toBe(201);
    const { result, turns } = await turnsDuring(() => Promise.all(Array.from({ length: 12 }, (_, i) => send(t, 'POST', '/api/v1/partners/payouts', 'application/json', body(i + 1)))));
    expect(result).toEqual(Array(12).fill(201));
    expect(turns).toBeGreaterThanOrEqual(12);
  });

  it('large FX messages are each read in a turn of their own', async () => {
    const t = await createTestApp();
    const body = TRADE('<!--c-->'.repeat(4_000));
    expect(await send(t, 'POST', '/api/v1/partners/fx/trades', 'application/xml', body)).toBe(201);
    const { result, turns } = await turnsDuring(() => Promise.all(Array.from({ length: 12 }, () => send(t, 'POST', '/api/v1/partners/fx/trades', 'application/xml', body))));
    expect(result).toEqual(Array(12).fill(201));
    expect(turns).toBeGreaterThanOrEqual(12);
  });
});
