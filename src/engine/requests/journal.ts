// The request journal: the tenant's latest requests and responses, in memory, bounded. Bodies are
// held by reference and redacted only when read, so recording costs the hot path next to nothing.
// On a shared store every replica must see every request: the entries then go to the store's
// journal (written with the request's session), as listed, and are read back from it.
import { nextTurn } from '../../kernel/turns.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { JournalStore } from '../../store/store.js';
import type { JournalFault } from './types.js';

/** A request's headers as received: Node's parsed object, or a Headers (in-process requests). */
export type RequestHeaders = Headers | Readonly<Record<string, string | string[] | undefined>>;

export interface JournalEntry {
  id: string;
  at: string;
  method: string;
  path: string;
  query: string;
  /** The status of the answer the sandbox made; null when a fault stopped the request before it ran. */
  status: number | null;
  /** What reached the client: that answer's status, or no answer at all. */
  sent: number | 'dropped' | 'timeout';
  /** The scenario fault that struck the request, if any. */
  fault: JournalFault | null;
  durationMs: number;
  /** The headers worth showing (KEPT_HEADERS), as received; redacted when listed. */
  requestHeaders: Record<string, string>;
  /** The request body: its text when recorded, parsed (when JSON) when listed. */
  requestBody: unknown;
  responseBody: unknown;
  /** What the sandbox warned of (X-Sandbox-Warning), e.g. a body field it does not know; empty when nothing. */
  warnings: string[];
}

/** The most entries a key's journal holds (--journal-size's bound), so the most a listing answers.
 * The request matchers of the client read every match with it (their constant's type is this one's). */
export const JOURNAL_MAX = 10_000;

export class Journal {
  private entries: JournalEntry[] = [];
  private seq = 0;
  /** Header sets of recent entries, newest first: an entry whose kept headers equal one of them
   * shares it, so a key sending the same headers keeps one copy, not one per entry. */
  private headerSets: Record<string, string>[] = [];
  /** Paths entries share, the same way: the PATHS_SHARED most recently recorded, so a key's paths
   * of now are shared, not the first ones it ever sent. */
  private readonly paths = new BoundedMap<string, string>(PATHS_SHARED, true);

  constructor(
    private readonly limit: number,
    private readonly shared?: JournalStore,
  ) {}

  /**
   * Keep an entry; its id is assigned here (the caller's is overwritten). `body` is the request's
   * text when the route read it: kept as it arrives. A shared journal needs it at once (the entry is
   * written with the session), so the answer is then a promise to await before the session ends.
   */
  record(entry: JournalEntry, body?: Promise<string>): Promise<void> | void {
    if (this.shared) return this.recordShared(entry, body);
    entry.id = `req_${++this.seq}`;
    this.share(entry);
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.shift();
    // It has arrived by now; taking it without awaiting keeps the response from waiting a turn.
    body?.then(
      (t) => (entry.requestBody = kept(t)),
      () => undefined,
    );
  }

  /** Entries are never changed once kept (a listing redacts copies), so equal parts are shared. */
  private share(entry: JournalEntry): void {
    const sets = this.headerSets;
    const same = sets.findIndex((h) => sameHeaders(h, entry.requestHeaders));
    if (same >= 0) entry.requestHeaders = sets[same];
    else {
      sets.unshift(entry.requestHeaders);
      if (sets.length > HEADER_SETS_SHARED) sets.pop();
    }
    const path = this.paths.get(entry.path);
    if (path !== undefined) entry.path = path;
    else this.paths.set(entry.path, entry.path);
  }

  private async recordShared(entry: JournalEntry, body?: Promise<string>): Promise<void> {
    if (body) entry.requestBody = await body.then(kept, () => undefined);
    // The store numbers the entry: ids are then unique across replicas.
    this.shared!.add(JSON.stringify(listed(entry)), this.limit);
  }

  /**
   * The newest `limit` entries, newest first; with `match`, the newest `limit` that match it, tested
   * on the entries as kept (method, path, status, id, at) before any is redacted for listing.
   */
  async list(limit: number, match?: (e: JournalEntry) => boolean): Promise<JournalEntry[]> {
    if (this.shared) {
      const rows = await this.shared.list(match ? this.limit : Math.min(limit, this.limit));
      if (!match) return inSlices(rows, fromShared);
      // Each entry is tested on its head (what a filter reads), and parsed whole only when it
      // matches: a filter that matches few entries no longer parses the whole journal.
      const out: JournalEntry[] = [];
      for (let i = 0; i < rows.length; i++) {
        if (out.length >= limit) break;
        if (i > 0 && i % LIST_SLICE === 0) await nextTurn();
        const row = rows[i];
        const head = headOf(row.entry, row.id);
        // An entry whose head does not read as listed() writes it is parsed once, whole.
        const whole = head ? undefined : fromShared(row);
        if (match(head ?? whole!)) out.push(whole ?? fromShared(row));
      }
      return out;
    }
    if (!match) return inSlices(this.entries.slice(-limit).reverse(), listed);
    const found: JournalEntry[] = [];
    for (let i = this.entries.length - 1; i >= 0 && found.length < limit; i--) if (match(this.entries[i])) found.push(this.entries[i]);
    return inSlices(found, listed);
  }

  clear(): void {
    this.entries = [];
    this.shared?.clear();
  }

  /** The entries as listed (redacted), oldest first: what a store that keeps files writes of the
   * journal when the tenant is unloaded or the server stops. A shared journal is in its store already. */
  kept(): JournalEntry[] {
    return this.shared ? [] : this.entries.map(listed);
  }

  /** Take back what kept() gave (listing it again redacts nothing more), numbering on after it. */
  restore(entries: readonly JournalEntry[]): void {
    if (this.shared || !Array.isArray(entries)) return;
    this.entries = entries.slice(-this.limit);
    for (const e of this.entries) this.seq = Math.max(this.seq, Number(/^req_(\d+)$/.exec(e.id)?.[1] ?? 0));
  }
}

/** Entries listed a slice at a time, the event loop given its turn between slices: 200 bodies of
 * 16 KiB take 10 to 20 ms to parse and mask, which would hold every key's requests. */
const LIST_SLICE = 25;

async function inSlices<T>(items: readonly T[], list: (item: T) => JournalEntry): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % LIST_SLICE === 0) await nextTurn();
    out.push(list(items[i]));
  }
  return out;
}

/** A shared journal's entry as listed. */
function fromShared({ id, entry }: { id: string; entry: string }): JournalEntry {
  // Entries written before warnings were kept have none.
  const e = JSON.parse(entry) as Omit<JournalEntry, 'warnings'> & { warnings?: string[] };
  return { ...e, warnings: e.warnings ?? [], id: `req_${id}` };
}

/** The head of a shared entry as written (listed(): id, at, method, path, query, status first). */
const HEAD = /^\{"id":"(?:[^"\\]|\\.)*","at":("(?:[^"\\]|\\.)*"),"method":("(?:[^"\\]|\\.)*"),"path":("(?:[^"\\]|\\.)*"),"query":"(?:[^"\\]|\\.)*","status":(null|\d+),/;

/** What a filter reads of a shared entry (id, at, method, path, status), without parsing the rest;
 * undefined when the text does not begin as listed() writes it (it is then parsed whole). */
function headOf(entry: string, id: string): JournalEntry | undefined {
  const m = HEAD.exec(entry);
  if (!m) return undefined;
  const head = { id: `req_${id}`, at: JSON.parse(m[1]), method: JSON.parse(m[2]), path: JSON.parse(m[3]), status: JSON.parse(m[4]) };
  return head as JournalEntry;
}

const HEADER_SETS_SHARED = 4;

/** The most of a request body an entry keeps, in characters: a request of the API is a few KB at most,
 * and 200 entries of the 1 MiB a body may be held 200 MB for each key that sent them. */
export const JOURNAL_BODY_KEPT = 16 * 1024;

/** A body as an entry keeps it: whole up to JOURNAL_BODY_KEPT, else its start and how much is left out. */
export function keptBody(text: string): string {
  if (text.length <= JOURNAL_BODY_KEPT) return text;
  // Copied, not sliced: V8 keeps the whole text alive behind a slice of it.
  const start = Buffer.from(text.slice(0, JOURNAL_BODY_KEPT), 'utf8').toString('utf8');
  return `${redactText(start)}… [${text.length - JOURNAL_BODY_KEPT} more characters not kept]`;
}

/** A body cut short as it was kept: its secrets were masked then (keptBody), and it is text, not JSON
 * (it no longer parses). A listing takes it as it is: parsed and masked again, 200 of them held a
 * listing 20 ms. Written to a file or the database, it is its text. */
class CutText {
  constructor(readonly text: string) {}
  toJSON(): string {
    return this.text;
  }
}

/** What an entry keeps of a request body's text. */
const kept = (text: string) => (text.length > JOURNAL_BODY_KEPT ? new CutText(keptBody(text)) : text);

const PATHS_SHARED = 64;

function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  let n = 0;
  for (const k in b) {
    if (a[k] !== b[k]) return false;
    n++;
  }
  for (const _ in a) n--;
  return n === 0;
}

function listed(e: JournalEntry): JournalEntry {
  const cut = e.requestBody instanceof CutText;
  const body = cut ? (e.requestBody as CutText).text : parseIfJson(e.requestBody);
  return {
    ...e,
    query: redactQuery(e.query),
    requestHeaders: redactHeaders(e.requestHeaders),
    // A body that is not JSON (malformed, a form) is text: its secret pairs are found by name. One cut
    // short was masked as it was kept.
    requestBody: cut ? body : typeof body === 'string' ? redactText(body) : redact(body),
    responseBody: redact(e.responseBody),
  };
}

/** The headers worth showing. */
const KEPT_HEADERS = ['authorization', 'content-type', 'accept', 'user-agent', 'x-service-source', 'x-sandbox-scenario', 'idempotency-key'];

/** The headers worth showing, taken when the request is recorded: the rest of what arrived is not
 * held for as long as the entry is. */
export function keptHeaders(h: RequestHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const v = h instanceof Headers ? h.get(name) : h[name];
    if (typeof v === 'string') out[name] = v;
    else if (Array.isArray(v)) out[name] = v.join(', ');
  }
  return out;
}

const SECRET_HEADERS = /^(authorization|cookie|x-api-key|webhook-signature)$/i;
// By meaning: credentials and one-time codes. A plain `token` is the API's word for an asset (a wallet
// payout's `token: "usdc"`, a quote pool's token), so only tokens that are credentials are named.
// Any name ending in secret (webhookSecret, client_secret) is one too.
const SECRET_FIELDS = /^(authCode|auth_code|password|pin|otp|apiKey|api_key|accessToken|access_token|refreshToken|refresh_token)$|secret$/i;
/** Credentials recognised by their form wherever they appear: API keys and webhook signing secrets. */
const API_KEY = /sk_(test|live)_[A-Za-z0-9_-]+/g;
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/=_-]+/g;
const SECRET_NAMES = 'authCode|auth_code|password|pin|otp|apiKey|api_key|accessToken|access_token|refreshToken|refresh_token|[A-Za-z_]*secret';
/** "name": value in JSON-like text, and name=value in a form or query string. */
const JSON_PAIR = new RegExp(`("(?:${SECRET_NAMES})"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"?|[^,}\\]\\s]+)`, 'gi');
const FORM_PAIR = new RegExp(`(^|[&;\\s])((?:${SECRET_NAMES})=)[^&;\\s]*`, 'gi');

/** Credentials by their form. Most strings hold neither prefix, and a search for one is cheaper than
 * running the patterns over them (the hosted journal redacts every entry as it is written). */
const redactString = (s: string) =>
  s.includes('sk_') || s.includes('whsec_') ? s.replace(API_KEY, 'sk_$1_[redacted]').replace(WEBHOOK_SECRET, 'whsec_[redacted]') : s;

/** A body kept as text (not JSON, or cut short): secrets by form, and the values of secret names. */
export const redactText = (s: string) => redactString(s).replace(JSON_PAIR, '$1"[redacted]"').replace(FORM_PAIR, '$1$2[redacted]');

/** A query string as received: the values of secret names, and credentials by their form. */
export function redactQuery(q: string): string {
  if (q === '') return q;
  return q
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) return redactString(part);
      let name = part.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A name that does not decode is tested as sent.
      }
      return SECRET_FIELDS.test(name) ? `${part.slice(0, eq)}=[redacted]` : redactString(part);
    })
    .join('&');
}

export function redactHeaders(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k] = SECRET_HEADERS.test(k) ? maskSecret(v) : redactString(v);
  return out;
}

/** Keeps the scheme and the last four characters of a credential. */
export function maskSecret(value: string): string {
  const m = /^(Bearer\s+)?(.*)$/i.exec(value)!;
  const tail = m[2].length > 8 ? m[2].slice(-4) : '';
  return `${m[1] ?? ''}[redacted]${tail ? `…${tail}` : ''}`;
}

/** Nesting kept in a journal body; deeper values (a hostile body can nest thousands of levels) are
 * cut, so neither redaction nor the JSON answer recurses past the stack. */
const MAX_DEPTH = 64;

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value && typeof value === 'object' && depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELDS.test(k) ? '[redacted]' : redact(v, depth + 1);
    return out;
  }
  return value;
}

function parseIfJson(body: unknown): unknown {
  if (typeof body !== 'string' || body === '') return body === '' ? undefined : body;
  const first = body.trimStart()[0];
  if (first !== '{' && first !== '[') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
