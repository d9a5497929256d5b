// Reading request elements by path with rules that say what to send, collecting every problem so
// one VALIDATION_ERROR names all the elements at fault. The structure (order, how often, elements
// the XSD does not have) is checked before, while the body is scanned (xsd-structure.ts).
import type { ErrorDetail } from '../kernel/errors.js';
import type { XmlElement, XmlValue } from './xml.js';
import { invalidBody } from './xml-errors.js';

export interface Rule {
  pattern: RegExp;
  /** What to send, phrased to follow "send": e.g. "a currency code of 3 to 5 capital letters, e.g. USD". */
  expect: string;
  /** A further check on text the pattern accepted; returns the issue, if any. */
  check?: (value: string) => string | undefined;
  /** Text the pattern refused that is an accepted value in another letter case: that value. */
  cased?: (value: string) => string | undefined;
}

const positive = (value: string) => (/^[0.]+$/.test(value) ? 'must be greater than zero' : undefined);

export const rules = {
  currency: {
    pattern: /^[A-Z]{3,5}$/,
    expect: 'a currency code of 3 to 5 capital letters, e.g. USD',
    cased: (value: string) => (/^[A-Za-z]{3,5}$/.test(value) ? value.toUpperCase() : undefined),
  },
  amount: {
    pattern: /^[0-9]+(\.[0-9]{1,5})?$/,
    expect: 'a plain decimal amount with at most 5 decimals and no exponent or separators, e.g. 1000.50',
    check: positive,
  },
  rate: {
    pattern: /^[0-9]+(\.[0-9]{1,10})?$/,
    expect: 'a plain decimal rate with at most 10 decimals, e.g. 1530.25',
    check: positive,
  },
  uuid: {
    pattern: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    expect: 'a UUID, e.g. 3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f',
  },
  evmAddress: { pattern: /^0x[a-fA-F0-9]{40}$/, expect: 'an address matching ^0x[a-fA-F0-9]{40}$' },
  text: (max: number): Rule => ({ pattern: new RegExp(`^[\\s\\S]{1,${max}}$`), expect: `text of 1 to ${max} characters` }),
  oneOf: (values: readonly string[]): Rule => ({
    pattern: new RegExp(`^(?:${values.join('|')})$`),
    expect: `one of ${values.join(', ')}`,
    cased: (value: string) => values.find((v) => v.toLowerCase() === value.toLowerCase()),
  }),
} satisfies Record<string, Rule | ((...args: never[]) => Rule)>;

const REPEATED = Symbol('repeated');

export class BodyReader {
  private readonly issues: ErrorDetail[] = [];

  constructor(private readonly body: XmlElement) {}

  /** Whether the element at this path is present (even empty). */
  has(path: string): boolean {
    return this.node(path, false) !== undefined;
  }

  /** The text of a required element; '' when it failed (the failure is recorded). */
  text(path: string, rule: Rule): string {
    return this.read(path, rule, true) ?? '';
  }

  /** The text of an optional element, or undefined when it is absent. */
  optionalText(path: string, rule: Rule): string | undefined {
    return this.read(path, rule, false);
  }

  /** Record a problem that is not about one element's text. */
  problem(field: string, issue: string): void {
    this.issues.push({ field, issue });
  }

  /** Throws one VALIDATION_ERROR listing every problem recorded. */
  finish(): void {
    if (this.issues.length > 0) throw invalidBody(this.issues);
  }

  private read(path: string, rule: Rule, required: boolean): string | undefined {
    const value = this.node(path, true);
    if (value === REPEATED) return undefined;
    if (value === undefined) {
      if (required) this.problem(path, `is required: send ${rule.expect}`);
      return undefined;
    }
    if (typeof value !== 'string') {
      this.problem(path, `must hold text, not child elements: send ${rule.expect}`);
      return undefined;
    }
    if (value === '') {
      this.problem(path, `must not be empty: send ${rule.expect}`);
      return undefined;
    }
    if (!rule.pattern.test(value)) {
      // A case slip is the usual cause, as on the JSON routes: the value to send is named.
      const cased = rule.cased?.(value);
      this.problem(path, `must be ${rule.expect}, not '${clip(value)}'${cased === undefined ? '' : ` (send '${cased}', in that case)`}`);
      return undefined;
    }
    const issue = rule.check?.(value);
    if (issue) {
      this.problem(path, issue);
      return undefined;
    }
    return value;
  }

  /** Walks a slash path. A repeated element on the way is present for has(), and a recorded problem for reads. */
  private node(path: string, report: boolean): XmlValue | typeof REPEATED | undefined {
    let cur: XmlValue | undefined = this.body;
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      if (cur === undefined || typeof cur === 'string' || Array.isArray(cur)) return undefined;
      cur = cur[parts[i]];
      if (Array.isArray(cur)) {
        if (!report) return cur;
        this.problem(parts.slice(0, i + 1).join('/'), 'must appear only once');
        return REPEATED;
      }
    }
    return cur;
  }
}

function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
