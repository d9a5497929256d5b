// The structure of a message as its XSD gives it (compiled once by xsd-reader.ts), and the check of a
// request against it, made during the scan before parsing: xml-scan.ts calls start(), text() and
// end() as it meets each tag, so the check costs no pass of its own. It follows the order of the
// elements, how often each comes, elements the XSD does not have, text where elements go, and the
// namespace of each element. What it finds is refused only once the parser has found the body
// well-formed with an allowed root (xml.ts), so a broken body keeps its MALFORMED_XML answer and a
// wrong root its own. Values (patterns, lengths, enumerations) are left to the readers (read.ts).
import type { ErrorDetail } from '../kernel/errors.js';
import { invalidBody } from './xml-errors.js';

/** An element's content, compiled from its type. */
export interface ElementStructure {
  name: string;
  /** A simple type: text and no child element. */
  text: boolean;
  /** The content model as a deterministic automaton over the children's names, starting at states[0]. */
  states: readonly ContentState[];
  /** Each child the content model names: its structure, and a bit of its own to tell a repeated element. */
  children: ReadonlyMap<string, { structure: ElementStructure; bit: number }>;
  /** The content in words, e.g. `BaseCcy and QtdCcy, in this order`. */
  holds: string;
}

export interface ContentState {
  /** Each child that may come next: the state after it, its structure and its bit (one lookup per element). */
  next: ReadonlyMap<string, { to: number; structure: ElementStructure; bit: number }>;
  /** Whether the element may end here. */
  final: boolean;
  /** When the element may not end here: the children it needs next, one of which ends it soonest (in the XSD's order). */
  required: readonly string[];
  /** What may come next, in words: `AgrdRate or AmtDrctn`, `Rmrks or the end of FXTradConfReq`. */
  expected: string;
}

export interface MessageStructure {
  root: ElementStructure;
  /** The namespaces the message may come in: none (as the XSD, which has no target namespace), or its ISO 20022 message's. */
  namespaces: readonly string[];
}

/** An element whose content is not followed: unknown, or past a problem already reported. */
const OFF = -1;

const inNamespace = (ns: string) => (ns === '' ? 'no namespace' : `the namespace ${ns}`);

/** One message's check: what was found is kept, and finish() throws it. */
/** The most problems one answer lists. */
const MAX_ISSUES = 20;

export class StructureCheck {
  private readonly issues: ErrorDetail[] = [];

  /** Keeps a problem for the answer: at most MAX_ISSUES, as a body of a thousand wrong elements needs no longer answer. */
  private report(issue: ErrorDetail): void {
    if (this.issues.length < MAX_ISSUES) this.issues.push(issue);
  }
  // The open elements, innermost last: local name, structure (undefined when not followed), state of
  // its content, the bits of the children it has had, and its namespace declarations ([prefix, uri, ...]).
  private readonly names: string[] = [];
  private readonly structures: (ElementStructure | undefined)[] = [];
  private readonly states: number[] = [];
  private readonly seen: number[] = [];
  private readonly scopes: (readonly string[] | undefined)[] = [];
  /** Whether any namespace declaration was met: without one, only unprefixed names are in a namespace (none). */
  private declared = false;
  /** The outermost element's namespace, which every element shares. */
  private namespace = '';
  /** One namespace problem is reported: past the first, the rest follow from it. */
  private namespaceReported = false;
  /** Where the message root is among the open elements: 1 inside a Document wrapper. */
  private first = 0;

  constructor(private readonly message: MessageStructure) {}

  /** A start tag, as written (`fx:CcyPair`), with the namespace declarations it carries; `empty` for `<CcyPair/>`. */
  start(raw: string, declarations: readonly string[] | undefined, empty: boolean): void {
    const depth = this.names.length;
    const colon = raw.indexOf(':');
    this.names.push(colon < 0 ? raw : raw.slice(raw.lastIndexOf(':') + 1));
    this.scopes.push(declarations);
    if (declarations) this.declared = true;
    if (!this.namespaceReported) this.checkNamespace(colon < 0 ? '' : raw.slice(0, colon), depth);
    let structure: ElementStructure | undefined;
    const local = this.names[depth];
    // Any other root, or more than one message in a Document, is refused by xml.ts's unwrap() first.
    if (depth === 0) {
      if (local === this.message.root.name) structure = this.message.root;
      else if (local === 'Document') this.first = 1;
    } else if (depth === 1 && this.first === 1) {
      if (local === this.message.root.name) structure = this.message.root;
    } else {
      structure = this.child(local, depth);
    }
    this.structures.push(structure);
    this.states.push(structure ? 0 : OFF);
    this.seen.push(0);
    if (empty) this.end();
  }

  /** Text other than white space in the innermost open element. */
  text(): void {
    const at = this.names.length - 1;
    const structure = this.structures[at];
    if (!structure || structure.text || this.states[at] === OFF) return;
    this.report({ field: this.path(at), issue: `must hold elements, not text: ${this.expecting(structure, this.states[at])}` });
    this.states[at] = OFF;
  }

  /** The end of the innermost open element. */
  end(): void {
    const at = this.names.length - 1;
    const structure = this.structures[at];
    const state = this.states[at];
    if (structure && !structure.text && state !== OFF && !structure.states[state].final) {
      const inside = at <= this.first ? '' : `${this.path(at)}/`;
      const { required } = structure.states[state];
      this.report({
        field: required.map((name) => inside + name).join(' | '),
        issue: `is required: ${structure.name} ends without ${required.length > 1 ? 'one of them' : 'it'}; ${structure.name} holds ${structure.holds}`,
      });
    }
    this.names.pop();
    this.structures.pop();
    this.states.pop();
    this.seen.pop();
    this.scopes.pop();
  }

  /** Throws one VALIDATION_ERROR naming each element at fault, if any was found. */
  finish(): void {
    if (this.issues.length > 0) throw invalidBody(this.issues);
  }

  /** Moves the parent's content on by a child, and returns the child's structure when it has one. */
  private child(local: string, depth: number): ElementStructure | undefined {
    const up = depth - 1;
    const parent = this.structures[up];
    if (!parent) return undefined;
    const state = this.states[up];
    if (parent.text) {
      if (state !== OFF) this.report({ field: this.path(depth), issue: `is not expected here: ${parent.name} holds text, not elements` });
      this.states[up] = OFF;
      return undefined;
    }
    if (state !== OFF) {
      const move = parent.states[state].next.get(local);
      if (move !== undefined) {
        this.states[up] = move.to;
        this.seen[up] |= move.bit;
        return move.structure;
      }
    }
    const known = parent.children.get(local);
    if (state === OFF) return known?.structure;
    const what = !known ? `is not an element of ${parent.name}` : (this.seen[up] & known.bit) !== 0 ? `comes more often than ${parent.name} takes it` : 'is not expected here';
    this.report({ field: this.path(depth), issue: `${what}: ${this.expecting(parent, state)}` });
    this.states[up] = OFF;
    // The element at fault is reported, not its content; the siblings after it still are looked into.
    return undefined;
  }

  /** `expected CcyPair; FXTradInstr holds CcyPair, TradAmts, AgrdRate (optional) and AmtDrctn, in this order`. */
  private expecting(structure: ElementStructure, state: number): string {
    const { expected } = structure.states[state];
    return expected === structure.holds ? `expected ${expected}` : `expected ${expected}; ${structure.name} holds ${structure.holds}`;
  }

  private checkNamespace(prefix: string, depth: number): void {
    const ns = this.declared ? this.resolve(prefix) : prefix === '' ? '' : undefined;
    let issue: string | undefined;
    if (ns === undefined) {
      issue = `has the prefix ${prefix}, which no xmlns:${prefix} declares`;
    } else if (depth === 0) {
      if (this.message.namespaces.includes(ns)) this.namespace = ns;
      else issue = `is in ${inNamespace(ns)}: ${this.message.root.name} comes in ${this.message.namespaces.map(inNamespace).join(' or in ')}`;
    } else if (ns !== this.namespace) {
      issue = `is in ${inNamespace(ns)}, and ${this.names[0]} in ${inNamespace(this.namespace)}: the elements of a message are in one namespace`;
    }
    if (issue === undefined) return;
    this.report({ field: this.path(depth), issue });
    this.namespaceReported = true;
  }

  /** The namespace a prefix ('' for none) stands for in the innermost open element, or undefined when none is declared. */
  private resolve(prefix: string): string | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const declarations = this.scopes[i];
      if (!declarations) continue;
      for (let k = 0; k < declarations.length; k += 2) if (declarations[k] === prefix) return declarations[k + 1];
    }
    if (prefix === '') return '';
    return prefix === 'xml' ? 'http://www.w3.org/XML/1998/namespace' : undefined;
  }

  /** An element's location as the readers write it: from the message root (`CcyPair/QtdCcy`), or the root or `Document` itself. */
  private path(at: number): string {
    return at <= this.first ? this.names[at] : this.names.slice(this.first + 1, at + 1).join('/');
  }
}
