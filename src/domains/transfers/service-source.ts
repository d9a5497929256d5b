// The x-service-source header: the calling service's name, kept on each transfer (and each row of a
// bulk file). Checked alike wherever it is read.
import { SandboxError } from '../../kernel/errors.js';

/** The longest service name kept. */
export const SERVICE_SOURCE_MAX = 100;

/** A refusal of an x-service-source value as sent (trimmed), or undefined when it can be kept as it is. */
export function serviceSourceProblem(value: string): SandboxError | undefined {
  // Two header lines arrive as one value joined by commas (RFC 9110, 5.3): by Node, a proxy or a
  // client's default header beside the request's own. Kept as sent, it named a service nobody sent.
  const lines = value.split(',').length;
  if (lines > 1) {
    return new SandboxError(
      'VALIDATION_ERROR',
      `The x-service-source header holds ${lines} values joined by commas, as ${lines} x-service-source headers arrive. Send it once, with one service name (no comma), e.g. x-service-source: payroll-service.`,
      [{ field: 'x-service-source', issue: `is given ${lines} times: send it once` }],
    );
  }
  if (value.length > SERVICE_SOURCE_MAX) {
    return new SandboxError('VALIDATION_ERROR', `The x-service-source header is longer than ${SERVICE_SOURCE_MAX} characters. Send a shorter service name.`, [
      { field: 'x-service-source', issue: `must be at most ${SERVICE_SOURCE_MAX} characters long` },
    ]);
  }
  return undefined;
}
