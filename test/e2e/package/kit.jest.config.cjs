// Jest in its default CommonJS mode for kit.jest.cjs: the sandbox from the command, the matchers registered.
module.exports = {
  testMatch: ['**/kit.jest.cjs'],
  globalSetup: './kit.jest.setup.cjs',
  globalTeardown: './kit.jest.teardown.cjs',
  setupFilesAfterEnv: ['payments-sandbox/jest'],
  testTimeout: 20000,
};
