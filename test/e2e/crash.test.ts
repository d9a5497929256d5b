// Crash safety under sustained mixed load with --data: SIGKILL mid-load loses nothing a 2xx
// acknowledged; SIGTERM mid-load finishes what is in flight, flushes and exits 0; a damaged file
// refuses only its key, naming the file and the way out; the number of keys is not bounded by the
// number of files the process may open.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tenantIdOf } from '../../src/engine/tenancy/tenants.js';
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
  /** Three payouts of KEYS[0] and one of KEYS[1], written by a server stopped cleanly. */
  async function tenantDir() {
    const dir = await dataDir();
    const a = await start(['--data', dir]);
    for (const [key, ref] of [[KEYS[0], 'dmg-0'], [KEYS[0], 'dmg-1'], [KEYS[0], 'dmg-2'], [KEYS[1], 'other']]) {
      const res = await fetch(`${a.url}/api/v1/partners/payouts`, {
        method: 'POST',
        headers: auth(key),
        body: JSON.stringify({ reference: ref, amount: 100, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } }),
      });
      expect(res.status).toBe(201);
    }
    expect(await a.stop('SIGTERM')).toBe(0);
    const id = tenantIdOf(KEYS[0]);
    return { dir, id, tenant: path.join(dir, 'tenants', id) };
  }
  const read = async (url: string, key: string, ref: string) => {
    const res = await fetch(`${url}/api/v1/partners/payouts/${ref}`, { headers: auth(key) });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('starts over a log cut in half; that key answers 503 naming the file, others work, and it loads once restored', async () => {
    const { dir, id, tenant } = await tenantDir();
    const wal = path.join(tenant, 'wal-0.jsonl');
    const good = await readFile(wal);
    await writeFile(wal, good.subarray(0, good.length >> 1));
    const b = await start(['--data', dir]);
    const refused = await read(b.url, KEYS[0], 'dmg-0');
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('TENANT_DATA_DAMAGED');
    expect(refused.body.message).toContain(`tenants/${id}/wal-0.jsonl: it is ${good.length >> 1} bytes, but was ${good.length} when last closed: it was cut`);
    expect((await read(b.url, KEYS[1], 'other')).status).toBe(200);
    expect(b.output()).toContain(`${wal}: it is ${good.length >> 1} bytes`);
    expect(b.output()).toContain(`Restore the file from a backup, or move the tenant's folder (${tenant}) aside`);
    await writeFile(wal, good);
    expect((await read(b.url, KEYS[0], 'dmg-2')).status).toBe(200);
  });

  it('refuses a snapshot cut short for its key only', async () => {
    const { dir, id, tenant } = await tenantDir();
    const snap = path.join(tenant, 'snapshot.json');
    await writeFile(snap, (await readFile(snap, 'utf8')).slice(0, 30));
    const b = await start(['--data', dir]);
    const refused = await read(b.url, KEYS[0], 'dmg-0');
    expect(refused.status).toBe(503);
    expect(refused.body.message).toContain(`tenants/${id}/snapshot.json: it is not valid JSON`);
    expect((await read(b.url, KEYS[1], 'other')).status).toBe(200);
  });

  it('starts over files it did not write in the data directory, warning about each', async () => {
    const { dir } = await tenantDir();
    await writeFile(path.join(dir, 'tenants', 'README'), 'one folder per key\n');
    const b = await start(['--data', dir]);
    expect(b.output()).toContain(`ignoring ${path.join(dir, 'tenants', 'README')}: not part of the sandbox's data`);
    expect((await read(b.url, KEYS[0], 'dmg-1')).status).toBe(200);
  });
});

describe('open files', () => {
  it('serves more keys than the process may open files, each with its own data', async () => {
    const dir = await dataDir();
    const limited = await startServer(['--data', dir], {}, { maxOpenFiles: 256 });
    servers.push(limited);
    const keys = Array.from({ length: 400 }, (_, i) => `sk_test_files${String(i).padStart(5, '0')}`);
    for (let i = 0; i < keys.length; i += 20) {
      const statuses = await Promise.all(
        keys.slice(i, i + 20).map(async (key, j) => {
          const res = await fetch(`${limited.url}/api/v1/partners/payouts`, {
            method: 'POST',
            headers: auth(key),
            body: JSON.stringify({ reference: `f-${i + j}`, amount: 100 + i + j, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } }),
          });
          return res.status;
        }),
      );
      expect(statuses).toEqual(Array(statuses.length).fill(201));
    }
    for (const [i, key] of keys.entries()) {
      const res = await fetch(`${limited.url}/api/v1/partners/payouts/f-${i}`, { headers: auth(key) });
      expect(((await res.json()) as any).data.amount).toBe(100 + i);
    }
  }, 60_000);
});
