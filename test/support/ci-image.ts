// The repository's image without a Docker engine, for the CI recipes' tests: what the Dockerfile's
// runtime stage runs (its CMD, with a recipe's flags and environment), on a free port of 127.0.0.1
// standing for the container's mapped port, and its HEALTHCHECK command run as Docker runs it.
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const run = promisify(execFile);

/** The runtime stage: port, health check command, command and volume. */
export const IMAGE = {
  port: Number(/^EXPOSE (\d+)$/m.exec(dockerfile)![1]),
  health: /^HEALTHCHECK[^\n]*\\\n\s*CMD (.+)$/m.exec(dockerfile)![1],
  cmd: JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]) as string[],
  volume: (JSON.parse(/^VOLUME (\[.*\])$/m.exec(dockerfile)![1]) as string[])[0],
  /** The ENV line's settings (NODE_ENV, HOST, PORT). */
  env: Object.fromEntries([.../^ENV (.+)$/m.exec(dockerfile)![1].matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]])) as Record<string, string>,
};

/** The image's command as this machine runs it: its node, the checkout's dist/main.js. */
export function imageCommand(args: readonly string[] = []): string[] {
  const [node, ...rest] = IMAGE.cmd;
  if (node !== 'node') throw new Error(`the image's CMD starts with ${node}, not node`);
  return [process.execPath, ...rest.map((a) => (a.startsWith('dist/') ? path.join(ROOT, a) : a)), ...args];
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ImageRun {
  port: number;
  output(): string;
  /** SIGTERM, as `docker stop`, and wait for the exit. */
  stop(): Promise<void>;
}

/**
 * Start the image's command. `args` replace nothing: they follow the CMD as a compose `command` that
 * repeats it, or `docker run IMAGE args` would; `env` is the container's environment over the
 * image's ENV, with HOST=127.0.0.1 (the image's 0.0.0.0 is for its own network namespace) and PORT
 * the free port standing for the mapped one.
 */
export function runImage(opts: { port: number; args?: readonly string[]; env?: Record<string, string> }): ImageRun {
  const [file, ...argv] = imageCommand(opts.args);
  const proc = spawn(file, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...IMAGE.env, HOST: '127.0.0.1', ...opts.env, PORT: String(opts.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    port: opts.port,
    output: () => out,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** Run the Dockerfile's HEALTHCHECK command every `intervalMs` until it passes, failing after `retries` failures. */
export async function awaitHealthy(run_: ImageRun, opts: { intervalMs: number; retries: number }): Promise<number> {
  const env = { ...process.env, PORT: String(run_.port), PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}` };
  for (let failures = 0; ; ) {
    const ok = await run('sh', ['-c', IMAGE.health], { env, timeout: 3000 }).then(
      () => true,
      () => false,
    );
    if (ok) return failures;
    if (++failures > opts.retries) throw new Error(`unhealthy after ${failures} checks:\n${run_.output()}`);
    await new Promise((resolve) => setTimeout(resolve, opts.intervalMs));
  }
}
