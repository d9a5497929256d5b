// Which documented fields of JSON responses were sent and which were left out, field by field:
// walks a response body beside its OpenAPI schema and counts, for every property of every object
// schema met, the bodies that had it and the ones that did not.
type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

export interface FieldCount {
  /** Documented as required. */
  required: boolean;
  sent: number;
  leftOut: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class PresenceTracker {
  readonly fields = new Map<string, FieldCount>();
  private readonly components: Record<string, Schema>;

  constructor(doc: { components?: { schemas?: Record<string, Schema> } }) {
    this.components = doc.components?.schemas ?? {};
  }

  /** Count the fields of one body against its response schema. */
  record(schema: unknown, body: unknown): void {
    this.walk(schema as Schema, body, '(inline)');
  }

  private walk(schema: Schema | undefined, value: unknown, at: string): void {
    if (!schema || typeof schema !== 'object') return;
    if (schema.$ref) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      return this.walk(this.components[name], value, name);
    }
    for (const part of schema.allOf ?? []) this.walk(part, value, at);
    // Of a union, the object branches whose required fields the value has (a null branch has none).
    for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
      const b = this.resolve(branch);
      if (b.properties && isObject(value) && (b.required ?? []).every((k) => k in value)) this.walk(branch, value, at);
      else if (b.items && Array.isArray(value)) this.walk(branch, value, at);
    }
    if (schema.properties && isObject(value)) {
      const required = new Set(schema.required ?? []);
      for (const [name, child] of Object.entries(schema.properties)) {
        const key = `${at}.${name}`;
        const count = this.fields.get(key) ?? { required: required.has(name), sent: 0, leftOut: 0 };
        this.fields.set(key, count);
        if (Object.hasOwn(value, name)) {
          count.sent++;
          this.walk(child, value[name], key);
        } else count.leftOut++;
      }
    }
    if (schema.items && Array.isArray(value)) for (const item of value) this.walk(schema.items, item, `${at}[]`);
    if (isObject(schema.additionalProperties) && isObject(value)) {
      for (const v of Object.values(value)) this.walk(schema.additionalProperties, v, `${at}{}`);
    }
  }

  /** Every optional property of the schema, named as record() names them (each component once). */
  optionalFields(schema: unknown, out = new Set<string>(), at = '(inline)', seen = new Set<string>()): Set<string> {
    const s = schema as Schema | undefined;
    if (!s || typeof s !== 'object') return out;
    if (s.$ref) {
      const name = s.$ref.replace('#/components/schemas/', '');
      if (seen.has(name)) return out;
      seen.add(name);
      return this.optionalFields(this.components[name], out, name, seen);
    }
    for (const part of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) this.optionalFields(part, out, at, seen);
    const required = new Set(s.required ?? []);
    for (const [name, child] of Object.entries(s.properties ?? {})) {
      if (!required.has(name)) out.add(`${at}.${name}`);
      this.optionalFields(child, out, `${at}.${name}`, seen);
    }
    if (s.items) this.optionalFields(s.items, out, `${at}[]`, seen);
    if (isObject(s.additionalProperties)) this.optionalFields(s.additionalProperties, out, `${at}{}`, seen);
    return out;
  }

  private resolve(s: Schema): Schema {
    return s.$ref ? (this.components[s.$ref.replace('#/components/schemas/', '')] ?? {}) : s;
  }
}
