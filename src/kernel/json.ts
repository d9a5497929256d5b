import { hash } from 'node:crypto';

/**
 * A request body's fingerprint for idempotency. Bodies arrive here validated, and a schema's output
 * lists its fields in the schema's order whatever order they were sent in, so plain JSON text is
 * already canonical.
 */
export function fingerprint(validated: unknown): string {
  return hash('sha1', JSON.stringify(validated), 'base64url');
}

/** The same fingerprint as a number: the first 48 bits of that SHA-1 (exact in a double, so a record
 * keeps it as a number rather than as text). */
export function fingerprintNumber(validated: unknown): number {
  // Its first 12 hex digits: hex text costs less than a Buffer of the digest.
  return parseInt(hash('sha1', JSON.stringify(validated), 'hex').slice(0, 12), 16);
}

const snakeKeys = new Map<string, string>();

function snakeKey(k: string): string {
  let s = snakeKeys.get(k);
  if (s === undefined) {
    s = k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
    if (snakeKeys.size < 10_000) snakeKeys.set(k, s);
  }
  return s;
}

/** camelCase keys to snake_case, deeply: the shape of webhook and event payloads. */
export function toSnake(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toSnake);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k in value) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[snakeKey(k)] = toSnake(v);
    }
    return out;
  }
  return value;
}
