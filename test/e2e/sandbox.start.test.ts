// startSandbox(): sandboxes inside the test process, on ports of their own, with the CLI's settings as
// options, each closed on its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/index.js';
import { payout } from '../support/webhooks.js';

let open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

async function start(...options: Parameters<typeof startSandbox>): Promise<Sandbox> {
  const sb = await startSandbox(...options);
  open.push(sb);
  return sb;
}

it('starts sandboxes side by side on free ports, each with its own options, and closes each on its own', async () => {
  const [a, b] = await Promise.all([start(), start({ scenario: 'failures', seed: 5 })]);
  expect(a.port).not.toBe(b.port);
  expect(a.url).toBe(`http://127.0.0.1:${a.port}`);
  expect(await a.tenant().scenario()).toMatchObject({ name: 'default', source: 'start' });
  expect(await b.tenant().scenario()).toMatchObject({ name: 'failures', source: 'start' });

  const closing = a.close();
  expect(a.close()).toBe(closing);
  await closing;
  await expect(a.health()).rejects.toThrow();
  expect(await b.health()).toMatchObject({ status: 'ok' });
});

it('keeps tenants in files with data, flushed by close() and found by the next sandbox', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-start-'));
  try {
    const first = await startSandbox({ data: dir });
    const t = first.tenant();
    expect((await t.fetch('/api/v1/partners/payouts', { method: 'POST', body: JSON.stringify(payout('kept-1')) })).status).toBe(201);
    await first.close();

    const second = await start({ data: dir });
    expect(await second.health()).toMatchObject({ store: 'lowdb' });
    const read = await second.tenant(t.key).fetch('/api/v1/partners/payouts/kept-1');
    expect(read.status).toBe(200);
    expect((await read.json()).data).toMatchObject({ reference: 'kept-1', status: 'PENDING' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('picks a seed when given none and serves it in health, so the run can be replayed with it', async () => {
  const ids = async (sb: Sandbox) => {
    const t = sb.tenant('sk_test_replay_0001');
    const res = await t.fetch('/api/v1/partners/payouts', { method: 'POST', body: JSON.stringify(payout('replay-1')) });
    return (await res.json()).data.transactionReference as string;
  };
  const first = await start();
  const { seed } = await first.health();
  expect(seed).toEqual(expect.any(Number));
  const again = await start({ seed: seed! });
  expect((await again.health()).seed).toBe(seed);
  expect(await ids(again)).toBe(await ids(first));
});

it('refuses an unknown option, naming it and the known ones', async () => {
  // @ts-expect-error: a misspelt option, as a JavaScript caller could pass it
  await expect(startSandbox({ senario: 'failures' })).rejects.toThrow(/^startSandbox: unknown option 'senario'\. Known: port, host, .*\bscenario, seed\b.*, logError, clock\.$/);
});

it('refuses a bad value, naming the option', async () => {
  await expect(startSandbox({ port: 70000 })).rejects.toThrow('startSandbox: invalid options. port: must be a whole number from 0 to 65535');
  await expect(startSandbox({ scenario: 'no-such' })).rejects.toThrow(/no-such/);
  const missing = path.join(tmpdir(), 'no-such-keys-file.txt');
  await expect(startSandbox({ keys: missing })).rejects.toThrow(`keys file ${missing} cannot be read (ENOENT): give --keys (SANDBOX_KEYS) a file that lists the accepted keys, one per line`);
});
