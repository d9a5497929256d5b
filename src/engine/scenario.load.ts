// Reading scenario documents: YAML or JSON text → a checked Scenario, or an error that names the
// file, the path inside it and what was expected.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { ScenarioSchema, type Scenario } from './scenario.schema.js';

export interface ScenarioIssue {
  /** Where in the document, e.g. payout.outcomes[0].status; '' for the whole document. */
  path: string;
  message: string;
}

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
export type ScenarioOrigin = 'bundled' | 'file' | 'inline';

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

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union': {
      const note = (issue as { note?: string }).note;
      if (note === 'No matching discriminator') return `expected kind to be one of ${['error', 'latency', 'timeout', 'drop', 'malformed'].join(', ')}`;
      const inner = issue.errors.flat()[0];
      return inner ? describe(inner) : issue.message;
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

/** Check a parsed document; `source` names it in errors (a file name, or 'scenario'). */
export function checkScenario(input: unknown, source: string): Scenario {
  const res = ScenarioSchema.safeParse(input);
  if (res.success) return res.data;
  throw new ScenarioError(
    source,
    res.error.issues.map((i) => ({ path: issuePath(i.path), message: describe(i) })),
  );
}

/** Parse YAML or JSON text (JSON for .json files, YAML otherwise) and check it. */
export function parseScenario(text: string, source: string): Scenario {
  let data: unknown;
  try {
    data = source.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new ScenarioError(source, [{ path: '', message: `not valid ${source.endsWith('.json') ? 'JSON' : 'YAML'}: ${(err as Error).message.split('\n')[0].replace(/:$/, '')}` }]);
  }
  if (data === null || data === undefined) data = {};
  return checkScenario(data, source);
}

/** Load one file; its name is the document's `name`, else the file's base name. */
export function loadScenarioFile(file: string, origin: ScenarioOrigin = 'file'): LoadedScenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ScenarioError(file, [{ path: '', message: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` }]);
  }
  const doc = parseScenario(text, file);
  const base = path.basename(file).replace(/\.(ya?ml|json)$/i, '');
  return { name: doc.name ?? base, description: doc.description ?? null, origin, file, doc };
}

/** Every .yaml, .yml and .json file of a directory, by name. */
export function loadScenarioDir(dir: string, origin: ScenarioOrigin = 'bundled'): Map<string, LoadedScenario> {
  const out = new Map<string, LoadedScenario>();
  for (const f of readdirSync(dir).sort()) {
    if (!/\.(ya?ml|json)$/i.test(f)) continue;
    const s = loadScenarioFile(path.join(dir, f), origin);
    out.set(s.name, s);
  }
  return out;
}

/** `payments-sandbox validate FILE`: a one-line OK, or the problems; and the exit code. */
export function validateScenarioFile(file: string): { code: number; message: string } {
  try {
    const s = loadScenarioFile(file);
    return { code: 0, message: `OK ${file}: scenario '${s.name}'` };
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    const lines = err.issues.map((i) => `  ${i.path || '(document)'}: ${i.message}`);
    return { code: 1, message: [`${file} is not a valid scenario:`, ...lines].join('\n') };
  }
}
