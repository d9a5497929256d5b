// docs/ci.md: every recipe parses (YAML, TypeScript, Python), and the names in it (image, port,
// health path, command, environment, package entry) are the ones the Dockerfile and the package have.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseCli } from '../src/cli.js';
import { ENV_NAMES } from '../src/config.js';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const pkg = JSON.parse(read('package.json')) as { name: string; version: string; bin: Record<string, string>; exports: Record<string, unknown> };
const dockerfile = read('Dockerfile');
const doc = read('docs/ci.md');

/** What the image is: from the Dockerfile's runtime stage. */
const image = {
  port: Number(/^EXPOSE (\d+)$/m.exec(dockerfile)![1]),
  health: /HEALTHCHECK[\s\S]*?(\/_sandbox\/health)/.exec(dockerfile)?.[1],
  cmd: JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]) as string[],
  volume: (JSON.parse(/^VOLUME (\[.*\])$/m.exec(dockerfile)![1]) as string[])[0],
};
const IMAGE = new RegExp(`^[a-z0-9.-]+(/[a-z0-9._-]+)+/${pkg.name}:${pkg.version.replaceAll('.', '\\.')}$`);

/** The fenced block of a language in the section under a heading. */
function block(heading: string, lang: string): string {
  const start = doc.indexOf(`${heading}\n`);
  expect(start, `docs/ci.md has a section '${heading}'`).toBeGreaterThanOrEqual(0);
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(doc.slice(start));
  expect(m, `'${heading}' has a ${lang} block`).not.toBeNull();
  return m![1];
}

/** Every SANDBOX_* variable a text sets is one the sandbox reads. */
function sandboxVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\b(SANDBOX_[A-Z_]+)\b/g)].map((m) => m[1]))].filter((v) => !['SANDBOX_URL', 'SANDBOX_KEY'].includes(v));
}

describe('docs/ci.md', () => {
  it('knows the image it describes: port, health check, command and volume from the Dockerfile', () => {
    expect(image).toEqual({ port: 4010, health: '/_sandbox/health', cmd: ['node', '--max-semi-space-size=16', '--no-allocation-site-pretenuring', 'dist/main.js'], volume: '/data' });
    expect(pkg.bin[pkg.name]).toBe(image.cmd.at(-1));
    expect(doc).toContain(`npx ${pkg.name} --port ${image.port}`);
    expect(doc).toContain(`docker build -t ghcr.io/your-org/${pkg.name}:${pkg.version} .`);
  });

  it('GitHub Actions: the image as a service container with a health check', () => {
    const wf = parse(block('## GitHub Actions: a service container', 'yaml'));
    const service = wf.jobs.integration.services.sandbox;
    expect(service.image).toMatch(IMAGE);
    expect(service.ports).toEqual([`${image.port}:${image.port}`]);
    expect(service.options).toMatch(/--health-interval 2s/);
    expect(Object.keys(service.env).every((k) => k in ENV_NAMES)).toBe(true);
    expect(wf.jobs.integration.env.SANDBOX_URL).toBe(`http://localhost:${image.port}`);
    expect(wf.jobs.integration.env.SANDBOX_KEY).toMatch(/^sk_test_/);
    expect(wf.jobs.integration.steps.map((s: { run?: string }) => s.run)).toContain(`curl -fsS "$SANDBOX_URL${image.health}"`);
  });

  it('GitLab CI: the image as a service, waited for by its health', () => {
    const ci = parse(block('## GitLab CI: a service', 'yaml'));
    const [service] = ci.integration.services;
    expect(service.name).toMatch(IMAGE);
    expect(ci.integration.variables.SANDBOX_URL).toBe(`http://${service.alias}:${image.port}`);
    expect(Object.keys(service.variables).every((k) => k in ENV_NAMES)).toBe(true);
    expect(ci.integration.script[0]).toContain(`curl -fsS "$SANDBOX_URL${image.health}"`);
  });

  it('compose.yaml: the image with its own command plus flags the CLI accepts, on its volume, awaited healthy', () => {
    const compose = parse(block('## Docker Compose, for local use', 'yaml'));
    const sandbox = compose.services.sandbox;
    expect(sandbox.image).toMatch(IMAGE);
    expect(sandbox.command.slice(0, image.cmd.length)).toEqual(image.cmd);
    const cli = parseCli(sandbox.command.slice(image.cmd.length), sandbox.environment);
    expect(cli).toMatchObject({ name: 'serve', config: { data: image.volume, seed: 42 } });
    expect(sandbox.ports).toEqual([`${image.port}:${image.port}`]);
    expect(sandbox.volumes).toEqual([`sandbox-data:${image.volume}`]);
    expect(compose.services.app.depends_on.sandbox.condition).toBe('service_healthy');
    expect(compose.services.app.environment.PAYMENTS_API_URL).toBe(`http://sandbox:${image.port}`);
  });

  it('sets only environment variables the sandbox reads', () => {
    expect(sandboxVariables(doc).filter((v) => !(v in ENV_NAMES))).toEqual([]);
    expect(sandboxVariables(doc)).toContain('SANDBOX_SEED');
  });

  it('Testcontainers for Node: valid TypeScript, the image, the port, the health wait and the client entry', () => {
    const code = block('### Node (testcontainers)', 'ts');
    const { diagnostics } = ts.transpileModule(code, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } });
    expect(diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
    expect(/new GenericContainer\('([^']+)'\)/.exec(code)?.[1]).toMatch(IMAGE);
    expect(code).toContain(`.withExposedPorts(${image.port})`);
    expect(code).toContain(`Wait.forHttp('${image.health}', ${image.port})`);
    expect(code).toContain(`from '${pkg.name}/client'`);
    expect(pkg.exports).toHaveProperty('./client');
  });

  it('Testcontainers for Java: the image, the port and the health wait', () => {
    const code = block('### Java (Testcontainers, JUnit 5)', 'java');
    expect(/DockerImageName\.parse\("([^"]+)"\)/.exec(code)?.[1]).toMatch(IMAGE);
    expect(code).toContain(`.withExposedPorts(${image.port})`);
    expect(code).toContain(`Wait.forHttp("${image.health}").forPort(${image.port}).forStatusCode(200)`);
    expect(code.split('{').length).toBe(code.split('}').length);
  });

  it('Testcontainers for Python: valid Python, the image, the port and the health wait', () => {
    const code = block('### Python (testcontainers, pytest)', 'python');
    const check = spawnSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: code, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    expect(/DockerContainer\("([^"]+)"\)/.exec(code)?.[1]).toMatch(IMAGE);
    expect(code).toContain(`.with_exposed_ports(${image.port})`);
    expect(code).toContain(`HttpWaitStrategy(${image.port}, "${image.health}")`);
  });
});
