// The sequence diagram of a guided flow, drawn as SVG from the flow's own calls as they happen:
// the partner calls the API (the sandbox's control API marked so), the API answers with a status,
// and each event a call caused goes on to the partner's webhook receiver. A module of the console's
// browser bundle; no diagram engine.
import { esc, tone } from './markup.js';

export interface SequenceCall {
  method: string;
  path: string;
  status: number;
  /** The events the call caused (each sent to the webhook receiver, when one is set). */
  events: string[];
}

const LANES = [
  { name: 'Partner (this console)', x: 110 },
  { name: 'Payments API (sandbox)', x: 400 },
  { name: 'Partner webhook receiver', x: 690 },
];
const ROW = 22;
const TOP = 56;
const WIDTH = 800;

const short = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function arrow(from: number, to: number, y: number, label: string, cls: string, full = label): string {
  const mid = (from + to) / 2;
  return `<g class="${cls}"><title>${esc(full)}</title><line x1="${from}" y1="${y}" x2="${to}" y2="${y}" marker-end="url(#seq-arrow)"/><text x="${mid}" y="${y - 5}" text-anchor="middle">${esc(label)}</text></g>`;
}

/** The diagram for the calls so far; empty before the first call. */
export function sequence(calls: SequenceCall[], running: boolean): string {
  if (calls.length === 0) return '';
  const [partner, api, receiver] = LANES.map((l) => l.x);
  const parts: string[] = [];
  let y = TOP;
  calls.forEach((c, i) => {
    const control = c.path.startsWith('/_sandbox/');
    const path = c.path.replace(/\?.*$/, '');
    y += ROW;
    parts.push(arrow(partner, api, y, `${i + 1}. ${c.method} ${short(path, 34)}`, control ? 'call control' : 'call', `${i + 1}. ${c.method} ${c.path}${control ? ' (the sandbox control API)' : ''}`));
    y += ROW;
    parts.push(arrow(api, partner, y, String(c.status), `answer tone-${tone(String(c.status))}`, `HTTP ${c.status}`));
    for (const e of c.events) {
      y += ROW;
      parts.push(arrow(api, receiver, y, `webhook ${short(e, 30)}`, 'event', `Event ${e}, sent to the webhook receiver when one is set`));
    }
  });
  const height = y + 24;
  const lanes = LANES.map(
    (l) => `<g class="lane"><rect x="${l.x - 100}" y="8" width="200" height="28" rx="4"/><text x="${l.x}" y="27" text-anchor="middle">${esc(l.name)}</text><line x1="${l.x}" y1="36" x2="${l.x}" y2="${height - 8}"/></g>`,
  );
  const summary = `${calls.length} call${calls.length === 1 ? '' : 's'} from the partner to the API${calls.some((c) => c.events.length) ? `, ${calls.reduce((n, c) => n + c.events.length, 0)} webhook events` : ''}${running ? ', still running' : ''}`;
  return `<figure class="sequence"><figcaption>Who calls whom: ${esc(summary)}</figcaption><svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="Sequence diagram: ${esc(summary)}" preserveAspectRatio="xMinYMin meet"><defs><marker id="seq-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>${lanes.join('')}${parts.join('')}</svg></figure>`;
}
