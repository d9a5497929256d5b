// What one webhook POST carries: the headers and body of a genuine Standard Webhooks message, or of
// one of the forgeries a receiver must refuse. Probes (probe.ts) send all of them at once; a
// scenario's `webhooks.forged` mixes one form into the ordinary stream. Every forgery carries a real
// `webhook-id` and a body the receiver could act on, so only checking the signature and its
// timestamp tells it apart.
import { createHash, createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The forgeries, in the order a probe sends and answers them. */
export const FORGED_FORMS = ['bad-signature', 'wrong-secret', 'stale-timestamp', 'future-timestamp', 'tampered-body', 'missing-signature'] as const;
export type ForgedForm = (typeof FORGED_FORMS)[number];

/** A probe's forms: the genuine message first, then every forgery. */
export const PROBE_FORMS = ['genuine', ...FORGED_FORMS] as const;
export type ProbeForm = (typeof PROBE_FORMS)[number];

/** How far a stale or future timestamp is from the real time: twice the five minutes the standard
 * libraries tolerate. */
export const SKEW_SECONDS = 600;

export const FORM_DESCRIPTIONS: Record<ProbeForm, string> = {
  genuine: 'signed with the secret, timestamp now: must be accepted',
  'bad-signature': 'a v1 signature that is no HMAC of the message',
  'wrong-secret': 'signed correctly, with another secret',
  'stale-timestamp': 'signed correctly, timestamp ten minutes old',
  'future-timestamp': 'signed correctly, timestamp ten minutes ahead',
  'tampered-body': 'the signature of another body (the same event with another amount)',
  'missing-signature': 'no webhook-signature header',
};

export interface Message {
  id: string;
  secret: string;
  body: string;
}

export interface SignedRequest {
  headers: Record<string, string>;
  body: string;
}

const BASE_HEADERS = { 'content-type': 'application/json', 'user-agent': 'payments-sandbox-webhooks/1' };

const unix = (ms: number) => String(Math.floor(ms / 1000));
const sign = (secret: string, id: string, atMs: number, body: string) => new Webhook(secret).sign(id, new Date(atMs), body);

/** A secret that is not the key's: derived from it, so the same key always gets the same wrong one. */
function wrongSecret(secret: string): string {
  return `whsec_${createHmac('sha256', 'payments-sandbox: not the secret').update(secret).digest().subarray(0, 24).toString('base64')}`;
}

/** The same event with another amount: what a tamperer changes. Never equal to `body`. */
function otherBody(body: string): string {
  let other: string;
  try {
    const p = JSON.parse(body) as { data?: Record<string, unknown> };
    const amount = p.data?.amount;
    const changed = typeof amount === 'number' ? amount + 1_000_000 : typeof amount === 'string' ? `${amount}0` : 1_000_000;
    other = JSON.stringify({ ...p, data: { ...p.data, amount: changed } });
  } catch {
    other = `${body} `;
  }
  return other === body ? `${body} ` : other;
}

/** The headers and body of one message as `form` sends it, at `nowMs` (real time). */
export function signedRequest(m: Message, nowMs: number, form: ProbeForm = 'genuine'): SignedRequest {
  const at = form === 'stale-timestamp' ? nowMs - SKEW_SECONDS * 1000 : form === 'future-timestamp' ? nowMs + SKEW_SECONDS * 1000 : nowMs;
  const headers: Record<string, string> = { ...BASE_HEADERS, 'webhook-id': m.id, 'webhook-timestamp': unix(at) };
  switch (form) {
    case 'missing-signature':
      break;
    case 'bad-signature':
      headers['webhook-signature'] = `v1,${createHash('sha256').update(`${m.id}.${unix(at)}`).digest('base64')}`;
      break;
    case 'wrong-secret':
      headers['webhook-signature'] = sign(wrongSecret(m.secret), m.id, at, m.body);
      break;
    case 'tampered-body':
      headers['webhook-signature'] = sign(m.secret, m.id, at, otherBody(m.body));
      break;
    default:
      headers['webhook-signature'] = sign(m.secret, m.id, at, m.body);
  }
  return { headers, body: m.body };
}
