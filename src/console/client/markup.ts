// The pieces every view's HTML is made of: escaping, state badges coloured by meaning, identifiers,
// paths, times, amounts and rates as a person reads them. A module of the console's browser bundle.
import type { SandboxEvent } from './types.js';
export const esc = (v: unknown) =>
  String(v ?? '').replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

export function prettyXml(xml: string): string {
  const lines = xml.trim().replace(/>\s+</g, '><').replace(/></g, '>\n<').split('\n');
  let depth = 0;
  const out: string[] = [];
  for (const line of lines) {
    if (line.startsWith('</')) depth = Math.max(0, depth - 1);
    out.push('  '.repeat(depth) + line);
    const opens = /^<[^!?/][^>]*>/.test(line) && !line.endsWith('/>') && !/<\/[^>]+>$/.test(line);
    if (opens) depth++;
  }
  return out.join('\n');
}

/** A body as text: JSON indented, XML pretty-printed, anything else as it came. */
export function pretty(body: unknown): string {
  if (body === undefined || body === null || body === '') return '';
  if (typeof body === 'string') return body.trimStart().startsWith('<') ? prettyXml(body) : body;
  return JSON.stringify(body, null, 2);
}

/** The FX interface's ISO 20022 codes, as a person reads them. */
export const NAMES: Record<string, string> = { NEWT: 'new', SETT: 'settling', COMP: 'completed', CANC: 'cancelled' };
/** Final success states (each resource's success outcome, a delivery that succeeded), and failures. */
export const SUCCESS = ['SUCCESSFUL', 'COMPLETED', 'COMP', 'completed', 'succeeded', 'order.successful'];
export const FAILURE = ['FAILED', 'failed', 'CANC', 'CANCELLED', 'cancelled', 'expired', 'EXPIRED', 'REJECTED', 'rejected', 'dropped', 'timeout'];

/** What a state means: success only for a final success, failure for failed, cancelled or expired, neutral otherwise. */
export function tone(s: string | number | null | undefined): 'success' | 'failure' | 'neutral' {
  const text = String(s ?? '');
  if (/^[1-5][0-9]{2}$/.test(text)) return text[0] === '2' ? 'success' : text[0] === '4' || text[0] === '5' ? 'failure' : 'neutral';
  return SUCCESS.includes(text) ? 'success' : FAILURE.includes(text) ? 'failure' : 'neutral';
}

/** A state's readable name (NEWT → new); states that are words already stay as the API writes them. */
export const stateName = (s: string) => NAMES[s] ?? s;

/** A state or an HTTP status as a badge, coloured by what it means; the API's code in data-state (and in a title when renamed). */
export const status = (s: string | number | null | undefined) => {
  if (s === null || s === undefined || s === '') return '';
  const text = String(s);
  const name = stateName(text);
  const title = name !== text ? ` title="${esc(text)}"` : '';
  return `<span class="status tone-${tone(text)}" data-state="${esc(text)}"${title}>${esc(name)}</span>`;
};
/** An identifier kept whole: on one line, cut with an ellipsis when the column is narrower, its full value in the title. */
export const ident = (v: unknown) => `<code class="id" title="${esc(v)}">${esc(v)}</code>`;
/** A path that may break only after a slash, ? or &, so the ids and numbers in it stay whole. */
export const pathCode = (p: string) => `<code class="path">${esc(p).replace(/(\/|\?|&amp;)/g, '$1<wbr>')}</code>`;
/** The mark of a call or control the live service does not have, shown under live keys. */
export const SANDBOX_ONLY = '<span class="sandbox-only" title="The live service has no such call: this is the sandbox\'s control API">sandbox only</span>';
export const time = (iso: string | null | undefined) => (iso ? `<time datetime="${esc(iso)}">${esc(iso.replace('T', ' ').replace('Z', ''))}</time>` : '');
/** A titled body; its heading one level under the list's own (h4 under a step's h3, h3 under a view's h2, so no level is skipped). */
export const block = (title: string, text: string, level: 3 | 4 = 4) =>
  text ? (level === 4 ? `<h4>${esc(title)}</h4>` : `<h3 class="block-title">${esc(title)}</h3>`) + `<pre tabindex="0">${esc(text)}</pre>` : '';
export const headers = (h: Record<string, string>) =>
  Object.entries(h ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

/**
 * Which resource an event is about: its kind (the event's prefix) and id. A quote's events also
 * carry its order reference, so quote_id and tx_id come first; order.successful is the quote's.
 */
export function eventSubject(e: SandboxEvent): { prefix: string; id: string } {
  const d = (e.data ?? {}) as Record<string, unknown>;
  const id = d.quote_id ?? d.tx_id ?? d.reference ?? d.id ?? '';
  const prefix = String(e.event).split('.')[0];
  return { prefix: prefix === 'order' ? 'quote' : prefix, id: String(id) };
}

/** A decimal with thousands separators, digits kept exactly: 1530250.5 → 1,530,250.5. */
export function grouped(value: unknown): string {
  const [whole, fraction] = String(value).split('.');
  const sep = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? sep : `${sep}.${fraction}`;
}
/** A number for a person: thousands separators, 2 decimals from 100 up, up to 4 below. */
export function figure(n: number): string {
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: Math.abs(n) >= 100 ? 2 : 4 }).format(n);
}

/**
 * A rate as a person reads it, one convention everywhere: one unit of the dearer currency in the
 * other ("1 USDT = 1,585.14 NGN"). `multiplier` is the API's: an amount in `from` times it is the
 * amount in `to` (NGN → USDT is about 0.00063).
 */
export function rate(from: string, to: string, multiplier: unknown): string {
  const m = Number(multiplier);
  if (!Number.isFinite(m) || m <= 0) return '';
  const [f, t] = [String(from).toUpperCase(), String(to).toUpperCase()];
  return m >= 1 ? `1 ${f} = ${figure(m)} ${t}` : `1 ${t} = ${figure(1 / m)} ${f}`;
}

/** An amount with its unit: 42500 USDT → 42,500 USDT, digits kept exactly. */
export const amount = (value: unknown, unit: string) => `${grouped(value)} ${String(unit).toUpperCase()}`;

/** How long ago (or ahead) an instant is from the key's clock: "3 min ago", "in 2 h", "just now". */
export function relative(iso: string, now: string | number): string {
  const seconds = Math.round((Date.parse(iso) - (typeof now === 'number' ? now : Date.parse(now))) / 1000);
  if (!Number.isFinite(seconds)) return '';
  const size = Math.abs(seconds);
  if (size < 5) return 'just now';
  const [n, unit] = size < 60 ? [size, 's'] : size < 3600 ? [Math.round(size / 60), 'min'] : size < 86400 ? [Math.round(size / 3600), 'h'] : [Math.round(size / 86400), 'd'];
  return seconds < 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`;
}

/** An instant with its time zone and, when the key's clock is known, how long ago it was. */
export function instant(iso: string | null | undefined, now?: string): string {
  if (!iso) return '';
  const shown = `<time datetime="${esc(iso)}">${esc(iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ''))} UTC</time>`;
  return now ? `${shown} <span class="muted">(${esc(relative(iso, now))})</span>` : shown;
}

/** The answer's field a person looks for first: its state, else what names it. */
export function keyField(body: unknown): string {
  if (typeof body === 'string') {
    const m = /<(?:\w+:)?(Sts|TxId|RsnDesc)>([^<]*)</.exec(body);
    return m ? `${m[1]} ${m[1] === 'Sts' ? stateName(m[2]) : m[2]}` : '';
  }
  if (!body || typeof body !== 'object') return '';
  const root = body as Record<string, unknown>;
  const inner = Array.isArray(body) ? body[0] : root.data !== undefined && !Array.isArray(root.data) ? root.data : body;
  if (Array.isArray(root.data)) return `${root.data.length} item${root.data.length === 1 ? '' : 's'}`;
  if (!inner || typeof inner !== 'object') return '';
  const d = inner as Record<string, unknown>;
  for (const k of ['status', 'accountName', 'quoteId', 'reference', 'rate', 'now', 'advancedSeconds', 'message']) {
    const v = d[k];
    if (v !== undefined && v !== null && typeof v !== 'object') return `${k}: ${k === 'status' ? stateName(String(v)) : String(v)}`;
  }
  return '';
}

/** What a refusal names: each field and what is wrong with it (the JSON envelope's error.details, or the XML reject's ErrLctn and AddtlData). */
export function problems(body: unknown): { field: string; issue: string }[] {
  if (typeof body === 'string') {
    const where = /<ErrLctn>([^<]*)</.exec(body)?.[1];
    const said = /<AddtlData>([^<]*)</.exec(body)?.[1] ?? '';
    if (!where) return [];
    const fields = where.split(', ').filter(Boolean);
    const starts = fields.map((f) => said.indexOf(`${f}: `));
    return fields.map((field, i) => {
      if (starts[i] < 0) return { field, issue: '' };
      const next = starts.filter((at) => at > starts[i]).sort((a, b) => a - b)[0] ?? said.length;
      return { field, issue: said.slice(starts[i] + field.length + 2, next).replace(/;\s*$/, '').trim() };
    });
  }
  const details = (body as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return [];
  return details
    .filter((d): d is { field?: unknown; issue?: unknown } => !!d && typeof d === 'object')
    .map((d) => ({ field: String(d.field ?? ''), issue: String(d.issue ?? '') }))
    .filter((d) => d.field || d.issue);
}

/** The fields a refusal names, one line each, or nothing. */
export function problemList(body: unknown): string {
  const list = problems(body);
  if (list.length === 0) return '';
  const items = list.map((p) => `<li>${p.field ? `<code>${esc(p.field)}</code> ` : ''}${esc(p.issue)}</li>`).join('');
  return `<div class="problems" data-field="problems"><h3>What to change (${list.length} ${list.length === 1 ? 'field' : 'fields'})</h3><ul>${items}</ul></div>`;
}
