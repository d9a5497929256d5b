// The regular expressions of scenario documents (outcome predicates, accepted auth codes). Any key
// can send one, and one shared server runs them, so they run on RE2 (re2js): matching takes time
// linear in the input, whatever the pattern. RE2 has no backreferences or lookaround; a pattern
// that needs them is refused when the scenario is checked, saying what to write instead.
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { BoundedMap } from '../../kernel/bounded-map.js';

export const REGEX_LIMITS = {
  /** Characters in one pattern. */
  length: 200,
  /** Instructions of one compiled pattern (RE2's program size): repetition counts multiply it. */
  size: 500,
  /** Patterns in one scenario. */
  perScenario: 50,
  /** A longer value matches no pattern (no field of the API is this long). */
  input: 1000,
} as const;

const cache = new BoundedMap<string, RE2JS>(256, true);

/** The compiled pattern, kept while it is among the most recently used. Throws on a bad pattern. */
function compiled(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (!re) cache.set(pattern, (re = RE2JS.compile(pattern)));
  return re;
}

/** What to write instead of a construct RE2 refuses. */
function hint(pattern: string, error: string, at: string): string {
  if (/^\\[1-9]|^\\k/.test(at)) return 'backreferences (\\1, \\k<name>) are not supported: write the repeated text out';
  if (/\(\?<?[=!]/.test(pattern)) {
    return 'lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) are not supported: match the text itself (^fail- rather than ^(?=fail-)), or put a rule for the exception before this one';
  }
  if (at.startsWith('\\u')) return 'write \\x{20AC} rather than \\u20AC';
  if (at === '\\Z') return 'write \\z or $ for the end of the text';
  if (at.startsWith('\\c')) return 'write \\x01 and the like for control characters';
  if (pattern.includes('[^]')) return 'write [\\s\\S] for any character';
  if (error.startsWith('invalid nested repetition')) return 'write one repetition (a+ rather than a++ or a**)';
  if (error.startsWith('invalid repeat count')) return 'repetition counts go up to 1000, nested ones multiplied';
  return '';
}

/** Why a pattern is refused, saying what to send instead; undefined when it is fine. */
export function regexProblem(pattern: string): string | undefined {
  let re: RE2JS;
  try {
    re = compiled(pattern);
  } catch (err) {
    if (!(err instanceof RE2JSSyntaxException)) throw err;
    const what = `${err.error}${err.input ? `: ${err.input}` : ''}`;
    const instead = hint(pattern, err.error, err.input ?? '');
    return `must be a regular expression in RE2 syntax (${what})${instead ? `; ${instead}` : ''}`;
  }
  const size = re.programSize();
  if (size > REGEX_LIMITS.size) {
    return `is too large once compiled (${size} instructions, at most ${REGEX_LIMITS.size}): use smaller repetition counts, such as \\d{1,20} rather than \\d{1,500}`;
  }
  return undefined;
}

/** Whether the pattern occurs in the value (not anchored, as RegExp.test). A pattern RE2 refuses
 * (a document stored before it was checked) matches nothing. */
export function regexMatches(pattern: string, value: string): boolean {
  if (value.length > REGEX_LIMITS.input) return false;
  let re: RE2JS;
  try {
    re = compiled(pattern);
  } catch {
    return false;
  }
  return re.test(value);
}
