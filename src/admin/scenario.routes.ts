// Choosing a scenario: the bundled list, the one in force for this key, binding one (by name or
// inline) and going back to the start default; plus the JSON Schema of the scenario format.
import { createRoute, z } from '@hono/zod-openapi';
import { SandboxError } from '../kernel/errors.js';
import { firedCount } from '../engine/requests/fault-rules.js';
import { checkScenario, readYaml, ScenarioError, YamlRefused, type LoadedScenario } from '../engine/scenario/scenario.load.js';
import type { ScenarioRegistry } from '../engine/scenario/scenario.registry.js';
import type { ScenarioSection } from '../engine/scenario/scenario.schema.js';
import { NAME_RULE } from '../engine/scenario/scenario.schema.js';
import {
  chooseScenario,
  clearScenario,
  deleteScenario,
  findScenario,
  saveScenario,
  savedScenarios,
  scenarioInForce,
  unknownScenario,
} from '../engine/scenario/scenario.select.js';
import type { Tenant } from '../engine/tenancy/tenant.js';
import type { MiddlewareHandler } from 'hono';
import { validationHook } from '../http/error-responses.js';
import { isJsonType, mediaTypeOf } from '../http/media-type.js';
import type { AppEnv } from '../http/types.js';
import { notUtf8, ownBodyLimit } from '../http/limits.js';
import { nextTurn } from '../kernel/turns.js';
import { CONTROL_TAG, errorResponses, jsonBody, jsonResponse, newRouter, openErrorResponses, security } from '../http/openapi.js';


/** The most a scenario document may weigh, JSON or YAML: the bundled ones are under 1 KiB; the YAML
 * reader's cost grows faster than its input's size (tens of milliseconds at 16 KiB), so a larger
 * body is refused before it is read. */
export const SCENARIO_BODY_LIMIT = 16 * 1024;
const scenarioBodyLimit = ownBodyLimit(
  SCENARIO_BODY_LIMIT,
  () =>
    new SandboxError('PAYLOAD_TOO_LARGE', 'A scenario document is larger than 16 KiB. Send a smaller one: a scenario of a few rules is a few hundred bytes.', [
      { field: 'body', issue: 'is larger than 16 KiB' },
    ]),
);
const tags = [CONTROL_TAG.name];

/** The 415 of the scenario PUTs, which take YAML as well as JSON. */
const NOT_JSON_OR_YAML = { ...errorResponses(415)['415'], description: 'Body is neither JSON nor application/yaml' };

/** The media types a scenario body comes in: JSON, or the YAML document itself. */
const isYaml = (type: string) => mediaTypeOf(type) === 'application/yaml';

/** A body of another type is refused naming both that are taken, before the framework's check
 * (which knows only that the type is not JSON) can refuse it saying JSON alone. */
const scenarioMediaType =
  (wrapper: string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const type = c.req.header('content-type') ?? '';
    if (isYaml(type) || isJsonType(type)) return next();
    const yamlAlias = ['text/yaml', 'text/x-yaml', 'application/x-yaml'].includes(mediaTypeOf(type) ?? '');
    throw new SandboxError(
      'UNSUPPORTED_MEDIA_TYPE',
      `${type ? `Content-Type ${type.split(';')[0].trim()} is not taken here${yamlAlias ? ': YAML goes as application/yaml, its registered media type' : ''}. ` : 'The request has no Content-Type. '}Send ${wrapper} with Content-Type: application/json, or a scenario document with Content-Type: application/yaml.`,
      [{ field: 'Content-Type', issue: 'must be application/json or application/yaml' }],
    );
  };

export const ScenarioSummary = z
  .object({
    name: z.string().openapi({ example: 'failures' }),
    description: z.string().nullable(),
    origin: z.enum(['bundled', 'file', 'inline', 'saved']).openapi({ description: 'saved: saved by this key with PUT /_sandbox/scenarios/{name}, for this key only' }),
    startDefault: z.boolean().openapi({ description: 'Whether this is the default every tenant starts with' }),
  })
  .openapi('ScenarioSummary');

export const ScenarioList = z.object({ data: z.array(ScenarioSummary) }).openapi('ScenarioList');

export const ScenarioState = z
  .object({
    name: z.string(),
    description: z.string().nullable(),
    source: z.enum(['tenant', 'start']).openapi({ description: 'tenant: chosen with PUT for this key; start: the --scenario default' }),
    origin: z.enum(['bundled', 'file', 'inline', 'saved']),
    file: z.string().nullable(),
    document: z.record(z.string(), z.unknown()).openapi({ description: 'The scenario document, as in /_sandbox/scenario.schema.json' }),
    fired: z
      .object({
        faults: z.array(z.number().int()).openapi({ description: 'Per fault rule, in order: how many requests it struck' }),
        outcomes: z
          .record(z.string(), z.array(z.number().int()))
          .openapi({ description: 'Per resource with outcome rules, per rule in order: how many resources it decided' }),
      })
      .openapi({ description: 'How many times each rule fired since the scenario was bound (or the key reset its counters)' }),
  })
  .openapi('ScenarioState');

const ScenarioDocument = z.record(z.string(), z.unknown()).openapi('ScenarioDocument', { description: 'A scenario document in YAML' });

const ScenarioWarning = z.object({ path: z.string(), message: z.string() }).openapi('ScenarioWarning');

const ChosenScenario = ScenarioState.extend({
  warnings: z
    .array(ScenarioWarning)
    .openapi({ description: 'Rules the document holds that can never be reached (after a rule that matches everything); the scenario is bound all the same' }),
}).openapi('ChosenScenario');

export const ChooseScenario = z
  .object({
    name: z.string().min(1).max(60).optional().openapi({ example: 'failures', description: 'A bundled scenario (see GET /_sandbox/scenarios)' }),
    scenario: z.record(z.string(), z.unknown()).optional().openapi({ description: 'An inline scenario document (see /_sandbox/scenario.schema.json)' }),
  })
  // The route's own rule (exactly one, no other field), as the document says it to validating
  // proxies and generated clients; the route checks it itself, with its own messages.
  .openapi('ChooseScenarioRequest', { oneOf: [{ required: ['name'] }, { required: ['scenario'] }], additionalProperties: false, description: 'Exactly one of name or scenario' });

/** Fire counts of every rule of the scenario, as it is counted for this key. */
function fired(t: Tenant, scenario: LoadedScenario) {
  const doc = scenario.doc;
  const faults = (doc.faults ?? []).map((_, i) => firedCount(t, scenario.name, `fault:${i}`));
  const outcomes: Record<string, number[]> = {};
  for (const [key, section] of Object.entries(doc)) {
    const rules = (section as ScenarioSection | undefined)?.outcomes;
    if (Array.isArray(rules)) outcomes[key] = rules.map((_, i) => firedCount(t, scenario.name, `outcome:${key}:${i}`));
  }
  return { faults, outcomes };
}

function state(t: Tenant, registry: ScenarioRegistry) {
  const { scenario, source } = scenarioInForce(t, registry);
  return {
    fired: fired(t, scenario),
    name: scenario.name,
    description: scenario.description,
    source: source as 'tenant' | 'start',
    origin: scenario.origin,
    file: scenario.origin === 'file' ? scenario.file : null,
    document: scenario.doc as Record<string, unknown>,
  };
}

/** The server's scenarios, then the key's saved ones. */
function listed(t: Tenant, registry: ScenarioRegistry) {
  const server = registry.names().map((name) => {
    const s = registry.get(name)!;
    return { name, description: s.description, origin: s.origin, startDefault: s === registry.startDefault };
  });
  const own = savedScenarios(t).map((s) => ({ name: s.name, description: s.description, origin: s.origin, startDefault: false }));
  return { data: [...server, ...own] };
}

function invalid(err: ScenarioError): SandboxError {
  const details = err.issues.map((i) => ({ field: i.path ? `scenario.${i.path}` : 'scenario', issue: i.message }));
  const first = details[0];
  // An issue that ends with its own question ("did you mean 'payout'?") takes no full stop after it.
  const stop = /[.?!]$/.test(first.issue) ? '' : '.';
  return new SandboxError('INVALID_SCENARIO', `The scenario is not valid: ${first.field} ${first.issue}${stop} See /_sandbox/scenario.schema.json for the format.`, details);
}

/** An inline document, checked; a bad one is 400 INVALID_SCENARIO. */
function inline(input: unknown, registry: ScenarioRegistry) {
  try {
    return checkScenario(input, 'scenario', registry.format);
  } catch (err) {
    if (err instanceof ScenarioError) throw invalid(err);
    throw err;
  }
}

/** A YAML body: the document itself. An alias that never ends or expands past bounds is refused here. */
function yamlBody(text: string, declaredLength: string | undefined): unknown {
  // Decoded leniently, each invalid sequence as U+FFFD (three bytes): with those in it, a text whose
  // length is not the bytes declared was not UTF-8 (a UTF-16 file read as a string of NULs).
  if (notUtf8(text, declaredLength)) {
    throw new SandboxError('INVALID_SCENARIO', 'The body is not UTF-8 text (a UTF-16 or Latin-1 file, say). Save the scenario as UTF-8 and send it again.', [
      { field: 'body', issue: 'is not valid UTF-8: save it as UTF-8' },
    ]);
  }
  if (text.trim() === '') {
    throw new SandboxError('INVALID_SCENARIO', 'The request body is empty. Send a scenario document as YAML (name: my-scenario, then the sections it changes), or {} for every default.', [
      { field: 'body', issue: 'is empty: send a scenario document' },
    ]);
  }
  try {
    return readYaml(text) ?? {};
  } catch (err) {
    if (!(err instanceof YamlRefused)) throw err;
    throw new SandboxError('INVALID_SCENARIO', `The body ${err.problem}.`, [{ field: 'body', issue: err.problem }]);
  }
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
  summary: "The scenarios this server knows and this key saved, with their descriptions",
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
  middleware: [scenarioBodyLimit, scenarioMediaType('{"name"} or {"scenario"}')] as const,
  tags,
  security,
  summary: 'Bind a scenario to this key, by name or inline; it applies from the next request',
  description:
    'JSON: {"name"} or {"scenario": {...}}. With Content-Type application/yaml the body is the scenario document itself, as a file holds it.',
  request: {
    body: {
      required: false,
      content: {
        'application/json': { schema: ChooseScenario },
        'application/yaml': { schema: ScenarioDocument },
      },
    },
  },
  responses: { 200: jsonResponse(ChosenScenario, 'The scenario now in force, with warnings about rules never reached'), ...errorResponses(400, 413, 415), 415: NOT_JSON_OR_YAML },
});

const ScenarioName = z.object({
  name: z
    .string()
    .regex(NAME_RULE, 'must be lower case letters, digits and dashes, at most 60')
    .openapi({ param: { name: 'name', in: 'path' }, example: 'slow-bank' }),
});

export const SavedScenario = ScenarioSummary.extend({
  warnings: z.array(ScenarioWarning).openapi({ description: 'Rules the document holds that can never be reached; it is saved all the same' }),
}).openapi('SavedScenario');

const SaveScenario = z
  .object({ scenario: z.record(z.string(), z.unknown()).openapi({ description: 'The scenario document (see /_sandbox/scenario.schema.json)' }) })
  .openapi('SaveScenarioRequest');

const save = createRoute({
  method: 'put',
  path: '/_sandbox/scenarios/{name}',
  middleware: [scenarioBodyLimit, scenarioMediaType('{"scenario": {...}}')] as const,
  operationId: 'saveScenario',
  tags,
  security,
  summary: 'Save a scenario under a name, for this key only',
  description:
    'JSON {"scenario": {...}}, or with Content-Type application/yaml the document itself. The name then works in X-Sandbox-Scenario and in PUT /_sandbox/scenario {"name"} for this key; another key does not see it. At most 20 per key; the server\'s own names are taken.',
  request: {
    params: ScenarioName,
    body: {
      // Checked by the handler: a YAML body is not the JSON object's shape.
      required: false,
      content: {
        'application/json': { schema: SaveScenario },
        'application/yaml': { schema: ScenarioDocument },
      },
    },
  },
  responses: { 200: jsonResponse(SavedScenario, 'The scenario saved'), ...errorResponses(400, 409, 413, 415), 415: NOT_JSON_OR_YAML },
});

const remove = createRoute({
  method: 'delete',
  path: '/_sandbox/scenarios/{name}',
  operationId: 'deleteScenario',
  tags,
  security,
  summary: "Forget one of this key's saved scenarios",
  request: { params: ScenarioName },
  responses: { 200: jsonResponse(ScenarioList, "This key's scenarios left, with the server's"), ...errorResponses(400, 404) },
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
    .openapi(list, (c) => c.json(listed(c.get('tenant'), registry), 200))
    .openapi(save, async (c) => {
      const t = c.get('tenant');
      const { name } = c.req.valid('param');
      const type = c.req.header('content-type') ?? '';
      let input: unknown;
      // Read and checked in a turn of its own (kernel/turns.ts): thirty scenarios of 50 rules sent at
      // once, each read and checked in the same turn, held every key 280 ms.
      await nextTurn();
      if (isYaml(type)) input = yamlBody(await c.req.text(), c.req.header('content-length'));
      else if (isJsonType(type)) {
        const raw = (await c.req.json()) as Record<string, unknown>;
        const extra = Object.keys(raw).filter((k) => k !== 'scenario');
        if (extra.length > 0 || raw.scenario === undefined) {
          throw new SandboxError('INVALID_SCENARIO', 'Send {"scenario": {...}}: the document under scenario, and nothing else.', [
            ...extra.map((k) => ({ field: k, issue: 'is not a field of this request; send scenario' })),
            ...(raw.scenario === undefined ? [{ field: 'scenario', issue: 'is required' }] : []),
          ]);
        }
        input = raw.scenario;
      } else {
        throw new SandboxError('UNSUPPORTED_MEDIA_TYPE', 'Send {"scenario": {...}} with Content-Type: application/json, or a scenario document with Content-Type: application/yaml.');
      }
      const doc = inline(input, registry);
      saveScenario(t, registry, name, doc);
      const kept = findScenario(t, registry, name)!;
      return c.json({ name, description: kept.description, origin: 'saved' as const, startDefault: false, warnings: registry.format.lint(kept.doc).warnings }, 200);
    })
    .openapi(remove, (c) => {
      const t = c.get('tenant');
      const { name } = c.req.valid('param');
      if (!deleteScenario(t, name)) {
        throw new SandboxError('RESOURCE_NOT_FOUND', `This key has no saved scenario named '${name}'. GET /_sandbox/scenarios lists them (origin saved).`, [
          { field: 'name', issue: 'no saved scenario of this key has this name' },
        ]);
      }
      return c.json(listed(t, registry), 200);
    })
    .openapi(current, (c) => c.json(state(c.get('tenant'), registry), 200))
    .openapi(choose, async (c) => {
      const t = c.get('tenant');
      const type = c.req.header('content-type') ?? '';
      // In a turn of its own, as a saved scenario is read.
      await nextTurn();
      if (isYaml(type)) {
        const doc = inline(yamlBody(await c.req.text(), c.req.header('content-length')), registry);
        chooseScenario(t, { name: doc.name ?? 'inline', inline: doc });
        return c.json({ ...state(t, registry), warnings: registry.format.lint(doc).warnings }, 200);
      }
      if (!isJsonType(type)) {
        throw new SandboxError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send JSON ({"name"} or {"scenario"}) with Content-Type: application/json, or a scenario document with Content-Type: application/yaml.',
        );
      }
      const body = c.req.valid('json') as z.infer<typeof ChooseScenario>;
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
        const named = findScenario(t, registry, body.name);
        if (!named) throw unknownScenario(body.name, registry, 'name', t);
        chooseScenario(t, { name: body.name });
        return c.json({ ...state(t, registry), warnings: registry.format.lint(named.doc).warnings }, 200);
      }
      const doc = inline(raw.scenario, registry);
      chooseScenario(t, { name: doc.name ?? 'inline', inline: doc });
      return c.json({ ...state(t, registry), warnings: registry.format.lint(doc).warnings }, 200);
    }, /* It refuses unknown fields itself (above), so no warning of them: */ validationHook as never)
    .openapi(clear, (c) => {
      const t = c.get('tenant');
      clearScenario(t);
      return c.json(state(t, registry), 200);
    });
}
