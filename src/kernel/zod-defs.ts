// Reading a zod schema's definition, for the code that walks schemas (scenario checks, unknown-field
// warnings): one reading of zod's internal def, and the kinds that only wrap another schema.
import type { z } from 'zod';

export interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string>;
  left?: z.ZodType;
  right?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
}

export const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: ZodDef } })._zod.def;

/** Schemas that only wrap another (optional, nullable, defaults and the like): read through them. */
export const WRAPPERS: ReadonlySet<string> = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);
