// A scenario's fault route that matches no API path is answered with the nearest path ("did you
// mean"). The nearest was found by comparing the whole route with every path, letter by letter: 50
// routes of 200 characters, in a 13 KB document, took 120 to 150 ms of CPU, every key waiting, at each
// PUT. A comparison now stops once it cannot come nearer than the best so far. Measured as the
// process's CPU time (a busy machine stretches the clock, not the work), median of five.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';

const route = (i: number) => `/api/${'qwertyuiopasdfghjklzxcvbnm'.repeat(8).slice(i % 26, (i % 26) + 190)}`;

describe('a scenario of many long fault routes that match no API path', () => {
  it('is refused naming each route, in a few milliseconds of CPU', async () => {
    const t = await createTestApp();
    const body = { scenario: { faults: Array.from({ length: 50 }, (_, i) => ({ route: { path: route(i) }, fault: { kind: 'error', status: 500 } })) } };
    const runs: number[] = [];
    for (let i = 0; i < 6; i++) {
      const before = process.cpuUsage();
      const res = await t.call('PUT', '/_sandbox/scenario', { body });
      const used = process.cpuUsage(before);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toHaveLength(50);
      expect(res.body.error.details[49]).toEqual({ field: 'scenario.faults[49].route.path', issue: 'matches no route of the API (see /openapi.json for the paths)' });
      // The first run warms the code up.
      if (i > 0) runs.push((used.user + used.system) / 1000);
    }
    const median = [...runs].sort((a, b) => a - b)[2];
    expect(median, `CPU ms of each run: ${runs.map(Math.round).join(', ')}`).toBeLessThan(50);
  });

  it('still suggests the path a route misspells', async () => {
    const t = await createTestApp();
    const res = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { faults: [{ route: { path: '/api/v1/partners/payuots' }, fault: { kind: 'error', status: 500 } }] } } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].issue).toBe("matches no route of the API: did you mean '/api/v1/partners/payouts'? (see /openapi.json for the paths)");
  });
});
