// The resource view (#/resources/<eventPrefix>/<id>): one resource's fields formatted for a person
// (money with its currency and thousands separators, instants with their time zone and how long
// ago), the timeline of its states by readable name, the events and webhook deliveries it caused,
// and the moves its state allows. A module of the console's browser bundle.
import { block, esc, eventSubject, grouped, ident, instant, pretty, SANDBOX_ONLY, stateName, status } from './markup.js';
import type { ResourceRow, Snapshot } from './types.js';

type Json = Record<string, unknown>;

const MONEY = /^(amount|fee|fees|total|totalAmount|sourceAmount|destinationAmount|available|balance|netAmount)$/i;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The currency an amount of this resource is in: its own field, else the source or destination's. */
function currencyOf(r: Json, key: string): string {
  const c = r.currency ?? r.asset ?? (/destination/i.test(key) ? r.destinationCurrency : r.sourceCurrency) ?? '';
  return String(c).toUpperCase();
}

/** One field as a person reads it. */
function field(r: Json, key: string, value: unknown, now: string): string {
  if (value === null || value === undefined || value === '') return '<span class="muted">none</span>';
  if (typeof value === 'string' && INSTANT.test(value)) return instant(value, now);
  if (MONEY.test(key) && /^-?\d+(\.\d+)?$/.test(String(value))) {
    const unit = currencyOf(r, key);
    return `<span class="num">${esc(grouped(value))}${unit ? ` ${esc(unit)}` : ''}</span>`;
  }
  if (key === 'status') return status(String(value));
  if (/(^id$|reference|Id$|Hash$|address$)/i.test(key)) return ident(value);
  return esc(value);
}

export interface DetailTarget {
  prefix: string;
  id: string;
}

export function resourceDetail(target: DetailTarget, snap: Snapshot | undefined, live: boolean): string {
  if (!snap) return '<p class="empty">Reading this key\'s resources…</p>';
  const named = (x: ResourceRow) => (x.eventPrefix === target.prefix || x.kind === target.prefix) && x.id === target.id;
  const r = snap.resources.data.find(named) ?? snap.named?.find(named);
  const events = snap.events.filter((e) => {
    const s = eventSubject(e);
    return (s.prefix === target.prefix || s.prefix === r?.eventPrefix) && s.id === target.id;
  });
  if (!r && events.length === 0) return `<p class="empty" data-field="detail-missing">This key has no ${esc(target.prefix)} ${ident(target.id)} (yet). <a href="#/resources">All resources</a></p>`;
  const now: string = snap.clock?.now ?? new Date().toISOString();
  const resource = (r?.resource ?? events[events.length - 1]?.data ?? {}) as Json;
  const state = r?.status ?? (resource.status as string | undefined) ?? null;
  const fields = Object.entries(resource)
    .filter(([, v]) => v === null || typeof v !== 'object')
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${field(resource, k, v, now)}</dd>`)
    .join('');
  const timeline = events
    .map((e) => {
      const code = String(e.event).startsWith('order.') ? String(e.event) : String((e.data as Json | undefined)?.status ?? String(e.event).split('.').slice(1).join('.'));
      const reason = (e.data as Json | undefined)?.failure_reason;
      return `<li>${status(code)}${stateName(code) !== code ? ` <span class="muted">(${esc(code)})</span>` : ''} ${instant(e.createdAt, now)}${reason ? ` <span class="reason">${esc(reason)}</span>` : ''}</li>`;
    })
    .join('');
  const ids = new Set(events.map((e) => e.id));
  const deliveries = (snap.deliveries?.data ?? []).filter((d) => ids.has(d.eventId) || JSON.stringify(d.payload ?? '').includes(target.id));
  const deliveryRows = deliveries
    .map((d) => `<tr><td>${esc(d.event)}</td><td>${status(d.status)}</td><td class="num">${esc(d.tries)}</td><td>${instant(d.createdAt ?? d.attempts?.[0]?.at, now)}</td></tr>`)
    .join('');
  const eventRows = events.map((e) => `<tr><td>${ident(e.id)}</td><td>${esc(e.event)}</td><td>${instant(e.createdAt, now)}</td></tr>`).join('');
  const moves: string[] = r?.moves ?? [];
  const actions = moves.length
    ? `<p class="moves">Move it${live ? ` ${SANDBOX_ONLY}` : ''}: ${moves.map((m) => `<button type="button" data-action="simulate" data-kind="${esc(r!.kind)}" data-id="${esc(target.id)}" data-event="${esc(m)}">${esc(m)}</button>`).join(' ')}</p>`
    : '<p class="muted">No move is open from this state.</p>';
  return `<article class="detail" data-kind="${esc(r?.kind ?? target.prefix)}" data-id="${esc(target.id)}">
<header><span class="kind">${esc(r?.kind ?? target.prefix)}</span> ${ident(target.id)} ${status(state)} <a href="#/resources">All resources</a></header>
<div class="detail-grid"><div><h3>Fields</h3><dl class="fields">${fields}</dl></div>
<div><h3>Timeline</h3><ol class="states">${timeline || '<li class="muted">no state changes recorded</li>'}</ol>${actions}</div></div>
<h3>Events it caused (${events.length})</h3>${events.length ? `<table tabindex="0"><thead><tr><th>id</th><th>event</th><th>at</th></tr></thead><tbody>${eventRows}</tbody></table>` : '<p class="muted">None.</p>'}
<h3>Webhook deliveries (${deliveries.length})</h3>${deliveries.length ? `<table tabindex="0"><thead><tr><th>event</th><th>status</th><th>tries</th><th>at</th></tr></thead><tbody>${deliveryRows}</tbody></table>` : '<p class="muted">None: no webhook was set, or none has been sent yet (Webhooks).</p>'}
<details data-keep="detail-json"><summary>As the API shows it</summary>${block('', pretty(resource)).replace('<h4></h4>', '')}</details></article>`;
}
