// A real sandbox process on port 0, for end-to-end tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';

/** A valid sandbox-mode payout request. */
export const payout = (reference: string) => ({
  reference,
  amount: 2500,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});

export interface RunningServer {
  url: string;
  proc: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServer(
  args: string[] = [],
  env: Record<string, string> = {},
  opts: { maxOpenFiles?: number } = {},
): Promise<RunningServer> {
  const command = [process.execPath, 'dist/main.js', '--port', '0', ...args];
  // With a limit, the process runs under a shell's `ulimit -n`, as on a host with few files allowed.
  const [file, ...argv] = opts.maxOpenFiles ? ['sh', '-c', `ulimit -n ${opts.maxOpenFiles} && exec "$@"`, 'sh', ...command] : command;
  const proc = spawn(file, argv, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 10_000);
    const onData = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.stdout!.on('data', onData);
    proc.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening:\n${out}`));
    });
  });
  return {
    url,
    proc,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
  };
}

export async function waitExit(s: RunningServer): Promise<string> {
  await new Promise((r) => (s.proc.exitCode !== null ? r(null) : s.proc.on('exit', r)));
  return s.output();
}

/** For a test file: start servers that are killed when their test ends. */
export function serversPerTest(): (args?: string[]) => Promise<RunningServer> {
  let running: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(running.map((s) => s.stop('SIGKILL')));
    running = [];
  });
  return async (args = []) => {
    const s = await startServer(args);
    running.push(s);
    return s;
  };
}
