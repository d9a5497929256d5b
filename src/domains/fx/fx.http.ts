// The XML side of the FX routes: errors answered as the reject message, bodies read as XML text,
// responses sent as application/xml and kept for the journal.
import type { Context, MiddlewareHandler } from 'hono';
import { SandboxError } from '../../kernel/errors.js';
import { nextTurn } from '../../kernel/turns.js';
import { buildReject } from '../../iso20022/reject.js';
import { malformed } from '../../iso20022/xml-errors.js';
import { isXmlType } from '../../http/media-type.js';
import type { AppEnv } from '../../http/types.js';
import { notUtf8 } from '../../http/limits.js';

export const FX_BASE = '/api/v1/partners/fx';
const XML_TYPE = 'application/xml; charset=utf-8';

/**
 * Set by the FX module (index.ts, `before`) on the FX paths ahead of the body limit, journal and key
 * check, so every error of those paths (413, 401, 404 for an unknown route, validation, state) is
 * the XML reject.
 */
export function xmlErrors(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('renderError', (err: SandboxError) => {
      const tenant = c.get('tenant');
      const body = buildReject(err, {
        ref: `${c.req.method} ${c.req.path}`,
        // Before the key is known there is no tenant clock; the server's time is all there is.
        at: tenant ? tenant.now() : Date.now(),
        ...(tenant ? { mode: tenant.mode } : {}),
      });
      c.set('responseBody', body);
      return new Response(body, { status: err.status, headers: { ...err.headers, 'content-type': XML_TYPE } });
    });
    await next();
  };
}

/** The XML types an FX answer satisfies: it is sent as application/xml, which text/xml readers take too. */
const XML_RANGES = [
  ['application/xml', 'application/*'],
  ['text/xml', 'text/*'],
] as const;

/**
 * Whether an Accept header (RFC 9110) admits an XML answer: for application/xml or text/xml, the most
 * specific range naming it (the type itself, then type/*, then *\/*) has a weight above 0. No header,
 * or an empty one, admits anything.
 */
export function acceptsXml(header: string | undefined): boolean {
  if (header === undefined || header === '*/*' || header === 'application/xml') return true;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (range === '') continue;
    const q = params.find((p) => /^q\s*=/.test(p));
    const weight = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1).trim());
    weights.set(range, Math.max(weights.get(range) ?? 0, Number.isFinite(weight) ? weight : 0));
  }
  if (weights.size === 0) return true;
  return XML_RANGES.some(([type, family]) => (weights.get(type) ?? weights.get(family) ?? weights.get('*/*') ?? 0) > 0);
}

/**
 * Route middleware of every FX route: the interface answers in XML only (the API document's
 * Accept: application/xml), so an Accept header that admits no XML type is 400 naming it, in the
 * reject it would get anyway, rather than an answer the client said it cannot read.
 */
// Plain, not async: on every FX request, it adds no promise of its own.
export const xmlAccepted: MiddlewareHandler<AppEnv> = (c, next) => {
  const accept = c.req.header('accept');
  if (!acceptsXml(accept)) {
    const shown = accept!.length > 60 ? `${accept!.slice(0, 60)}…` : accept;
    throw new SandboxError(
      'VALIDATION_ERROR',
      `The FX interface answers in XML only, and the Accept header '${shown}' admits no XML type. Send Accept: application/xml (or leave the header out).`,
      [{ field: 'Accept', issue: 'must admit application/xml: send application/xml, text/xml, application/*, text/* or */*' }],
    );
  }
  return next();
};

/** A message of the FX interface is a few KB; past this its reading costs milliseconds. */
const LARGE_BODY = 16 * 1024;

/** Send one XML message. */
export function xml(c: Context<AppEnv>, body: string, status: 200 | 201 = 200): Response {
  c.set('responseBody', body);
  return c.body(body, status, { 'content-type': XML_TYPE });
}

/**
 * The request body as text. A body must come as application/xml or text/xml (415 otherwise);
 * `optional` bodies (cancellation, confirmation) may also be empty, whatever their type.
 */
export async function xmlBody(c: Context<AppEnv>, optional = false): Promise<string> {
  const text = await c.req.text();
  // A large body is read in a turn of the event loop of its own (kernel/turns.ts): the bodies of
  // many requests sent at once arrive together, and thirty messages of 1 MB read one after another
  // in the same turn held every key 435 ms.
  if (text.length > LARGE_BODY) await nextTurn();
  // The body is decoded leniently, each invalid sequence read as U+FFFD (three bytes): with those in
  // it, a text longer or shorter than the bytes declared was not UTF-8 (a UTF-16 file, Latin-1 text),
  // and its values would otherwise be kept with U+FFFD in them.
  if (notUtf8(text, c.req.header('content-length'))) {
    throw malformed('it is not valid UTF-8 (a UTF-16 or Latin-1 file, say); save it as UTF-8');
  }
  if (optional && text.trim() === '') return '';
  const type = c.req.header('content-type');
  if (!type || !isXmlType(type)) {
    throw new SandboxError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The FX interface takes XML bodies, not ${type ? `'${type.split(';')[0]}'` : 'a body without a Content-Type'}. Send the message with Content-Type: application/xml.`,
      [{ field: 'Content-Type', issue: 'must be application/xml or text/xml' }],
    );
  }
  return text;
}
