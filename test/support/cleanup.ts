// Work to undo after the current test (servers to close). The hook that runs it is registered by
// test/support/setup.ts, a setup file, so it is in force in every test file: a hook registered when a
// support module is first imported would serve only the first file of a worker, since modules are
// shared across files (isolate: false).
const pending: (() => unknown)[] = [];

export function afterThisTest(fn: () => unknown): void {
  pending.push(fn);
}

export async function runCleanups(): Promise<void> {
  for (const fn of pending.splice(0)) await fn();
}
