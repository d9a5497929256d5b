// @ts-check
module.exports = async function globalTeardown() {
  const proc = /** @type {{ sandbox?: import('node:child_process').ChildProcess }} */ (globalThis).sandbox;
  if (proc && proc.exitCode === null) {
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    await exited;
  }
};
