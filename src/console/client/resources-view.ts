// Browser side of the console: the Resources view's lists: each resource with its timeline, and the request journal.
// A module of the console's browser bundle (./index.ts).
import { page, type ListView } from './list-page.js';
import { block, esc, eventSubject, headers, ident, pathCode, pretty, SANDBOX_ONLY, status, time } from './markup.js';
import type { JournalEntry, SandboxEvent, Snapshot } from './types.js';

export function timelines(snap: Snapshot, view?: ListView): string {
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

export function journal(entries: JournalEntry[], view?: ListView): string {
  if (entries.length === 0) return '<p class="empty">No API requests yet.</p>';
  const paged = page(entries, view, (j) => `${j.method} ${j.path} ${j.sent ?? j.status}`, 'journal');
  return paged.items
    .map((j) => {
      const q = j.query ? `?${j.query}` : '';
      return `<details class="entry" data-keep="req:${esc(j.id)}"><summary><span class="method">${esc(j.method)}</span> ${pathCode(j.path + q)} ${status(String(j.sent ?? j.status))}${j.fault ? ` <span class="fault">${esc(j.fault.kind)} fault, rule ${esc(j.fault.rule)}</span>` : ''} <span class="muted">${esc(j.durationMs)} ms · ${time(j.at)}</span></summary>
${block('Request headers', headers(j.requestHeaders), 3)}${block('Request body', pretty(j.requestBody), 3)}${block('Response body', pretty(j.responseBody), 3)}</details>`;
    })
    .join('\n') + paged.footer;
}
