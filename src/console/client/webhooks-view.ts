// Browser side of the console: the Webhooks view's event log and deliveries.
// A module of the console's browser bundle (./index.ts).
import { page, type ListView } from './list-page.js';
import { block, esc, eventSubject, headers, ident, pretty, status, time } from './markup.js';
import type { SandboxEvent, Snapshot } from './types.js';

export function events(list: SandboxEvent[], view?: ListView): string {
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

export function deliveries(list: Snapshot['deliveries']): string {
  if (!list || list.data.length === 0) return '<p class="empty">No webhook deliveries. Set a webhook with PUT /_sandbox/webhooks to see them here.</p>';
  return list.data
    .map((d) => {
      const attempts = d.attempts
        .map(
          (a) =>
            `<li>${esc(a.trigger)} ${time(a.at)} → ${a.statusCode === null ? 'no answer' : status(String(a.statusCode))} ${esc(a.error ?? '')}${a.requestHeaders ? block('Request headers', headers(a.requestHeaders), 3) : ''}${a.responseBody ? block("Receiver's answer", a.responseBody, 3) : ''}</li>`,
        )
        .join('');
      return `<details class="delivery" data-keep="dlv:${esc(d.id)}"><summary>${esc(d.event)} ${status(d.status)} <span class="muted">${esc(d.tries)} ${d.tries === 1 ? 'try' : 'tries'}${d.nextAttemptAt ? ` · next ${time(d.nextAttemptAt)}` : ''}</span></summary>
<p><button type="button" data-action="redeliver" data-id="${esc(d.id)}">Redeliver</button></p><ol class="attempts">${attempts}</ol>${block('Payload', pretty(d.payload), 3)}</details>`;
    })
    .join('\n');
}
