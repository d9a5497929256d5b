// Browser side of the console: HTML for each view, from what the control API returned.
// A module of the console's browser bundle (./index.ts).
import type { Exchange } from './api.js';
import type { Balance, ClockState, Delivery, JournalEntry, Listed, MagicValue, Rate, ResourceRow, SandboxEvent, ScenarioState, ScenarioSummary } from './types.js';
import { amount, block, esc, eventSubject, grouped, headers, ident, keyField, pathCode, pretty, prettyXml, rate, SANDBOX_ONLY, stateName, status, time, tone } from './markup.js';

export interface Snapshot {
  resources: Listed<ResourceRow>;
  events: SandboxEvent[];
  journal: JournalEntry[];
  deliveries: Listed<Delivery> | null;
  clock: ClockState;
  scenario: ScenarioState;
  scenarios: ScenarioSummary[];
  balances: Balance[];
  magic: { honoured: boolean; data: MagicValue[] };
}

export type Views = ReturnType<typeof makeViews>;

export function makeViews() {
  /** What a long list shows: the items whose text contains the filter (any case), up to `shown`. */
  interface ListView {
    text: string;
    shown: number;
    /** The resource list only: a live key, whose simulate moves are marked as the sandbox's own. */
    live?: boolean;
  }


  function page<T>(items: T[], view: ListView | undefined, textOf: (item: T) => string, name: string): { items: T[]; footer: string } {
    const want = (view?.text ?? '').trim().toLowerCase();
    const matching = want ? items.filter((i) => textOf(i).toLowerCase().includes(want)) : items;
    const shown = view?.shown ?? matching.length;
    const rest = matching.length - shown;
    const counted = `<p class="muted" data-field="${name}-count">Showing ${Math.min(shown, matching.length)} of ${matching.length}${want ? ` matching "${esc(want)}"` : ''}${matching.length !== items.length ? ` (${items.length} in all)` : ''}</p>`;
    const more = rest > 0 ? `<p><button type="button" data-action="more" data-list="${name}">Show more (${rest} left)</button></p>` : '';
    return { items: matching.slice(0, shown), footer: counted + more };
  }

  function timelines(snap: Snapshot, view?: ListView): string {
    const history = new Map<string, SandboxEvent[]>();
    for (const e of snap.events) {
      const s = eventSubject(e);
      const key = `${s.prefix}|${s.id}`;
      history.set(key, [...(history.get(key) ?? []), e]);
    }
    const cards: { kind: string; prefix: string; id: string; status: string | null; createdAt: string; resource: unknown; steps: SandboxEvent[]; moves: string[] }[] = [];
    for (const r of snap.resources.data) {
      const key = `${r.eventPrefix}|${r.id}`;
      cards.push({ kind: r.kind, prefix: r.eventPrefix, id: r.id, status: r.status, createdAt: r.createdAt, resource: r.resource, steps: history.get(key) ?? [], moves: r.moves ?? [] });
      history.delete(key);
    }
    // Kinds this build does not list yet still have a history: draw them from their events.
    for (const [key, steps] of history) {
      const [prefix, id] = key.split('|');
      const last = steps[steps.length - 1];
      const state = last.data?.status ?? String(last.event).split('.').slice(1).join('.').toUpperCase();
      cards.push({ kind: prefix, prefix, id, status: String(state), createdAt: steps[0].createdAt, resource: last.data, steps, moves: [] });
    }
    cards.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
    if (cards.length === 0) return `<p class="empty">No resources yet. Run a guided flow, or call the API with this key.</p>`;
    const paged = page(cards, view, (c) => `${c.kind} ${c.id} ${c.status ?? ''}`, 'resources');
    return paged.items
      .map((c) => {
        const steps = c.steps
          .map((e) => {
            // order.successful joins its quote's timeline under its own name.
            const state = String(e.event).startsWith('order.') ? e.event : (e.data?.status ?? String(e.event).split('.').slice(1).join('.'));
            const reason = e.data?.failure_reason ? ` <span class="reason">${esc(e.data.failure_reason)}</span>` : '';
            return `<li class="step">${status(String(state))} ${time(e.createdAt)}${reason}</li>`;
          })
          .join('');
        return `<article class="resource" data-kind="${esc(c.kind)}" data-id="${esc(c.id)}">
<header><span class="kind">${esc(c.kind)}</span> ${ident(c.id)} ${status(c.status)} <a class="detail-link" href="#/resources/${esc(encodeURIComponent(c.prefix))}/${esc(encodeURIComponent(c.id))}">Details<span class="visually-hidden"> of ${esc(c.id)}</span></a></header>
<ol class="timeline">${steps || '<li class="step muted">no state changes recorded</li>'}</ol>${
          c.moves.length
            ? `<p class="moves">Simulate${view?.live ? ` ${SANDBOX_ONLY}` : ''}: ${c.moves.map((m) => `<button type="button" data-action="simulate" data-kind="${esc(c.kind)}" data-id="${esc(c.id)}" data-event="${esc(m)}">${esc(m)}</button>`).join(' ')}</p>`
            : ''
        }
<details data-keep="res:${esc(c.kind)}:${esc(c.id)}"><summary>As the API shows it</summary><pre tabindex="0">${esc(pretty(c.resource))}</pre></details>
</article>`;
      })
      .join('\n') + paged.footer;
  }

  function journal(entries: JournalEntry[], view?: ListView): string {
    if (entries.length === 0) return '<p class="empty">No API requests yet.</p>';
    const paged = page(entries, view, (j) => `${j.method} ${j.path} ${j.sent ?? j.status}`, 'journal');
    return paged.items
      .map((j) => {
        const q = j.query ? `?${j.query}` : '';
        return `<details class="entry" data-keep="req:${esc(j.id)}"><summary><span class="method">${esc(j.method)}</span> ${pathCode(j.path + q)} ${status(String(j.sent ?? j.status))}${j.fault ? ` <span class="fault">${esc(j.fault.kind)} fault, rule ${esc(j.fault.rule)}</span>` : ''} <span class="muted">${esc(j.durationMs)} ms · ${time(j.at)}</span></summary>
${block('Request headers', headers(j.requestHeaders))}${block('Request body', pretty(j.requestBody))}${block('Response body', pretty(j.responseBody))}</details>`;
      })
      .join('\n') + paged.footer;
  }

  function events(list: SandboxEvent[], view?: ListView): string {
    if (list.length === 0) return '<p class="empty">No events yet.</p>';
    const paged = page([...list].reverse(), view, (e) => `${e.id} ${e.event} ${eventSubject(e).id}`, 'events');
    const rows = paged.items
      .map((e) => {
        const s = eventSubject(e);
        return `<tr><td>${ident(e.id)}</td><td>${esc(e.event)}</td><td>${ident(s.id)}</td><td>${time(e.createdAt)}</td></tr>`;
      })
      .join('');
    return `<table tabindex="0"><thead><tr><th>id</th><th>event</th><th>resource</th><th>at</th></tr></thead><tbody>${rows}</tbody></table>${paged.footer}`;
  }

  function deliveries(list: Snapshot['deliveries']): string {
    if (!list || list.data.length === 0) return '<p class="empty">No webhook deliveries. Set a webhook with PUT /_sandbox/webhooks to see them here.</p>';
    return list.data
      .map((d) => {
        const attempts = d.attempts
          .map(
            (a) =>
              `<li>${esc(a.trigger)} ${time(a.at)} → ${a.statusCode === null ? 'no answer' : status(String(a.statusCode))} ${esc(a.error ?? '')}${a.requestHeaders ? block('Request headers', headers(a.requestHeaders)) : ''}${a.responseBody ? block("Receiver's answer", a.responseBody) : ''}</li>`,
          )
          .join('');
        return `<details class="delivery" data-keep="dlv:${esc(d.id)}"><summary>${esc(d.event)} ${status(d.status)} <span class="muted">${esc(d.tries)} ${d.tries === 1 ? 'try' : 'tries'}${d.nextAttemptAt ? ` · next ${time(d.nextAttemptAt)}` : ''}</span></summary>
<p><button type="button" data-action="redeliver" data-id="${esc(d.id)}">Redeliver</button></p><ol class="attempts">${attempts}</ol>${block('Payload', pretty(d.payload))}</details>`;
      })
      .join('\n');
  }

  function clock(c: ClockState): string {
    return `<dl><dt>Now</dt><dd data-field="now">${time(c.now)}</dd><dt>Ahead of real time</dt><dd>${esc(c.offsetSeconds)} s</dd>
<dt>Timed moves waiting</dt><dd>${esc(c.pendingJobs)}</dd><dt>Next one due</dt><dd>${c.nextDueAt ? time(c.nextDueAt) : 'none'}</dd></dl>`;
  }

  function scenario(current: ScenarioState, all: ScenarioSummary[]): string {
    const options = all.map((s) => `<option value="${esc(s.name)}"${s.name === current.name ? ' selected' : ''}>${esc(s.name)}</option>`).join('');
    const described = all.map((s) => `<li><b>${esc(s.name)}</b>: ${esc(s.description ?? '')}</li>`).join('');
    return `<p>In force: <b data-field="scenario">${esc(current.name)}</b> <span class="muted">(${current.source === 'tenant' ? 'chosen for this key' : 'server default'})</span></p>
<p><label for="scenario-pick">Scenario for this key</label> <select id="scenario-pick">${options}</select> <button type="button" data-action="scenario">Use for this key</button>
<button type="button" data-action="scenario-default">Back to the default</button></p><details data-keep="scn"><summary>Bundled scenarios</summary><ul>${described}</ul></details>`;
  }


  function balances(list: Balance[]): string {
    const rows = list.map((b) => `<tr><td>${esc(b.key)}</td><td class="num">${esc(grouped(b.available))}</td></tr>`).join('');
    return `<table tabindex="0"><thead><tr><th>balance</th><th>available</th></tr></thead><tbody>${rows}</tbody></table>`;
  }


  /** A number cell: never broken inside, its exact value in a title when the text rounds it. */
  const num = (text: string, exact?: string) => `<td class="num"${exact ? ` title="${esc(exact)}"` : ''}>${esc(text)}</td>`;

  /** The rates of a few pairs, and the pools of the FX listings (its XML, read with the browser's parser). */
  function market(rates: Rate[], poolsXml: string): string {
    const rateRows = rates
      .map(
        (r) =>
          `<tr><td>${esc(String(r.from).toUpperCase())} → ${esc(String(r.to).toUpperCase())}</td>${num(rate(r.from, r.to, r.rate), `The API's rate: ${r.rate} (an amount in ${String(r.from).toUpperCase()} times it is the amount in ${String(r.to).toUpperCase()})`)}<td>${esc(r.source)}</td><td>${time(r.timestamp)}</td></tr>`,
      )
      .join('');
    const xml = new DOMParser().parseFromString(poolsXml, 'application/xml');
    const text = (node: Element, name: string) => node.getElementsByTagName(name)[0]?.textContent ?? '';
    const pools = [...xml.getElementsByTagName('Listgs')];
    // A pool's pair is source/destination; its rate is source units per destination unit, and what it
    // can still deliver is in destination units.
    const poolRows = pools
      .map((p) => {
        const [source, destination] = text(p, 'CcyPair').split('/');
        // XchgRate is the fiat price of one stablecoin whichever way the pool goes: read it as one unit of the stablecoin in the fiat.
        const stable = /^(USDT|USDC)$/i.test(source) ? source : destination;
        const fiat = stable === source ? destination : source;
        const x = Number(text(p, 'XchgRate'));
        return `<tr data-pool-direction="${esc(source)}-${esc(destination)}"><td>${esc(text(p, 'Nm'))}</td><td>${esc(source)} → ${esc(destination)}</td>${num(rate(stable, fiat, x >= 1 ? x : 1 / x), `XchgRate ${text(p, 'XchgRate')}`)}${num(amount(text(p, 'AvlblBal'), destination))}</tr>`;
      })
      .join('');
    return `<table tabindex="0"><thead><tr><th>pair</th><th>rate</th><th>source</th><th>as of</th></tr></thead><tbody>${rateRows}</tbody></table>
<h3>Liquidity pools (${pools.length})</h3><table tabindex="0" data-field="pools"><thead><tr><th>pool</th><th>pair</th><th>rate</th><th>can still deliver</th></tr></thead><tbody>${poolRows}</tbody></table>`;
  }

  function magic(m: Snapshot['magic']): string {
    const rows = m.data.map((r) => `<tr><td><code>${esc(r.value)}</code></td><td><code>${esc(r.field)}</code></td><td>${esc(r.applies)}</td><td>${esc(r.effect)}</td></tr>`).join('');
    const note = m.honoured ? '' : '<p data-field="magic-off"><strong>Not honoured for this key now</strong> (a live key, or a scenario with magicValues: false).</p>';
    return `${note}<table tabindex="0"><thead><tr><th>value</th><th>field</th><th>applies to</th><th>what happens</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  /**
   * One call and its answer, as one line (number and label, method, path, status, time, the answer's
   * key field) that opens on the headers and bodies. Under a live key a call of the control API
   * (/_sandbox) is marked as the sandbox's own.
   */
  function exchange(x: Exchange, n: number, live = false): string {
    const mark = live && x.path.startsWith('/_sandbox/') ? ` ${SANDBOX_ONLY}` : '';
    const key = keyField(x.responseBody);
    return `<details class="exchange" data-keep="x:${n}"><summary><h3>${n}. ${esc(x.label)}${mark}</h3> <span class="call"><span class="method">${esc(x.method)}</span> ${pathCode(x.path)} → ${status(String(x.status))} <span class="muted">${esc(x.ms)} ms</span></span>${key ? ` <span class="key-field">${esc(key)}</span>` : ''}${x.retryAfter ? ` <strong data-field="retry-after">Retry after ${esc(x.retryAfter)} s</strong>` : ''}</summary>
${block('Request headers', headers(x.requestHeaders))}${block('Request body', pretty(x.requestBody))}${block('Response body', pretty(x.responseBody))}</details>`;
  }

  return { esc, pretty, prettyXml, rate, amount, tone, stateName, timelines, journal, events, deliveries, clock, scenario, balances, magic, market, exchange };
}
