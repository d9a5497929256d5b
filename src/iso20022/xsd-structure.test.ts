// The structure compiled from the XSDs (xsd-reader.ts) and checked during the scan (xsd-structure.ts)
// agrees with libxml2's validation of the same XSDs: on bodies built from each request's content
// model and then mangled (children dropped, repeated, swapped, renamed or added, text where elements
// go, elements inside text), the check refuses exactly the bodies libxml2 refuses. Every text is a
// value its XSD takes, so what libxml2 refuses is the structure.
import fc from 'fast-check';
import { XmlDocument, XmlLibError, XsdValidator } from 'libxml2-wasm';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../kernel/errors.js';
import { parseXml } from './xml.js';
import { compileMessage, REQUEST_MESSAGES, requestStructure, type RequestRoot } from './xsd-reader.js';
import type { ElementStructure, MessageStructure } from './xsd-structure.js';
import { validateAgainstXsd } from './xsd.test-helper.js';

const VALUES: Record<string, string> = {
  BaseCcy: 'NGN',
  QtdCcy: 'USDT',
  TradgCcyAmt: '100.5',
  XchgRate: '1530.25',
  AmtDrctn: 'BUY',
  AcctNm: 'Ada Obi',
  AcctNb: '0123456789',
  BkCd: '044',
  Adr: '0x52908400098527886E0F7030069857D2E4169EE7',
  AcctId: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f',
  Rmrks: 'Paid',
  Rsn: 'Rate moved',
};

interface Node {
  name: string;
  /** undefined for a leaf holding `text`. */
  children?: Node[];
  text: string;
}

type Random = () => number;

/** A small seeded generator, so one fast-check integer gives one body. */
function random(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T,>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)];

/** A body its content model takes: a walk through the automaton, stopping at random where the element may end. */
function valid(s: ElementStructure, r: Random): Node {
  if (s.text) return { name: s.name, text: VALUES[s.name] ?? 'x' };
  const children: Node[] = [];
  for (let state = 0; ; ) {
    const at = s.states[state];
    const names = [...at.next.keys()];
    if (names.length === 0 || (at.final && r() < 0.35) || children.length > 6) break;
    const name = pick(r, names);
    children.push(valid(s.children.get(name)!.structure, r));
    state = at.next.get(name)!.to;
  }
  return { name: s.name, children, text: '' };
}

function allStructures(s: ElementStructure, out = new Map<string, ElementStructure>()): Map<string, ElementStructure> {
  out.set(s.name, s);
  for (const { structure } of s.children.values()) allStructures(structure, out);
  return out;
}

const nodes = (n: Node, out: Node[] = []): Node[] => {
  out.push(n);
  for (const c of n.children ?? []) nodes(c, out);
  return out;
};

/** One change to the tree, in place. */
function mangle(root: Node, r: Random, known: Map<string, ElementStructure>): void {
  const all = nodes(root);
  const parents = all.filter((n) => n.children);
  const parent = pick(r, parents);
  const kids = parent.children!;
  const at = Math.floor(r() * (kids.length + 1));
  const other = () => valid(pick(r, [...known.values()]), r);
  switch (Math.floor(r() * 8)) {
    case 0:
      if (kids.length) kids.splice(Math.floor(r() * kids.length), 1);
      break;
    case 1:
      if (kids.length) kids.splice(at, 0, structuredClone(pick(r, kids)));
      break;
    case 2:
      if (kids.length > 1) {
        const i = Math.floor(r() * (kids.length - 1));
        [kids[i], kids[i + 1]] = [kids[i + 1], kids[i]];
      }
      break;
    case 3:
      kids.splice(at, 0, { name: 'Zz', text: 'x' });
      break;
    case 4:
      kids.splice(at, 0, other());
      break;
    case 5:
      parent.text = 'x';
      break;
    case 6: {
      const leaf = all.find((n) => !n.children && n !== root);
      if (leaf) leaf.children = [other()];
      break;
    }
    default: {
      const n = pick(r, all.filter((x) => x !== root));
      if (n) n.name = pick(r, [...known.keys()]);
    }
  }
}

/** Every leaf of a simple type holds a value its XSD takes, whatever was renamed or emptied. */
function settle(n: Node): void {
  if (Object.hasOwn(VALUES, n.name) && !n.children?.length) {
    n.children = undefined;
    n.text = VALUES[n.name];
  }
  n.children?.forEach(settle);
}

/** Whitespace and comments between elements, which neither side counts. */
function render(n: Node, r: Random): string {
  const gap = () => pick(r, ['', '', '\n  ', ' ', '<!-- c -->']);
  // A value is sent without spaces around it (the XSDs' patterns take none).
  if (!n.children?.length) return `<${n.name}>${n.text}</${n.name}>`;
  const inner = n.children.map((c) => gap() + render(c, r));
  if (n.text) inner.splice(Math.floor(r() * (inner.length + 1)), 0, n.text);
  return `<${n.name}>${inner.join('')}${gap()}</${n.name}>`;
}

/** Whether the structure check takes the body; any other refusal is a failure of the test. */
function takes(xml: string, root: string, structure: MessageStructure): boolean {
  try {
    parseXml(xml, { roots: [root], structure });
    return true;
  } catch (err) {
    if (err instanceof SandboxError && err.code === 'VALIDATION_ERROR') return false;
    throw err;
  }
}

function agrees(root: string, structure: MessageStructure, libxml: (xml: string) => boolean) {
  const known = allStructures(structure.root);
  let taken = 0;
  fc.assert(
    fc.property(fc.integer(), fc.nat(3), (seed, changes) => {
      const r = random(seed);
      const tree = valid(structure.root, r);
      for (let i = 0; i < changes; i++) mangle(tree, r, known);
      settle(tree);
      const xml = render(tree, r);
      const ours = takes(xml, root, structure);
      expect(ours, xml).toBe(libxml(xml));
      if (ours) taken++;
    }),
    { numRuns: 400 },
  );
  // Both outcomes are met often enough for the comparison to mean something.
  expect(taken).toBeGreaterThan(40);
  expect(taken).toBeLessThan(360);
}

describe('the structure compiled from the request XSDs', () => {
  it.each(Object.keys(REQUEST_MESSAGES) as RequestRoot[])('%s: refuses what libxml2 refuses, and only that', (root) => {
    agrees(root, requestStructure(root), (xml) => validateAgainstXsd(xml, root).length === 0);
  });

  it('says in words what each request holds', () => {
    expect(requestStructure('FXTradInstr').root.holds).toBe('CcyPair, TradAmts, AgrdRate (optional) and AmtDrctn, in this order');
    expect(requestStructure('FXTradAccptReq').root.holds).toBe('one of SttlmDstn or AcctId');
    expect(requestStructure('FXTradConfReq').root.holds).toBe('Rmrks (optional)');
    expect(requestStructure('FXTradCxlReq').namespaces).toEqual(['', 'urn:iso:std:iso:20022:tech:xsd:fxtr.016.001.05']);
  });
});

// Counts, nested groups and a repeated choice, which the request XSDs do not use.
const WIDER = `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">
  <xs:element name="R">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="A" type="xs:string" minOccurs="2" maxOccurs="3"/>
        <xs:choice minOccurs="0" maxOccurs="unbounded">
          <xs:element name="B" type="T"/>
          <xs:sequence>
            <xs:element name="C" type="xs:string"/>
            <xs:element name="D" type="xs:string" minOccurs="0"/>
          </xs:sequence>
        </xs:choice>
        <xs:element name="E" type="xs:string"/>
        <xs:sequence minOccurs="0">
          <xs:element name="F" type="xs:string"/>
          <xs:element name="G" type="xs:string"/>
        </xs:sequence>
      </xs:sequence>
    </xs:complexType>
  </xs:element>
  <xs:complexType name="T">
    <xs:sequence>
      <xs:element name="A" type="xs:string" maxOccurs="unbounded"/>
    </xs:sequence>
  </xs:complexType>
</xs:schema>`;

describe('the XSD reader', () => {
  it('compiles counts, nested and repeated groups as libxml2 reads them', () => {
    const validator = XsdValidator.fromDoc(XmlDocument.fromString(WIDER));
    const libxml = (xml: string) => {
      const doc = XmlDocument.fromString(xml);
      try {
        validator.validate(doc);
        return true;
      } catch (err) {
        if (err instanceof XmlLibError) return false;
        throw err;
      } finally {
        doc.dispose();
      }
    };
    const structure = compileMessage(WIDER, 'R', 'urn:x');
    expect(structure.root.holds).toBe('A (2 to 3), one of B or (C then D (optional)) (any number), E and (F then G) (optional), in this order');
    agrees('R', structure, libxml);
  });

  it.each([
    ['xs:all', '<xs:element name="R"><xs:complexType><xs:all><xs:element name="A" type="xs:string"/></xs:all></xs:complexType></xs:element>', /xs:all \(in R\)/],
    ['xs:any', '<xs:element name="R"><xs:complexType><xs:sequence><xs:any/></xs:sequence></xs:complexType></xs:element>', /xs:any \(in R\)/],
    ['ref=', '<xs:element name="R"><xs:complexType><xs:sequence><xs:element ref="A"/></xs:sequence></xs:complexType></xs:element>', /xs:element ref=/],
    ['attributes', '<xs:element name="R"><xs:complexType><xs:sequence/><xs:attribute name="a"/></xs:complexType></xs:element>', /xs:complexType holding xs:sequence, xs:attribute/],
    ['mixed content', '<xs:element name="R"><xs:complexType mixed="true"><xs:sequence/></xs:complexType></xs:element>', /mixed content/],
    ['an element without a type', '<xs:element name="R"/>', /an element without a type \(R\)/],
    ['empty content', '<xs:element name="R"><xs:complexType/></xs:element>', /a complex type with no content \(R\)/],
    ['a recursive type', '<xs:element name="R" type="T"/><xs:complexType name="T"><xs:sequence><xs:element name="R" type="T" minOccurs="0"/></xs:sequence></xs:complexType>', /recursive/],
  ])('stops at %s, naming it', (_what, body, message) => {
    const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">${body}</xs:schema>`;
    expect(() => compileMessage(xsd, 'R', 'urn:x', 'T.xsd')).toThrow(message);
  });
});
