// What the docs page's Try it out sends is what /openapi.json gives as examples: a request built
// from them must do what the partner expects, not fail on a scenario header or a missing body.
import { describe, expect, it } from 'vitest';
import { validateAgainstXsd } from '../../src/iso20022/xsd.test-helper.js';
import { createTestApp } from '../support/app.js';
import { fx } from '../support/fx.js';

type Op = { parameters?: ({ $ref?: string } & Record<string, unknown>)[]; requestBody?: { content: Record<string, { example?: string }> } };

async function documented() {
  const t = await createTestApp();
  const doc = (await (await t.app.request('/openapi.json')).json()) as {
    paths: Record<string, Record<string, Op>>;
    components: { parameters: Record<string, { schema: Record<string, unknown>; example?: unknown }> };
  };
  return { t, doc };
}

describe('the examples /docs sends', () => {
  it('give X-Sandbox-Scenario no example, so Try it out runs under the key\'s own scenario', async () => {
    const { t, doc } = await documented();
    const header = doc.components.parameters.ScenarioHeader;
    expect(header.example).toBeUndefined();
    expect(header.schema.example).toBeUndefined();
    expect(header.schema.default).toBeUndefined();
    // A payout sent with the document's examples only settles SUCCESSFUL.
    const res = await t.call('POST', '/api/v1/partners/payouts', {
      body: { reference: 'docs-try-1', amount: 5000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } },
    });
    expect(res.status).toBe(201);
    await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 3600 } });
    expect((await t.call('GET', '/api/v1/partners/payouts/docs-try-1')).body.data.status).toBe('SUCCESSFUL');
  });

  it('give every XML operation a request example that is valid against its XSD and taken by the route', async () => {
    const { t, doc } = await documented();
    const example = (path: string, method: string) => {
      const body = doc.paths[path][method].requestBody!.content['application/xml'].example!;
      const root = /^(?:<\?xml[^>]*\?>\s*)?<([A-Za-z]+)/.exec(body)![1];
      expect(validateAgainstXsd(body, root as never), `${method} ${path}`).toEqual([]);
      return body;
    };
    const created = await fx(t, 'POST', '/trades', { xml: example('/api/v1/partners/fx/trades', 'post') });
    expect(created.status, created.text).toBe(201);
    const id = ((created.xml.UnqTxIdr as Record<string, unknown>).TxId as string);
    const accepted = await fx(t, 'POST', `/trades/${id}/accept`, { xml: example('/api/v1/partners/fx/trades/{transactionId}/accept', 'post') });
    expect(accepted.status, accepted.text).toBe(200);
    const confirmed = await fx(t, 'POST', `/trades/${id}/confirmation`, { xml: example('/api/v1/partners/fx/trades/{transactionId}/confirmation', 'post') });
    expect(confirmed.status, confirmed.text).toBe(200);
    const other = await fx(t, 'POST', '/trades', { xml: example('/api/v1/partners/fx/trades', 'post') });
    const otherId = ((other.xml.UnqTxIdr as Record<string, unknown>).TxId as string);
    const cancelled = await fx(t, 'PUT', `/trades/${otherId}/cancellation`, { xml: example('/api/v1/partners/fx/trades/{transactionId}/cancellation', 'put') });
    expect(cancelled.status, cancelled.text).toBe(200);
  });
});
