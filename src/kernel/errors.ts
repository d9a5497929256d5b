// One error type and one closed list of codes. Every failure the sandbox answers with is a
// SandboxError whose code fixes the HTTP status and the error type of the envelope.

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'api_error';

const CODES = {
  VALIDATION_ERROR: [400, 'invalid_request_error'],
  MALFORMED_JSON: [400, 'invalid_request_error'],
  MALFORMED_XML: [400, 'invalid_request_error'],
  MISSING_HEADER: [400, 'invalid_request_error'],
  UNSUPPORTED_CURRENCY: [400, 'invalid_request_error'],
  INVALID_BANK_CODE: [400, 'invalid_request_error'],
  ACCOUNT_NAME_MISMATCH: [400, 'invalid_request_error'],
  INSUFFICIENT_BALANCE: [400, 'invalid_request_error'],
  INSUFFICIENT_LIQUIDITY: [400, 'invalid_request_error'],
  INVALID_SCENARIO: [400, 'invalid_request_error'],
  INVALID_BULK_FILE: [400, 'invalid_request_error'],
  AUTHENTICATION_REQUIRED: [401, 'authentication_error'],
  INVALID_API_KEY: [401, 'authentication_error'],
  PERMISSION_DENIED: [403, 'permission_error'],
  AUTH_CODE_REQUIRED: [403, 'permission_error'],
  INVALID_AUTH_CODE: [403, 'permission_error'],
  ROUTE_NOT_FOUND: [404, 'not_found_error'],
  RESOURCE_NOT_FOUND: [404, 'not_found_error'],
  ACCOUNT_NOT_FOUND: [404, 'not_found_error'],
  METHOD_NOT_ALLOWED: [405, 'invalid_request_error'],
  IDEMPOTENCY_CONFLICT: [409, 'conflict_error'],
  INVALID_STATE_TRANSITION: [409, 'conflict_error'],
  TENANT_FULL: [409, 'conflict_error'],
  CLOCK_BACKWARDS: [409, 'conflict_error'],
  PAYLOAD_TOO_LARGE: [413, 'invalid_request_error'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'invalid_request_error'],
  RATE_LIMITED: [429, 'rate_limit_error'],
  INTERNAL_ERROR: [500, 'api_error'],
  BAD_GATEWAY: [502, 'api_error'],
  SERVICE_UNAVAILABLE: [503, 'api_error'],
  TENANT_DATA_DAMAGED: [503, 'api_error'],
  GATEWAY_TIMEOUT: [504, 'api_error'],
} as const satisfies Record<string, readonly [number, ErrorType]>;

export type ErrorCode = keyof typeof CODES;

export const ERROR_CODES = Object.keys(CODES) as ErrorCode[];

export interface ErrorDetail {
  field: string;
  issue: string;
}

export class SandboxError extends Error {
  readonly status: number;
  readonly type: ErrorType;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
    /** A refusal of the request body as its schema says (a JSON body's, an XML message's XSD or
     * value rules), whatever its text: what the readiness report's `xml-valid` counts. */
    readonly bodyInvalid = false,
  ) {
    super(message);
    this.name = 'SandboxError';
    [this.status, this.type] = CODES[code];
  }
}

export function statusOf(code: ErrorCode): number {
  return CODES[code][0];
}

/** The JSON error envelope of the sandbox contract. */
export function errorEnvelope(err: SandboxError) {
  return {
    status: 'error' as const,
    message: err.message,
    error: { type: err.type, code: err.code, details: err.details },
  };
}

/** `by` names what the lookup key is (reference, id, quoteId...), so the message says what to send. */
/** 404 for a record this key does not have; `hint` says where the right id comes from (by default,
 * the create call's answer). The detail names the request's parameter the id came in, `field`
 * (the path or query parameter as /openapi.json names it; by default `by`). */
export const notFound = (what: string, id: string, by = 'reference', hint = `Send the ${by} the create call answered with.`, field = by) =>
  new SandboxError('RESOURCE_NOT_FOUND', `No ${what} with ${by} '${id}' exists for this API key. ${hint}`, [{ field, issue: `matches no ${what} of this API key` }]);

/** The same 404 with its detail naming `field`: the parameter another route took the id in. */
export const notFoundAt = (err: SandboxError, field: string) =>
  new SandboxError(err.code, err.message, err.details.map((d) => ({ field, issue: d.issue })), err.headers, err.bodyInvalid);

export const invalidTransition = (what: string, id: string, from: string, event: string, allowedFrom: readonly string[]) =>
  new SandboxError(
    'INVALID_STATE_TRANSITION',
    `The ${what} '${id}' is ${from}; '${event}' is only allowed from ${allowedFrom.join(' or ')}.`,
  );
