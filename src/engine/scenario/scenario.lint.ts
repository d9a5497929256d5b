// What a well-formed scenario says that can never happen, or never be reached. The schema checks the
// shape; this checks the meaning against the app: outcome rules against the fields each resource is
// matched on (names, case, the values of closed lists), fault routes against the app's /api routes.
// Impossible rules are refused; rules that follow a rule matching everything are reported as
// warnings, since the document is still valid.
import type { z } from 'zod';
import { compileGlob } from './scenario.glob.js';
import type { ScenarioIssue } from './types.js';
import { defOf, WRAPPERS } from '../../kernel/zod-defs.js';
import type { RuleVocabulary } from '../registry/types.js';
export type { RuleVocabulary } from '../registry/types.js';


/** An /api route of the app: method and path, parameters written `:name`. */
export interface AppRoute {
  method: string;
  path: string;
}

/** What a lint needs to know of one resource. */
export interface LintResource {
  name: string;
  success: string | undefined;
  rules?: RuleVocabulary;
}


/** Every leaf field of a schema by dotted path, with its values when it is an enum (null otherwise). */
export function leafFields(schema: z.ZodType, prefix = '', out = new Map<string, readonly string[] | null>()): Map<string, readonly string[] | null> {
  const def = defOf(schema);
  if (WRAPPERS.has(def.type)) return leafFields(def.innerType!, prefix, out);
  switch (def.type) {
    case 'object':
      for (const [k, v] of Object.entries(def.shape ?? {})) leafFields(v, prefix ? `${prefix}.${k}` : k, out);
      return out;
    case 'pipe':
      return leafFields(def.in!, prefix, out);
    case 'union':
      for (const o of def.options ?? []) leafFields(o, prefix, out);
      return out;
    case 'intersection':
      leafFields(def.left!, prefix, out);
      return leafFields(def.right!, prefix, out);
    case 'enum':
      if (prefix) out.set(prefix, Object.values(def.entries ?? {}));
      return out;
    default:
      if (prefix && !out.has(prefix)) out.set(prefix, null);
      return out;
  }
}

/** The field names an object of `schema` at `path` takes (for "did you mean" on an unknown field). */
export function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const def = defOf(schema);
  if (WRAPPERS.has(def.type)) return fieldsAt(def.innerType!, path);
  switch (def.type) {
    case 'object':
      if (path.length === 0) return Object.keys(def.shape ?? {});
      return def.shape?.[String(path[0])] ? fieldsAt(def.shape[String(path[0])], path.slice(1)) : [];
    case 'array':
      return path.length > 0 ? fieldsAt(def.element!, path.slice(1)) : [];
    case 'record':
      return path.length > 0 ? fieldsAt(def.valueType!, path.slice(1)) : [];
    case 'union':
      return [...new Set((def.options ?? []).flatMap((o) => fieldsAt(o, path)))];
    case 'intersection':
      return [...fieldsAt(def.left!, path), ...fieldsAt(def.right!, path)];
    case 'pipe':
      return fieldsAt(def.in!, path);
    default:
      return [];
  }
}

/**
 * Levenshtein distance, for "did you mean", when it is below `limit`; else `limit` or more. A pair
 * whose lengths differ by the limit is not compared, and a comparison stops at the first row that is
 * all at the limit: a scenario of 50 fault routes of 200 characters, none an API path, was compared
 * in full with every path, 120 to 150 ms of every key's time.
 */
function distance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (row[j] < least) least = row[j];
    }
    if (least >= limit) return limit;
    prev = row;
  }
  return prev[b.length];
}

/** The nearest of `names` to `word` (case first, then spelling), if near enough to be meant. */
export function nearest(word: string, names: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const exact = names.find((n) => n.toLowerCase() === lower);
  if (exact) return exact;
  let best: string | undefined;
  let bestD = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const n of names) {
    const d = distance(lower, n.toLowerCase(), bestD);
    if (d < bestD) [best, bestD] = [n, d];
  }
  // Else a name that ends with the word, or that the word ends with, of four letters or more: `size`
  // for `pageSize`, `pageSize` for `size` (another route's name for the same thing).
  return best ?? (lower.length >= 4 ? names.find((n) => { const l = n.toLowerCase(); return l.length >= 4 && (l.endsWith(lower) || lower.endsWith(l)); }) : undefined);
}

const didYouMean = (word: string, names: readonly string[]) => {
  const n = nearest(word, names);
  return n ? `did you mean '${n}'?` : `use one of: ${names.join(', ')}`;
};

interface OutcomeRuleLike {
  when?: Record<string, unknown> & { fields?: Record<string, string>; currency?: string | string[]; chain?: string | string[]; token?: string | string[] };
  nth?: unknown;
  every?: unknown;
  status: string;
  reason?: string;
}

interface FaultRuleLike {
  route?: { method?: string | string[]; path: string };
  when?: unknown;
  fault?: unknown;
  sequence?: unknown;
  probability?: unknown;
  nth?: unknown;
  every?: unknown;
  rate?: unknown;
}

export interface Lint {
  errors: ScenarioIssue[];
  warnings: ScenarioIssue[];
}

/** Where a predicate looks for its field: at the top, else inside destination or source (as matching does). */
const placesOf = (name: string) => [name, `destination.${name}`, `source.${name}`];

function lintOutcomes(r: LintResource, rules: readonly OutcomeRuleLike[], out: Lint): void {
  const vocab = r.rules;
  const fields = vocab ? new Map([...leafFields(vocab.request), ...Object.entries(vocab.added ?? {})]) : undefined;
  const paths = fields ? [...fields.keys()] : [];
  const valuesOf = (names: readonly string[]) => {
    const found = names.flatMap((n) => placesOf(n)).filter((p) => fields!.has(p));
    if (found.length === 0) return undefined;
    const values = found.map((p) => fields!.get(p));
    return values.some((v) => v === null) ? null : [...new Set(values.flatMap((v) => v!))];
  };
  let catchAll: number | undefined;
  rules.forEach((rule, i) => {
    const at = `${r.name}.outcomes[${i}]`;
    if (catchAll !== undefined) {
      out.warnings.push({ path: at, message: `is never reached: rule [${catchAll}] before it matches every ${r.name}` });
    } else if (!rule.when && rule.nth === undefined && rule.every === undefined) catchAll = i;
    if (rule.reason !== undefined && rule.status === r.success) {
      out.errors.push({ path: `${at}.reason`, message: `a reason applies only to a failing outcome: ${r.success} has none; remove reason or use another status` });
    }
    const when = rule.when;
    if (!when || !fields) return;
    const closed = (key: 'currency' | 'chain' | 'token', names: readonly string[]) => {
      const want = when[key];
      if (want === undefined) return;
      const values = valuesOf(names);
      if (values === undefined) {
        out.errors.push({ path: `${at}.when.${key}`, message: `can never match: a ${r.name} has no ${key}` });
        return;
      }
      if (values === null) return;
      for (const w of Array.isArray(want) ? want : [want]) {
        if (!values.some((v) => v.toLowerCase() === w.toLowerCase())) {
          out.errors.push({ path: `${at}.when.${key}`, message: `'${w}' is not a ${key} of a ${r.name}: ${didYouMean(w, values)}` });
        }
      }
    };
    closed('currency', ['currency', 'sourceCurrency', 'destinationCurrency']);
    closed('chain', ['chain']);
    closed('token', ['token']);
    for (const key of ['amount', 'accountNumber'] as const) {
      if (when[key] !== undefined && valuesOf([key]) === undefined) {
        out.errors.push({ path: `${at}.when.${key}`, message: `can never match: a ${r.name} has no ${key}` });
      }
    }
    if (when.reference !== undefined) {
      if (vocab!.referenceNote) out.errors.push({ path: `${at}.when.reference`, message: vocab!.referenceNote });
      else if (!fields.has('reference')) out.errors.push({ path: `${at}.when.reference`, message: `can never match: a ${r.name} has no reference` });
    }
    for (const p of Object.keys(when.fields ?? {})) {
      if (fields.has(p)) continue;
      out.errors.push({ path: `${at}.when.fields.${p}`, message: `is not a field of a ${r.name} (names are case-sensitive): ${didYouMean(p, paths)}` });
    }
  });
}


/** Every value any resource's rules know for a closed-list predicate (currency, chain, token). */
function knownValues(resources: readonly LintResource[], names: readonly string[]): string[] {
  const out = new Set<string>();
  for (const r of resources) {
    if (!r.rules) continue;
    const fields = new Map([...leafFields(r.rules.request), ...Object.entries(r.rules.added ?? {})]);
    for (const p of names.flatMap(placesOf)) for (const v of fields.get(p) ?? []) out.add(v);
  }
  return [...out];
}

function lintFaults(rules: readonly FaultRuleLike[], routes: readonly AppRoute[] | undefined, resources: readonly LintResource[], out: Lint): void {
  let catchAll: number | undefined;
  rules.forEach((rule, i) => {
    const at = `faults[${i}]`;
    const when = rule.when as OutcomeRuleLike['when'];
    for (const [key, names] of [['currency', ['currency', 'sourceCurrency', 'destinationCurrency']], ['chain', ['chain']], ['token', ['token']]] as const) {
      const want = when?.[key];
      const values = want === undefined ? [] : knownValues(resources, names);
      if (values.length === 0) continue;
      for (const w of Array.isArray(want) ? want : [want!]) {
        if (!values.some((v) => v.toLowerCase() === w.toLowerCase())) out.errors.push({ path: `${at}.when.${key}`, message: `'${w}' is not a ${key} of the API: ${didYouMean(w, values)}` });
      }
    }
    if (catchAll !== undefined) out.warnings.push({ path: at, message: `is never reached: rule [${catchAll}] before it strikes every request` });
    const everyRoute = !rule.route || (rule.route.path === '/api/**' && rule.route.method === undefined);
    const always = rule.fault !== undefined && !rule.when && [rule.probability, rule.nth, rule.every, rule.rate].every((v) => v === undefined);
    if (catchAll === undefined && everyRoute && always) catchAll = i;
    if (!rule.route || !routes) return;
    const methods = rule.route.method === undefined ? undefined : Array.isArray(rule.route.method) ? rule.route.method : [rule.route.method];
    const test = compileGlob(rule.route.path, { params: true });
    const onPath = routes.filter((r) => test(r.path));
    if (onPath.length === 0) {
      const paths = [...new Set(routes.map((r) => r.path.replace(/:([^/]+)/g, '{$1}')))];
      const last = rule.route.path.replace(/\/+$/, '').split('/').pop()!;
      const near = paths.filter((p) => p.endsWith(`/${last}`)).sort((a, b) => a.length - b.length)[0] ?? nearest(rule.route.path, paths);
      out.errors.push({
        path: `${at}.route.path`,
        message: `matches no route of the API${near ? `: did you mean '${near}'?` : ''} (see /openapi.json for the paths)`,
      });
      return;
    }
    if (methods && !onPath.some((r) => methods.includes(r.method))) {
      const have = [...new Set(onPath.map((r) => r.method))].join(', ');
      out.errors.push({ path: `${at}.route.method`, message: `matches no route of the API on this path, which takes ${have}` });
    }
  });
}

/** What a scenario says that can never happen (errors) or never be reached (warnings). */
export function lintScenario(doc: Record<string, unknown>, resources: readonly LintResource[], routes?: readonly AppRoute[]): Lint {
  const out: Lint = { errors: [], warnings: [] };
  for (const r of resources) {
    const rules = (doc[r.name] as { outcomes?: OutcomeRuleLike[] } | undefined)?.outcomes;
    if (rules) lintOutcomes(r, rules, out);
  }
  const faults = doc.faults as FaultRuleLike[] | undefined;
  if (faults) lintFaults(faults, routes, resources, out);
  return out;
}
