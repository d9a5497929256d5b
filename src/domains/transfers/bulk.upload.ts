// POST /_sandbox/bulk-disbursements: a bulk file as JSON ({"name"?, "items": [...]}) or CSV
// (text/csv with a header row; ?name= names it). The route is documented here and validated by
// bulk.file.ts, not by the framework, so that every bad row is reported at once.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { SandboxError } from '../../kernel/errors.js';
import { CONTROL_TAG, errorResponses, jsonResponse, security } from '../../http/openapi.js';
import { requestScenario } from '../../http/respond.js';
import { mediaTypeOf } from '../../http/media-type.js';
import type { AppEnv } from '../../http/types.js';
import { CSV_COLUMNS, MAX_ROWS, parseBulkJson, readCsv, readJson } from './bulk.file.js';
import { createBulk } from './bulk.service.js';
import { SERVICE_SOURCE_MAX, serviceSourceProblem } from './service-source.js';
import { BulkFile, BulkUploadRequest } from './transfers.schema.js';
import { unknownFields, warnUnknownQuery } from '../../http/unknown-fields.js';
import { warn } from '../../http/warnings.js';
import { notUtf8 } from '../../http/limits.js';
import { checkJsonBudgetInSlices } from '../../kernel/json-budget.js';

export const BULK_UPLOAD_PATH = '/_sandbox/bulk-disbursements';
/** A 10,000-row JSON file is about 3.5 MB; 8 MiB leaves room for long names and narrations. */
export const BULK_BODY_LIMIT = 8 * 1024 * 1024;
const DEFAULT_SOURCE = 'sandbox-bulk-upload';
/** Uploads a key may have under way at once: each holds its file and its rows until it is answered
 * (a 10,000-row JSON file of 4 MB is about 20 MB), and 200 at once from one key would fill the heap. */
export const UPLOADS_PER_KEY = 4;
/** Uploads the whole server has under way at once, whichever keys send them: with every key within
 * its own four, a hosted sandbox's keys together would still hold 20 MB per upload without bound. */
export const UPLOADS_AT_ONCE = 16;

/** The uploads under way in one app: per key (its tenant) and in all. */
export class UploadSlots {
  private readonly perKey = new WeakMap<object, number>();
  private total = 0;

  constructor(readonly atOnce = UPLOADS_AT_ONCE) {}

  /** Take a slot for `key`'s upload, or throw: 429 when the key has none left, 503 when the server has none. */
  take(key: object): () => void {
    const under = this.perKey.get(key) ?? 0;
    if (under >= UPLOADS_PER_KEY) {
      throw new SandboxError(
        'RATE_LIMITED',
        `This API key has ${under} bulk uploads under way; at most ${UPLOADS_PER_KEY} run at once. Send this file again once one of them has been answered.`,
        [{ field: 'file', issue: `is one upload past the ${UPLOADS_PER_KEY} a key may have under way: send it again once one is answered` }],
        { 'Retry-After': '1' },
      );
    }
    if (this.total >= this.atOnce) {
      throw new SandboxError(
        'SERVICE_UNAVAILABLE',
        `This sandbox has ${this.total} bulk uploads under way for all keys, the most it runs at once. Send this file again after 1 s.`,
        [{ field: 'file', issue: `is one upload past the ${this.atOnce} the sandbox runs at once: send it again after 1 s` }],
        { 'Retry-After': '1' },
      );
    }
    this.perKey.set(key, under + 1);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.perKey.get(key) ?? 1) - 1;
      if (left > 0) this.perKey.set(key, left);
      else this.perKey.delete(key);
    };
  }
}

/** What a 201 says of the rows: not that each is PENDING, since a row sent with a status is recorded
 * ended, and under a scenario's zero timing the others have ended by the next request. */
const UPLOADED =
  'The file was accepted: each row is now a transfer of the file (GET /api/v1/transfers/bulk/{id}/transfers lists them). ' +
  'A row sent with a status is recorded already ended; every other row starts PENDING and moves on as the scenario in force times it, ' +
  'so under a zero timing (the instant scenario) it may have ended by the next request.';

export const uploadRoute = createRoute({
  method: 'post',
  path: BULK_UPLOAD_PATH,
  operationId: 'uploadBulkDisbursement',
  tags: [CONTROL_TAG.name],
  security,
  summary: 'Upload a bulk disbursement file (JSON or CSV)',
  description:
    `Up to 10,000 rows, each a transfer plus a category; a file with any bad row is refused whole (INVALID_BULK_FILE), ` +
    `every problem listed in error.details as items[i].field (JSON, i from 0) or "row N: field" (CSV, N the line, the header being row 1). ` +
    `Under a live key a BANK row to an account that does not resolve, or not in the name it resolves to, does not refuse the file: the row ends FAILED with the reason. ` +
    `CSV columns: ${CSV_COLUMNS.join(', ')}. Body limit 8 MiB for this route.`,
  request: {
    headers: z.object({
      'x-service-source': z.string().optional().openapi({ param: { name: 'x-service-source', in: 'header' }, description: `Kept on each row; default ${DEFAULT_SOURCE}. At most ${SERVICE_SOURCE_MAX} characters, sent once (else 400)` }),
    }),
    query: z.object({ name: z.string().max(100).optional().openapi({ param: { name: 'name', in: 'query' }, description: 'Name of a CSV file' }) }),
    body: {
      required: true,
      content: {
        'application/json': { schema: BulkUploadRequest },
        'text/csv': { schema: z.string().openapi({ example: `${CSV_COLUMNS.join(',')}\n3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f,25000,NGN,BANK,1000200030,0123456789,Ada Obi,058,001,January salary,SALARY` }) },
      },
    },
  },
  responses: { 201: jsonResponse(BulkFile, UPLOADED), ...errorResponses(400, 409, 413, 415), 429: { ...errorResponses(429)[429], description: `The key has ${UPLOADS_PER_KEY} uploads under way (send again once one is answered), or a scenario asks for a rate limit` }, 503: { ...errorResponses(503)[503], description: `The sandbox has ${UPLOADS_AT_ONCE} uploads under way for all keys, or its memory budget is reached (SERVICE_UNAVAILABLE, with Retry-After, before the file is read), or a scenario asks for it` } },
});

/** The upload route's handler, holding one of `slots` while it reads and checks the file. */
export const bulkUpload = (slots: UploadSlots) => async (c: Context<AppEnv>) => {
  const release = slots.take(c.get('tenant'));
  try {
    return await upload(c);
  } finally {
    release();
  }
};


/** A JSON bulk file's budget of values: a row holds about 17 (its fields, its source and destination),
 * so 30 a row leaves room for every optional field. */
const BULK_VALUES = 30 * MAX_ROWS;
async function upload(c: Context<AppEnv>) {
  const t = c.get('tenant');
  // Read by this handler rather than a validator: its unknown query parameters are named here.
  warnUnknownQuery(c, uploadRoute.request.query);
  // A file of megabytes is not read into a heap past the process's memory budget (its rows are
  // counted against the key's cap once known, below).
  t.checkRoom(0);
  // Optional here, and checked as the transfer routes check it when sent: a longer or repeated one
  // was cut to 100 characters, or kept joined, without a word.
  const source = c.req.header('x-service-source')?.trim() || DEFAULT_SOURCE;
  const problem = serviceSourceProblem(source);
  if (problem) throw problem;
  const type = mediaTypeOf(c.req.header('content-type'));
  const text = await c.req.text();
  // Decoded leniently, each invalid sequence as U+FFFD (three bytes): with those in it, a text whose
  // length is not the bytes declared was not UTF-8 (a UTF-16 or Latin-1 export from a spreadsheet).
  if (notUtf8(text, c.req.header('content-length'))) {
    throw new SandboxError('INVALID_BULK_FILE', 'The bulk file is not UTF-8 text (a UTF-16 or Latin-1 export, say). Save it as UTF-8 (in a spreadsheet, "CSV UTF-8") and upload it again.', [
      { field: 'file', issue: 'is not valid UTF-8: save it as UTF-8' },
    ]);
  }
  let file;
  if (type === 'application/json') {
    let body: unknown;
    try {
      await checkJsonBudgetInSlices(text, BULK_VALUES);
      body = await parseBulkJson(text);
    } catch (e) {
      if (e instanceof SandboxError) throw e;
      throw new SandboxError('MALFORMED_JSON', 'The request body is not valid JSON. Send {"items": [...]} with Content-Type: application/json.');
    }
    file = await readJson(body);
    // A field of the file it does not take (`nmae` for `name`) is ignored, and named as the API's are;
    // a row's is refused with the row (its schema is strict, so the walk does not look into rows).
    warn(c, unknownFields(BulkUploadRequest, body));
  } else if (type === 'text/csv') {
    const name = c.req.query('name');
    if (name !== undefined && (name.length < 1 || name.length > 100)) {
      throw new SandboxError('VALIDATION_ERROR', 'The name query parameter is a text of 1 to 100 characters.', [{ field: 'name', issue: 'must be 1 to 100 characters long' }]);
    }
    file = await readCsv(text, name);
  } else {
    throw new SandboxError('UNSUPPORTED_MEDIA_TYPE', 'A bulk file is sent as application/json ({"items": [...]}) or as text/csv with a header row.');
  }
  return c.json(await createBulk(t, file, source, requestScenario(c)), 201);
}
