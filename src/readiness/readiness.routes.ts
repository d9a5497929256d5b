// GET /_sandbox/report: is this key's integration ready for live? JSON, Markdown or JUnit.
// DELETE /_sandbox/report forgets what was observed, to judge a new run from nothing.
import { createRoute, z } from '@hono/zod-openapi';
import type { Tenant } from '../engine/tenancy/tenant.js';
import { LIVE_FORMAT, parseKey } from '../http/tenant-auth.js';
import { errorResponses, jsonResponse, newRouter, security } from '../http/openapi.js';
import { runChecks, type CheckInputs } from './checks.js';
import { buildReport, toJunit, toMarkdown } from './report.js';

const tags = ['Sandbox control'];

const EvidenceSchema = z
  .object({
    id: z.string().openapi({ description: "The journal entry's id (req_12), a delivery's id, or probe" }),
    at: z.string().openapi({ description: "On the key's clock" }),
    method: z.string(),
    path: z.string(),
    sent: z.union([z.number().int(), z.enum(['dropped', 'timeout'])]).openapi({ description: 'What the client (or the receiver) got' }),
    reference: z.string().optional(),
    note: z.string().optional(),
  })
  .openapi('ReadinessEvidence');

const CheckSchema = z
  .object({
    id: z.string().openapi({ example: 'retry-reuses-reference', description: 'Stable: docs/readiness.md explains each' }),
    title: z.string(),
    status: z.enum(['passed', 'failed', 'not_exercised']),
    required: z.boolean().openapi({ description: 'Ready needs it passed' }),
    detail: z.string().openapi({ description: 'What was seen, and what to do to make it pass' }),
    evidence: z.array(EvidenceSchema),
  })
  .openapi('ReadinessCheck');

export const ReportSchema = z
  .object({
    ready: z.boolean().openapi({ description: 'No check failed and every required check passed' }),
    generatedAt: z.string().openapi({ description: "On the key's clock" }),
    checks: z.array(CheckSchema),
  })
  .openapi('ReadinessReport');

const report = createRoute({
  method: 'get',
  path: '/_sandbox/report',
  operationId: 'getReadinessReport',
  tags,
  security,
  summary: "Is this key's integration ready for live? Each check, its verdict and the evidence behind it",
  description:
    'Built from what the key did (creates, retries, reads, faults met, webhook deliveries and receiver probes) since its first request or the last DELETE /_sandbox/report; a reset keeps it. format=markdown answers text/markdown, format=junit a JUnit XML file (a testcase per check: failure when failed, skipped when not exercised).',
  request: {
    query: z.object({
      format: z.enum(['json', 'markdown', 'junit']).default('json').openapi({ param: { name: 'format', in: 'query' } }),
    }),
  },
  responses: {
    200: {
      description: 'The report',
      content: {
        'application/json': { schema: ReportSchema },
        'text/markdown': { schema: z.string() },
        'application/xml': { schema: z.string().openapi({ description: 'JUnit XML' }) },
      },
    },
    ...errorResponses(400),
  },
});

const forget = createRoute({
  method: 'delete',
  path: '/_sandbox/report',
  operationId: 'resetReadinessReport',
  tags,
  security,
  summary: 'Forget what the readiness report has observed of this key',
  responses: { 200: jsonResponse(ReportSchema, 'The report of a key with nothing observed'), ...errorResponses() },
});

/** What a check reads besides the key's own observations: its webhook deliveries, probe and settings;
 * and how to forget them as DELETE /_sandbox/report forgets the observations. */
export interface ReadinessSources {
  read(t: Tenant): Omit<CheckInputs, 'record' | 'liveFormatKey'>;
  forget(t: Tenant): void;
}

export function readinessRoutes(sources: ReadinessSources) {
  const build = (t: Tenant, key: string) => buildReport(runChecks({ record: t.observations.current, liveFormatKey: LIVE_FORMAT.test(key), ...sources.read(t) }), t.nowIso());
  const keyOf = (header: string | undefined) => parseKey(header).key;
  return newRouter()
    .openapi(report, (c) => {
      const r = build(c.get('tenant'), keyOf(c.req.header('authorization')));
      const format = c.req.valid('query').format;
      if (format === 'markdown') return c.body(toMarkdown(r), 200, { 'content-type': 'text/markdown; charset=utf-8' });
      if (format === 'junit') return c.body(toJunit(r), 200, { 'content-type': 'application/xml; charset=utf-8' });
      return c.json(r, 200);
    })
    .openapi(forget, (c) => {
      const t = c.get('tenant');
      t.observations.clear();
      sources.forget(t);
      return c.json(build(t, keyOf(c.req.header('authorization'))), 200);
    });
}
