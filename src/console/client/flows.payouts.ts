// Guided flows over fiat payouts: the happy path to SUCCESSFUL, and a payout that fails under the
// `failures` scenario (chosen for that one request with the X-Sandbox-Scenario header).
// A module of the console's browser bundle (./index.ts); the server reads the flow names from it too.
import type { Exchange } from './api.js';
import type { Flow } from './flow.js';
import type { Bank, Envelope, Payout } from './types.js';

/** The data of an enveloped answer. */
const data = <T>(x: Exchange) => (x.responseBody as Envelope<T>).data;

export function makePayoutFlows(): Flow[] {
  const account = '0123456789';

  const secondsUntil = (from: string, to: string) => Math.max(1, Math.ceil((Date.parse(to) - Date.parse(from)) / 1000));

  return [
    {
      id: 'fiat-payout',
      title: 'Fiat payout',
      outline: 'banks → resolve → payout → advance → settled',
      async run(step, tools) {
        const banks = await step('Get All Banks for NGN', 'GET', '/api/v1/partners/banks?currency=NGN');
        // GTBank (058) holds the account a live key resolves too; any listed bank does for a test key.
        const list = data<Bank[]>(banks);
        const bank = list.find((b) => b.code === '058') ?? list[0];
        const resolved = await step(
          `Resolve account ${account} at ${bank.name}`,
          'GET',
          `/api/v1/partners/banks/resolve?accountNumber=${account}&bankCode=${encodeURIComponent(bank.code)}&currency=NGN`,
        );
        const accountName = data<{ accountName: string }>(resolved).accountName;
        const reference = tools.reference('console-payout');
        const created = await step('Create the payout', 'POST', '/api/v1/partners/payouts', {
          expect: 201,
          body: {
            reference,
            amount: 5000,
            currency: 'NGN',
            destination: { accountNumber: account, accountName, bankCode: bank.code },
            narration: 'Guided payout from the console',
          },
        });
        const p = data<Payout>(created);
        const seconds = secondsUntil(p.createdAt, p.estimatedCompletionAt);
        await step(`Advance the clock ${seconds} s, to the estimated completion`, 'POST', '/_sandbox/clock/advance', { body: { seconds } });
        const settled = await step('Read the payout back', 'GET', `/api/v1/partners/payouts/${encodeURIComponent(reference)}`);
        const state = data<Payout>(settled).status;
        return { text: `Payout ${reference} is ${state}`, state };
      },
    },
    {
      id: 'failing-payout',
      title: 'Failing payout',
      outline: 'resolve → payout under the failures scenario → advance → FAILED, money back',
      async run(step, tools) {
        const resolved = await step(`Resolve account ${account} at bank 058`, 'GET', `/api/v1/partners/banks/resolve?accountNumber=${account}&bankCode=058&currency=NGN`);
        const accountName = data<{ accountName: string }>(resolved).accountName;
        const reference = tools.reference('console-failing');
        const created = await step('Create a payout with X-Sandbox-Scenario: failures', 'POST', '/api/v1/partners/payouts', {
          expect: 201,
          headers: { 'x-sandbox-scenario': 'failures' },
          body: { reference, amount: 2500, currency: 'NGN', destination: { accountNumber: account, accountName, bankCode: '058' } },
        });
        const p = data<Payout>(created);
        const seconds = secondsUntil(p.createdAt, p.estimatedCompletionAt);
        await step(`Advance the clock ${seconds} s`, 'POST', '/_sandbox/clock/advance', { body: { seconds } });
        const failed = await step('Read the payout back', 'GET', `/api/v1/partners/payouts/${encodeURIComponent(reference)}`);
        await step('See the amount and fee returned to the NGN balance', 'GET', '/_sandbox/balances');
        const d = data<Payout>(failed);
        return { text: `Payout ${reference} is ${d.status}: ${d.failureReason}`, state: d.status };
      },
    },
  ];
}
