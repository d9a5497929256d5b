// The transfers' control route: POST /_sandbox/bulk-disbursements uploads a bulk file (bulk.upload.ts).
// It declares its own, larger body limit and, like the /api routes, honours X-Sandbox-Scenario.
import { SandboxError } from '../../kernel/errors.js';
import { scenarioHeaderCheck } from '../../http/fault-responses.js';
import { ownBodyLimit } from '../../http/limits.js';
import { newRouter } from '../../http/openapi.js';
import type { SandboxContext } from '../module.js';
import { BULK_BODY_LIMIT, BULK_UPLOAD_PATH, bulkUpload, uploadRoute } from './bulk.upload.js';

const uploadLimit = ownBodyLimit(
  BULK_BODY_LIMIT,
  () => new SandboxError('PAYLOAD_TOO_LARGE', 'The bulk file is larger than 8 MiB. Split it into several files.'),
);

export function transferSandbox(ctx: SandboxContext) {
  const router = newRouter();
  // Documented apart from its handler, which reads the body itself so that bulk.file.ts reports every bad row.
  router.openAPIRegistry.registerPath(uploadRoute);
  router.post(BULK_UPLOAD_PATH, scenarioHeaderCheck(ctx.scenarios), uploadLimit, bulkUpload);
  return router;
}
