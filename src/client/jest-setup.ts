// payments-sandbox/jest: registers the sandbox's matchers with Jest's global expect and types them
// for @types/jest. Add it to setupFilesAfterEnv in jest.config, or require it from a test file.
// It works in Jest's default CommonJS mode (a require condition) and under its ES module support.
import { sandboxMatchers, type SandboxMatchers } from './matchers.js';

interface JestExpect {
  extend(matchers: Record<string, unknown>): void;
}
const jestExpect = (globalThis as { expect?: JestExpect }).expect;
if (typeof jestExpect?.extend !== 'function') {
  throw new Error("payments-sandbox/jest: no global expect; load it from Jest's setupFilesAfterEnv or a test file");
}
jestExpect.extend(sandboxMatchers);

declare global {
  namespace jest {
    // @types/jest declares Matchers<R, T = {}>; a merged declaration must have the same parameters.
    interface Matchers<R, T = {}> extends SandboxMatchers<R> {}
  }
}

export { sandboxMatchers };
export type { ReceivedOptions, RequestMatch, SandboxMatchers } from './matchers.js';
