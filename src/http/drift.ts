// Drifted answers: an answer made as usual, then changed in one field the way a newer (or careless)
// server version might send it, so a client's tolerance is tested. Which field is read from what the
// answer is documented to be, never chosen by hand per route: a JSON answer from the schema the
// served OpenAPI document gives its operation and status, an XML answer from the XSD of its root.
//
// Every form looks at the answer's fields breadth first (the top level first, then each object
// inside it in order, array items in order) and changes the first field that fits:
// - unknown-enum: an enum field (of two values or more in JSON: one value is a constant, like the
//   envelope's status: success) takes a value outside its enum; a field named status (Sts in XML)
//   is taken before any other;
// - extra-field: a field no schema lists is added to the answer's record (the object holding that
//   status field, else the answer itself);
// - missing-field: an optional field the answer has is left out;
// - null-field: a nullable field with a value becomes null (XML has no null, and no element of the
//   XSDs is nillable: FX answers are left as they are).
import type { DriftForm } from '../engine/requests/types.js';

/** The field extra-field adds to a JSON answer (snake_case in webhook payloads), and its value. */
export const DRIFT_FIELD = 'sandboxDriftField';
/** The element extra-field adds to an XML answer, as the root's last child. */
export const DRIFT_ELEMENT = 'SandboxDriftField';
export const DRIFT_VALUE = 'drift';

/** The part of an OpenAPI 3.1 document drift reads. */
export interface ApiDocument {
  paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> } | unknown>>;
  components?: { schemas?: Record<string, Schema> };
}

/** A JSON Schema object of the document (enough of it). */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}

export interface Drifted<T> {
  /** The answer with its one change, or as it was when no field fits the form. */
  body: T;
  /** The changed field; null when none fits the form. */
  field: string | null;
}

// ---------------------------------------------------------------------------------------------
// JSON

/** Path templates of a document, most literal first, compiled once per document. */
const templates = new WeakMap<ApiDocument, { template: string; test: RegExp }[]>();

function operationPaths(doc: ApiDocument) {
  let list = templates.get(doc);
  if (!list) {
    list = Object.keys(doc.paths ?? {})
      .map((template) => ({
        template,
        test: new RegExp(`^${template.split('/').map((seg) => (/^\{[^}]+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}/?$`),
        literal: template.split('/').filter((seg) => !seg.startsWith('{')).length,
      }))
      .sort((a, b) => b.literal - a.literal)
      .map(({ template, test }) => ({ template, test }));
    templates.set(doc, list);
  }
  return list;
}

/** The documented JSON schema of an answer: its operation's response for the status, else the default one. */
export function answerSchema(doc: ApiDocument, method: string, path: string, status: number): Schema | undefined {
  const template = operationPaths(doc).find((p) => p.test.test(path))?.template;
  if (!template) return undefined;
  const op = doc.paths![template][method.toLowerCase()] as { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> } | undefined;
  const response = op?.responses?.[String(status)] ?? op?.responses?.default;
  const content = response?.content ?? {};
  const json = Object.keys(content).find((type) => type.includes('json'));
  return json ? content[json].schema : undefined;
}

function resolve(doc: ApiDocument, s: Schema | undefined): Schema | undefined {
  for (let i = 0; s?.$ref && i < 32; i++) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(s.$ref)?.[1];
    s = name === undefined ? undefined : doc.components?.schemas?.[name];
  }
  return s;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The branches of a schema that says "one of these" (null branches aside). */
function branches(doc: ApiDocument, s: Schema): Schema[] {
  return [...(s.anyOf ?? []), ...(s.oneOf ?? [])].map((b) => resolve(doc, b)!).filter((b) => b && b.type !== 'null');
}

/** What an object of the answer is documented to hold: its properties and which are required. */
function objectShape(doc: ApiDocument, schema: Schema | undefined, value: Record<string, unknown>, depth = 0): { properties: Record<string, Schema>; required: Set<string> } {
  const out = { properties: {} as Record<string, Schema>, required: new Set<string>() };
  const s = resolve(doc, schema);
  if (!s || depth > 16) return out;
  Object.assign(out.properties, s.properties ?? {});
  for (const r of s.required ?? []) out.required.add(r);
  for (const part of s.allOf ?? []) {
    const inner = objectShape(doc, part, value, depth + 1);
    Object.assign(out.properties, inner.properties);
    for (const r of inner.required) out.required.add(r);
  }
  // Of "one of" branches, the one the value fits best: all its required fields there, most fields known.
  const fits = branches(doc, s)
    .map((b) => ({ b, shape: objectShape(doc, b, value, depth + 1) }))
    .filter(({ shape }) => [...shape.required].every((r) => r in value))
    .sort((x, y) => Object.keys(value).filter((k) => k in y.shape.properties).length - Object.keys(value).filter((k) => k in x.shape.properties).length);
  if (fits[0]) {
    Object.assign(out.properties, fits[0].shape.properties);
    for (const r of fits[0].shape.required) out.required.add(r);
  }
  return out;
}

function itemsOf(doc: ApiDocument, schema: Schema | undefined): Schema | undefined {
  const s = resolve(doc, schema);
  if (!s) return undefined;
  if (s.items) return s.items;
  for (const b of [...(s.allOf ?? []), ...branches(doc, s)]) {
    const items = itemsOf(doc, b);
    if (items) return items;
  }
  return undefined;
}

/** The values an enum field may take; a const is one value. */
function enumOf(doc: ApiDocument, schema: Schema | undefined): string[] {
  const s = resolve(doc, schema);
  if (!s) return [];
  if (Array.isArray(s.enum)) return s.enum.filter((v): v is string => typeof v === 'string');
  if (typeof s.const === 'string') return [s.const];
  return [...(s.allOf ?? []), ...branches(doc, s)].flatMap((b) => enumOf(doc, b));
}

function isNullable(doc: ApiDocument, schema: Schema | undefined): boolean {
  const s = resolve(doc, schema);
  if (!s) return false;
  if (s.nullable === true || s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) return true;
  if (Array.isArray(s.enum) && s.enum.includes(null)) return true;
  return [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some((b) => isNullable(doc, b));
}

/** One field met in an answer, with what its schema documents. */
interface Slot {
  path: string;
  holder: Record<string, unknown>;
  holderPath: string;
  key: string;
  schema: Schema | undefined;
  required: boolean;
}

const join = (base: string, key: string | number) => (typeof key === 'number' ? `${base}[${key}]` : base ? `${base}.${key}` : key);

/** Every field of an answer, breadth first, each with the schema the document gives it. */
function slotsOf(doc: ApiDocument, body: unknown, schema: Schema | undefined): Slot[] {
  const out: Slot[] = [];
  const queue: { value: unknown; schema: Schema | undefined; path: string }[] = [{ value: body, schema, path: '' }];
  for (let i = 0; i < queue.length && out.length < 10_000; i++) {
    const { value, schema: s, path } = queue[i];
    if (Array.isArray(value)) {
      const items = itemsOf(doc, s);
      value.forEach((v, n) => queue.push({ value: v, schema: items, path: join(path, n) }));
    } else if (isObject(value)) {
      const shape = objectShape(doc, s, value);
      for (const [key, v] of Object.entries(value)) {
        const fieldSchema = Object.hasOwn(shape.properties, key) ? shape.properties[key] : undefined;
        out.push({ path: join(path, key), holder: value, holderPath: path, key, schema: fieldSchema, required: shape.required.has(key) });
        if (typeof v === 'object' && v !== null) queue.push({ value: v, schema: fieldSchema, path: join(path, key) });
      }
    }
  }
  return out;
}

/**
 * The schema of the document's components that describes an object: every field of it is one of the
 * schema's properties and every property the schema requires is there; of several, the one with
 * the fewest properties. How a webhook payload (documented as "the resource as the API reads it
 * back") finds its resource's schema.
 */
export function describingSchema(doc: ApiDocument, value: Record<string, unknown>): Schema | undefined {
  let best: { schema: Schema; size: number } | undefined;
  for (const [name, component] of Object.entries(doc.components?.schemas ?? {})) {
    const s = resolve(doc, component);
    if (!s || (s.type !== undefined && s.type !== 'object')) continue;
    const shape = objectShape(doc, s, value);
    const size = Object.keys(shape.properties).length;
    if (size === 0 || !Object.keys(value).every((k) => Object.hasOwn(shape.properties, k))) continue;
    if (![...shape.required].every((r) => r in value)) continue;
    if (!best || size < best.size) best = { schema: { $ref: `#/components/schemas/${name}` }, size };
  }
  return best?.schema;
}

/** A value outside `values`, in their case: ON_HOLD, on_hold, or (ISO four-letter codes) HOLD. */
export function unknownValue(values: readonly string[]): string {
  const iso = values.length > 0 && values.every((v) => /^[A-Z]{4}$/.test(v));
  const lower = values.length > 0 && values.every((v) => v === v.toLowerCase());
  let value = iso ? 'HOLD' : lower ? 'on_hold' : 'ON_HOLD';
  while (values.includes(value)) value = `${value}_${lower ? 'x' : 'X'}`;
  return value;
}

const STATUS = 'status';

/**
 * A JSON answer with one drift applied, by its documented schema (`schema`, from the document
 * `doc`). `body` is changed in place: pass a copy. Without a schema only extra-field applies.
 */
export function driftJson<T>(doc: ApiDocument, schema: Schema | undefined, body: T, form: DriftForm, name = DRIFT_FIELD): Drifted<T> {
  const slots = slotsOf(doc, body, schema);
  const enums = slots.filter((s) => typeof s.holder[s.key] === 'string' && enumOf(doc, s.schema).length >= 2);
  const status = enums.find((s) => s.key === STATUS);
  switch (form) {
    case 'unknown-enum': {
      const slot = status ?? enums[0];
      if (!slot) return { body, field: null };
      slot.holder[slot.key] = unknownValue(enumOf(doc, slot.schema));
      return { body, field: slot.path };
    }
    case 'extra-field': {
      const record = status ? { holder: status.holder, path: status.holderPath } : isObject(body) ? { holder: body, path: '' } : undefined;
      if (!record) return { body, field: null };
      record.holder[name] = DRIFT_VALUE;
      return { body, field: join(record.path, name) };
    }
    case 'missing-field': {
      const slot = slots.find((s) => s.schema !== undefined && !s.required);
      if (!slot) return { body, field: null };
      delete slot.holder[slot.key];
      return { body, field: slot.path };
    }
    case 'null-field': {
      const slot = slots.find((s) => s.holder[s.key] !== null && isNullable(doc, s.schema));
      if (!slot) return { body, field: null };
      slot.holder[slot.key] = null;
      return { body, field: slot.path };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// XML

/** What an XSD says of the elements drift may change: enumerated ones with their values, optional ones. */
interface XsdFacts {
  enums: Map<string, string[]>;
  optional: Set<string>;
}

const xsdFacts = new Map<string, XsdFacts>();

const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
const enumerations = (text: string) => [...text.matchAll(/<xs:enumeration\s+value="([^"]*)"/g)].map((m) => m[1]);

/** Read an XSD for what drift needs: element names by their enumerated types (named or inline) and minOccurs="0". */
export function readXsd(xsd: string): XsdFacts {
  let facts = xsdFacts.get(xsd);
  if (facts) return facts;
  const named = new Map<string, string[]>();
  for (const m of xsd.matchAll(/<xs:simpleType\s+name="([^"]+)"\s*>([\s\S]*?)<\/xs:simpleType>/g)) {
    const values = enumerations(m[2]);
    if (values.length > 0) named.set(m[1], values);
  }
  facts = { enums: new Map(), optional: new Set() };
  const tags = [...xsd.matchAll(/<xs:element\b[^>]*>/g)];
  tags.forEach((m, i) => {
    const tag = m[0];
    const name = attr(tag, 'name');
    if (!name) return;
    if (attr(tag, 'minOccurs') === '0') facts!.optional.add(name);
    const type = attr(tag, 'type');
    let values = type ? named.get(type) : undefined;
    if (!type && !tag.endsWith('/>')) {
      // An inline simple type: what lies between this tag and the next element, if it is one.
      const end = i + 1 < tags.length ? tags[i + 1].index : xsd.length;
      const inner = xsd.slice(m.index + tag.length, end);
      if (/<xs:simpleType>/.test(inner)) values = enumerations(inner);
    }
    if (values?.length) facts!.enums.set(name, [...new Set([...(facts!.enums.get(name) ?? []), ...values])]);
  });
  xsdFacts.set(xsd, facts);
  return facts;
}

/** One element of an answer: its name, its path from the root, where it lies, and its text if it has only text. */
interface XmlNode {
  name: string;
  path: string;
  depth: number;
  start: number;
  end: number;
  text?: { start: number; end: number };
}

/** The elements of one of the sandbox's own XML answers (well formed, no comments or CDATA), in document order. */
function nodesOf(xml: string): XmlNode[] {
  const out: XmlNode[] = [];
  const open: { node: XmlNode; after: number; children: number }[] = [];
  for (const m of xml.matchAll(/<(\/?)([A-Za-z_][\w.-]*)[^>]*?(\/?)>/g)) {
    const [tag, closing, name, selfClosing] = m;
    if (closing) {
      const top = open.pop();
      if (!top) break;
      top.node.end = m.index + tag.length;
      if (top.children === 0) top.node.text = { start: top.after, end: m.index };
      continue;
    }
    const parent = open[open.length - 1];
    if (parent) parent.children++;
    const node: XmlNode = { name, path: parent ? `${parent.node.path}/${name}` : name, depth: open.length, start: m.index, end: m.index + tag.length };
    out.push(node);
    if (!selfClosing) open.push({ node, after: m.index + tag.length, children: 0 });
  }
  return out;
}

/**
 * Where an element starting at `start` begins with its line: at the line break before it when only
 * white space lies between, else at `start`. Looks back no further than that white space.
 */
function lineStartOf(xml: string, start: number): number {
  let i = start - 1;
  while (i >= 0 && xml[i] !== '\n' && /\s/.test(xml[i])) i--;
  return i >= 0 && xml[i] === '\n' ? i : start;
}

/** The element names that carry a status. */
const XML_STATUS = 'Sts';

/** An XML answer with one drift applied, by the XSD of its root (`xsd`). */
export function driftXml(xml: string, xsd: string | undefined, form: DriftForm): Drifted<string> {
  const nodes = nodesOf(xml);
  const root = nodes[0];
  if (!root) return { body: xml, field: null };
  const facts = xsd ? readXsd(xsd) : { enums: new Map<string, string[]>(), optional: new Set<string>() };
  // Breadth first, as for JSON: the shallower element first, document order among equals.
  const order = [...nodes].sort((a, b) => a.depth - b.depth || a.start - b.start);
  switch (form) {
    case 'unknown-enum': {
      const enums = order.filter((n) => n.text && facts.enums.has(n.name));
      const node = enums.find((n) => n.name === XML_STATUS) ?? enums[0];
      if (!node) return { body: xml, field: null };
      const code = unknownValue(facts.enums.get(node.name)!);
      return { body: xml.slice(0, node.text!.start) + code + xml.slice(node.text!.end), field: node.path };
    }
    case 'extra-field': {
      // The root's last child, indented as its siblings are.
      const close = xml.lastIndexOf(`</${root.name}>`);
      if (close < 0) return { body: xml, field: null };
      const indent = /\n([ \t]*)<[^/][^\n]*\n[ \t]*$/.exec(xml.slice(0, close))?.[1] ?? '  ';
      const at = lineStartOf(xml, close);
      const element = `\n${indent}<${DRIFT_ELEMENT}>${DRIFT_VALUE}</${DRIFT_ELEMENT}>`;
      return { body: xml.slice(0, at) + element + xml.slice(at), field: `${root.name}/${DRIFT_ELEMENT}` };
    }
    case 'missing-field': {
      const node = order.find((n) => n !== root && facts.optional.has(n.name));
      if (!node) return { body: xml, field: null };
      // Every occurrence at that place (a repeated element is left out whole), with its line: the
      // text between them kept, in one pass.
      const kept: string[] = [];
      let at = 0;
      for (const n of nodes) {
        if (n.path !== node.path) continue;
        kept.push(xml.slice(at, lineStartOf(xml, n.start)));
        at = n.end;
      }
      kept.push(xml.slice(at));
      return { body: kept.join(''), field: node.path };
    }
    case 'null-field':
      return { body: xml, field: null };
  }
}
