import { describe, expect, it } from 'vitest';
import { KeptStaticRouter } from './router.js';

function router() {
  const r = new KeptStaticRouter<string>();
  r.add('ALL', '/api/*', 'api-middleware');
  r.add('POST', '/api/v1/transfers', 'create-transfer');
  r.add('GET', '/api/v1/transfers/:reference', 'read-transfer');
  r.add('GET', '/api/v1/transfers/bulk/:id/transfers', 'bulk-page');
  return r;
}

const handlers = (result: ReturnType<KeptStaticRouter<string>['match']>) =>
  (result[0] as [string, Record<string, string>][]).map(([h, params]) => [h, { ...params }]);

describe('KeptStaticRouter', () => {
  it('answers a path without parameters with the same match each time', () => {
    const r = router();
    const first = r.match('POST', '/api/v1/transfers');
    expect(handlers(first)).toEqual([
      ['api-middleware', {}],
      ['create-transfer', {}],
    ]);
    expect(r.match('POST', '/api/v1/transfers')).toBe(first);
  });

  it('matches paths with parameters afresh, so each request gets its own values', () => {
    const r = router();
    expect(handlers(r.match('GET', '/api/v1/transfers/ref-1'))).toEqual([
      ['api-middleware', {}],
      ['read-transfer', { reference: 'ref-1' }],
    ]);
    expect(handlers(r.match('GET', '/api/v1/transfers/ref-2'))).toEqual([
      ['api-middleware', {}],
      ['read-transfer', { reference: 'ref-2' }],
    ]);
    expect(handlers(r.match('GET', '/api/v1/transfers/bulk/b-9/transfers'))).toEqual([
      ['api-middleware', {}],
      ['bulk-page', { id: 'b-9' }],
    ]);
  });

  it('keeps a bounded number of paths and still matches every other one correctly', () => {
    const r = router();
    for (let i = 0; i < 600; i++) r.match('DELETE', `/api/unknown-${i}`);
    const late = r.match('DELETE', '/api/unknown-599');
    expect(handlers(late)).toEqual([['api-middleware', {}]]);
    expect(r.match('DELETE', '/api/unknown-599')).not.toBe(late);
    expect(r.match('DELETE', '/api/unknown-0')).toBe(r.match('DELETE', '/api/unknown-0'));
  });

  it('forgets what it kept when a route is added', () => {
    const r = router();
    r.match('PUT', '/api/v1/transfers');
    r.add('PUT', '/api/v1/transfers', 'put-transfer');
    expect(handlers(r.match('PUT', '/api/v1/transfers'))).toEqual([
      ['api-middleware', {}],
      ['put-transfer', {}],
    ]);
  });
});
