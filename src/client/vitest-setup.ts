// payments-sandbox/vitest: registers the sandbox's matchers with Vitest's expect and types them.
// Import it once (a setup file, or the test file): import 'payments-sandbox/vitest'.
import { expect } from 'vitest';
import { sandboxMatchers, type SandboxMatchers } from './matchers.js';

expect.extend(sandboxMatchers);

declare module 'vitest' {
  // Vitest declares Matchers<T = any>; a merged declaration must have the same parameter.
  interface Matchers<T = any> extends SandboxMatchers<T> {}
}

export { sandboxMatchers };
export type { ReceivedOptions, RequestMatch, SandboxMatchers } from './matchers.js';
