// The scenarios a server knows: the bundled ones in scenarios/ and the start default (a bundled
// name or a file given with --scenario). Loaded once, at boot.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadScenarioDir, loadScenarioFile, ScenarioError, type LoadedScenario } from './scenario.load.js';
import type { ScenarioFormat } from './scenario.schema.js';

/** scenarios/ of the repository, found from src/engine/scenario/ (tests), dist/ (the built server) or a bundle one folder below it (the bench). */
export function bundledDir(): string {
  for (const rel of ['../scenarios/', '../../scenarios/', '../../../scenarios/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}default.yaml`)) return dir;
  }
  throw new Error('The bundled scenarios/ directory was not found next to the server; reinstall the package.');
}

/** The bundled scenarios as each format read them (one format per domain list, nearly always one). */
const bundledCache = new WeakMap<ScenarioFormat, Map<string, LoadedScenario>>();

export function loadBundled(format: ScenarioFormat, dir?: string): Map<string, LoadedScenario> {
  if (dir) return loadScenarioDir(dir, format, 'bundled');
  let bundled = bundledCache.get(format);
  if (!bundled) bundledCache.set(format, (bundled = loadScenarioDir(bundledDir(), format, 'bundled')));
  return bundled;
}

export class ScenarioRegistry {
  private readonly byName: Map<string, LoadedScenario>;

  constructor(
    /** The format every scenario of this registry was checked against; inline ones are checked by it too. */
    readonly format: ScenarioFormat,
    readonly bundled: ReadonlyMap<string, LoadedScenario>,
    /** The scenario every tenant uses until it chooses another. */
    readonly startDefault: LoadedScenario,
  ) {
    this.byName = new Map(bundled);
    this.byName.set(startDefault.name, startDefault);
  }

  /** `spec` is a bundled name or a path to a YAML or JSON file. */
  static load(spec: string, format: ScenarioFormat, bundled = loadBundled(format)): ScenarioRegistry {
    const named = bundled.get(spec);
    if (named) return new ScenarioRegistry(format, bundled, named);
    if (/[/\\]|\.(ya?ml|json)$/i.test(spec) || existsSync(spec)) return new ScenarioRegistry(format, bundled, loadScenarioFile(spec, format));
    throw new ScenarioError(spec, [
      { path: '', message: `no bundled scenario has this name (${[...bundled.keys()].join(', ')}) and no such file exists` },
    ]);
  }

  get(name: string): LoadedScenario | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()].sort();
  }
}
