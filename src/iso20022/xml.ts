// The one door to the XML libraries: every FX message is parsed and built through this file, so the
// safety rules (no DTDs, size and depth caps, only namespace and xsi: attributes, short names and
// texts, values kept as text) live in one place. The sandbox's own XSDs are read through it too.
import { COMMON_HTML, CURRENCY, EntityDecoder } from '@nodable/entities';
import { XMLParser, XMLValidator, type X2jOptions } from 'fast-xml-parser';
import { SandboxError } from '../kernel/errors.js';
import { emptyBody, inXmlTerms, jsonBody, malformed } from './xml-errors.js';
import { keyOf, messagePath, readXml } from './xml-reader.js';
import { MAX_XML_DEPTH, scanXml } from './xml-scan.js';
import { StructureCheck, type MessageStructure } from './xsd-structure.js';

/** A parsed element: its text, or its children by name (a repeated name gives an array). */
export type XmlValue = string | XmlElement | XmlValue[];
export interface XmlElement {
  [name: string]: XmlValue;
}

export const MAX_XML_BYTES = 1024 * 1024;
export { MAX_XML_DEPTH } from './xml-scan.js';

export interface ParseXmlOptions {
  /** The message roots this endpoint takes. */
  roots: readonly string[];
  /** Paths (from the message root, slash-separated, e.g. `FndPrcgPsptRpt/Listgs`) always read as lists. */
  isArray?: readonly string[];
  /** The longest text node taken: MAX_XML_TOKEN (xml-scan.ts) for a request; the sandbox's own answers, read back, carry up to 20000. */
  maxText?: number;
  /**
   * The structure the message must have (xsd-reader.ts): checked element by element during the scan,
   * and refused as VALIDATION_ERROR once the body is known to be well-formed XML with an allowed root.
   */
  structure?: MessageStructure;
}

export interface ParsedXml {
  /** Which of the allowed roots the body carried. */
  root: string;
  /** The root's content; an empty element reads as `{}`. */
  body: XmlElement;
  /** Whether the message came inside an ISO 20022 `<Document>` wrapper. */
  wrapped: boolean;
}

/** Parse one message; throws MALFORMED_XML for anything that is not a single well-formed message with an allowed root. */
export function parseXml(input: string | Uint8Array, options: ParseXmlOptions): ParsedXml {
  const text = decode(input).replace(/^\uFEFF/, '');
  if (isEmptyBody(text)) throw emptyBody(options.roots);
  if (/^\s*[[{]/.test(text)) throw jsonBody(options.roots);
  screen(text);
  // Before any parser: attributes other than xmlns and xsi:*, and over-long names, values and texts.
  // The same pass follows the structure, when one is given, and keeps what it found for the end.
  const check = options.structure && new StructureCheck(options.structure);
  scanXml(text, { maxText: options.maxText, check });
  const isArray = options.isArray ?? [];
  // One pass for the usual message. What the reader declines goes through the validator (for its
  // exact refusals) and then the parser, as every message once did. A body is XML 1.0 unless its
  // declaration says otherwise (then the parser sets the version, and the reader declines it).
  references.reset();
  references.setXmlVersion(1.0);
  const doc = readXml(text, { lists: listsOf(isArray), decode: decodeReferences, maxDepth: MAX_XML_DEPTH }) ?? checkAndParse(text, isArray);
  const parsed = unwrap(doc, options.roots);
  check?.finish();
  return parsed;
}

function checkAndParse(text: string, isArray: readonly string[]): unknown {
  const checked = XMLValidator.validate(text);
  if (checked !== true) throw malformed(inXmlTerms(checked.err));
  try {
    return parserFor(isArray).parse(text);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw malformed(/nested/i.test(msg) ? `elements are nested deeper than ${MAX_XML_DEPTH} levels` : msg);
  }
}

/**
 * Character references, decoded as fast-xml-parser's `htmlEntities` option has them decoded (named
 * entities other than the five of XML are refused by screen(), so in effect &#NN; and the five).
 * Built once and reset per message. Left to the parser, these tables were built for every message
 * and ended up in the old generation: a major collection every few seconds under load, the FX
 * interface's stalls.
 */
const references = new EntityDecoder({
  namedEntities: { ...COMMON_HTML, ...CURRENCY },
  numericAllowed: true,
  limit: { maxTotalExpansions: Infinity, maxExpandedLength: 100_000, applyLimitsTo: 'all' },
});
const decodeReferences = (text: string) => references.decode(text);

const lists = new Map<string, ReadonlySet<string>>();

function listsOf(isArray: readonly string[]): ReadonlySet<string> {
  const key = isArray.join('|');
  let set = lists.get(key);
  if (!set) lists.set(key, (set = new Set(isArray)));
  return set;
}

/** One parser per set of list paths, built once: building one costs more than a small parse. */
const parsers = new Map<string, XMLParser>();

function parserFor(isArray: readonly string[]): XMLParser {
  const key = isArray.join('|');
  let parser = parsers.get(key);
  if (!parser) parsers.set(key, (parser = new XMLParser({ ...parserOptions(listsOf(isArray)), entityDecoder: references })));
  return parser;
}

/** How fast-xml-parser reads a message (xml-reader.ts builds the same object), but for the decoder. */
export function parserOptions(lists: ReadonlySet<string>): X2jOptions {
  return {
    ignoreAttributes: true,
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    processEntities: true,
    maxNestedTags: MAX_XML_DEPTH,
    transformTagName: keyOf,
    isArray: (_name, jPath) => lists.has(messagePath(String(jPath))),
  };
}

/** True for a body that carries no message at all (the optional request bodies). */
export function isEmptyBody(input: string | Uint8Array | undefined | null): boolean {
  if (input === undefined || input === null) return true;
  return decode(input).replace(/^\uFEFF/, '').trim() === '';
}

function decode(input: string | Uint8Array): string {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (size > MAX_XML_BYTES) {
    throw new SandboxError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB. Send a smaller body.');
  }
  if (typeof input === 'string') return input;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    throw malformed('it is not valid UTF-8');
  }
}

/** Refusals made on the raw text, before any parser sees it (with scanXml after it). */
function screen(text: string): void {
  if (text.includes('<!')) {
    if (/<!DOCTYPE/i.test(text)) throw malformed('DOCTYPE declarations (and so entity definitions) are not accepted; remove the DOCTYPE');
    if (/<!ENTITY/i.test(text)) throw malformed('entity declarations are not accepted');
  }
  const decl = /^\s*<\?xml\s[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(text);
  if (decl && !/^utf-?8$/i.test(decl[1])) throw malformed(`the declared encoding ${decl[1]} is not supported; use UTF-8`);
  // A character XML does not allow, sent as is or by reference, was dropped on the way and the value
  // read without it (AmtDrctn 'B\u0001UY' was refused as not 'BUY'): it is named where it stands.
  const raw = NOT_XML_RAW.exec(text);
  if (raw) throw malformed(`the character ${codePoint(raw[0].codePointAt(0)!)} at ${position(text, raw.index)} is not allowed in XML; remove it`);
  if (!text.includes('&')) return;
  const outside = outsideCdata(text);
  const entity = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)([^;\s<]{0,20};?)/.exec(outside);
  if (entity) throw malformed(`'&${entity[1]}' is not a character reference XML defines; escape a literal & as &amp;`);
  // XML 1.1 takes references to the control characters; 1.0, every other body's version, does not.
  if (!outside.includes('&#') || /^<\?xml\s[^>]*version\s*=\s*["']1\.1["']/.test(text)) return;
  for (const m of outside.matchAll(/&#(?:x([0-9a-fA-F]+)|([0-9]+));/g)) {
    const c = m[1] === undefined ? Number(m[2]) : parseInt(m[1], 16);
    if (!isXmlChar(c)) throw malformed(`the character reference '${m[0].length > 20 ? `${m[0].slice(0, 20)}…` : m[0]}' stands for ${c > 0x10ffff ? 'no character' : codePoint(c)}, which XML does not allow; remove it`);
  }
}

// (A body's text comes decoded from UTF-8, which holds no lone surrogate.)
// eslint-disable-next-line no-control-regex
const NOT_XML_RAW = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** XML 1.0's Char production. */
const isXmlChar = (c: number) =>
  c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);

const codePoint = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;

/** `line 2, column 7` of an index into the text. */
function position(text: string, index: number): string {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return `line ${line}, column ${index - before.lastIndexOf('\n')}`;
}

/**
 * The text with its CDATA sections taken out, each found with indexOf. (A lazy regex did the same
 * but, with no `]]>` after them, tried every `<![CDATA[` to the end of the body: a body of openers
 * took time in the square of its length.)
 */
function outsideCdata(text: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const start = text.indexOf('<![CDATA[', i);
    const end = start < 0 ? -1 : text.indexOf(']]>', start + 9);
    if (end < 0) return out + text.slice(i);
    out += text.slice(i, start);
    i = end + 3;
  }
}

function unwrap(doc: unknown, roots: readonly string[]): ParsedXml {
  const expected = roots.join(' or ');
  let top = asElement(doc);
  let names = Object.keys(top);
  if (names.length !== 1 || Array.isArray(top[names[0]])) {
    throw malformed(names.length === 0 ? 'it has no root element' : 'it has more than one root element');
  }
  let wrapped = false;
  if (names[0] === 'Document' && !roots.includes('Document')) {
    wrapped = true;
    top = asElement(top.Document);
    names = Object.keys(top);
    if (names.length !== 1 || Array.isArray(top[names[0]])) {
      throw new SandboxError(
        'VALIDATION_ERROR',
        `Invalid request body: Document must hold exactly one message element; send ${expected} inside it.`,
        [{ field: 'Document', issue: `must hold exactly one ${expected}` }],
        {},
        true,
      );
    }
  }
  const root = names[0];
  if (!roots.includes(root)) {
    // A name keyOf() kept under '#' is shown as the partner wrote it.
    const name = root.replace(/^#/, '');
    throw new SandboxError(
      'VALIDATION_ERROR',
      `Invalid request body: the root element is ${name}; this endpoint takes ${expected}.`,
      [{ field: name, issue: `is not accepted here; send ${expected}` }],
      {},
      true,
    );
  }
  return { root, body: asElement(top[root]), wrapped };
}

function asElement(v: unknown): XmlElement {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as XmlElement;
  return {};
}

// ---- the sandbox's own XSDs -------------------------------------------------------------------

/** An element read with its attributes and its child elements in document order (local names: prefixes dropped). */
export interface XmlNode {
  name: string;
  attributes: Readonly<Record<string, string>>;
  children: XmlNode[];
}

let treeParser: XMLParser | undefined;

/**
 * Reads one of the sandbox's own files (an XSD, read once at start), keeping the order of elements
 * and their attributes, which message reading drops; text, comments and the declaration are left
 * out. Not for requests: it takes no limits.
 */
export function parseXmlTree(text: string): XmlNode {
  treeParser ??= new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
  });
  const nodes = treeOf(treeParser.parse(text) as unknown[]);
  if (nodes.length !== 1) throw new Error(`expected one root element, found ${nodes.length}`);
  return nodes[0];
}

/** fast-xml-parser's ordered form ([{ name: [...children], ':@': { attributes } }, { '#text': ... }]) as XmlNodes. */
function treeOf(items: unknown[]): XmlNode[] {
  const nodes: XmlNode[] = [];
  for (const item of items as Record<string, unknown>[]) {
    const name = Object.keys(item).find((k) => k !== ':@');
    if (name === undefined || name === '#text') continue;
    nodes.push({ name, attributes: (item[':@'] as Record<string, string> | undefined) ?? {}, children: treeOf(item[name] as unknown[]) });
  }
  return nodes;
}

// ---- building --------------------------------------------------------------------------------

/** Children in document order: text, nested element, a list (repeated element), or undefined to omit. */
export type XmlContent = { [name: string]: XmlNodeContent };
export type XmlNodeContent = string | XmlContent | readonly XmlContent[] | readonly string[] | undefined;

/** Serialise one message: UTF-8 declaration, elements in the order the object lists them, two spaces
 * of indent per level, text inline, an empty element as `<Name/>`, no newline at the end. */
export function buildXml(rootName: string, content: XmlContent): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(rootName, content, '')}`;
}

function element(name: string, value: string | XmlContent, indent: string): string {
  if (typeof value === 'string') {
    const text = escapeText(value);
    return text === '' ? `${indent}<${name}/>` : `${indent}<${name}>${text}</${name}>`;
  }
  const inner = indent + '  ';
  let children = '';
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (child === undefined) continue;
    if (typeof child === 'string' || !Array.isArray(child)) children += `\n${element(key, child as string | XmlContent, inner)}`;
    else for (const item of child as readonly (string | XmlContent)[]) children += `\n${element(key, item, inner)}`;
  }
  return children === '' ? `${indent}<${name}/>` : `${indent}<${name}>${children}\n${indent}</${name}>`;
}

// Characters XML 1.0 cannot carry at all; dropped so a stray byte in data never breaks a response.
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const MARKUP: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Text as element content: & < > escaped (quotes need not be), characters XML cannot carry dropped. */
function escapeText(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Below space (tab and line breaks included), & < >, and from the surrogates up: look closer.
    if (c < 0x20 || c === 0x26 || c === 0x3c || c === 0x3e || c >= 0xd800) {
      return text.replace(NOT_XML_CHAR, '').replace(/[&<>]/g, (m) => MARKUP[m]);
    }
  }
  return text;
}
