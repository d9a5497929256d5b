// --webhook-targets on the real server: the flag reaches the PUT check (docs/webhooks.md).
import { describe, expect, it } from 'vitest';
import { KEY } from '../support/app.js';
import { startServer } from '../support/server.js';

const PUBLIC_ONLY = 'this sandbox sends webhooks only to public addresses (--webhook-targets public)';

describe('webhook targets in the server process', () => {
  it('is set by --webhook-targets on the real server', async () => {
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const s = await startServer(['--webhook-targets', 'public']);
    const put = (url: string) => fetch(`${s.url}/_sandbox/webhooks`, { method: 'PUT', headers, body: JSON.stringify({ url }) });
    try {
      const res = await put('http://169.254.169.254/latest/meta-data');
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { details: unknown } }).error.details).toEqual([
        { field: 'url', issue: `points at 169.254.169.254, a link-local address; ${PUBLIC_ONLY}: use a public host name or address` },
      ]);
      expect((await put('https://example.com/hooks')).status).toBe(200);
    } finally {
      await s.stop('SIGKILL');
    }
  });
});
