// Content-Type values read the way RFC 9110 writes them: type and subtype in any case, optional white
// space around each `;`, parameters with names in any case and values plain or quoted. Node's
// util.MIMEType (the WHATWG MIME type parser) does the parsing, so every valid spelling of a JSON or
// XML type is accepted and nothing else is taken for one.
import type { MiddlewareHandler } from 'hono';
import { MIMEType } from 'node:util';
import { BoundedMap } from '../kernel/bounded-map.js';
import { setRequestHeader } from './framework.js';

interface Parsed {
  /** type/subtype, lower case. */
  essence: string;
  /** The same type written as the JSON validators expect: essence, then the charset if one was sent. */
  plain: string;
}

/** Parsed values by the text sent: a client sends the same Content-Type on every request. */
// A long value (a key's own invention) is parsed each time rather than kept: 1,000 of 16 KB each.
const kept = new BoundedMap<string, Parsed | null>(1000, false, 256);

function parse(header: string): Parsed | null {
  let p = kept.get(header);
  if (p !== undefined) return p;
  try {
    const m = new MIMEType(header);
    const charset = m.params.get('charset');
    p = { essence: m.essence, plain: charset === null ? m.essence : `${m.essence}; charset=${charset.toLowerCase()}` };
  } catch {
    p = null;
  }
  kept.set(header, p);
  return p;
}

/** The media type (type/subtype, lower case, no parameters) of a Content-Type value; undefined when
 * there is none or it is not a valid media type. */
export const mediaTypeOf = (header: string | undefined): string | undefined =>
  header === undefined ? undefined : (parse(header)?.essence ?? undefined);

const JSON_ESSENCE = /^application\/([^/]+\+)?json$/;

/** application/json, or a structured-syntax +json type. */
export const isJsonType = (header: string | undefined) => JSON_ESSENCE.test(mediaTypeOf(header) ?? '');

/** application/xml or text/xml, the two types of the FX interface. */
export function isXmlType(header: string | undefined): boolean {
  const type = mediaTypeOf(header);
  return type === 'application/xml' || type === 'text/xml';
}

/**
 * The JSON routes' validators (@hono/zod-openapi's media-type check) know only some spellings of a
 * JSON type: `application/json ; charset=utf-8`, valid per RFC 9110, is refused there. Any valid
 * spelling of a JSON type is handed on written plainly (`application/json; charset=utf-8`); the most
 * common spellings pass untouched, and anything that is not a JSON type is left for the 415.
 */
export function plainJsonType(): MiddlewareHandler {
  return (c, next) => {
    const header = c.req.header('content-type');
    if (header === undefined || header === 'application/json' || header === 'application/json; charset=utf-8') return next();
    const p = parse(header);
    if (p && JSON_ESSENCE.test(p.essence) && p.plain !== header) setRequestHeader(c, 'content-type', p.plain);
    return next();
  };
}
