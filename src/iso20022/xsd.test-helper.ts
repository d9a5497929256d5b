// Test helper: validate XML against one of the published XSDs with libxml2 (compiled to wasm).
// Each schema is compiled once per test process and kept for its lifetime.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { XmlDocument, XmlLibError, XsdValidator } from 'libxml2-wasm';
import { XSD_NAMES, type XsdName } from './xsd-names.js';

const XSD_DIR = fileURLToPath(new URL('../../xsd/', import.meta.url));
const compiled = new Map<XsdName, XsdValidator>();

function validatorFor(name: XsdName): XsdValidator {
  let v = compiled.get(name);
  if (!v) {
    const schemaDoc = XmlDocument.fromString(readFileSync(XSD_DIR + XSD_NAMES[name], 'utf8'));
    v = XsdValidator.fromDoc(schemaDoc);
    compiled.set(name, v);
  }
  return v;
}

/** The validation errors of `xml` against xsd/<name>.xsd; an empty list means it is valid. */
export function validateAgainstXsd(xml: string, xsdName: XsdName): string[] {
  return problemsOf(xml, validatorFor(xsdName));
}

/** The validation errors of `xml` against a schema given as text (compiled for this call only). */
export function validateAgainstSchema(xml: string, schemaText: string): string[] {
  const validator = XsdValidator.fromDoc(XmlDocument.fromString(schemaText));
  try {
    return problemsOf(xml, validator);
  } finally {
    validator.dispose();
  }
}

function problemsOf(xml: string, validator: XsdValidator): string[] {
  let doc: XmlDocument | undefined;
  try {
    doc = XmlDocument.fromString(xml);
    validator.validate(doc);
    return [];
  } catch (err) {
    if (err instanceof XmlLibError) return err.details.map((d) => `line ${d.line}: ${d.message.trim()}`);
    throw err;
  } finally {
    doc?.dispose();
  }
}
