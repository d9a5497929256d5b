// One pass over a request body that builds the very object fast-xml-parser builds with the options
// xml.ts gives it, for the shape FX requests take: an optional `<?xml version="1.0" ...?>`, elements
// (namespace prefixes dropped, attributes ignored) holding either text or child elements, and the
// character references XML defines. Whatever falls outside that shape (comments, CDATA, processing
// instructions, text beside child elements, unusual names, deep nesting, anything malformed) is
// declined with `undefined`: xml.ts then runs fast-xml-parser's validator and parser, which accept
// or refuse it with their own messages. So this reader decides nothing the library would not.

/**
 * The key an element is read under. fast-xml-parser refuses constructor, __proto__ and prototype as
 * names and renames toString and the like; any name that is a property of every object (or is
 * prototype) is kept under a '#' prefix instead, which no XML name can start with: it is then an
 * element no reader asks for, on a plain key.
 */
export const keyOf = (name: string): string => (name === 'prototype' || name in Object.prototype ? `#${name}` : name);

/** `Document.FXTradInstr.CcyPair` → `FXTradInstr/CcyPair`. */
export function messagePath(jPath: string): string {
  const parts = jPath.split('.');
  if (parts[0] === 'Document' && parts.length > 1) parts.shift();
  return parts.join('/');
}

export interface ReadOptions {
  /** messagePath()s of elements always read as lists. */
  lists: ReadonlySet<string>;
  /** Replaces character references in text (the parser's own entity decoder). */
  decode: (text: string) => string;
  /** Deeper nesting is declined (the parser refuses it, with its message). */
  maxDepth: number;
}

type Value = string | Record<string, unknown>;

interface Open {
  raw: string;
  key: string;
  path: string;
  /** The text read so far: the whole content of a leaf. */
  text: string;
  /** Set once a child element starts. */
  children?: Record<string, unknown>;
}

const DECLARATION =
  /<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(?:"1\.0"|'1\.0')(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(?:"[A-Za-z][\w.-]*"|'[A-Za-z][\w.-]*'))?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(?:"(?:yes|no)"|'(?:yes|no)'))?[ \t\r\n]*\?>/y;
// A start tag: prefix and local name, attributes with quoted values free of '<' and '&', then > or />.
const START_TAG =
  /<([A-Za-z_][\w.-]*)(?::([A-Za-z_][\w.-]*))?((?:[ \t\r\n]+[A-Za-z_][\w.:-]*[ \t\r\n]*=[ \t\r\n]*(?:"[^"<&]*"|'[^'<&]*'))*)[ \t\r\n]*(\/?)>/y;
// One attribute of what START_TAG matched, from where the last one ended: sticky, and its value is
// taken whole, so the attributes are walked once. (Searching the whole string for `name=` instead
// also tried every character of every value as the start of a name, each attempt running to the
// value's end: time in the square of a value's length.)
const ATTRIBUTE = /[ \t\r\n]+([A-Za-z_][\w.:-]*)[ \t\r\n]*=[ \t\r\n]*(?:"[^"]*"|'[^']*')/y;
const END_TAG_REST = /[ \t\r\n]*>/y;
const BLANK = /^[ \t\r\n]*$/;
const LOOSE_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)/;

/** The parsed document (`{ root: value }`), or undefined when the body is not of the simple shape. */
export function readXml(text: string, options: ReadOptions): Record<string, unknown> | undefined {
  const doc: Record<string, unknown> = {};
  const open: Open[] = [];
  let i = 0;
  if (text.startsWith('<?')) {
    DECLARATION.lastIndex = 0;
    if (!DECLARATION.test(text)) return undefined;
    i = DECLARATION.lastIndex;
  }
  const root = text.indexOf('<', i);
  if (root < 0 || !BLANK.test(text.slice(i, root))) return undefined;
  i = root;
  for (;;) {
    // text[i] is '<'.
    const top = open.at(-1);
    if (text.charCodeAt(i + 1) === 47 /* / */) {
      if (!top || !text.startsWith(top.raw, i + 2)) return undefined;
      END_TAG_REST.lastIndex = i + 2 + top.raw.length;
      if (!END_TAG_REST.test(text)) return undefined;
      i = END_TAG_REST.lastIndex;
      const value = top.children ?? textValue(top.text, options);
      if (value === undefined) return undefined;
      open.pop();
      add(open.at(-1)?.children ?? doc, top.key, value, top.path, options);
      if (open.length === 0) break;
    } else {
      START_TAG.lastIndex = i;
      const m = START_TAG.exec(text);
      if (!m || m[1] === 'xmlns' || (m[3] && !distinctAttributes(m[3]))) return undefined;
      i = START_TAG.lastIndex;
      if (top) {
        // Text beside child elements is mixed content: declined.
        if (top.children === undefined && top.text.trim() !== '') return undefined;
        top.children ??= {};
      }
      const key = keyOf(m[2] ?? m[1]);
      const path = top ? `${top.path}.${key}` : key;
      if (m[4]) {
        add(top?.children ?? doc, key, '', path, options);
        if (!top) break;
      } else {
        if (open.length >= options.maxDepth - 2) return undefined;
        open.push({ raw: m[2] === undefined ? m[1] : `${m[1]}:${m[2]}`, key, path, text: '' });
      }
    }
    const next = text.indexOf('<', i);
    if (next < 0) return undefined;
    const current = open.at(-1)!;
    const segment = text.slice(i, next);
    if (current.children === undefined) current.text = segment;
    else if (segment.trim() !== '') return undefined;
    i = next;
  }
  return BLANK.test(text.slice(i)) ? doc : undefined;
}

/** A leaf's text as the parser keeps it: line ends normalised, trimmed, references replaced. */
function textValue(segment: string, options: ReadOptions): string | undefined {
  let t = segment.trim();
  if (t === '') return '';
  if (t.includes('\r')) t = t.replace(/\r\n?/g, '\n');
  if (!t.includes('&')) return t;
  // The validator refuses any other use of '&' (xml.ts refuses most before this is reached).
  if (LOOSE_AMPERSAND.test(t)) return undefined;
  try {
    return options.decode(t);
  } catch {
    return undefined;
  }
}

function add(parent: Record<string, unknown>, key: string, value: Value, path: string, options: ReadOptions): void {
  if (Object.hasOwn(parent, key)) {
    const cur = parent[key];
    if (Array.isArray(cur)) cur.push(value);
    else parent[key] = [cur, value];
  } else {
    parent[key] = options.lists.size > 0 && options.lists.has(messagePath(path)) ? [value] : value;
  }
}

function distinctAttributes(attributes: string): boolean {
  const seen = new Set<string>();
  ATTRIBUTE.lastIndex = 0;
  for (let m = ATTRIBUTE.exec(attributes); m; m = ATTRIBUTE.exec(attributes)) {
    if (seen.has(m[1])) return false;
    seen.add(m[1]);
  }
  return true;
}
