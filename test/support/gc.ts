// A full collection before a test times a request's CPU: in a worker shared by many test files,
// a collection of what earlier files left (its helper threads counted in the process's CPU) would
// otherwise land in the request timed. The workers run with --expose-gc (vitest.config.ts).
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
