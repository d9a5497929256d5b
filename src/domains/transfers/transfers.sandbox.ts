// The transfers' control routes: POST /_sandbox/bulk-disbursements uploads a bulk file (bulk.upload.ts);
// it declares its own, larger body limit and, like the /api routes, honours X-Sandbox-Scenario.
// POST /_sandbox/bulk-disbursements/demo makes the settled demo file, which no other request makes.
import { createRoute } from '@hono/zod-openapi';
import { SandboxError } from '../../kernel/errors.js';
import { scenarioHeaderCheck } from '../../http/fault-responses.js';
import { ownBodyLimit } from '../../http/limits.js';
import { CONTROL_TAG, errorResponses, jsonResponse, newRouter, security } from '../../http/openapi.js';
import type { SandboxContext } from '../module.js';
import { BULK_BODY_LIMIT, BULK_UPLOAD_PATH, bulkUpload, UploadSlots, uploadRoute } from './bulk.upload.js';
import { bulks, DEMO_BULK_ID, ensureDemo, presentBulk } from './bulk.service.js';
import { BulkFile } from './transfers.schema.js';

const demoRoute = createRoute({
  method: 'post',
  path: `${BULK_UPLOAD_PATH}/demo`,
  operationId: 'createDemoBulkDisbursement',
  tags: [CONTROL_TAG.name],
  security,
  summary: 'Make the demo bulk file (bulk_demo_salaries: 24 settled transfers)',
  description:
    `A settled file to try the bulk listing's filters on: ${DEMO_BULK_ID}, 24 rows in NGN, GHS and USD, all four categories, 21 SUCCESSFUL and 3 FAILED, made without events. ` +
    'Besides this call, only the first read of its page (GET /api/v1/transfers/bulk/bulk_demo_salaries/transfers) makes it; no transfer request, upload, simulate or reset does. 201 when made now, 200 when the key holds it already.',
  responses: {
    201: jsonResponse(BulkFile, 'The demo file, made now'),
    200: jsonResponse(BulkFile, 'The demo file, which this key held already'),
    ...errorResponses(409),
  },
});

const uploadLimit = ownBodyLimit(
  BULK_BODY_LIMIT,
  () => new SandboxError('PAYLOAD_TOO_LARGE', 'The bulk file is larger than 8 MiB. Split it into several files.'),
);

export function transferSandbox(ctx: SandboxContext) {
  const router = newRouter();
  // Documented apart from its handler, which reads the body itself so that bulk.file.ts reports every bad row.
  router.openAPIRegistry.registerPath(uploadRoute);
  router.post(BULK_UPLOAD_PATH, scenarioHeaderCheck(ctx.scenarios), uploadLimit, bulkUpload(new UploadSlots()));
  return router.openapi(demoRoute, (c) => {
    const t = c.get('tenant');
    const made = ensureDemo(t);
    return c.json(presentBulk(bulks(t).get(DEMO_BULK_ID)!), made ? 201 : 200);
  });
}
