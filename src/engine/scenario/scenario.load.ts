// Reading scenario documents: YAML or JSON text → a checked Scenario, or an error that names the
// file, the path inside it and what was expected.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isAlias, isCollection, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Node } from 'yaml';
import type { z } from 'zod';
import { fieldsAt, nearest } from './scenario.lint.js';
import type { ScenarioIssue } from './types.js';
import { NAME_RULE, type Scenario, type ScenarioFormat } from './scenario.schema.js';

export type { ScenarioIssue } from './types.js';

export class ScenarioError extends Error {
  constructor(
    readonly source: string,
    readonly issues: ScenarioIssue[],
  ) {
    super(`scenario ${source} refused: ${issues.map((i) => (i.path ? `at ${i.path}: ${i.message}` : i.message)).join('; ')}`);
    this.name = 'ScenarioError';
  }
}

/** Where a scenario came from. */
export type ScenarioOrigin = 'bundled' | 'file' | 'inline' | 'saved';

export interface LoadedScenario {
  name: string;
  description: string | null;
  origin: ScenarioOrigin;
  file: string | null;
  doc: Scenario;
}

export function issuePath(p: readonly PropertyKey[]): string {
  return p.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}

/** How near a union branch came to the input: 0 wrong type, 1 wrong value, 2 a problem inside it. */
function nearness(issues: readonly z.core.$ZodIssue[]): number {
  if (issues.some((i) => i.path.length === 0 && i.code === 'invalid_type')) return 0;
  return issues.every((i) => i.path.length > 0) ? 2 : 1;
}

/**
 * Each problem of one zod issue, with its path. A union reports the branch the input came nearest
 * (the first of equals); when the input fits no branch's type, it lists the types expected.
 */
function explain(issue: z.core.$ZodIssue, schema: z.ZodType, base: readonly PropertyKey[] = []): ScenarioIssue[] {
  const at = [...base, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const best = issue.errors.reduce((a, b) => (nearness(b) > nearness(a) ? b : a));
    if (nearness(best) === 0) {
      const expected = issue.errors.flatMap((e) => e.flatMap((i) => (i.code === 'invalid_type' ? [i.expected] : [])));
      const received = /received (\w+)$/.exec(best[0].message)?.[1];
      return [{ path: issuePath(at), message: `expected ${[...new Set(expected)].join(' or ')}${received ? `, received ${received}` : ''}` }];
    }
    return best.flatMap((i) => explain(i, schema, at));
  }
  if (issue.code === 'unrecognized_keys') {
    // Each unknown field by its own path, as the strict control bodies name theirs.
    const names = fieldsAt(schema, at);
    return issue.keys.map((key) => {
      const near = nearest(key, names);
      return { path: issuePath([...at, key]), message: `is not a field here: ${near ? `did you mean '${near}'?` : 'remove it'}` };
    });
  }
  return [{ path: issuePath(at), message: describe(issue) }];
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value': {
      const expected = `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
      const input = (issue as { input?: unknown }).input;
      const near = typeof input === 'string' && issue.values.length > 1 ? nearest(input, issue.values.filter((v): v is string => typeof v === 'string')) : undefined;
      return near ? `${expected}: did you mean ${JSON.stringify(near)}?` : expected;
    }
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options;
      return options ? `expected kind to be one of ${options.join(', ')}` : issue.message;
    }
    case 'invalid_type': {
      const expected = issue.expected === 'int' ? 'a whole number' : issue.expected;
      if (issue.message.endsWith('received undefined')) return `is required (expected ${expected})`;
      if (issue.expected === 'int') return 'must be a whole number';
      return issue.message.replace(/^Invalid input: /, '');
    }
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty';
      if (issue.origin === 'array') return `must have at least ${issue.minimum} item(s)`;
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters long`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} item(s)`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
    default:
      return issue.message.replace(/^Invalid input: /, '');
  }
}

/** Every own `__proto__` key in the input: parsing would drop it (or set a prototype), so it is refused. */
function protoKeys(value: unknown, at: PropertyKey[] = []): ScenarioIssue[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === '__proto__'
      ? [{ path: issuePath(at), message: "must not have a field named '__proto__'" }]
      : protoKeys(v, [...at, Array.isArray(value) ? Number(k) : k]),
  );
}

/** Check a parsed document against a format; `source` names it in errors (a file name, or 'scenario'). */
export function checkScenario(input: unknown, source: string, format: ScenarioFormat): Scenario {
  const proto = protoKeys(input);
  if (proto.length > 0) throw new ScenarioError(source, proto);
  const res = format.schema.safeParse(input, { reportInput: true });
  if (res.success) {
    // A well-formed document may still say what can never happen: that is refused as well.
    const { errors } = format.lint(res.data);
    if (errors.length > 0) throw new ScenarioError(source, errors);
    return res.data;
  }
  throw new ScenarioError(source, res.error.issues.flatMap((i) => explain(i, format.schema)));
}

/** YAML text that cannot be read as a document: `problem` follows "the body" or "the file". */
export class YamlRefused extends Error {
  constructor(readonly problem: string) {
    super(problem);
    this.name = 'YamlRefused';
  }
}

/** How often one anchor's value may be repeated through aliases, times the aliases inside it (the
 * yaml package's measure and its default): room for any scenario, none for an alias bomb. */
const MAX_ALIAS_COUNT = 100;

/** The most lines, anchors and aliases, and the deepest nesting of flow collections ([ and {) a YAML
 * document may have: the yaml package's cost grows with the square of a map's keys and of a
 * document's aliases, and a scenario of many rules is a few hundred lines, nested a few levels deep,
 * with an anchor or two. Checked in one pass before it parses. */
export const YAML_LIMITS = { characters: 16 * 1024, lines: 1_000, commas: 1_000, flowDepth: 64, anchorsAndAliases: 100 } as const;

function checkYamlShape(text: string): void {
  if (text.length > YAML_LIMITS.characters) {
    throw new YamlRefused(`is longer than ${YAML_LIMITS.characters} characters, more than a scenario needs: send a shorter document (a rule is a few lines)`);
  }
  let lines = 1;
  let commas = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10 && ++lines > YAML_LIMITS.lines) {
      throw new YamlRefused(`has more than ${YAML_LIMITS.lines} lines, more than a scenario needs: send a shorter document (a rule is a few lines)`);
    } else if (ch === 44 && ++commas > YAML_LIMITS.commas) {
      // Items of flow collections ([a, b], {a: 1, b: 2}) cost the parser as lines do.
      throw new YamlRefused(`has more than ${YAML_LIMITS.commas} commas (line ${lines}), more values than a scenario needs: send a shorter document (a rule is a few values)`);
    } else if ((ch === 91 || ch === 123) && ++depth > YAML_LIMITS.flowDepth) {
      throw new YamlRefused(`nests [ or { more than ${YAML_LIMITS.flowDepth} deep (line ${lines}): send a document nested a few levels deep, as a scenario is`);
    } else if ((ch === 93 || ch === 125) && depth > 0) depth--;
  }
}

const firstLine = (err: unknown) => (err as Error).message.split('\n')[0].replace(/:$/, '');

/** Where a node sits, from the ancestors the yaml package's visit() hands over, as issuePath writes it. */
function nodePath(ancestors: readonly unknown[], node: unknown): string {
  const at: PropertyKey[] = [];
  const chain = [...ancestors, node];
  for (let i = 0; i + 1 < chain.length; i++) {
    const parent = chain[i];
    const child = chain[i + 1];
    if (isSeq(parent)) at.push(parent.items.indexOf(child as never));
    else if (isPair(parent) && parent.value === child) at.push(isScalar(parent.key) ? String(parent.key.value) : '?');
  }
  return issuePath(at);
}

/** Refuses a map that has one key twice, naming it (the yaml package's own check is quadratic). */
function uniqueKeys(pairs: readonly unknown[], lines: LineCounter, at: () => string): void {
  const seen = new Set<unknown>();
  for (const pair of pairs) {
    if (!isPair(pair) || !isScalar(pair.key)) continue;
    const key = pair.key.value;
    if (!seen.has(key)) {
      seen.add(key);
      continue;
    }
    const where = at();
    const { line, col } = lines.linePos(pair.key.range?.[0] ?? 0);
    throw new YamlRefused(
      `is not valid YAML: the key '${String(key)}' is written twice in the map${where ? ` at ${where}` : ''} (again at line ${line}, column ${col}): write each key of a map once`,
    );
  }
}

/**
 * YAML text → plain data, refusing what would never end or would grow without bound: an alias
 * inside the value its anchor marks (`a: &a [*a]` is a value that contains itself, which no JSON
 * holds and every check after this would recurse into for ever), and aliases of aliases past the
 * yaml package's alias count (an alias bomb). Either is refused naming the alias.
 */
export function readYaml(text: string): unknown {
  checkYamlShape(text);
  // The yaml package checks a map's keys are unique by comparing each with every other (a map of
  // 1,000 keys held the loop 20 to 40 ms): the visit below checks them with a set instead.
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, lineCounter });
  if (doc.errors.length > 0) throw new YamlRefused(`is not valid YAML: ${firstLine(doc.errors[0])}`);
  // The anchors in document order, as an alias resolves: the last one of its name before it.
  const anchors = new Map<string, Node>();
  const sources = new Map<Node, Node>();
  // Anchors and aliases counted as the parser found them, before any value is built from them.
  let marks = 0;
  visit(doc, {
    Node(_key, node, ancestors) {
      if ((isAlias(node) || node.anchor) && ++marks > YAML_LIMITS.anchorsAndAliases) {
        throw new YamlRefused(`has more than ${YAML_LIMITS.anchorsAndAliases} anchors (&) and aliases (*): write the repeated values out, or repeat fewer of them`);
      }
      if (isMap(node)) uniqueKeys(node.items, lineCounter, () => nodePath(ancestors, node));
      if (isAlias(node)) {
        const name = node.source;
        const where = () => {
          const at = nodePath(ancestors, node);
          return `the alias *${name}${at ? ` at ${at}` : ''}`;
        };
        const source = anchors.get(name);
        if (!source) {
          throw new YamlRefused(`has ${where()} with no anchor &${name} before it: mark the value to repeat with &${name} earlier in the document, or write the value out in place of *${name}`);
        }
        if (ancestors.includes(source)) {
          throw new YamlRefused(
            `has ${where()} inside the value its anchor &${name} marks, so that value would contain itself without end: write the value out in place of *${name}, or move &${name} to a value that does not hold the alias`,
          );
        }
        sources.set(node, source);
      } else if (node.anchor) anchors.set(node.anchor, node);
    },
  });
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    if (!(err instanceof ReferenceError)) throw err;
    // The yaml package counts repeats but does not say whose: name the anchor whose aliases stand for
    // the most values, aliases inside it expanded.
    const size = new Map<Node, number>();
    const sizeOf = (n: unknown): number => {
      if (isAlias(n)) return sizeOf(sources.get(n));
      if (isPair(n)) return sizeOf(n.key) + sizeOf(n.value);
      if (!isCollection(n)) return 1;
      let s = size.get(n);
      if (s === undefined) size.set(n, (s = 1 + n.items.reduce((sum: number, item) => sum + sizeOf(item), 0)));
      return s;
    };
    const byAnchor = new Map<string, { aliases: number; values: number }>();
    for (const alias of sources.keys()) {
      if (!isAlias(alias)) continue;
      const a = byAnchor.get(alias.source) ?? { aliases: 0, values: 0 };
      a.aliases++;
      a.values += sizeOf(alias);
      byAnchor.set(alias.source, a);
    }
    const worst = [...byAnchor].reduce<[string, { aliases: number; values: number }] | undefined>((w, e) => (!w || e[1].values > w[1].values ? e : w), undefined);
    if (!worst) throw new YamlRefused(`is not valid YAML: ${firstLine(err)}`);
    const [name, { aliases, values }] = worst;
    throw new YamlRefused(
      `repeats values through aliases past what the sandbox reads (the yaml package's alias count, ${MAX_ALIAS_COUNT}, which stops alias bombs): ${aliases} alias${aliases > 1 ? 'es' : ''} *${name} repeat the value anchored &${name}, ${values.toLocaleString('en-US')} values in all: write the values out, or use fewer aliases of aliases`,
    );
  }
}

/** Parse YAML or JSON text (JSON for .json files, YAML otherwise) and check it. */
export function parseScenario(text: string, source: string, format: ScenarioFormat): Scenario {
  let data: unknown;
  if (source.endsWith('.json')) {
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new ScenarioError(source, [{ path: '', message: `not valid JSON: ${firstLine(err)}` }]);
    }
  } else {
    try {
      data = readYaml(text);
    } catch (err) {
      if (!(err instanceof YamlRefused)) throw err;
      throw new ScenarioError(source, [{ path: '', message: err.problem.replace(/^is /, '') }]);
    }
  }
  if (data === null || data === undefined) data = {};
  return checkScenario(data, source, format);
}

/** Load one file; its name is the document's `name`, else the file's base name, which must then follow the name rule. */
export function loadScenarioFile(file: string, format: ScenarioFormat, origin: ScenarioOrigin = 'file'): LoadedScenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ScenarioError(file, [{ path: '', message: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` }]);
  }
  const doc = parseScenario(text, file, format);
  const base = path.basename(file).replace(/\.(ya?ml|json)$/i, '');
  if (doc.name === undefined && !NAME_RULE.test(base)) {
    throw new ScenarioError(file, [
      {
        path: '',
        message: `the file name '${base}' is not a scenario name (lower case letters, digits and dashes, at most 60): rename the file or set name`,
      },
    ]);
  }
  return { name: doc.name ?? base, description: doc.description ?? null, origin, file, doc };
}

/** Every .yaml, .yml and .json file of a directory, by name. */
export function loadScenarioDir(dir: string, format: ScenarioFormat, origin: ScenarioOrigin = 'bundled'): Map<string, LoadedScenario> {
  const out = new Map<string, LoadedScenario>();
  for (const f of readdirSync(dir).sort()) {
    if (!/\.(ya?ml|json)$/i.test(f)) continue;
    const s = loadScenarioFile(path.join(dir, f), format, origin);
    out.set(s.name, s);
  }
  return out;
}

/** `payments-sandbox validate FILE`: a one-line OK, or the problems; and the exit code. */
export function validateScenarioFile(file: string, format: ScenarioFormat): { code: number; message: string } {
  try {
    const s = loadScenarioFile(file, format);
    const warnings = format.lint(s.doc).warnings.map((w) => `  warning: ${w.path}: ${w.message}`);
    return { code: 0, message: [`OK ${file}: scenario '${s.name}'${warnings.length ? ` (${warnings.length} warning${warnings.length > 1 ? 's' : ''})` : ''}`, ...warnings].join('\n') };
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    const lines = err.issues.map((i) => `  ${i.path || '(document)'}: ${i.message}`);
    return { code: 1, message: [`${file} is not a valid scenario:`, ...lines].join('\n') };
  }
}
