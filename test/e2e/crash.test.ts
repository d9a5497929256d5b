// Crash safety under sustained mixed load with --data: SIGKILL mid-load loses nothing a 2xx
// acknowledged; SIGTERM mid-load finishes what is in flight, flushes and exits 0; damaged files stop
// the start with a message naming the file and the way out.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, waitExit, type RunningServer } from '../support/server.js';

const KEYS = Array.from({ length: 6 }, (_, i) => `sk_test_crash${String(i).padStart(27, '0')}`);
const RANK: Record<string, number> = { PENDING: 0, PROCESSING: 1, SUCCESSFUL: 2, COMPLETED: 2, FAILED: 2, CANCELLED: 2 };

interface Acked {
  key: string;
  read: string;
  headers: Record<string, string>;
  status: string;
}

/** What the server acknowledged with a 2xx: each resource's last seen status, each key's clock. */
class Ledger {
  readonly resources = new Map<string, Acked>();
  readonly clocks = new Map<string, number>();
  acks = 0;
}

const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const SOURCE = { 'x-service-source': 'crash-test' };

/** One client loop: payouts, wallet payouts, transfers, read-backs and clock advances, until stopped. */
async function loop(url: string, key: string, n: number, ledger: Ledger, stop: { now: boolean }) {
  for (let i = 0; !stop.now; i++) {
    const id = `${n}-${i}`;
    const uuid = `00000000-0000-4000-8000-${(n * 1_000_000 + i).toString(16).padStart(12, '0')}`;
    const ops: [string, string, Record<string, string>, unknown, (b: any) => string | undefined][] = [
      ['/api/v1/partners/payouts', `/api/v1/partners/payouts/c-${id}`, {}, { reference: `c-${id}`, amount: 100 + i, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } }, (b) => b.data.status],
      ['/api/v1/partners/wallets/payouts', `/api/v1/partners/wallets/payouts/w-${id}`, {}, { reference: `w-${id}`, chain: 'polygon', asset: 'usdt', amount: 1, toAddress: '0x52908400098527886E0F7030069857D2E4169EE7' }, (b) => b.status],
      ['/api/v1/transfers', `/api/v1/transfers/${uuid}`, SOURCE, { reference: uuid, amount: 500, currency: 'NGN', type: 'BANK', source: { accountNumber: '1000200030' }, destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058' } }, (b) => b[0].status],
    ];
    const [create, read, headers, body, statusOf] = ops[i % ops.length];
    try {
      const res = await fetch(`${url}${create}`, { method: 'POST', headers: { ...auth(key), ...headers }, body: JSON.stringify(body) });
      const json = await res.json();
      if (res.status === 201) {
        ledger.resources.set(read, { key, read, headers, status: statusOf(json)! });
        ledger.acks++;
      }
      if (i % 5 === 4) {
        const adv = await fetch(`${url}/_sandbox/clock/advance`, { method: 'POST', headers: auth(key), body: JSON.stringify({ seconds: 7 }) });
        if (adv.status === 200) ledger.clocks.set(key, ((await adv.json()) as { offsetSeconds: number }).offsetSeconds);
      }
    } catch {
      return; // the server went away mid-request: that request was never acknowledged
    }
  }
}

function load(url: string, ledger: Ledger) {
  const stop = { now: false };
  const loops = KEYS.flatMap((key, k) => [loop(url, key, k * 2, ledger, stop), loop(url, key, k * 2 + 1, ledger, stop)]);
  return { stop: () => ((stop.now = true), Promise.all(loops)), done: Promise.all(loops) };
}

async function until(cond: () => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting for load');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every acknowledged resource is there, at least as far along as acknowledged; clocks too. */
async function verify(url: string, ledger: Ledger) {
  for (const a of ledger.resources.values()) {
    const res = await fetch(`${url}${a.read}`, { headers: { ...auth(a.key), ...a.headers } });
    expect(res.status, a.read).toBe(200);
    const b = (await res.json()) as any;
    const status = b.data?.status ?? b.status;
    expect(RANK[status], `${a.read}: ${a.status} acknowledged, ${status} after restart`).toBeGreaterThanOrEqual(RANK[a.status]);
  }
  for (const [key, offset] of ledger.clocks) {
    const clock = (await (await fetch(`${url}/_sandbox/clock`, { headers: auth(key) })).json()) as { offsetSeconds: number };
    expect(clock.offsetSeconds).toBeGreaterThanOrEqual(offset);
  }
}

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  servers = [];
});
async function start(args: string[]) {
  const s = await startServer(args);
  servers.push(s);
  return s;
}
const dataDir = () => mkdtemp(path.join(tmpdir(), 'sandbox-crash-'));

describe('crash safety under load', () => {
  it('keeps every acknowledged write through a SIGKILL in the middle of mixed load', async () => {
    const dir = await dataDir();
    // Six keys over a limit of four: tenants unload and reload from disk during the load too.
    const a = await start(['--data', dir, '--max-tenants', '4']);
    const ledger = new Ledger();
    const run = load(a.url, ledger);
    await until(() => ledger.acks >= 400);
    a.proc.kill('SIGKILL');
    await waitExit(a);
    await run.done;
    expect(ledger.resources.size).toBeGreaterThanOrEqual(400);
    const b = await start(['--data', dir]);
    await verify(b.url, ledger);
  }, 40_000);

  it('finishes in-flight requests on SIGTERM under load, flushes, exits 0 and keeps everything', async () => {
    const dir = await dataDir();
    const a = await start(['--data', dir]);
    const ledger = new Ledger();
    const run = load(a.url, ledger);
    await until(() => ledger.acks >= 200);
    const code = a.stop('SIGTERM');
    await run.done;
    expect(await code).toBe(0);
    expect(a.output()).toContain('store flushed');
    const b = await start(['--data', dir]);
    await verify(b.url, ledger);
  }, 40_000);
});

describe('damaged data files', () => {
  async function tenantDir() {
    const dir = await dataDir();
    const a = await start(['--data', dir]);
    for (let i = 0; i < 3; i++) {
      await fetch(`${a.url}/api/v1/partners/payouts`, {
        method: 'POST',
        headers: auth(KEYS[0]),
        body: JSON.stringify({ reference: `dmg-${i}`, amount: 100, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } }),
      });
    }
    expect(await a.stop('SIGTERM')).toBe(0);
    const [tenant] = await readdir(path.join(dir, 'tenants'));
    return { dir, tenant: path.join(dir, 'tenants', tenant) };
  }

  it('refuses a truncated log line in the middle, naming the file and the way out', async () => {
    const { dir, tenant } = await tenantDir();
    const wal = path.join(tenant, (await readdir(tenant)).find((f) => f.startsWith('wal-'))!);
    const lines = (await readFile(wal, 'utf8')).split('\n');
    lines[1] = lines[1].slice(0, 10);
    await writeFile(wal, lines.join('\n'));
    const err = await start(['--data', dir]).catch((e: Error) => e);
    expect(String(err)).toContain(`${wal}: line 2 is not valid JSON`);
    expect(String(err)).toContain('Restore the file from a backup');
    expect(String(err)).toContain(tenant);
  });

  it('refuses a snapshot cut short, and one that is JSON but not a snapshot', async () => {
    const { dir, tenant } = await tenantDir();
    const snap = path.join(tenant, 'snapshot.json');
    await writeFile(snap, '{"version":1,"walGen":0,"collections":{"payouts":[["dmg-0",{"ref');
    expect(String(await start(['--data', dir]).catch((e: Error) => e))).toContain(`${snap}: it is not valid JSON`);
    await writeFile(snap, '[1,2,3]');
    expect(String(await start(['--data', dir]).catch((e: Error) => e))).toContain(`${snap}: it is not a sandbox snapshot`);
  });
});
