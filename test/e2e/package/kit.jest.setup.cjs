// @ts-check
// Jest's globalSetup for kit.jest.cjs: the installed command on a free port with --clock, its URL in
// SANDBOX_URL for the tests; kit.jest.teardown.cjs stops it.
const { spawn } = require('node:child_process');
const path = require('node:path');

module.exports = async function globalSetup() {
  const main = path.join(path.dirname(require.resolve('payments-sandbox/package.json')), 'dist/main.js');
  const proc = spawn(process.execPath, [main, '--port', '0', '--clock', '2001-02-03T04:05:06Z'], { stdio: ['ignore', 'pipe', 'pipe'] });
  /** @type {{ sandbox?: import('node:child_process').ChildProcess }} */ (globalThis).sandbox = proc;
  process.env.SANDBOX_URL = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start:\n${out}`)), 30_000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) (clearTimeout(timer), resolve(m[1]));
    });
    proc.stderr.on('data', (d) => (out += d));
    proc.on('exit', () => reject(new Error(`the sandbox exited:\n${out}`)));
  });
};
