// A stand-in for the testcontainers package where no Docker engine runs: GenericContainer.start()
// runs the image's command (support/ci-image.ts) on a free port standing for the mapped one, and
// waits as the recipe's wait strategy says. It records what the recipe asked for.
import { freePort, IMAGE, runImage } from '../ci-image.js';

class HttpWaitStrategy {
  status = 200;
  constructor(
    readonly path: string,
    readonly port: number,
  ) {}
  forStatusCode(status: number): this {
    this.status = status;
    return this;
  }
}

export const Wait = { forHttp: (path: string, port: number) => new HttpWaitStrategy(path, port) };

export interface StartedTestContainer {
  getHost(): string;
  getMappedPort(port: number): number;
  stop(): Promise<void>;
}

/** Every container a recipe started, with what it asked for. */
export const started: { image: string; exposed: number[]; wait?: HttpWaitStrategy; stopped: boolean }[] = [];

export class GenericContainer {
  private exposed: number[] = [];
  private wait: HttpWaitStrategy | undefined;
  constructor(readonly image: string) {}

  withExposedPorts(...ports: number[]): this {
    this.exposed = ports;
    return this;
  }

  withWaitStrategy(wait: HttpWaitStrategy): this {
    this.wait = wait;
    return this;
  }

  async start(): Promise<StartedTestContainer> {
    const record = { image: this.image, exposed: this.exposed, wait: this.wait, stopped: false };
    started.push(record);
    if (!this.exposed.includes(IMAGE.port)) throw new Error(`the image listens on ${IMAGE.port}; exposed: ${this.exposed.join(', ')}`);
    const port = await freePort();
    const run = runImage({ port });
    const wait = this.wait ?? new HttpWaitStrategy('/', IMAGE.port);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${port}${wait.path}`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === wait.status) break;
      if (Date.now() > deadline) throw new Error(`no ${wait.status} from ${wait.path}:\n${run.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {
      getHost: () => '127.0.0.1',
      getMappedPort: (p) => {
        if (p !== wait.port || !this.exposed.includes(p)) throw new Error(`port ${p} is not exposed`);
        return port;
      },
      stop: async () => {
        await run.stop();
        record.stopped = true;
      },
    };
  }
}
