// One pass over a request body before any parser reads it, refusing what no message of the API
// has: an attribute other than a namespace declaration (xmlns, xmlns:*) or xsi:*, and a name, an
// attribute value or a text node longer than any field. Every step moves forward, by indexOf or
// one character at a time, never back, so the time is linear in the body's size whatever it holds,
// and the reader and parsers after it only ever see short names, values and texts.
//
// It judges nothing else itself. Markup it cannot make sense of (a '<' that starts no name, a tag
// without its '>', an unclosed comment) is passed over or ends the scan, and the parser refuses the
// body with its own message. When given a structure check (xsd-structure.ts), it hands it each start
// tag (with its namespace declarations), end tag and text, so the check of the XSD's structure needs
// no pass of its own; the check keeps what it finds until the parser has read the body.
import { malformed, refusedBeforeParsing } from './xml-errors.js';
import type { StructureCheck } from './xsd-structure.js';

/** The deepest nesting of elements a message may have: the API's messages are a few levels deep. */
export const MAX_XML_DEPTH = 32;

/**
 * The longest name, attribute value or text a request may carry, in characters (a character
 * reference counts as one; spaces around a text are not counted). The longest field of a request
 * XSD is Max350Text (FXTradCxlReq/Rsn, FXTradConfReq/Rmrks); amounts and rates have no length in
 * the XSDs but are plain decimals, and namespace URIs and element names are far shorter. 1024
 * leaves room for all of them, and for a 350-character remark sent with many references.
 */
export const MAX_XML_TOKEN = 1024;

/** The most attributes one tag may carry: a message has a namespace declaration or two and perhaps
 * xsi:schemaLocation on its root. */
export const MAX_XML_ATTRIBUTES = 8;

/** The most namespace declarations a body may make in all: each one in scope is looked up for every
 * tag after it (the structure check), so their number bounds the work per tag. */
export const MAX_XML_NAMESPACES = 16;

/** The most processing instructions a body may carry, the XML declaration included: a message needs
 * none but the declaration, and the parser reads each (a declaration's pseudo-attributes one by one)
 * at about 1.5 µs, so a body of them held the event loop for 200 ms. Each is at most MAX_XML_TOKEN
 * characters long. */
export const MAX_XML_INSTRUCTIONS = 8;

/** The longest field of the request XSDs (Max350Text), named in a refusal of a long text. */
const LONGEST_FIELD = 350;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const BANG = 0x21;
const QUESTION = 0x3f;
const AMPERSAND = 0x26;
const SEMICOLON = 0x3b;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** Ends a name or any other run of characters inside a tag. */
const endsRun = (c: number) =>
  isSpace(c) || c === GT || c === LT || c === SLASH || c === EQUALS || c === DOUBLE_QUOTE || c === SINGLE_QUOTE;
/** Could start an element name: a letter, '_', ':' or any character past ASCII. Anything else after '<' is text to the scan. */
const startsName = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x3a || c > 0x7f;
/** What a character reference holds between '&' and ';'. */
const inReference = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x23;

/** Namespace declarations and xsi:* (e.g. xsi:schemaLocation): the only attributes a message may carry. */
export const isAcceptedAttribute = (name: string) => name === 'xmlns' || name.startsWith('xmlns:') || name.startsWith('xsi:');

export interface ScanOptions {
  /** The longest text node (MAX_XML_TOKEN unless given: the sandbox's own answers, read back, carry up to 20000). */
  maxText?: number;
  /** Follows the message's structure as the tags are met. */
  check?: StructureCheck;
}

/** Throws MALFORMED_XML naming the element or attribute at fault; returns when the body holds nothing the scan refuses. */
export function scanXml(text: string, options: ScanOptions = {}): void {
  const maxText = options.maxText ?? MAX_XML_TOKEN;
  const check = options.check;
  const n = text.length;
  /** The open elements' names as written, for locations. */
  const open: string[] = [];
  /** The visible length of the current text node so far (its runs, CDATA included). */
  let textLength = 0;
  /** Namespace declarations made so far in the body. */
  const declared = { count: 0 };
  /** Processing instructions so far, the XML declaration included. */
  let instructions = 0;
  let p = 0;
  for (;;) {
    // p starts a run of text; it ends at the next '<'.
    const lt = text.indexOf('<', p);
    const end = lt < 0 ? n : lt;
    if (open.length > 0 && end > p) {
      textLength += visibleLength(text, p, end, maxText - textLength);
      if (textLength > maxText) throw longText(open, maxText);
    }
    if (lt < 0) return;
    const c = text.charCodeAt(lt + 1);
    if (c === BANG && text.startsWith('<!--', lt)) {
      const close = text.indexOf('-->', lt + 4);
      if (close < 0) return;
      p = close + 3;
    } else if (c === BANG && text.startsWith('<![CDATA[', lt)) {
      const close = text.indexOf(']]>', lt + 9);
      if (open.length > 0) {
        textLength += (close < 0 ? n : close) - (lt + 9);
        if (textLength > maxText) throw longText(open, maxText);
      }
      if (close < 0) return;
      p = close + 3;
    } else if (c === QUESTION) {
      // The XML declaration (its pseudo-attributes are not attributes) or a processing instruction.
      const close = text.indexOf('?>', lt + 2);
      if ((close < 0 ? n : close + 2) - lt > MAX_XML_TOKEN) throw longInstruction(open, text, lt);
      if (++instructions > MAX_XML_INSTRUCTIONS) throw manyInstructions(open, text, lt);
      if (close < 0) return;
      p = close + 2;
    } else if (c === SLASH || c === BANG || startsName(c)) {
      const kind = c === SLASH ? 'end' : c === BANG ? 'declaration' : 'start';
      // Text other than white space before a tag is in the innermost open element.
      if (check && textLength > 0) check.text();
      p = tag(text, kind === 'start' ? lt + 1 : lt + 2, kind, open, declared, check);
      textLength = 0;
      if (p < 0) return;
    } else {
      // A '<' that starts no markup: the parser refuses it; to the scan it is text.
      p = lt + 1;
      if (open.length > 0 && ++textLength > maxText) throw longText(open, maxText);
    }
  }
}

/**
 * Reads one tag from just after `<` or `</` (or `<!`) to its '>', checking each name, attribute and
 * value; returns where the text after it starts, or -1 when the body ends inside the tag. A start
 * tag's element is pushed on `open` unless it closes itself, an end tag pops one.
 */
function tag(text: string, from: number, kind: 'start' | 'end' | 'declaration', open: string[], declared: { count: number }, check?: StructureCheck): number {
  const n = text.length;
  let name: string | undefined;
  let attribute: string | undefined;
  /** The prefix an xmlns attribute declares ('' for xmlns itself), until its value is read. */
  let declares: string | undefined;
  /** [prefix, uri, ...], for the structure check. */
  let declarations: string[] | undefined;
  let closesItself = false;
  let attributes = 0;
  let k = from;
  for (;;) {
    if (k >= n) return -1;
    const c = text.charCodeAt(k);
    if (c === GT || c === LT) {
      if (kind === 'start' && name !== undefined && !closesItself && open.push(name) > MAX_XML_DEPTH) {
        // Refused here, not only by the parser: the structure check's work per tag grows with the depth.
        throw malformed(`elements are nested deeper than ${MAX_XML_DEPTH} levels`);
      }
      else if (kind === 'end') open.pop();
      if (check && name !== undefined) {
        if (kind === 'start') check.start(name, declarations, closesItself);
        else if (kind === 'end') check.end();
      }
      // A '<' inside a tag ends it for the scan (the parser refuses the body); the '<' is read next.
      return c === GT ? k + 1 : k;
    }
    if (isSpace(c) || c === EQUALS) {
      k++;
      continue;
    }
    if (c === SLASH) {
      closesItself = true;
      k++;
      continue;
    }
    closesItself = false;
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      const close = text.indexOf(c === DOUBLE_QUOTE ? '"' : "'", k + 1);
      const end = close < 0 ? n : close;
      if (visibleLength(text, k + 1, end, MAX_XML_TOKEN, false) > MAX_XML_TOKEN) throw longValue(open, name, attribute);
      if (close < 0) return -1;
      if (declares !== undefined) (declarations ??= []).push(declares, text.slice(k + 1, close));
      attribute = declares = undefined;
      k = close + 1;
      continue;
    }
    let e = k + 1;
    while (e < n && !endsRun(text.charCodeAt(e))) {
      if (++e - k > MAX_XML_TOKEN) throw longName(open, name, text.slice(k, k + 40), name === undefined ? 'element' : kind === 'start' ? 'attribute' : 'other');
    }
    const run = text.slice(k, e);
    if (name === undefined) name = run;
    else if (kind === 'start') {
      if (!isAcceptedAttribute(run)) throw notAccepted(open, name, run);
      if (++attributes > MAX_XML_ATTRIBUTES) throw tooMany(open, name, `more than ${MAX_XML_ATTRIBUTES} attributes`, 'Send the namespace declarations and xsi:* attributes the message needs: one or two.');
      if (run.startsWith('xmlns') && ++declared.count > MAX_XML_NAMESPACES) {
        throw tooMany(open, name, `a namespace declaration past the ${MAX_XML_NAMESPACES} a body may make`, 'Declare each namespace once, on the root (a message of this API uses one or two).');
      }
      attribute = run;
      if (check && run.startsWith('xmlns')) declares = run.length === 5 ? '' : run.slice(6);
    }
    k = e;
  }
}

/**
 * The length of text[from, to) as read: a character reference counted as one character and, for a
 * text (`trim`), spaces at either end left out, as the parser trims them. Past `limit` it stops
 * counting and returns more than `limit`.
 */
function visibleLength(text: string, from: number, to: number, limit: number, trim = true): number {
  if (trim) {
    while (from < to && isSpace(text.charCodeAt(from))) from++;
    while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
  }
  if (to - from <= limit) return to - from;
  let length = 0;
  for (let k = from; k < to && length <= limit; k++, length++) {
    if (text.charCodeAt(k) !== AMPERSAND) continue;
    // A reference is '&', at most 32 name or digit characters, ';'. Looking no further keeps this linear.
    let e = k + 1;
    while (e < to && e - k <= 32 && inReference(text.charCodeAt(e))) e++;
    if (e < to && text.charCodeAt(e) === SEMICOLON) k = e;
  }
  return length;
}

// ---- refusals --------------------------------------------------------------------------------

const clip = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}…` : name);
const local = (name: string) => clip(name.slice(name.lastIndexOf(':') + 1));
/** `FXTradInstr/CcyPair`, local names as other locations have them; `Document` is kept as sent. */
const pathOf = (open: readonly string[], name?: string) => [...open, ...(name === undefined ? [] : [name])].map(local).join('/');

function tooMany(open: string[], element: string, what: string, instead: string) {
  return refusedBeforeParsing(`<${local(element)}> carries ${what}, more than any message of this API has`, instead, {
    field: pathOf(open, element),
    issue: `carries ${what}`,
  });
}

function notAccepted(open: string[], element: string, attribute: string) {
  return refusedBeforeParsing(
    `the attribute '${clip(attribute)}' on <${local(element)}> is not one a message of this API has: only namespace declarations (xmlns, xmlns:*) and xsi:* attributes are taken`,
    'Send each value as the element the message defines, and remove the attribute.',
    { field: `${pathOf(open, element)}/@${clip(attribute)}`, issue: 'is not accepted: send the value as an element of the message, and only xmlns, xmlns:* or xsi:* attributes' },
  );
}

function longValue(open: string[], element: string | undefined, attribute: string | undefined) {
  const where = attribute === undefined ? `a quoted value in <${local(element ?? '')}>` : `the value of the attribute '${clip(attribute)}' on <${local(element ?? '')}>`;
  return refusedBeforeParsing(
    `${where} is longer than ${MAX_XML_TOKEN} characters, more than any message of this API holds`,
    `Send namespace and xsi: values of at most ${MAX_XML_TOKEN} characters.`,
    { field: `${pathOf(open, element)}${attribute === undefined ? '' : `/@${clip(attribute)}`}`, issue: `must be at most ${MAX_XML_TOKEN} characters` },
  );
}

function longName(open: string[], element: string | undefined, start: string, what: 'element' | 'attribute' | 'other') {
  const field =
    what === 'element' ? `${pathOf(open)}${open.length > 0 ? '/' : ''}${start}…` : `${pathOf(open, element)}/${what === 'attribute' ? '@' : ''}${start}…`;
  return refusedBeforeParsing(
    `${what === 'other' ? 'a name' : `an ${what} name`} starting '${start}' is longer than ${MAX_XML_TOKEN} characters, more than any name of this API`,
    'Send the elements the message defines, by the names of its XSD.',
    { field, issue: `is not a name this API knows: names are at most ${MAX_XML_TOKEN} characters` },
  );
}

/** `FXTradInstr/?pi`: where a processing instruction stands, by its target. */
function instructionAt(open: string[], text: string, lt: number): string {
  let e = lt + 2;
  while (e < text.length && e - lt < 42 && !endsRun(text.charCodeAt(e)) && text.charCodeAt(e) !== QUESTION) e++;
  return [...open.map(local), `?${clip(text.slice(lt + 2, e))}`].join('/');
}

function longInstruction(open: string[], text: string, lt: number) {
  const field = instructionAt(open, text, lt);
  return refusedBeforeParsing(
    `the processing instruction <${field.slice(field.lastIndexOf('/') + 1)} …?> is longer than ${MAX_XML_TOKEN} characters, more than any message of this API has`,
    'Send at most the XML declaration, <?xml version="1.0" encoding="UTF-8"?>, before the message.',
    { field, issue: `must be at most ${MAX_XML_TOKEN} characters: send at most the XML declaration` },
  );
}

function manyInstructions(open: string[], text: string, lt: number) {
  return refusedBeforeParsing(
    `the body carries more than ${MAX_XML_INSTRUCTIONS} processing instructions, the XML declaration included, more than any message of this API has`,
    'Send at most the XML declaration, <?xml version="1.0" encoding="UTF-8"?>, before the message, and no other processing instruction.',
    { field: instructionAt(open, text, lt), issue: `is one processing instruction past the ${MAX_XML_INSTRUCTIONS} a body may carry: send at most the XML declaration` },
  );
}

function longText(open: string[], maxText: number) {
  const element = local(open.at(-1)!);
  return refusedBeforeParsing(
    `the text of <${element}> is longer than ${maxText} characters, more than any field of this API takes (the longest take ${LONGEST_FIELD})`,
    'Send each field within the length its XSD gives.',
    { field: pathOf(open), issue: `must hold at most ${maxText} characters of text; the longest field takes ${LONGEST_FIELD}` },
  );
}
