// A real sandbox process on port 0, for end-to-end tests.
import { spawn, type ChildProcess } from 'node:child_process';

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
