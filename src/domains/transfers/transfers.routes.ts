import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { SandboxError } from '../../kernel/errors.js';
import { errorResponses, jsonBody, jsonResponse, newRouter, replayedHeader, security, type Tag } from '../../http/openapi.js';
import { created, reply, requestScenario } from '../../http/respond.js';
import type { AppEnv } from '../../http/types.js';
import { warn } from '../../http/warnings.js';
import { bulkPage, filterWarnings } from './bulk.page.js';
import { BulkIdParam, BulkPageQuery, CreateTransferRequest, ReferenceParam, ServiceSourceHeader, Transfer, TransferList, TransferPage } from './transfers.schema.js';
import { transfer } from './transfers.machine.js';
import { serviceSourceProblem } from './service-source.js';
import { createTransfer, getTransfer, present } from './transfers.service.js';

export const transfersTag: Tag = {
  name: 'Disbursement transfers',
  description: 'Single transfers, and the transfers of an uploaded bulk file, page by page.',
  order: 5,
};
const tags = [transfersTag.name];

/** x-service-source is required on the transfer endpoints; checked after the key, before the body. */
const requireServiceSource: MiddlewareHandler<AppEnv> = async (c, next) => {
  const value = c.req.header('x-service-source')?.trim();
  if (!value) {
    throw new SandboxError('MISSING_HEADER', 'The x-service-source header is required on transfer endpoints. Send the name of the calling service, e.g. x-service-source: payroll-service.', [
      { field: 'x-service-source', issue: 'is required' },
    ]);
  }
  const problem = serviceSourceProblem(value);
  if (problem) throw problem;
  await next();
};

const serviceSource = (c: { req: { header(name: string): string | undefined } }) => c.req.header('x-service-source')!.trim();

const create = createRoute({
  method: 'post',
  path: '/api/v1/transfers',
  operationId: 'createTransfer',
  tags,
  security,
  middleware: [requireServiceSource] as const,
  summary: 'Create a single disbursement transfer',
  description:
    'Answers with a JSON array holding the created transfer. Idempotent per reference. Not charged to the wallet balances. ' +
    'Under live keys a BANK transfer pays only an account that Resolve Bank Account resolves (else 404 ACCOUNT_NOT_FOUND), in the name it resolves to (else 400 ACCOUNT_NAME_MISMATCH); WALLET and MOBILE_MONEY destinations are not checked.',
  request: { headers: ServiceSourceHeader, body: jsonBody(CreateTransferRequest) },
  responses: {
    201: {
      ...jsonResponse(TransferList, 'The created transfer, in an array (or replayed, with Idempotent-Replayed: true)'),
      headers: replayedHeader('reference and body'),
    },
    ...errorResponses(400, 409, 413, 415),
  },
});

const read = createRoute({
  method: 'get',
  path: '/api/v1/transfers/{reference}',
  operationId: 'getTransfer',
  tags,
  security,
  middleware: [requireServiceSource] as const,
  summary: 'Read a transfer by reference (single or bulk row)',
  request: { headers: ServiceSourceHeader, params: ReferenceParam },
  responses: { 200: jsonResponse(Transfer, 'The transfer in its current state'), ...errorResponses(400, 404) },
});

const page = createRoute({
  method: 'get',
  path: '/api/v1/transfers/bulk/{id}/transfers',
  operationId: 'listBulkTransfers',
  tags,
  security,
  middleware: [requireServiceSource] as const,
  summary: "A page of a bulk file's transfers",
  description:
    'Rows in file order. query matches reference, destination account number or name; from and to bound createdAt (a date covers its whole UTC day; a date-time is an exact, inclusive bound). ' +
    'status, category and currency are strings, as the API document types them: an unknown value matches nothing (an empty page) and is named in X-Sandbox-Warning.',
  request: { headers: ServiceSourceHeader, params: BulkIdParam, query: BulkPageQuery },
  responses: {
    // The header's component is the one every JSON-body operation's answers list (http/openapi.ts, withWarningHeader).
    200: { ...jsonResponse(TransferPage, 'One page'), headers: { 'X-Sandbox-Warning': { $ref: '#/components/headers/SandboxWarning' } } },
    ...errorResponses(400, 404),
  },
});

export const transferRoutes = newRouter()
  .openapi(create, (c) => {
    const t = c.get('tenant');
    const body = c.req.valid('json');
    return created(c, {
      resource: transfer.name,
      key: body.reference,
      body,
      create: () => createTransfer(t, body, serviceSource(c), requestScenario(c)),
      read: (ref) => getTransfer(t, ref),
      // The API answers a created transfer inside an array.
      present: (r) => [present(r)],
    });
  })
  .openapi(read, (c) => reply(c, present(getTransfer(c.get('tenant'), c.req.valid('param').reference)), 200))
  .openapi(page, (c) => {
    const q = c.req.valid('query');
    const answer = bulkPage(c.get('tenant'), c.req.valid('param').id, q);
    warn(c, filterWarnings(q));
    return reply(c, answer, 200);
  });
