// Fields a JSON body sends that its schema does not have. Live services ignore unknown fields, so
// the sandbox accepts them too (zod strips them), but a misspelt field (narration for narrations)
// would then be lost without a word: each is named in an X-Sandbox-Warning header and in the
// request's journal entry, with "did you mean" when a known field of the same object is close.
import type { Context } from 'hono';
import type { z } from 'zod';
import { nearest } from '../engine/scenario/scenario.lint.js';
import { defOf, WRAPPERS, type ZodDef } from '../kernel/zod-defs.js';
import type { AppEnv } from './types.js';
import { headerSafe, warn } from './warnings.js';


/** The object schemas `schema` may be at this level (through wrappers, pipes, unions, intersections). */
function objectsOf(schema: z.ZodType, out: ZodDef[] = []): ZodDef[] {
  const def = defOf(schema);
  if (WRAPPERS.has(def.type)) return objectsOf(def.innerType!, out);
  if (def.type === 'object') out.push(def);
  else if (def.type === 'pipe') objectsOf(def.in!, out);
  else if (def.type === 'union') for (const o of def.options ?? []) objectsOf(o, out);
  else if (def.type === 'intersection') (objectsOf(def.left!, out), objectsOf(def.right!, out));
  return out;
}

function elementOf(schema: z.ZodType): z.ZodType | undefined {
  const def = defOf(schema);
  if (WRAPPERS.has(def.type)) return elementOf(def.innerType!);
  if (def.type === 'pipe') return elementOf(def.in!);
  return def.type === 'array' ? def.element : undefined;
}

/** What a schema is at one level, worked out once per schema (every JSON request of its route reads it). */
const levels = new WeakMap<z.ZodType, { objects: ZodDef[]; known: string[]; knownSet: Set<string>; open: boolean }>();

function levelOf(schema: z.ZodType) {
  let level = levels.get(schema);
  if (!level) {
    const objects = objectsOf(schema);
    const open = objects.length === 0 || objects.some((o) => o.catchall !== undefined);
    const knownSet = new Set(objects.flatMap((o) => Object.keys(o.shape ?? {})));
    levels.set(schema, (level = { objects, known: [...knownSet], knownSet, open }));
  }
  return level;
}

/** At most this many are named: a body of many unknown fields needs no longer header. */
const MAX_WARNINGS = 10;
/** A field name as a header may carry it: printable ASCII, others escaped, long names cut. */
const shown = (key: string) => headerSafe(key.length > 100 ? `${key.slice(0, 100)}…` : key);
const join = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${shown(key)}` : shown(key));

/**
 * One warning per field of `input` that `schema` does not know, e.g. "unknown field 'narration' was
 * ignored: did you mean 'narrations'?". Objects that take any field (a record, a loose or strict
 * object: a strict one refuses them itself) are not looked into.
 */
export function unknownFields(schema: z.ZodType, input: unknown, path = '', out: string[] = []): string[] {
  return walk(schema, input, path, [], out);
}

/** A field's path as the warning names it: the keys from `prefix` down, written only for a warning. */
function pathOf(prefix: string, keys: readonly (string | number)[]): string {
  let path = prefix;
  for (const key of keys) path = join(path, key);
  return path;
}

function walk(schema: z.ZodType, input: unknown, prefix: string, keys: (string | number)[], out: string[]): string[] {
  if (out.length >= MAX_WARNINGS || input === null || typeof input !== 'object') return out;
  if (Array.isArray(input)) {
    const element = elementOf(schema);
    if (element) {
      input.forEach((v, i) => {
        keys.push(i);
        walk(element, v, prefix, keys, out);
        keys.pop();
      });
    }
    return out;
  }
  const { objects, known, open } = levelOf(schema);
  if (open) return out;
  for (const key in input) {
    if (out.length >= MAX_WARNINGS) break;
    if (!Object.hasOwn(input, key)) continue;
    // Own keys of the shape only: `constructor` or `__proto__` in a body are unknown fields, not the
    // shape object's inherited properties.
    const field = objects.find((o) => o.shape && Object.hasOwn(o.shape, key))?.shape![key];
    keys.push(key);
    if (field) {
      walk(field, (input as Record<string, unknown>)[key], prefix, keys, out);
    } else {
      const near = key.length <= 100 ? nearest(key, known) : undefined;
      const path = pathOf(prefix, keys);
      out.push(`unknown field '${path}' was ignored${near ? `: did you mean '${join(pathOf(prefix, keys.slice(0, -1)), near)}'?` : ''}`);
    }
    keys.pop();
  }
  return out;
}

/** Names the query's unknown parameters on the answer and for the journal, as a body's unknown
 * fields are: a misspelt filter (`stauts=FAILED`) would otherwise answer an unfiltered page without
 * a word. */
export function warnUnknownQuery(c: Context<AppEnv>, schema: z.ZodType): void {
  const url = c.req.url;
  const start = url.indexOf('?');
  const { knownSet, open } = levelOf(schema);
  if (start < 0 || open) return;
  // The names as sent, checked against the schema's without parsing the query: most requests send
  // only known ones. A name written with escapes is looked at decoded, with the rest, below. One
  // pass: each search starts where the last one stopped.
  let eq = url.indexOf('=', start);
  for (let i = start + 1; i < url.length; ) {
    let end = url.indexOf('&', i);
    if (end < 0) end = url.length;
    if (eq >= 0 && eq < i) eq = url.indexOf('=', i);
    const nameEnd = eq < 0 || eq > end ? end : eq;
    if (nameEnd > i && !knownSet.has(url.slice(i, nameEnd))) {
      warn(c, unknownFields(schema, c.req.query()).map((w) => w.replace(/^unknown field/, 'unknown query parameter')));
      return;
    }
    i = end + 1;
  }
}

/** Names the body's unknown fields on the answer (X-Sandbox-Warning) and for the journal. */
export async function warnUnknownFields(c: Context<AppEnv>, schema: z.ZodType): Promise<void> {
  const input = await c.req.json().catch(() => undefined);
  warn(c, unknownFields(schema, input));
}
