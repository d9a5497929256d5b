// The FX requests' structures are compiled from their XSDs when the app is built, not by the first
// request that needs one; the XSDs are read once, by iso20022/, for the structures, /xsd/ and drift.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { instructionExample } from '../../../src/domains/fx/fx.examples.js';

describe('the FX requests\' XSDs', () => {
  it('are compiled once the app is built, and the first trade and /xsd/ answer as before', async () => {
    // Fresh modules: another test of this worker may have compiled them already.
    vi.resetModules();
    const reader = await import('../../../src/iso20022/xsd-reader.js');
    const { createTestApp } = await import('../../support/app.js');
    expect(reader.compiledRequests()).toEqual([]);
    const t = await createTestApp();
    expect(reader.compiledRequests().sort()).toEqual(['FXTradAccptReq', 'FXTradConfReq', 'FXTradCxlReq', 'FXTradInstr']);

    const trade = await t.call<string>('POST', '/api/v1/partners/fx/trades', { raw: instructionExample(), headers: { 'content-type': 'application/xml' } });
    expect(trade.status, trade.text).toBe(201);
    expect(trade.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<FXTradInstrRspn>\n {2}<UnqTxIdr>\n {4}<TxId>[0-9a-f-]{36}<\/TxId>/);
    const missing = await t.call<string>('POST', '/api/v1/partners/fx/trades', { raw: '<FXTradInstr><CcyPair/></FXTradInstr>', headers: { 'content-type': 'application/xml' } });
    expect(missing.status).toBe(400);
    // What is missing is read from the compiled structure.
    expect(missing.text).toContain('<ErrLctn>CcyPair/BaseCcy, TradAmts</ErrLctn>');
    expect(missing.text).toContain('<RsnDesc>Invalid request body: CcyPair/BaseCcy is required: CcyPair ends without it; CcyPair holds BaseCcy and QtdCcy, in this order (and 1 more problem, listed in AddtlData).</RsnDesc>');

    for (const [name, file] of [['FXTradInstr', 'FXTradInstr.xsd'], ['fxtr.016.001.05', 'FXTradCxlRspn.xsd']]) {
      const res = await t.app.request(`/xsd/${name}.xsd`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(readFileSync(new URL(`../../../xsd/${file}`, import.meta.url), 'utf8'));
    }
  });
});
