// Validates a JSON response against the schema /openapi.json documents for its route and status.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

interface Operation {
  responses: Record<string, { content?: Record<string, unknown> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly routes: { method: string; template: string; regex: RegExp; op: Operation }[] = [];

  constructor(doc: Doc) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc as object, 'doc');
    for (const [template, methods] of Object.entries(doc.paths)) {
      const regex = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const [method, op] of Object.entries(methods)) this.routes.push({ method, template, regex, op });
    }
  }

  /** The documented JSON schema of a response (as written, $refs unresolved), or undefined. */
  responseSchema(method: string, path: string, status: number): unknown {
    const m = method.toLowerCase();
    const route = this.routes.find((r) => r.method === m && r.regex.test(path));
    const res = route?.op.responses[String(status)] ?? route?.op.responses.default;
    return (res?.content?.['application/json'] as { schema?: unknown } | undefined)?.schema;
  }

  /** Throws with the schema errors when the body does not match; returns the route it matched. */
  check(method: string, path: string, status: number, body: unknown): string {
    const m = method.toLowerCase();
    const route = this.routes.find((r) => r.method === m && r.regex.test(path));
    if (!route) {
      // Unknown routes answer with the error envelope, which the document defines as a component.
      if (status >= 400) return this.checkSchema('doc#/components/schemas/ErrorEnvelope', method, path, status, body), '(unknown route)';
      throw new Error(`OpenAPI: no documented route for ${method} ${path}`);
    }
    const key = String(status) in route.op.responses ? String(status) : 'default';
    const res = route.op.responses[key];
    if (!res) throw new Error(`OpenAPI: ${method} ${route.template} documents no response ${status}`);
    if (!res.content?.['application/json']) throw new Error(`OpenAPI: ${method} ${route.template} ${key} has no JSON content`);
    const pointer = ['paths', route.template, m, 'responses', key, 'content', 'application/json', 'schema']
      .map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1')))
      .join('/');
    this.checkSchema(`doc#/${pointer}`, method, path, status, body);
    return route.template;
  }

  private checkSchema(id: string, method: string, path: string, status: number, body: unknown): void {
    let validate = this.cache.get(id);
    if (!validate) this.cache.set(id, (validate = this.ajv.compile({ $ref: id })));
    if (!validate(body)) {
      throw new Error(
        `OpenAPI: ${method} ${path} ${status} does not match its schema:\n${this.ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(body).slice(0, 2000)}`,
      );
    }
  }
}
