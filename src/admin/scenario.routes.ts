// Choosing a scenario: the bundled list, the one in force for this key, binding one (by name or
// inline) and going back to the start default; plus the JSON Schema of the scenario format.
import { createRoute, z } from '@hono/zod-openapi';
import { SandboxError } from '../kernel/errors.js';
import { ScenarioError } from '../engine/scenario.load.js';
import type { ScenarioRegistry } from '../engine/scenario.registry.js';
import { checkScenario } from '../engine/scenario.load.js';
import { chooseScenario, clearScenario, scenarioInForce, unknownScenario } from '../engine/scenario.select.js';
import type { Tenant } from '../engine/tenant.js';
import { errorResponses, jsonBody, jsonResponse, newRouter, openErrorResponses, security } from '../http/openapi.js';

const tags = ['Sandbox control'];

export const ScenarioSummary = z
  .object({
    name: z.string().openapi({ example: 'failures' }),
    description: z.string().nullable(),
    origin: z.enum(['bundled', 'file', 'inline']),
    startDefault: z.boolean().openapi({ description: 'Whether this is the default every tenant starts with' }),
  })
  .openapi('ScenarioSummary');

export const ScenarioList = z.object({ data: z.array(ScenarioSummary) }).openapi('ScenarioList');

export const ScenarioState = z
  .object({
    name: z.string(),
    description: z.string().nullable(),
    source: z.enum(['tenant', 'start']).openapi({ description: 'tenant: chosen with PUT for this key; start: the --scenario default' }),
    origin: z.enum(['bundled', 'file', 'inline']),
    file: z.string().nullable(),
    document: z.record(z.string(), z.unknown()).openapi({ description: 'The scenario document, as in /_sandbox/scenario.schema.json' }),
  })
  .openapi('ScenarioState');

export const ChooseScenario = z
  .object({
    name: z.string().min(1).max(60).optional().openapi({ example: 'failures', description: 'A bundled scenario (see GET /_sandbox/scenarios)' }),
    scenario: z.record(z.string(), z.unknown()).optional().openapi({ description: 'An inline scenario document (see /_sandbox/scenario.schema.json)' }),
  })
  .openapi('ChooseScenarioRequest');

function state(t: Tenant, registry: ScenarioRegistry) {
  const { scenario, source } = scenarioInForce(t, registry);
  return {
    name: scenario.name,
    description: scenario.description,
    source: source as 'tenant' | 'start',
    origin: scenario.origin,
    file: scenario.origin === 'file' ? scenario.file : null,
    document: scenario.doc as Record<string, unknown>,
  };
}

function invalid(err: ScenarioError): SandboxError {
  const details = err.issues.map((i) => ({ field: i.path ? `scenario.${i.path}` : 'scenario', issue: i.message }));
  const first = details[0];
  return new SandboxError('INVALID_SCENARIO', `The scenario is not valid: ${first.field} ${first.issue}. See /_sandbox/scenario.schema.json for the format.`, details);
}

const schemaRoute = createRoute({
  method: 'get',
  path: '/_sandbox/scenario.schema.json',
  operationId: 'getScenarioSchema',
  tags,
  security: [],
  summary: 'The scenario format as JSON Schema (no key needed)',
  responses: {
    200: jsonResponse(z.record(z.string(), z.unknown()).openapi('ScenarioJsonSchema'), 'JSON Schema, draft 2020-12'),
    ...openErrorResponses(),
  },
});

const list = createRoute({
  method: 'get',
  path: '/_sandbox/scenarios',
  operationId: 'listScenarios',
  tags,
  security,
  summary: 'The scenarios this server knows, with their descriptions',
  responses: { 200: jsonResponse(ScenarioList, 'Scenarios'), ...errorResponses() },
});

const current = createRoute({
  method: 'get',
  path: '/_sandbox/scenario',
  operationId: 'getScenario',
  tags,
  security,
  summary: 'The scenario in force for this key, and where it comes from',
  responses: { 200: jsonResponse(ScenarioState, 'The scenario in force'), ...errorResponses() },
});

const choose = createRoute({
  method: 'put',
  path: '/_sandbox/scenario',
  operationId: 'setScenario',
  tags,
  security,
  summary: 'Bind a scenario to this key, by name or inline; it applies from the next request',
  request: { body: jsonBody(ChooseScenario) },
  responses: { 200: jsonResponse(ScenarioState, 'The scenario now in force'), ...errorResponses(400) },
});

const clear = createRoute({
  method: 'delete',
  path: '/_sandbox/scenario',
  operationId: 'clearScenario',
  tags,
  security,
  summary: 'Go back to the start default scenario',
  responses: { 200: jsonResponse(ScenarioState, 'The scenario now in force'), ...errorResponses() },
});

export function scenarioRoutes(registry: ScenarioRegistry) {
  const schema = registry.format.jsonSchema();
  return newRouter()
    .openapi(schemaRoute, (c) => c.json(schema, 200))
    .openapi(list, (c) => {
      const data = registry.names().map((name) => {
        const s = registry.get(name)!;
        return { name, description: s.description, origin: s.origin, startDefault: s === registry.startDefault };
      });
      return c.json({ data }, 200);
    })
    .openapi(current, (c) => c.json(state(c.get('tenant'), registry), 200))
    .openapi(choose, async (c) => {
      const t = c.get('tenant');
      const body = c.req.valid('json');
      // The body as sent: the checked copy leaves out unknown fields and `__proto__` keys.
      const raw = (await c.req.json()) as Record<string, unknown>;
      const extra = Object.keys(raw).filter((k) => k !== 'name' && k !== 'scenario');
      if (extra.length > 0) {
        const list = extra.map((k) => `'${k}'`).join(', ');
        throw new SandboxError(
          'INVALID_SCENARIO',
          `Unknown field${extra.length > 1 ? 's' : ''} ${list}. Send exactly one of name (a bundled scenario) or scenario (an inline document).`,
          extra.map((k) => ({ field: k, issue: 'is not a field of this request; send name or scenario' })),
        );
      }
      if ((body.name === undefined) === (body.scenario === undefined)) {
        throw new SandboxError('INVALID_SCENARIO', 'Send exactly one of name (a bundled scenario) or scenario (an inline document).', [
          { field: 'body', issue: 'must have exactly one of name or scenario' },
        ]);
      }
      if (body.name !== undefined) {
        if (!registry.get(body.name)) throw unknownScenario(body.name, registry, 'name');
        chooseScenario(t, { name: body.name });
      } else {
        let doc;
        try {
          doc = checkScenario(raw.scenario, 'scenario', registry.format);
        } catch (err) {
          if (err instanceof ScenarioError) throw invalid(err);
          throw err;
        }
        chooseScenario(t, { name: doc.name ?? 'inline', inline: doc });
      }
      return c.json(state(t, registry), 200);
    })
    .openapi(clear, (c) => {
      const t = c.get('tenant');
      clearScenario(t);
      return c.json(state(t, registry), 200);
    });
}
