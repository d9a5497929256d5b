// The structure of each FX request, compiled once from its XSD in xsd/ (the files /xsd/ serves) by a
// reader of the part of XML Schema those files use: global xs:element declarations; named or
// anonymous xs:complexType holding an xs:sequence or xs:choice (nested, each with minOccurs and
// maxOccurs) of local xs:element declarations; and simple types (named, anonymous, or the xs:
// built-ins), whose facets the readers check (read.ts). Anything else (xs:all, xs:any, ref=,
// attributes, complexContent, mixed or empty content, a target namespace, an element without a type)
// stops the reader with an error naming it, so a change to the files is never half read.
import { MAX_XML_DEPTH, parseXmlTree, type XmlNode } from './xml.js';
import { XSD_NAMES, xsdText } from './xsd-names.js';
import type { ContentState, ElementStructure, MessageStructure } from './xsd-structure.js';

/** Each request root and its ISO 20022 message: a message may come in that message's namespace (in a Document wrapper, say). */
export const REQUEST_MESSAGES = {
  FXTradInstr: 'fxtr.014.001.05',
  FXTradAccptReq: 'fxtr.014.001.05',
  FXTradConfReq: 'fxtr.037.001.02',
  FXTradCxlReq: 'fxtr.016.001.05',
} as const;

export type RequestRoot = keyof typeof REQUEST_MESSAGES;

const compiled = new Map<RequestRoot, MessageStructure>();

/** The structure of a request, compiled from xsd/<root>.xsd on first use (or by compileRequests) and kept. */
export function requestStructure(root: RequestRoot): MessageStructure {
  let structure = compiled.get(root);
  if (!structure) {
    const file = XSD_NAMES[root];
    structure = compileMessage(xsdText(root), root, `urn:iso:std:iso:20022:tech:xsd:${REQUEST_MESSAGES[root]}`, file);
    compiled.set(root, structure);
  }
  return structure;
}

/** Compile every request's structure now (once per process), so that no request pays for it. */
export function compileRequests(): void {
  for (const root of Object.keys(REQUEST_MESSAGES) as RequestRoot[]) requestStructure(root);
}

/** The request roots compiled so far. */
export const compiledRequests = (): RequestRoot[] => [...compiled.keys()];

/** The structure of the global element `root` of an XSD without a target namespace; the message may also come in `namespace`. */
export function compileMessage(xsd: string, root: string, namespace: string, file = 'the XSD'): MessageStructure {
  const schema = new Schema(parseXmlTree(xsd), file);
  const decl = schema.elements.get(root);
  if (!decl) throw new Error(`${file} declares no global element ${root}`);
  return { root: schema.element(decl, 0), namespaces: ['', namespace] };
}

interface Occurs {
  min: number;
  max: number;
}

type Particle = Occurs & ({ kind: 'element'; name: string; decl: XmlNode } | { kind: 'sequence' | 'choice'; items: Particle[] });

const TEXT: readonly ContentState[] = [];
const NO_CHILDREN = new Map<string, { structure: ElementStructure; bit: number }>();
/** Larger finite maxOccurs would be unrolled into that many states; none of the files comes near. */
const MAX_OCCURS = 100;

class Schema {
  readonly elements = new Map<string, XmlNode>();
  private readonly complexTypes = new Map<string, XmlNode>();
  private readonly simpleTypes = new Set<string>();

  constructor(
    root: XmlNode,
    private readonly file: string,
  ) {
    if (root.name !== 'schema') throw this.unsupported(`a root element ${root.name}`);
    if (root.attributes.targetNamespace !== undefined) throw this.unsupported('a targetNamespace');
    for (const node of root.children) {
      const name = node.attributes.name;
      if (node.name === 'annotation') continue;
      if (name === undefined) throw this.unsupported(`a global xs:${node.name} without a name`);
      if (node.name === 'element') this.elements.set(name, node);
      else if (node.name === 'complexType') this.complexTypes.set(name, node);
      else if (node.name === 'simpleType') this.simpleTypes.add(name);
      else throw this.unsupported(`xs:${node.name}`);
    }
  }

  /** An element declaration's structure (its type's, under its name). */
  element(decl: XmlNode, depth: number): ElementStructure {
    const name = decl.attributes.name;
    if (name === undefined) throw this.unsupported(decl.attributes.ref === undefined ? 'an xs:element without a name' : 'xs:element ref=');
    if (depth > MAX_XML_DEPTH) throw this.unsupported(`elements nested deeper than ${MAX_XML_DEPTH} (a recursive type, at ${name})`);
    const type = this.typeOf(decl, name);
    if (type === undefined) return { name, text: true, states: TEXT, children: NO_CHILDREN, holds: 'text' };
    if (type.attributes.mixed === 'true') throw this.unsupported(`mixed content (${name})`);
    const content = this.only(type, name);
    // Empty content refuses even white space, which the scan does not tell apart from none.
    if (content === undefined) throw this.unsupported(`a complex type with no content (${name})`);
    if (content.name !== 'sequence' && content.name !== 'choice') throw this.unsupported(`xs:${content.name} (in ${name})`);
    const particle = this.group(content, name);
    const children = this.children(particle, depth);
    return { name, text: false, states: automaton(particle, name, children), children, holds: describe(particle, true) };
  }

  /** The complexType node of a declaration, or undefined for a simple type. */
  private typeOf(decl: XmlNode, name: string): XmlNode | undefined {
    const inline = this.only(decl, name);
    const type = decl.attributes.type;
    if (type !== undefined && inline !== undefined) throw this.unsupported(`both a type and an inline type (${name})`);
    if (inline !== undefined) {
      if (inline.name === 'simpleType') return undefined;
      if (inline.name === 'complexType') return inline;
      throw this.unsupported(`xs:${inline.name} (in ${name})`);
    }
    if (type === undefined) throw this.unsupported(`an element without a type (${name})`);
    // A prefixed name is one of XML Schema's own simple types (xs:string, xs:decimal...).
    if (type.includes(':') || this.simpleTypes.has(type)) return undefined;
    const complex = this.complexTypes.get(type);
    if (!complex) throw new Error(`${this.file}: ${name} has the type ${type}, which it does not define`);
    return complex;
  }

  /** The one child of a node that counts (annotations left out), or undefined. */
  private only(node: XmlNode, name: string): XmlNode | undefined {
    const children = node.children.filter((c) => c.name !== 'annotation');
    if (children.length > 1) throw this.unsupported(`xs:${node.name} holding ${children.map((c) => `xs:${c.name}`).join(', ')} (in ${name})`);
    return children[0];
  }

  private group(node: XmlNode, name: string): Particle {
    const items: Particle[] = [];
    for (const child of node.children) {
      if (child.name === 'annotation') continue;
      if (child.name === 'element') {
        const childName = child.attributes.name;
        if (childName === undefined) throw this.unsupported(`xs:element ref= (in ${name})`);
        items.push({ kind: 'element', name: childName, decl: child, ...this.occurs(child, childName) });
      } else if (child.name === 'sequence' || child.name === 'choice') {
        items.push(this.group(child, name));
      } else {
        throw this.unsupported(`xs:${child.name} (in ${name})`);
      }
    }
    return { kind: node.name as 'sequence' | 'choice', items, ...this.occurs(node, name) };
  }

  private occurs(node: XmlNode, name: string): Occurs {
    const count = (value: string | undefined, otherwise: number) => (value === undefined ? otherwise : value === 'unbounded' ? Infinity : Number(value));
    const min = count(node.attributes.minOccurs, 1);
    const max = count(node.attributes.maxOccurs, 1);
    if (!Number.isInteger(min) || min < 0 || min > max || (max !== Infinity && (!Number.isInteger(max) || max > MAX_OCCURS))) {
      throw this.unsupported(`minOccurs ${node.attributes.minOccurs ?? 1} and maxOccurs ${node.attributes.maxOccurs ?? 1} (at ${name})`);
    }
    return { min, max };
  }

  /** Each child element the content names, with its structure and a bit of its own. */
  private children(particle: Particle, depth: number): Map<string, { structure: ElementStructure; bit: number }> {
    const children = new Map<string, { structure: ElementStructure; bit: number }>();
    const seen = new Map<string, XmlNode>();
    const visit = (p: Particle) => {
      if (p.kind !== 'element') return p.items.forEach(visit);
      const before = seen.get(p.name);
      if (before) {
        // XML Schema requires one type for one name within a content model.
        if (before.attributes.type !== p.decl.attributes.type || p.decl.attributes.type === undefined) {
          throw this.unsupported(`two declarations of ${p.name} in one content model`);
        }
        return;
      }
      seen.set(p.name, p.decl);
      children.set(p.name, { structure: this.element(p.decl, depth + 1), bit: children.size < 31 ? 1 << children.size : 0 });
    };
    visit(particle);
    return children;
  }

  private unsupported(what: string): Error {
    return new Error(`${this.file}: the sandbox's XSD reader does not take ${what}`);
  }
}

// ---- the content model as an automaton ------------------------------------------------------------

/** Thompson's construction: states with empty moves and moves on a child's name. */
class Nfa {
  readonly empty: number[][] = [];
  readonly moves: { name: string; to: number }[][] = [];

  state(): number {
    this.empty.push([]);
    this.moves.push([]);
    return this.empty.length - 1;
  }

  /** Adds the particle from state `from`; returns the state where it ends. */
  add(p: Particle, from: number): number {
    const once = (start: number): number => {
      if (p.kind === 'element') {
        const to = this.state();
        this.moves[start].push({ name: p.name, to });
        return to;
      }
      if (p.kind === 'sequence') return p.items.reduce((at, item) => this.add(item, at), start);
      const out = this.state();
      for (const item of p.items) {
        const branch = this.state();
        this.empty[start].push(branch);
        this.empty[this.add(item, branch)].push(out);
      }
      return out;
    };
    let at = from;
    for (let i = 0; i < p.min; i++) at = once(at);
    if (p.max === Infinity) {
      const loop = this.state();
      this.empty[at].push(loop);
      this.empty[once(loop)].push(loop);
      return loop;
    }
    for (let i = p.min; i < p.max; i++) {
      const skip = this.state();
      this.empty[at].push(skip);
      this.empty[once(at)].push(skip);
      at = skip;
    }
    return at;
  }

  /** The states reached from these by empty moves, these included, sorted. */
  closure(states: Iterable<number>): number[] {
    const reached = new Set(states);
    const todo = [...reached];
    while (todo.length > 0) {
      for (const to of this.empty[todo.pop()!]) {
        if (!reached.has(to)) {
          reached.add(to);
          todo.push(to);
        }
      }
    }
    return [...reached].sort((a, b) => a - b);
  }
}

/** The deterministic automaton of a content model (subset construction), its states in words. */
function automaton(particle: Particle, name: string, children: ReadonlyMap<string, { structure: ElementStructure; bit: number }>): ContentState[] {
  const nfa = new Nfa();
  const start = nfa.state();
  const accept = nfa.add(particle, start);
  const order = namesOf(particle);
  const sets: number[][] = [nfa.closure([start])];
  const index = new Map<string, number>([[sets[0].join(), 0]]);
  const moves: Map<string, number>[] = [];
  for (let i = 0; i < sets.length; i++) {
    const targets = new Map<string, Set<number>>();
    for (const s of sets[i]) {
      for (const { name: child, to } of nfa.moves[s]) {
        let set = targets.get(child);
        if (!set) targets.set(child, (set = new Set()));
        set.add(to);
      }
    }
    const next = new Map<string, number>();
    for (const child of order) {
      const to = targets.get(child);
      if (!to) continue;
      const set = nfa.closure(to);
      const key = set.join();
      let k = index.get(key);
      if (k === undefined) {
        k = sets.push(set) - 1;
        index.set(key, k);
      }
      next.set(child, k);
    }
    moves.push(next);
  }
  // The fewest children from each state to one where the element may end: what is required of an
  // element that ends too soon is the children on such a shortest way (AmtDrctn, not AgrdRate).
  const final = sets.map((set) => set.includes(accept));
  const toEnd = final.map((f) => (f ? 0 : Infinity));
  for (let changed = true; changed; ) {
    changed = false;
    moves.forEach((next, i) => {
      for (const to of next.values()) {
        if (toEnd[to] + 1 < toEnd[i]) {
          toEnd[i] = toEnd[to] + 1;
          changed = true;
        }
      }
    });
  }
  return moves.map((next, i) => ({
    next: new Map([...next].map(([child, to]) => [child, { to, ...children.get(child)! }])),
    final: final[i],
    required: [...next].filter(([, to]) => toEnd[to] === toEnd[i] - 1).map(([child]) => child),
    expected: list([...next.keys(), ...(final[i] ? [`the end of ${name}`] : [])], 'or'),
  }));
}

/** Child names in the order the XSD first gives them. */
function namesOf(p: Particle, out: string[] = []): string[] {
  if (p.kind === 'element') {
    if (!out.includes(p.name)) out.push(p.name);
  } else {
    for (const item of p.items) namesOf(item, out);
  }
  return out;
}

/** A content model in words: `CcyPair, TradAmts, AgrdRate (optional) and AmtDrctn, in this order`, `one of SttlmDstn or AcctId`. */
function describe(p: Particle, top: boolean): string {
  let text: string;
  if (p.kind === 'element') text = p.name;
  else if (p.kind === 'choice') text = `one of ${list(p.items.map((i) => describe(i, false)), 'or')}`;
  else if (p.items.length === 1) text = describe(p.items[0], top);
  else if (top && p.min === 1 && p.max === 1) return `${list(p.items.map((i) => describe(i, false)), 'and')}, in this order`;
  else text = `(${p.items.map((i) => describe(i, false)).join(' then ')})`;
  if (p.min === 1 && p.max === 1) return text;
  if (p.max === 1) return `${text} (optional)`;
  if (p.max === Infinity) return `${text} (${p.min === 0 ? 'any number' : `${p.min} or more`})`;
  return `${text} (${p.min} to ${p.max})`;
}

function list(words: readonly string[], last: 'and' | 'or'): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`;
}
