// The console's views in happy-dom over the real app: one view at a time from the address
// (#/flows, #/resources/<eventPrefix>/<id>, ...), a resource's own view, flow steps as one line each,
// step mode's Cancel, the sequence diagram drawn from the flow's calls, the form's answer beside Send,
// and the readiness report.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, KEY, type TestApp } from '../support/app.js';
import { openConsole } from './support.js';

let open: Awaited<ReturnType<typeof openConsole>>[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});

async function signedIn(t: TestApp) {
  const c = await openConsole(t);
  open.push(c);
  await c.signIn(KEY);
  return c;
}

/** The ids of the sections shown. */
const shown = (c: Awaited<ReturnType<typeof openConsole>>) =>
  [...c.doc.querySelectorAll('main > section')].filter((s) => !(s as unknown as HTMLElement).hidden).map((s) => s.id);

/** Follow a link to a view, as the sidebar does (happy-dom sends hashchange on its next turn). */
async function go(c: Awaited<ReturnType<typeof openConsole>>, hash: string) {
  c.win.history.replaceState(null, '', hash);
  await new Promise((r) => setTimeout(r, 20));
  await c.api.idle();
}

describe('the console views', () => {
  it('shows Flows once a key is entered, and one view at a time from the sidebar', async () => {
    const t = await createTestApp();
    const c = await signedIn(t);
    expect(c.win.location.hash).toBe('#/flows');
    expect(shown(c)).toEqual(['flows', 'compose']);
    expect([...c.doc.querySelectorAll('nav.views a[data-nav]')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Flows', '#/flows'],
      ['Resources', '#/resources'],
      ['Webhooks', '#/webhooks'],
      ['Market', '#/market'],
      ['Readiness', '#/readiness'],
      ['Settings', '#/settings'],
    ]);
    expect(c.doc.querySelector('[data-nav="flows"]')!.getAttribute('aria-current')).toBe('page');
    const views: Record<string, string[]> = {
      '#/resources': ['resources', 'journal'],
      '#/webhooks': ['deliveries', 'events'],
      '#/market': ['market'],
      '#/readiness': ['readiness'],
      '#/settings': ['clock', 'scenario', 'balances', 'magic'],
      // The old one-page anchors lead to the view that holds them.
      '#journal': ['resources', 'journal'],
    };
    for (const [hash, ids] of Object.entries(views)) {
      await go(c, hash);
      expect(shown(c), hash).toEqual(ids);
    }
    expect(c.doc.querySelector('[data-nav="resources"]')!.getAttribute('aria-current')).toBe('page');
    expect(c.doc.querySelector('[data-nav="settings"]')!.hasAttribute('aria-current')).toBe(false);
  });

  it('opens a resource from a deep link: money with its currency, instants in UTC with how long ago, its states by name, its events and moves', async () => {
    const t = await createTestApp();
    const made = await t.call('POST', '/api/v1/partners/payouts', {
      body: { reference: 'deep-1', amount: 1250000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } },
    });
    expect(made.status).toBe(201);
    await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 120 } });
    const c = await openConsole(t);
    open.push(c);
    c.win.history.replaceState(null, '', '#/resources/payout/deep-1');
    await c.signIn(KEY);
    // A deep link opened before the key was entered stays where it points.
    expect(c.win.location.hash).toBe('#/resources/payout/deep-1');
    expect(shown(c)).toEqual(['resource-detail', 'resources', 'journal']);
    const detail = c.doc.querySelector('[data-view="resource-detail"] article.detail')!;
    expect(detail.getAttribute('data-id')).toBe('deep-1');
    const field = (name: string) => {
      const dt = [...detail.querySelectorAll('dl.fields dt')].find((d) => d.textContent === name);
      return dt?.nextElementSibling?.textContent ?? '';
    };
    expect(field('amount')).toBe('1,250,000 NGN');
    expect(field('createdAt')).toBe('2026-01-15 09:00:00 UTC (2 min ago)');
    expect([...detail.querySelectorAll('ol.states .status')].map((s) => s.textContent)).toEqual(['PENDING', 'PROCESSING']);
    expect(detail.textContent).toContain('Events it caused (2)');
    expect([...detail.querySelectorAll('[data-action="simulate"]')].map((b) => b.textContent)).toEqual(['complete', 'fail']);
    await c.click('[data-view="resource-detail"] [data-event="complete"]');
    expect(c.doc.querySelector('[data-view="resource-detail"] header .status')!.textContent).toBe('SUCCESSFUL');
    // Each card of the list links to its own view.
    expect(c.doc.querySelector('.resource[data-id="deep-1"] a.detail-link')!.getAttribute('href')).toBe('#/resources/payout/deep-1');
    await go(c, '#/resources/payout/nope');
    expect(c.text('[data-field="detail-missing"]')).toContain('This key has no payout nope (yet).');
  });

  it('opens a deep link to a resource older than the newest 200 the lists hold, reading it by its id', async () => {
    const t = await createTestApp();
    const payout = (reference: string) => ({ reference, amount: 5000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } });
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout('old-1') })).status).toBe(201);
    await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 60 } });
    for (let i = 0; i < 200; i++) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout(`new-${i}`) })).status).toBe(201);
    const c = await signedIn(t);
    expect(c.doc.querySelector('.resource[data-id="old-1"]')).toBeNull();
    await go(c, '#/resources/payout/old-1');
    const detail = c.doc.querySelector('[data-view="resource-detail"] article.detail')!;
    expect(detail.getAttribute('data-id')).toBe('old-1');
    expect(c.doc.querySelector('[data-view="resource-detail"] header .status')!.textContent).toBe('PROCESSING');
    // The moves come from the resource itself, not its events: it was read.
    expect([...detail.querySelectorAll('[data-action="simulate"]')].map((b) => b.textContent)).toEqual(['complete', 'fail']);
    await c.click('[data-view="resource-detail"] [data-event="fail"]');
    expect(c.doc.querySelector('[data-view="resource-detail"] header .status')!.textContent).toBe('FAILED');
    await go(c, '#/resources/payout/nope');
    expect(c.text('[data-field="detail-missing"]')).toContain('This key has no payout nope (yet).');
  });

  it('keeps every view updating on a deep link to an id no resource can have (over 256 characters)', async () => {
    const t = await createTestApp();
    const c = await signedIn(t);
    await go(c, `#/resources/payout/${'x'.repeat(300)}`);
    await c.api.refresh();
    expect(c.text('[data-field="poll"]')).toMatch(/^Updated/);
    expect(c.text('[data-field="detail-missing"]')).toContain('This key has no payout');
  });

  it('shows each step as one line, draws the sequence diagram from the calls, and cancels a flow in step mode', async () => {
    const t = await createTestApp();
    const c = await signedIn(t);
    await c.click('[data-flow="fiat-payout"]');
    const lines = [...c.doc.querySelectorAll('[data-view="flow-log"] details.exchange')];
    expect(lines).toHaveLength(5);
    expect(lines.every((d) => !d.hasAttribute('open'))).toBe(true);
    const summary = lines[2].querySelector('summary')!.textContent!.replace(/\s+/g, ' ').replace(/\d+ ms/, 'N ms');
    expect(summary).toMatch(/^3\. Create the payout POST \/api\/v1\/partners\/payouts → 201 N ms status: PENDING$/);
    // The diagram: a call and its answer per step, and the events each call caused, toward the webhook receiver.
    const svg = c.doc.querySelector('[data-view="sequence"] svg')!;
    expect([...svg.querySelectorAll('.lane text')].map((x) => x.textContent)).toEqual(['Partner (this console)', 'Payments API (sandbox)', 'Partner webhook receiver']);
    expect(svg.querySelectorAll('g.call')).toHaveLength(5);
    expect(svg.querySelectorAll('g.answer')).toHaveLength(5);
    expect([...svg.querySelectorAll('g.event text')].map((x) => x.textContent)).toEqual(['webhook payout.pending', 'webhook payout.processing', 'webhook payout.successful']);
    expect(svg.querySelector('g.call.control title')!.textContent).toMatch(/^4\. POST \/_sandbox\/clock\/advance \(the sandbox control API\)$/);

    (c.doc.querySelector('#step-mode') as unknown as HTMLInputElement).checked = true;
    (c.doc.querySelector('[data-flow="failing-payout"]') as unknown as HTMLElement).click();
    await expect.poll(() => c.text('[data-field="next-step"]')).toMatch(/^Next: GET \/api\/v1\/partners\/banks\/resolve/);
    const cancel = c.doc.querySelector('[data-action="cancel-flow"]') as unknown as HTMLButtonElement;
    expect(cancel.hidden).toBe(false);
    (c.doc.querySelector('[data-action="next-step"]') as unknown as HTMLElement).click();
    await expect.poll(() => c.text('[data-field="next-step"]')).toMatch(/^Next: POST \/api\/v1\/partners\/payouts/);
    await c.click('[data-action="cancel-flow"]');
    expect(c.text('[data-field="flow-outcome"]')).toBe('Failing payout cancelled after 1 call');
    expect(c.doc.querySelector('[data-field="flow-outcome"]')!.getAttribute('data-outcome')).toBe('cancelled');
    expect(cancel.hidden).toBe(true);
    expect((c.doc.querySelector('[data-action="next-step"]') as unknown as HTMLButtonElement).hidden).toBe(true);
    // The payout was never created.
    expect((await t.call('GET', '/_sandbox/resources?kind=payouts')).body.counts.payouts).toBe(1);
    expect((c.doc.querySelector('[data-flow="fiat-payout"]') as unknown as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the form\'s answer beside Send', async () => {
    const t = await createTestApp();
    const c = await signedIn(t);
    await c.click('[data-action="compose-send"]');
    expect(c.text('[data-field="compose-result"]')).toBe('→ 201 · status: PENDING');
  });

  it('reads the readiness report when its view opens', async () => {
    const t = await createTestApp();
    const c = await signedIn(t);
    await go(c, '#/readiness');
    expect(c.text('[data-field="ready"]')).toMatch(/^Not ready for live yet: \d+ passed, \d+ failed, \d+ not exercised/);
    expect(c.doc.querySelectorAll('[data-view="readiness"] tr[data-check]').length).toBeGreaterThan(3);
  });

  it('reads the market when its view opens, and again when the key\'s clock moves', async () => {
    const t = await createTestApp();
    const c = await signedIn(t);
    await go(c, '#/market');
    expect(c.doc.querySelector('[data-field="pools"]')).not.toBeNull();
    const reads = () => c.sent.filter((s) => s.url.startsWith('/api/v1/partners/fx/listings')).length;
    expect(reads()).toBe(1);
    await c.api.refresh();
    expect(reads()).toBe(1);
    await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 3600 } });
    await c.api.refresh();
    await c.api.idle();
    expect(reads()).toBe(2);
  });
});
