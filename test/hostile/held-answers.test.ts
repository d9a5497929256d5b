// A request whose answer a scenario's fault holds (latency, timeout: up to two minutes) holds its
// answer, not its body. One key sending 1 MiB bodies under a latency fault made the process keep
// each body, its parse and more (2.4 MB a request) for the whole wait: 400 such requests ended a
// process of 512 MB of heap, and a few thousand any default one. The journal keeps what it keeps
// of the body (its first 16 KiB) as before. The bodies come from two keys, since a key has at most
// 100 requests held at once.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';

const SENDERS = ['sk_test_held_answers_sender', 'sk_test_held_answers_second'];
const OTHER = 'sk_test_held_answers_bystander';
const HELD = 150;
const PAD = 'x'.repeat(1024 * 1024 - 300);

let server: RunningServer;
beforeAll(async () => {
  // 256 MB of heap: 150 bodies kept with their parse are past it, 150 answers far below.
  server = await startServer(['--seed', '7'], { NODE_OPTIONS: '--max-old-space-size=256' });
});
afterAll(async () => {
  await server?.stop('SIGKILL');
});

const headers = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

/** Sends a payout of about 1 MiB; resolves once the whole body has left, not when it is answered. */
function sendHeld(i: number, answers: Promise<number>[]): Promise<void> {
  const key = SENDERS[i % SENDERS.length];
  const body = `{"reference":"held-${i}","amount":1000,"currency":"NGN","destination":{"accountNumber":"0123456789","accountName":"John Doe","bankCode":"058"},"pad":"${PAD}"}`;
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: '/api/v1/partners/payouts', method: 'POST', headers: { ...headers(key), 'content-length': Buffer.byteLength(body) } });
    answers.push(
      new Promise((answered) => {
        req.on('response', (res) => {
          res.resume();
          answered(res.statusCode ?? 0);
        });
        req.on('error', () => answered(0));
      }),
    );
    req.on('error', reject);
    req.end(body, () => resolve());
  });
}

/** The other key's health check: its status, or what the request met (tried three times, 5 s each:
 * a machine running many suites at once may be slow to take a connection). */
async function health(): Promise<number | string> {
  let failure = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const res = await fetch(`${server.url}/_sandbox/health`, { headers: { authorization: `Bearer ${OTHER}` }, signal: AbortSignal.timeout(5000) });
      return res.status;
    } catch (err) {
      failure = `${String(err)} ${String((err as { cause?: unknown }).cause ?? '')}`;
    }
  }
  return failure;
}

describe('answers held by a latency fault', () => {
  it('keep no request body: the process lives and answers another key while 150 MiB of bodies wait', async () => {
    for (const key of SENDERS) {
      const scenario = await fetch(`${server.url}/_sandbox/scenario`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/yaml' },
        body: 'faults:\n  - route: { path: /api/** }\n    fault: { kind: latency, ms: 60000 }\n',
      });
      expect(scenario.status).toBe(200);
    }
    const answers: Promise<number>[] = [];
    // Ten at a time, so what the process holds is what the held requests keep, not what ten more
    // bodies take while they arrive.
    for (let i = 0; i < HELD; i += 10) await Promise.all(Array.from({ length: 10 }, (_, k) => sendHeld(i + k, answers)));
    // The requests are applied while the other key is polled.
    for (let i = 0; i < 12; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await health(), server.output().slice(-2000)).toBe(200);
    }
    expect(server.proc.exitCode, server.output().slice(-2000)).toBeNull();
    // Every request was taken and applied, its answer still held.
    const held = [];
    for (const key of SENDERS) {
      const journal = await fetch(`${server.url}/_sandbox/requests?limit=200`, { headers: { authorization: `Bearer ${key}` } });
      const entries = ((await journal.json()) as { data: { path: string; status: number; fault: { kind: string } | null; requestBody: unknown }[] }).data;
      held.push(...entries.filter((e) => e.path === '/api/v1/partners/payouts'));
    }
    expect(held).toHaveLength(HELD);
    expect(held.every((e) => e.status === 201 && e.fault?.kind === 'latency')).toBe(true);
    expect(String(held[0].requestBody)).toMatch(/more characters not kept\]$/);
    expect(await Promise.race([Promise.race(answers), new Promise((resolve) => setTimeout(() => resolve('held'), 100))])).toBe('held');
  }, 60_000);
});
