// Browser side of the console: the key gate, polling, buttons and guided flows.
// A module of the console's browser bundle (./index.ts).
import type { Api, Exchange } from './api.js';
import type { Flow, FlowTools, Step } from './flow.js';
import type { Snapshot, Views } from './views.js';
import { CHART_HEIGHT, chartWidth, drawMarketChart, type MarketSample } from './market-chart.js';
import { keyField, problemList } from './markup.js';
import type { Balance, ClockState, Delivery, JournalEntry, Listed, MagicValue, Rate, ResourceRow, SandboxEvent, ScenarioState, ScenarioSummary, WebhookSettings } from './types.js';
import { readiness, type ReadinessReport } from './readiness-view.js';
import { resourceDetail, type DetailTarget } from './resource-detail.js';
import { sequence, type SequenceCall } from './sequence.js';

/** The views of the sidebar (page.ts draws the same), and where the old one-page anchors now live. */
const PAGES = ['flows', 'resources', 'webhooks', 'market', 'readiness', 'settings'];
const MOVED: Record<string, string> = { compose: 'flows', journal: 'resources', events: 'webhooks', deliveries: 'webhooks', clock: 'settings', scenario: 'settings', balances: 'settings', magic: 'settings' };

export interface ConsoleParts {
  makeApi(win: Window): Api;
  makeViews(): Views;
  flows: Flow[];
  pollMs: number;
}

export function startConsole(win: Window, parts: ConsoleParts) {
  const doc = win.document;
  const DEMO_BULK = 'bulk_demo_salaries';
  const api = parts.makeApi(win);
  const views = parts.makeViews();
  const flows = new Map(parts.flows.map((f) => [f.id, f]));
  const rendered: Record<string, string> = {};
  let events: SandboxEvent[] = [];
  let last: Snapshot | undefined;
  /** What each long list shows: a text filter and how many items (more on "Show more"). */
  const PAGE = 25;
  const lists: Record<'resources' | 'journal' | 'events', { text: string; shown: number }> = {
    resources: { text: '', shown: PAGE },
    journal: { text: '', shown: PAGE },
    events: { text: '', shown: PAGE * 2 },
  };
  let polling: Promise<void> | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let pending: Promise<unknown> = Promise.resolve();
  /** The view shown, and the resource its detail shows (#/resources/<eventPrefix>/<id>). */
  let current = 'flows';
  let detail: DetailTarget | undefined;
  /** The market's readings over the key's clock, the chart drawn from them, and when it was last read. */
  let samples: MarketSample[] = [];
  let chart: ReturnType<typeof drawMarketChart>;
  let marketRead: { at: number } | undefined;
  /** The running flow's cancel, when one runs. */
  let cancelFlow: (() => void) | undefined;

  const el = (sel: string) => doc.querySelector(sel) as HTMLElement | null;
  const isLive = () => api.key()?.startsWith('sk_live_') ?? false;

  function track<T>(p: Promise<T>): Promise<T> {
    pending = Promise.all([pending, p.catch(() => undefined)]);
    return p;
  }

  /** What names an element across two renderings of its view: its tag, id, action and what the action acts on (a summary: its details'). */
  const NAMING = ['id', 'data-action', 'data-kind', 'data-id', 'data-event', 'data-list', 'data-keep'];
  const signature = (e: Element) =>
    [e.tagName, ...NAMING.map((a) => e.getAttribute(a) ?? ''), e.tagName === 'SUMMARY' ? (e.parentElement?.getAttribute('data-keep') ?? '') : ''].join('|');

  /** Replace a view's HTML only when it changed, keeping open <details> open and the keyboard focus on the same control. */
  function put(view: string, html: string): void {
    const box = el(`[data-view="${view}"]`);
    if (!box || rendered[view] === html) return;
    rendered[view] = html;
    const open = new Set(Array.from(box.querySelectorAll('details[open]')).map((d) => d.getAttribute('data-keep')));
    const focused = doc.activeElement;
    const held = focused && focused !== box && box.contains(focused) ? signature(focused) : undefined;
    const nth = held ? Array.from(box.querySelectorAll('*')).filter((e) => signature(e) === held).indexOf(focused!) : -1;
    box.innerHTML = html;
    for (const d of Array.from(box.querySelectorAll('details[data-keep]'))) if (open.has(d.getAttribute('data-keep'))) d.setAttribute('open', '');
    // A button pressed from the keyboard (a scenario chosen, a move simulated) is drawn again: focus stays on it rather than falling to the page.
    // A move the new state no longer allows is gone: focus goes to the first control of the same resource (its Details link).
    if (held) {
      const all = Array.from(box.querySelectorAll('*')) as HTMLElement[];
      const same = all.filter((e) => signature(e) === held);
      const id = focused!.getAttribute('data-id');
      const near = id === null ? undefined : all.find((e) => e.getAttribute('data-id') === id && e.matches('button, a[href], summary, [tabindex]'));
      const inside = id === null ? undefined : all.find((e) => e.getAttribute('data-id') === id)?.querySelector<HTMLElement>('a[href], button, summary');
      // "Show more" that showed the last items is gone: the focus goes to the list's count, which now says all are shown.
      const list = focused!.getAttribute('data-action') === 'more' ? focused!.getAttribute('data-list') : null;
      const count = list === null ? undefined : box.querySelector<HTMLElement>(`[data-field="${list}-count"]`);
      (same[Math.min(nth, same.length - 1)] ?? near ?? inside ?? count)?.focus({ preventScroll: true });
    }
  }

  function say(field: string, text: string, outcome?: string): void {
    const box = el(`[data-field="${field}"]`);
    if (!box) return;
    box.textContent = text;
    if (outcome) box.setAttribute('data-outcome', outcome);
    else box.removeAttribute('data-outcome');
  }

  function showGate(): void {
    const key = api.key();
    doc.body.setAttribute('data-state', key ? 'ready' : 'locked');
    say('key', api.masked(key));
    // The mode in force, as the key selects it.
    const live = key?.startsWith('sk_live_') ?? false;
    say(
      'mode',
      !key ? '' : live ? 'Live simulation: live rules (listed banks, fixture accounts, no test values); moves and calls marked "sandbox only" do not exist on the live service' : 'Test mode: every account resolves, test values work',
      !key ? undefined : live ? 'live' : 'test',
    );
  }

  async function loadEvents(): Promise<void> {
    const oldest = await api.read<{ data: SandboxEvent[] }>('/_sandbox/events?limit=1');
    // A reset restarts the ids, and the bound drops the oldest: then start again from the top.
    if (events.length > 0 && oldest.data[0]?.id !== events[0].id) events = [];
    for (;;) {
      const after = events.length > 0 ? `&after=${encodeURIComponent(events[events.length - 1].id)}` : '';
      const page = await api.read<{ data: SandboxEvent[]; hasMore: boolean }>(`/_sandbox/events?limit=1000${after}`);
      events = events.concat(page.data);
      if (!page.hasMore) break;
    }
  }

  async function poll(): Promise<void> {
    if (!api.key()) return;
    try {
      // A deep link's resource is read by its id as well: the newest 200 may not hold it.
      const target = detail;
      const [resources, journal, deliveries, clock, scenario, scenarios, balances, magic, named] = await Promise.all([
        api.read<Listed<ResourceRow>>('/_sandbox/resources?limit=200'),
        api.read<{ data: JournalEntry[] }>('/_sandbox/requests?limit=100'),
        api.read<Listed<Delivery> | null>('/_sandbox/webhooks/deliveries?limit=100'),
        api.read<ClockState>('/_sandbox/clock'),
        api.read<ScenarioState>('/_sandbox/scenario'),
        api.read<{ data: ScenarioSummary[] }>('/_sandbox/scenarios'),
        api.read<{ data: Balance[] }>('/_sandbox/balances'),
        api.read<{ honoured: boolean; data: MagicValue[] }>('/_sandbox/magic-values'),
        // Its own failure (an id the query refuses, over 256 characters) fails no other view.
        target && target.id.length <= 256 ? api.read<Listed<ResourceRow>>(`/_sandbox/resources?id=${encodeURIComponent(target.id)}`).catch(() => undefined) : undefined,
      ]);
      await loadEvents();
      const snap: Snapshot = { resources, named: named?.data, events, journal: journal.data, deliveries, clock, scenario, scenarios: scenarios.data, balances: balances.data, magic };
      last = snap;
      drawLists();
      put('deliveries', views.deliveries(deliveries));
      put('clock', views.clock(clock));
      put('scenario', views.scenario(scenario, snap.scenarios));
      put('balances', views.balances(snap.balances));
      put('magic', views.magic(magic));
      drawDetail();
      // The market follows the key's clock while its view is open: read again once the clock has moved a minute or more (or back, after a reset).
      const at = Date.parse(clock.now);
      if (current === 'market' && marketRead && (at - marketRead.at >= 60_000 || at < marketRead.at)) void track(readMarket());
      say('poll', `Updated ${new Date().toLocaleTimeString()}`);
    } catch (err) {
      if ([401, 403].includes((err as { status?: number }).status ?? 0)) {
        forget('The sandbox refused this key. Enter another.');
        return;
      }
      say('poll', `Could not update: ${(err as Error).message}`, 'failed');
    }
  }

  /** The resource list, journal and event log, each filtered by its text and cut to its page. */
  function drawLists(): void {
    if (!last) return;
    put('resources', views.timelines(last, { ...lists.resources, live: isLive() }));
    put('journal', views.journal(last.journal, lists.journal));
    put('events', views.events(events, lists.events));
  }

  function drawDetail(): void {
    if (detail) put('resource-detail', resourceDetail(detail, last, isLive()));
  }

  /** Show the view the address names (#/flows, #/resources/payout/REF, ...); the old anchors (#journal) lead to their view. */
  function route(): void {
    const [head = '', prefix, ...rest] = win.location.hash.replace(/^#\/?/, '').split('/');
    current = PAGES.includes(head) ? head : (MOVED[head] ?? 'flows');
    detail = current === 'resources' && prefix && rest.length ? { prefix: decodeURIComponent(prefix), id: decodeURIComponent(rest.join('/')) } : undefined;
    for (const section of Array.from(doc.querySelectorAll('main > section[data-page]')) as HTMLElement[]) {
      section.hidden = section.getAttribute('data-page') !== current || (section.id === 'resource-detail' && !detail);
    }
    for (const link of Array.from(doc.querySelectorAll('[data-nav]'))) {
      if (link.getAttribute('data-nav') === current) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    doc.body.setAttribute('data-current', current);
    if (!api.key()) return;
    if (detail) {
      rendered['resource-detail'] = '';
      drawDetail();
      el('#resource-detail')?.scrollIntoView?.({ block: 'start' });
      // A resource older than the newest 200 is read by its id on the next poll: poll now.
      if (last && !last.resources.data.some((r) => r.id === detail?.id) && !last.named?.some((r) => r.id === detail?.id)) void refresh();
    }
    if (current === 'market' && !marketRead) void track(readMarket());
    if (current === 'readiness') void track(readReport());
  }

  /** The key's readiness report. */
  async function readReport(): Promise<void> {
    try {
      put('readiness', readiness(await api.read<ReadinessReport>('/_sandbox/report')));
    } catch (err) {
      const text = `Could not read the readiness report: ${(err as Error).message}`;
      // The panel says it too: a view left blank would look like a report with nothing in it.
      put('readiness', failedPanel(text));
      say('action-result', text, 'failed');
    }
  }

  /** A view's place when its read failed: what failed and why, in the failure colour. */
  const failedPanel = (text: string) => `<p class="empty" data-outcome="failed" data-field="read-failed">${views.esc(text)}</p>`;

  /** One poll at a time; a call while one runs waits for it and runs again. */
  function refresh(): Promise<void> {
    const mine: Promise<void> = (polling ?? Promise.resolve()).then(poll).finally(() => {
      if (polling === mine) polling = null;
    });
    polling = mine;
    return track(mine);
  }

  function begin(): void {
    showGate();
    route();
    fillCompose();
    clearInterval(timer);
    timer = setInterval(() => void (polling ? undefined : refresh()), parts.pollMs);
    void refresh();
  }

  /** Empty every panel that holds what the key had: the polled views, the flow log and headline, the form's exchange, the market. */
  function clearPanels(): void {
    cancelFlow?.();
    samples = [];
    chart?.destroy();
    chart = undefined;
    marketRead = undefined;
    const chartBox = el('[data-field="market-chart"]');
    if (chartBox) chartBox.textContent = '';
    for (const view of new Set([...Object.keys(rendered), 'flow-log', 'compose', 'market', 'sequence', 'resource-detail', 'readiness'])) {
      rendered[view] = '';
      const box = el(`[data-view="${view}"]`);
      if (box) box.innerHTML = '';
    }
    for (const field of ['flow-title', 'flow-outcome', 'next-step', 'compose-result']) say(field, '');
    el('[data-field="flow-outcome"]')?.removeAttribute('data-tone');
    events = [];
    last = undefined;
    for (const [name, list] of Object.entries(lists)) {
      list.text = '';
      list.shown = name === 'events' ? PAGE * 2 : PAGE;
    }
    for (const input of Array.from(doc.querySelectorAll('[data-filter]')) as HTMLInputElement[]) input.value = '';
  }

  function forget(message = ''): void {
    api.forgetKey();
    clearInterval(timer);
    clearPanels();
    say('webhook-secret', '');
    showGate();
    say('key-error', message, message ? 'failed' : undefined);
    // The key screen is all there is now: its field takes the focus (the Forget key button that had it is gone).
    (el('#key') as HTMLElement | null)?.focus();
  }

  async function signIn(): Promise<void> {
    const input = el('#key') as HTMLInputElement;
    const value = input.value.trim();
    input.value = '';
    if (!api.KEY_FORMAT.test(value)) {
      say('key-error', 'A key looks like sk_test_ (test mode) or sk_live_ (live simulation) followed by letters and digits.', 'failed');
      return;
    }
    let x: Exchange;
    try {
      x = await api.call('Check the key', 'GET', '/_sandbox/clock', {}, value);
    } catch (err) {
      // The sandbox did not answer: say so on the key screen, not what an earlier try left there.
      say('key-error', (err as Error).message, 'failed');
      return;
    }
    if (x.status !== 200) {
      say('key-error', (x.responseBody as { message?: string })?.message ?? `The sandbox answered ${x.status}.`, 'failed');
      return;
    }
    say('key-error', '');
    api.setKey(value);
    // Flows first, unless the address already names a view (a deep link opened before the key was entered).
    if (!win.location.hash) win.history.replaceState(null, '', '#/flows');
    begin();
    // Keyboard and screen-reader users land on the console, not on the gate that just closed.
    (el('main') as HTMLElement | null)?.focus();
  }

  const tools: FlowTools = {
    reference: (prefix) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(16).slice(2, 8)}`,
    xmlText(xml, element) {
      const m = new RegExp(`<(?:\\w+:)?${element}>([^<]*)</`).exec(String(xml));
      if (!m) throw new Error(`No <${element}> in the response`);
      return m[1];
    },
    rate: (from, to, multiplier) => views.rate(from, to, multiplier),
    state: (code) => (views.stateName(code) === code ? code : `${views.stateName(code)} (${code})`),
  };

  /** The server's own explanation of a refusal: the JSON envelope's message or the XML reject's RsnDesc. */
  function serverMessage(body: unknown): string {
    const text = typeof body === 'string' ? /<RsnDesc>([^<]*)</.exec(body)?.[1] : (body as { message?: unknown } | null)?.message;
    return typeof text === 'string' && text ? `: ${text}` : '';
  }

  /** Shows the next call beside the newest step and resolves when "Next step" is pressed (or the flow is cancelled). */
  let advanceStep: (() => void) | undefined;
  let nextHeldFocus = false;
  function nextClicked(next: string): Promise<void> {
    const button = el('[data-action="next-step"]') as HTMLButtonElement | null;
    say('next-step', next);
    if (button) button.hidden = false;
    el('.next-step')?.scrollIntoView?.({ block: 'nearest' });
    // Pressed from the keyboard last time: the focus waited on Cancel, and comes back to Next.
    if (button && nextHeldFocus && doc.activeElement === el('[data-action="cancel-flow"]')) button.focus({ preventScroll: true });
    nextHeldFocus = false;
    return new Promise((resolve) => {
      advanceStep = () => {
        advanceStep = undefined;
        // Next hides while the call runs: a keyboard user's focus waits on Cancel rather than falling to the page.
        if (button && doc.activeElement === button) {
          nextHeldFocus = true;
          (el('[data-action="cancel-flow"]') as HTMLElement | null)?.focus({ preventScroll: true });
        }
        if (button) button.hidden = true;
        say('next-step', '');
        resolve();
      };
    });
  }

  class Cancelled extends Error {}

  async function runFlow(id: string): Promise<void> {
    const flow = flows.get(id);
    if (!flow) return;
    const log = el('[data-view="flow-log"]')!;
    rendered['flow-log'] = '';
    log.innerHTML = '';
    const calls: SequenceCall[] = [];
    const drawSequence = (running: boolean) => put('sequence', sequence(calls, running));
    drawSequence(true);
    say('flow-title', `${flow.title}: ${flow.outline}`);
    say('flow-outcome', 'Running…', 'running');
    el('[data-field="flow-outcome"]')?.setAttribute('data-tone', 'neutral');
    const buttons = [...doc.querySelectorAll('[data-action="flow"]')] as HTMLButtonElement[];
    // A flow button pressed from the keyboard is disabled while the flow runs: the focus goes to Cancel, and back to the button at the end.
    const started = buttons.find((b) => b === doc.activeElement);
    for (const b of buttons) b.disabled = true;
    const cancelButton = el('[data-action="cancel-flow"]') as HTMLButtonElement | null;
    if (cancelButton) cancelButton.hidden = false;
    if (started) cancelButton?.focus({ preventScroll: true });
    let cancelled = false;
    cancelFlow = () => {
      cancelled = true;
      advanceStep?.();
    };
    let n = 0;
    let seen = events.length;
    const stepMode = (el('#step-mode') as HTMLInputElement | null)?.checked ?? false;
    // In steps, the first Next takes the focus from Cancel where it waited.
    nextHeldFocus = started !== undefined && stepMode;
    const show = (x: Exchange) => {
      log.insertAdjacentHTML('beforeend', views.exchange(x, ++n, isLive()));
      calls.push({ method: x.method, path: x.path, status: x.status, events: [] });
      drawSequence(true);
      (stepMode ? el('.next-step') : log.lastElementChild)?.scrollIntoView?.({ block: 'nearest' });
    };
    const step: Step = async (label, method, path, opts = {}) => {
      const { expect, ...call } = opts;
      if (cancelled) throw new Cancelled();
      // One step at a time: say what the next call is, and make it when the presenter asks.
      if (stepMode) await nextClicked(`Next: ${method} ${path} (${label})`);
      if (cancelled) throw new Cancelled();
      let x = await api.call(label, method, path, call);
      show(x);
      // 503 and 429 mean the request was not processed, so the same call is safe to repeat.
      for (let retry = 1; (x.status === 503 || x.status === 429) && retry <= 3 && !cancelled; retry++) {
        await new Promise((resolve) => setTimeout(resolve, 1000 * retry));
        x = await api.call(`${label} (try ${retry + 1})`, method, path, call);
        show(x);
      }
      await refresh();
      // The events this call caused, which went on to the webhook receiver.
      if (events.length < seen) seen = 0;
      calls[calls.length - 1].events = events.slice(seen).map((e) => String(e.event));
      seen = events.length;
      drawSequence(true);
      const ok = expect !== undefined ? x.status === expect : x.status >= 200 && x.status < 300;
      if (!ok) throw new Error(`${label}: ${x.status}${serverMessage(x.responseBody)}`);
      return x;
    };
    // data-outcome says whether the flow ran to its end; data-tone what the state it reached means
    // (a payout that ends FAILED is a flow that worked, shown in the failure colour).
    const outcome = el('[data-field="flow-outcome"]');
    try {
      const done = await flow.run(step, tools);
      say('flow-outcome', done.text, 'ok');
      outcome?.setAttribute('data-tone', views.tone(done.state));
    } catch (err) {
      if (err instanceof Cancelled) {
        say('flow-outcome', `${flow.title} cancelled after ${n} call${n === 1 ? '' : 's'}`, 'cancelled');
        outcome?.setAttribute('data-tone', 'neutral');
      } else {
        say('flow-outcome', (err as Error).message, 'failed');
        outcome?.setAttribute('data-tone', 'failure');
      }
    } finally {
      cancelFlow = undefined;
      advanceStep = undefined;
      say('next-step', '');
      const next = el('[data-action="next-step"]') as HTMLButtonElement | null;
      const focusBack = started !== undefined && (doc.activeElement === next || doc.activeElement === cancelButton || doc.activeElement === doc.body);
      nextHeldFocus = false;
      if (next) next.hidden = true;
      if (cancelButton) cancelButton.hidden = true;
      for (const b of buttons) b.disabled = false;
      if (focusBack) started.focus({ preventScroll: true });
      drawSequence(false);
    }
  }

  /** The market as the key sees it now: the JSON rate of each pair and the pools behind the FX listings (XML); each reading is a point of the chart. */
  let marketReading: Promise<void> | undefined;
  function readMarket(): Promise<void> {
    // One reading at a time: a second ask while one runs shares it.
    marketReading ??= readMarketNow().finally(() => (marketReading = undefined));
    return marketReading;
  }

  async function readMarketNow(): Promise<void> {
    const pairs = [['NGN', 'USDT'], ['NGN', 'USDC'], ['GHS', 'USDT'], ['GHS', 'USDC']];
    try {
      const [clock, ...rates] = await Promise.all([api.read<ClockState>('/_sandbox/clock'), ...pairs.map(([from, to]) => api.read<Rate>(`/api/v1/partners/rates?from=${from}&to=${to}`))]);
      const pools = await api.call('Read the liquidity pools', 'GET', '/api/v1/partners/fx/listings?pageSize=40', { headers: { accept: 'application/xml' } });
      if (!api.key()) return;
      put('market', views.market(rates, String(pools.responseBody ?? '')));
      const at = Date.parse(clock.now);
      marketRead = { at };
      const values: Record<string, number> = {};
      for (const r of rates) {
        const m = Number(r.rate);
        if (Number.isFinite(m) && m > 0) values[`${String(r.from).toUpperCase()}/${String(r.to).toUpperCase()}`] = m >= 1 ? m : 1 / m;
      }
      samples = [...samples.filter((s) => s.at < at / 1000), { at: at / 1000, values }].slice(-200);
      const box = el('[data-field="market-chart"]');
      if (box) chart = drawMarketChart(box, samples, chart);
    } catch (err) {
      const text = `Could not read the market: ${(err as Error).message}`;
      put('market', failedPanel(text));
      say('action-result', text, 'failed');
    }
  }

  /** The create requests the page offers: where each goes, and an example body that succeeds under the key's mode. */
  function composeTemplate(kind: string): { label: string; path: string; headers?: Record<string, string>; body: string; xml?: boolean } {
    const live = api.key()?.startsWith('sk_live_') ?? false;
    const name = live ? 'Adaeze Okonkwo' : 'John Doe';
    const json = (v: unknown) => JSON.stringify(v, null, 2);
    switch (kind) {
      case 'wallet-payout':
        return { label: 'Create a wallet payout', path: '/api/v1/partners/wallets/payouts', body: json({ reference: tools.reference('console-wallet'), chain: 'base', asset: 'usdc', amount: 10, toAddress: '0x52908400098527886E0F7030069857D2E4169EE7' }) };
      case 'withdrawal':
        return { label: 'Create a bank withdrawal', path: '/api/v1/partners/withdrawal', body: json({ accountId: '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9', accountName: name, accountNumber: '0123456789', amount: 1000, bankCode: '058', authCode: '123456' }) };
      case 'transfer':
        return {
          label: 'Create a transfer',
          path: '/api/v1/transfers',
          headers: { 'x-service-source': 'console' },
          body: json({ reference: win.crypto.randomUUID(), amount: 1000, currency: 'NGN', type: 'BANK', source: { accountNumber: '1000200030' }, destination: { accountNumber: '0123456789', accountName: name, bankCode: '058' } }),
        };
      case 'intent':
        return { label: 'Create a marketplace intent', path: '/api/v1/partners/marketplace/intent', body: json({ sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'source' }) };
      case 'fx-trade':
        return {
          label: 'Create an FX trade',
          path: '/api/v1/partners/fx/trades',
          xml: true,
          body: '<?xml version="1.0" encoding="UTF-8"?>\n<FXTradInstr>\n  <CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair>\n  <TradAmts><TradgCcyAmt>100</TradgCcyAmt></TradAmts>\n  <AmtDrctn>BUY</AmtDrctn>\n</FXTradInstr>',
        };
      default:
        return { label: 'Create a fiat payout', path: '/api/v1/partners/payouts', body: json({ reference: tools.reference('console-form'), amount: 5000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: name, bankCode: '058' } }) };
    }
  }

  /** The form's example for the kind chosen, and where it goes (METHOD /path) beside the kind. */
  function fillCompose(): void {
    const kind = (el('#compose-kind') as HTMLSelectElement | null)?.value;
    const box = el('#compose-body') as HTMLTextAreaElement | null;
    if (kind === undefined || !box) return;
    const t = composeTemplate(kind);
    box.value = t.body;
    say('compose-target', `POST ${t.path}`);
  }

  /** The demo bulk file: made only by this button, through the control API. */
  async function makeDemo(): Promise<void> {
    const x = await api.call('Make the demo bulk file', 'POST', '/_sandbox/bulk-disbursements/demo');
    const done = x.status === 200 || x.status === 201;
    say('action-result', done ? `Demo bulk file ${DEMO_BULK}: ${x.status === 201 ? 'made' : 'already here'}, 24 settled transfers` : `Make the demo bulk file: ${x.status}${serverMessage(x.responseBody)}`, done ? 'ok' : 'failed');
    await refresh();
  }

  /** Send what the form holds; the exchange (XML shown as sent and received) appears under it. */
  async function compose(): Promise<void> {
    const kind = (el('#compose-kind') as HTMLSelectElement).value;
    const box = el('#compose-body') as HTMLTextAreaElement;
    if (!box.value.trim()) box.value = composeTemplate(kind).body;
    const t = composeTemplate(kind);
    let x: Exchange;
    if (t.xml) x = await api.call(t.label, 'POST', t.path, { xml: box.value, headers: t.headers });
    else {
      let body: unknown;
      try {
        body = JSON.parse(box.value);
      } catch (err) {
        // Nothing was sent: the result beside Send says so, and the last exchange (another body's) goes.
        const text = `Not sent: the body is not JSON: ${(err as Error).message}`;
        put('compose', '');
        say('compose-result', text, 'failed');
        say('action-result', text, 'failed');
        return;
      }
      x = await api.call(t.label, 'POST', t.path, { body, headers: t.headers });
    }
    // A refusal lists every field it names (the message tells only the first), above the exchange.
    put('compose', problemList(x.responseBody) + views.exchange(x, 1));
    const done = x.status >= 200 && x.status < 300;
    const key = keyField(x.responseBody);
    say('compose-result', `→ ${x.status}${done ? (key ? ` · ${key}` : '') : serverMessage(x.responseBody)}`, done ? 'ok' : 'failed');
    say('action-result', done ? `${t.label}: ${x.status}` : `${t.label}: ${x.status}${serverMessage(x.responseBody)}`, done ? 'ok' : 'failed');
    await refresh();
  }

  async function act(target: HTMLElement): Promise<void> {
    const action = target.getAttribute('data-action');
    if (action === 'sign-in') return signIn();
    if (action === 'next-step') return advanceStep?.();
    if (action === 'cancel-flow') return cancelFlow?.();
    if (action === 'forget-key') return forget();
    if (!api.key()) return;
    if (action === 'flow') return runFlow(target.getAttribute('data-flow')!);
    if (action === 'market') return readMarket();
    if (action === 'readiness') return readReport();
    if (action === 'compose-fill') return fillCompose();
    const dialog = el('#reset-dialog') as HTMLDialogElement | null;
    if (action === 'reset') {
      dialog?.showModal();
      return;
    }
    if (action === 'reset-cancel') return dialog?.close();
    if (action === 'demo-bulk') return makeDemo();
    if (action === 'compose-send') return compose();
    if (action === 'more') {
      const list = lists[target.getAttribute('data-list') as keyof typeof lists];
      list.shown += list === lists.events ? PAGE * 2 : PAGE;
      return drawLists();
    }
    let x: Exchange;
    try {
      if (action === 'advance') {
        x = await api.call('Advance the clock', 'POST', '/_sandbox/clock/advance', { body: { seconds: Number(target.getAttribute('data-seconds')) } });
      } else if (action === 'scenario') {
        const name = (el('#scenario-pick') as HTMLSelectElement).value;
        if (!name) {
          say('action-result', 'Choose a bundled scenario from the list first: the one in force is this key\'s own document.', 'failed');
          return;
        }
        x = await api.call('Choose a scenario', 'PUT', '/_sandbox/scenario', { body: { name } });
      } else if (action === 'scenario-default') {
        x = await api.call('Back to the default scenario', 'DELETE', '/_sandbox/scenario');
      } else if (action === 'simulate') {
        const [kind, id, event] = ['data-kind', 'data-id', 'data-event'].map((a) => target.getAttribute(a)!);
        x = await api.call(`Simulate ${event} on ${id}`, 'POST', `/_sandbox/simulate/${kind}/${encodeURIComponent(id)}/${event}`);
      } else if (action === 'top-up') {
        const key = target.getAttribute('data-key')!;
        x = await api.call(`Top up ${key}`, 'POST', '/_sandbox/balances/top-up', { body: { key, amount: Number(target.getAttribute('data-amount')) } });
      } else if (action === 'webhook-set' || action === 'webhook-rotate') {
        const input = el('#webhook-url') as HTMLInputElement;
        // Rotating sets the webhook again without a secret: the sandbox makes a new one.
        const url = action === 'webhook-rotate' && !input.value ? (await api.read<WebhookSettings>('/_sandbox/webhooks')).url : input.value;
        x = await api.call(action === 'webhook-set' ? 'Set the webhook' : 'Rotate the webhook secret', 'PUT', '/_sandbox/webhooks', { body: { url } });
        if (x.status === 200) {
          const settings = x.responseBody as WebhookSettings;
          input.value = settings.url;
          say('webhook-secret', settings.secret ?? '');
        }
      } else if (action === 'webhook-test') {
        x = await api.call('Send a test event', 'POST', '/_sandbox/webhooks/test');
      } else if (action === 'webhook-stop') {
        x = await api.call('Stop webhooks', 'DELETE', '/_sandbox/webhooks');
        say('webhook-secret', '');
      } else if (action === 'redeliver') {
        const id = target.getAttribute('data-id')!;
        x = await api.call(`Redeliver ${id}`, 'POST', `/_sandbox/webhooks/deliveries/${encodeURIComponent(id)}/redeliver`);
      } else if (action === 'reset-confirm') {
        dialog?.close();
        x = await api.call("Reset this key's data", 'POST', '/_sandbox/reset');
        // Nothing of before stays on screen; the polled views fill again from the empty key.
        if (x.status === 200) {
          clearPanels();
          fillCompose();
        }
      } else return;
    } catch (err) {
      say('action-result', (err as Error).message, 'failed');
      return;
    }
    const done = x.status >= 200 && x.status < 300;
    say('action-result', done ? `${x.label}: done` : `${x.label}: ${x.status}${serverMessage(x.responseBody)}`, done ? 'ok' : 'failed');
    await refresh();
  }

  doc.addEventListener('click', (ev) => {
    const target = (ev.target as HTMLElement).closest?.('[data-action]') as HTMLElement | null;
    if (!target) return;
    ev.preventDefault();
    // Whatever an action throws (the sandbox not answering a send) is said, never dropped.
    void track(act(target)).catch((err) => say('action-result', (err as Error).message, 'failed'));
  });
  win.addEventListener('hashchange', () => route());
  // The chart follows its box's width: a window resized, or the Market view shown after the chart was drawn hidden.
  const fitChart = () => {
    const box = el('[data-field="market-chart"]');
    if (chart && box && box.clientWidth > 0 && Math.abs(chart.width - chartWidth(box)) > 1) chart.setSize({ width: chartWidth(box), height: CHART_HEIGHT });
  };
  win.addEventListener('resize', fitChart);
  win.addEventListener('hashchange', fitChart);
  doc.addEventListener('input', (ev) => {
    const box = ev.target as HTMLInputElement;
    const name = box.getAttribute?.('data-filter') as keyof typeof lists | null;
    if (!name || !lists[name]) return;
    lists[name].text = box.value;
    lists[name].shown = name === 'events' ? PAGE * 2 : PAGE;
    drawLists();
  });
  // Closing the reset dialog (either button, or Escape) puts focus back on the button that opened it.
  el('#reset-dialog')?.addEventListener('close', () => (el('[data-action="reset"]') as HTMLElement | null)?.focus());
  // Another kind goes to another endpoint: its own example replaces the body (a payout body never goes to the withdrawal route).
  doc.addEventListener('change', (ev) => {
    if ((ev.target as HTMLElement).id === 'compose-kind') fillCompose();
  });
  doc.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.target as HTMLElement).id === 'key') void track(signIn());
  });

  (win as Window & { sandboxConsole?: unknown }).sandboxConsole = {
    refresh,
    runFlow: (id: string) => track(runFlow(id)),
    /** Resolves when every action and poll started so far has finished. */
    async idle() {
      let seen: Promise<unknown>;
      do {
        seen = pending;
        await seen;
      } while (seen !== pending);
    },
  };

  if (api.key()) begin();
  else {
    showGate();
    route();
  }
}
