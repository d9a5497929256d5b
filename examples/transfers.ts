// Disbursement transfers: one single transfer, then a bulk file uploaded and paged through.
// Both transfer endpoints need the x-service-source header.
import { runAsScript, type SandboxClient } from './client.js';

const source = { 'x-service-source': 'payroll-service' };

export async function transfers(client: SandboxClient) {
  const reference = crypto.randomUUID();
  const created = await client.expect(201, 'POST', '/api/v1/transfers', {
    headers: source,
    body: {
      reference,
      amount: 25000,
      currency: 'NGN',
      type: 'BANK',
      source: { accountNumber: '1000200030' },
      destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058', branchCode: '001' },
      narrations: 'January salary',
    },
  });
  const items = Array.from({ length: 12 }, (_, i) => ({
    reference: crypto.randomUUID(),
    amount: 1000 + i,
    currency: 'NGN',
    type: 'BANK',
    source: { accountNumber: '1000200030' },
    destination: { accountNumber: `01${String(i).padStart(8, '0')}`, accountName: `Worker ${i + 1}`, bankCode: '058' },
    category: 'SALARY',
  }));
  const bulk = await client.expect(201, 'POST', '/_sandbox/bulk-disbursements', { headers: source, body: { name: 'February salaries', items } });
  await client.advance(3600);
  const first = await client.expect(200, 'GET', `/api/v1/transfers/bulk/${bulk.id}/transfers?page=0&size=5`, { headers: source });
  const last = await client.expect(200, 'GET', `/api/v1/transfers/bulk/${bulk.id}/transfers?page=2&size=5`, { headers: source });
  const single = await client.expect(200, 'GET', `/api/v1/transfers/${reference}`, { headers: source });
  return {
    created: created.map((t: { status: string }) => t.status),
    single: single.status,
    bulk: { count: bulk.count, totalElements: first.totalElements, totalPages: first.totalPages, firstPage: first.content.length, lastPage: last.content.length },
  };
}

runAsScript(import.meta.url, transfers);
