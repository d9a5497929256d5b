// How a body that is not acceptable XML is refused: MALFORMED_XML, with fast-xml-parser's validator
// messages said in terms of elements and end tags; and how a message whose elements are wrong is:
// one VALIDATION_ERROR naming each element at fault.
import { SandboxError, type ErrorDetail } from '../kernel/errors.js';

export const malformed = (why: string) =>
  new SandboxError('MALFORMED_XML', `The request body is not acceptable XML: ${why}. Send one well-formed UTF-8 XML message.`);

/** A body with nothing in it but white space: said as such, with the message the route takes. */
export const emptyBody = (roots: readonly string[]) =>
  new SandboxError('MALFORMED_XML', `The request body is empty. Send an XML message whose root element is ${roots.join(' or ')}, with Content-Type: application/xml.`);

/** A body that is JSON (it begins with { or [, which XML never does): said as such, with the message the route takes. */
export const jsonBody = (roots: readonly string[]) =>
  new SandboxError(
    'MALFORMED_XML',
    `The request body is JSON, but the FX interface takes XML. Send an XML message whose root element is ${roots.join(' or ')}, with Content-Type: application/xml.`,
  );

/** A refusal of the scan before parsing (xml-scan.ts): what is wrong, what to send instead, and where (the reject's ErrLctn). */
export const refusedBeforeParsing = (why: string, instead: string, at: ErrorDetail) =>
  new SandboxError('MALFORMED_XML', `The request body is not acceptable XML: ${why}. ${instead}`, [at]);

/** One VALIDATION_ERROR for every problem found: the first in the text, all of them in the details (the reject's ErrLctn and AddtlData). */
export function invalidBody(issues: readonly ErrorDetail[]): SandboxError {
  const [first] = issues;
  const n = issues.length - 1;
  const more = n > 0 ? ` (and ${n} more problem${n > 1 ? 's' : ''}, listed in AddtlData)` : '';
  return new SandboxError('VALIDATION_ERROR', `Invalid request body: ${first.field} ${first.issue}${more}.`, [...issues], {}, true);
}

export interface ValidationError {
  msg: string;
  line: number;
  col?: number;
}

const at = (line: number, col?: number) => (col === undefined ? `line ${line}` : `line ${line}, column ${col}`);
const clip = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}…` : name);
const tag = (name: string) => `<${clip(name)}>`;
const endTag = (name: string) => `</${clip(name)}>`;
const quote = (name: string) => `'${clip(name)}'`;

/** The validator's messages, by their text, as a partner reads them: in terms of elements and end tags. */
const REPHRASED: [RegExp, (m: string[], where: string) => string][] = [
  [/^Invalid '(\[.*\])' found\.$/, ([, list]) => endsInside(JSON.parse(list) as string[])],
  [/^Unclosed tag '(.*)'\.$/s, ([, name], where) => `it ends before ${tag(name)} (opened at ${where}) is closed`],
  [
    /^Expected closing tag '(.*)' \(opened in line (\d+), col (\d+)\) instead of closing tag '(.*)'\.$/s,
    ([, open, line, col, close], where) => `${endTag(close)} at ${where} comes before ${tag(open)} (opened at ${at(+line, +col)}) is closed`,
  ],
  [/^Closing tag '(.*)' has not been opened\.$/s, ([, name], where) => `${endTag(name)} at ${where} closes an element that is not open`],
  [/^Closing tag '(.*)' doesn't have proper closing\.$/s, ([, name], where) => `the end tag ${endTag(name)} at ${where} has no closing '>'`],
  [/^Closing tag '(.*)' can't have/s, ([, name], where) => `the end tag ${endTag(name)} at ${where} has more than the element name`],
  [/^Extra text at the end$/, (_, where) => `there is text after the root element ends, at ${where}`],
  [/^Multiple possible root nodes found\.$/, (_, where) => `a second root element starts at ${where}`],
  [/^Start tag expected\.$/, () => 'it has no root element'],
  [/^char '&' is not expected\.$/, (_, where) => `the '&' at ${where} does not start a character reference; escape a literal & as &amp;`],
  [/^char '.*' is not expected\.$/s, (_, where) => `there is text before the root element, at ${where}`],
  [/^Invalid space after '<'\.$/, (_, where) => `the '<' at ${where} is not followed by an element name; escape a literal < as &lt;`],
  [/^Tag '(.*)' is an invalid name\.$/s, ([, name], where) => `${quote(name)} at ${where} is not a valid element name`],
  [/^Attributes for '(.*)' have open quote\.$/s, ([, name], where) => `an attribute value of ${tag(name)} at ${where} has no closing quote`],
  [/^XML declaration allowed only at the start/, (_, where) => `the XML declaration at ${where} is not at the very start of the body`],
  [/^Attribute '(.*)' has no space in starting\.$/s, ([, name], where) => `the attribute ${quote(name)} at ${where} needs a space before it`],
  [/^(?:boolean attribute '(.*)' is not allowed|Attribute '(.*)' is without value)\.$/s, ([, a, b], where) => `the attribute ${quote(a ?? b)} at ${where} has no value in quotes`],
  [/^Attribute '(.*)' is an invalid name\.$/s, ([, name], where) => `${quote(name)} at ${where} is not a valid attribute name`],
  [/^Attribute '(.*)' is repeated\.$/s, ([, name], where) => `the attribute ${quote(name)} at ${where} appears twice on one element`],
];

export function inXmlTerms(err: ValidationError): string {
  const where = at(err.line, err.col);
  for (const [pattern, say] of REPHRASED) {
    const m = pattern.exec(err.msg);
    if (m) return say(m, where);
  }
  return `${err.msg} (${where})`;
}

/** `['FXTradInstr', 'CcyPair']` → `it ends before <CcyPair> inside <FXTradInstr> is closed`. */
function endsInside(open: string[]): string {
  const inner = open.slice(-3).reverse().map(tag);
  const outer = open.length > 4 ? `… inside ${tag(open[0])}` : open.slice(0, -3).reverse().map(tag).join(' inside ');
  return `it ends before ${[...inner, outer].filter(Boolean).join(' inside ')} is closed`;
}
