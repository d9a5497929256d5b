// The package's main entry: startSandbox() for a sandbox in the caller's process, and the typed
// control client (also published alone as payments-sandbox/client).
export { startSandbox } from './sandbox.js';
export type { Sandbox, SandboxOptions } from './sandbox.js';
export * from './client/index.js';
